package main

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/go/mldsa"
)

// TestStreamedSignatures checks that sign's streamed μ gives the
// library's signatures, for ML-DSA and every pre-hash of HashML-DSA, from
// a file and from standard input, for a message that spans several reads.
func TestStreamedSignatures(t *testing.T) {
	dir := t.TempDir()
	msgData := make([]byte, 2*streamBuffer+12345)
	for i := range msgData {
		msgData[i] = byte(i * 7)
	}
	msg := filepath.Join(dir, "msg")
	writeFile(t, msg, msgData)
	for _, ps := range paramSets {
		key := filepath.Join(dir, ps.name)
		mustRun(t, "keygen", "-params", ps.name, "-out", key)
		keyData, _ := os.ReadFile(key)
		sk, err := parsePrivateKey(keyData, nil)
		if err != nil {
			t.Fatal(err)
		}
		opts := &mldsa.Options{Context: "stream"}
		want, _ := sk.SignDeterministic(msgData, opts)
		check := func(what string, want []byte, extra ...string) {
			t.Helper()
			for _, in := range []string{msg, "-"} {
				args := append([]string{"sign", "-key", key, "-in", in, "-deterministic", "-format", "hex", "-context", "stream"}, extra...)
				var stdin string
				if in == "-" {
					stdin = string(msgData)
				}
				r := vg(t, stdin, args...)
				if r.code != 0 || r.out != hex.EncodeToString(want)+"\n" {
					t.Errorf("%s, %s, -in %s: the signature differs from the library's (%s)", ps.name, what, in, r.err)
				}
			}
		}
		check("ML-DSA", want)
		if ps.name != "ML-DSA-65" {
			continue
		}
		for _, info := range preHashes {
			want, err := sk.HashSignDeterministic(msgData, info.ph, opts)
			if err == nil {
				check(info.ph.String(), want, "-prehash", info.ph.String())
				continue
			}
			// Too weak for ML-DSA-65: sign refuses it as HashSign does,
			// and verify accepts a signature made with it.
			r := vg(t, "", "sign", "-key", key, "-in", msg, "-prehash", info.ph.String())
			if r.code == 0 || !strings.Contains(r.err, "too weak") || !strings.Contains(r.err, "needs 192") {
				t.Errorf("%s, %s: sign exits %d, %q; want refused as too weak", ps.name, info.ph, r.code, r.err)
			}
			f, _ := os.Open(msg)
			μ, err := messageMu(f, sk.PublicKey(), "stream", &info)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			sig, _ := sk.SignMuDeterministic(μ[:])
			sigFile := filepath.Join(dir, "weak.sig")
			writeFile(t, sigFile, sig)
			pub := filepath.Join(dir, "weak.pub")
			pubDER, _ := marshalSPKI(sk.PublicKey())
			writeFile(t, pub, pubDER)
			r = vg(t, "", "verify", "-pub", pub, "-in", msg, "-sig", sigFile, "-context", "stream", "-prehash", info.ph.String())
			if r.code != 0 {
				t.Errorf("%s, %s: verify exits %d (%s), want 0", ps.name, info.ph, r.code, r.err)
			}
		}
	}
}

func TestPreHashNames(t *testing.T) {
	for name, want := range map[string]mldsa.PreHash{
		"SHA2-256": mldsa.SHA256, "SHA-256": mldsa.SHA256, "sha256": mldsa.SHA256, "sha2_256": mldsa.SHA256,
		"SHA-224": mldsa.SHA224, "SHA-384": mldsa.SHA384, "sha512": mldsa.SHA512, "SHA2-512": mldsa.SHA512,
		"SHA-512/224": mldsa.SHA512_224, "sha512-224": mldsa.SHA512_224, "SHA2-512/256": mldsa.SHA512_256, "sha512_256": mldsa.SHA512_256,
		"SHA3-224": mldsa.SHA3_224, "sha3-256": mldsa.SHA3_256, "SHA3_384": mldsa.SHA3_384, "sha3512": mldsa.SHA3_512,
		"SHAKE-128": mldsa.SHAKE128, "shake128": mldsa.SHAKE128, "SHAKE256": mldsa.SHAKE256, "shake-256": mldsa.SHAKE256,
	} {
		got, err := preHashByName(name)
		if err != nil || got.ph != want {
			t.Errorf("preHashByName(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
	for _, name := range []string{"", "MD5", "SHA-1", "SHA1", "SHA3", "SHAKE", "SHA-2", "SHA2", "SHA512/384", "BLAKE2b-512"} {
		if got, err := preHashByName(name); err == nil {
			t.Errorf("preHashByName(%q) = %v, want an error", name, got.ph)
		}
	}
}

// TestSignatureSizeTells checks that verify names the parameter set whose
// signatures have the size of a signature that does not fit the key.
func TestSignatureSizeTells(t *testing.T) {
	for i, ps := range paramSets {
		other := paramSets[(i+1)%len(paramSets)]
		msg := signatureSizeProblem(other.params.SignatureSize(), ps.params)
		if !strings.Contains(msg, other.name+" signatures") {
			t.Errorf("%s signature checked with a %s key: %q", other.name, ps.name, msg)
		}
	}
}
