package bench

// Differential fuzzing: vg, filippo.io/mldsa and circl must agree on every
// input, and where the peers offer nothing to compare (HashML-DSA, the
// checks of an expanded private key) vg must agree with Spec/fips204. A
// disagreement fails the target, and `go test -fuzz` saves the input under
// testdata/fuzz/<target>/. vg's code path is the one this binary was built
// for: run the targets once per path (tools/fuzz.sh does: default, which is
// AVX-512 on a CPU with AVX512F and AVX512VL and AVX2 on one with AVX2 only,
// -tags cpu_features_env with VG_CPU_FEATURES=none, -tags purego; the AVX2
// path on an AVX-512 CPU needs VG_CPU_FEATURES=avx2). The seed
// corpora come from the Wycheproof files in $VG_VECTORS (default
// ../../shared/vectors), read when the test starts.

import (
	"bytes"
	"crypto/sha3"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	fmldsa "filippo.io/mldsa"
	"github.com/vg-crypto/vg/Spec/fips204"
	vgmldsa "github.com/vg-crypto/vg/go/mldsa"
)

// diffSet is one parameter set in each implementation.
type diffSet struct {
	kl    string // "44", "65", "87"
	vg    vgmldsa.Parameters
	fp    fmldsa.Parameters
	spec  fips204.Params
	circl circlDiff
	ηBits int
	γ1    int
}

// circlDiff is what the targets need of circl, whose three packages have
// one API on distinct types.
type circlDiff interface {
	parsePK(pk []byte) error
	verifyCtx(pk, msg, ctx, sig []byte) (bool, error)
	// expanded unpacks an expanded private key and returns its encoding
	// packed again and the deterministic signature of msg.
	expanded(sk, msg []byte) (repacked, sig []byte, err error)
}

func (c circlScheme[PK, SK]) parsePK(pk []byte) error { return c.pkUnmarshal(new(PK), pk) }

func (c circlScheme[PK, SK]) verifyCtx(pk, msg, ctx, sig []byte) (bool, error) {
	k := new(PK)
	if err := c.pkUnmarshal(k, pk); err != nil {
		return false, err
	}
	return c.verify(k, msg, ctx, sig), nil
}

func (c circlScheme[PK, SK]) expanded(b, msg []byte) ([]byte, []byte, error) {
	sk := new(SK)
	if err := c.skUnmarshal(sk, b); err != nil {
		return nil, nil, err
	}
	sig := make([]byte, c.sigSize)
	if err := c.signTo(sk, msg, nil, false, sig); err != nil {
		return nil, nil, err
	}
	return c.skBytes(sk), sig, nil
}

var diffSets = []diffSet{
	{"44", vgmldsa.MLDSA44(), fmldsa.MLDSA44(), fips204.MLDSA44, circl44, 3, 1 << 17},
	{"65", vgmldsa.MLDSA65(), fmldsa.MLDSA65(), fips204.MLDSA65, circl65, 4, 1 << 19},
	{"87", vgmldsa.MLDSA87(), fmldsa.MLDSA87(), fips204.MLDSA87, circl87, 3, 1 << 19},
}

func pickSet(set uint8) diffSet { return diffSets[int(set&0x3F)%len(diffSets)] }

// fit pads or truncates b to n bytes, unless keep (the fuzzer's choice to
// try wrong lengths too).
func fit(b []byte, n int, keep bool) []byte {
	if keep {
		return b
	}
	out := make([]byte, n)
	copy(out, b)
	return out
}

// setBits writes the width low bits of v at bit offset off of b
// (little-endian bit order, as FIPS 204's BitPack).
func setBits(b []byte, off, width int, v uint32) {
	for i := 0; i < width; i++ {
		byteIdx, bit := (off+i)/8, uint((off+i)%8)
		if byteIdx >= len(b) {
			return
		}
		b[byteIdx] = b[byteIdx]&^(1<<bit) | byte(v>>i&1)<<bit
	}
}

// mutateSig applies one structured mutation (mode) to a signature of the
// right length: z coefficients at or past the bound γ1 − β, malformed
// hints, a flipped bit.
func mutateSig(s diffSet, sig []byte, mode uint8, pos, val uint32) {
	p := s.spec
	if len(sig) != p.SignatureSize {
		return
	}
	cTilde := p.Lambda / 4
	zBits := 1 + bitlen(p.Gamma1-1)
	hint := sig[p.SignatureSize-p.Omega-p.K:]
	switch mode % 6 {
	case 1: // z near or past ±(γ1 − β): packed γ1 − z within β + 2 of 0 or 2γ1
		x := val % uint32(p.Beta+2)
		if val&0x80000000 != 0 {
			x = uint32(2*p.Gamma1) - 1 - x
		}
		setBits(sig[cTilde:], int(pos%uint32(p.L*256))*zBits, zBits, x)
	case 2: // a hint count byte
		hint[p.Omega+int(pos%uint32(p.K))] = byte(val)
	case 3: // a hint index byte
		hint[int(pos%uint32(p.Omega))] = byte(val)
	case 4: // two hint index bytes swapped
		i, j := int(pos%uint32(p.Omega)), int(val%uint32(p.Omega))
		hint[i], hint[j] = hint[j], hint[i]
	case 5: // a flipped bit anywhere
		sig[int(pos/8%uint32(len(sig)))] ^= 1 << (pos % 8)
	}
}

func bitlen(x int) int {
	n := 0
	for ; x > 0; x >>= 1 {
		n++
	}
	return n
}

// Seed corpora, from the Wycheproof files.

type wycheproofFile struct {
	TestGroups []struct {
		PublicKey   string `json:"publicKey"`
		PrivateKey  string `json:"privateKey"`
		PrivateSeed string `json:"privateSeed"`
		Tests       []struct {
			Msg string `json:"msg"`
			Sig string `json:"sig"`
			Ctx string `json:"ctx"`
		} `json:"tests"`
	} `json:"testGroups"`
}

func vectorDir(t testing.TB) string {
	if d := os.Getenv("VG_VECTORS"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "shared", "vectors")
}

// readWycheproof reads wycheproof/mldsa_<kl>_<kind>_test.json; without
// the vectors the target skips, or fails under CI=true.
func readWycheproof(t testing.TB, kl, kind string) *wycheproofFile {
	path := filepath.Join(vectorDir(t), "wycheproof", "mldsa_"+kl+"_"+kind+"_test.json")
	data, err := os.ReadFile(path)
	if err != nil {
		msg := "seed corpus: " + err.Error() + " (set VG_VECTORS)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	var w wycheproofFile
	if err := json.Unmarshal(data, &w); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &w
}

func unhex(t testing.TB, s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// verifySeeds adds every Wycheproof verify case of every set, each with
// mode 0 (as it is) and one structured mutation.
func verifySeeds(f *testing.F, add func(set uint8, pk, msg, sig, ctx []byte, mode uint8, pos, val uint32)) {
	for i, s := range diffSets {
		w := readWycheproof(f, s.kl, "verify")
		n := 0
		for _, g := range w.TestGroups {
			pk := unhex(f, g.PublicKey)
			for _, tc := range g.Tests {
				msg, sig, ctx := unhex(f, tc.Msg), unhex(f, tc.Sig), unhex(f, tc.Ctx)
				add(uint8(i), pk, msg, sig, ctx, 0, 0, 0)
				add(uint8(i), pk, msg, sig, ctx, uint8(1+n%5), uint32(n*7919), uint32(n*104729))
				n++
			}
		}
	}
}

func FuzzNewPublicKey(f *testing.F) {
	for i, s := range diffSets {
		for _, g := range readWycheproof(f, s.kl, "verify").TestGroups {
			f.Add(uint8(i), unhex(f, g.PublicKey))
		}
	}
	f.Fuzz(func(t *testing.T, set uint8, pk []byte) {
		s := pickSet(set)
		pk = fit(pk, s.spec.PublicKeySize, set&0x80 != 0)
		vk, vErr := vgmldsa.NewPublicKey(s.vg, pk)
		fk, fErr := fmldsa.NewPublicKey(s.fp, pk)
		cErr := s.circl.parsePK(pk)
		if (vErr == nil) != (fErr == nil) || (vErr == nil) != (cErr == nil) {
			t.Fatalf("ML-DSA-%s public key of %d bytes: vg %v, filippo %v, circl %v", s.kl, len(pk), vErr, fErr, cErr)
		}
		if vErr == nil && (!bytes.Equal(vk.Bytes(), pk) || !bytes.Equal(fk.Bytes(), pk)) {
			t.Fatalf("ML-DSA-%s public key does not encode back to its bytes", s.kl)
		}
	})
}

func FuzzVerify(f *testing.F) {
	verifySeeds(f, func(set uint8, pk, msg, sig, ctx []byte, mode uint8, pos, val uint32) {
		f.Add(set, pk, msg, sig, ctx, mode, pos, val)
	})
	f.Fuzz(func(t *testing.T, set uint8, pk, msg, sig, ctx []byte, mode uint8, pos, val uint32) {
		s := pickSet(set)
		pk = fit(pk, s.spec.PublicKeySize, set&0x80 != 0)
		sig = fit(sig, s.spec.SignatureSize, set&0x40 != 0)
		mutateSig(s, sig, mode, pos, val)
		vk, vErr := vgmldsa.NewPublicKey(s.vg, pk)
		fk, fErr := fmldsa.NewPublicKey(s.fp, pk)
		cOK, cErr := s.circl.verifyCtx(pk, msg, ctx, sig)
		if (vErr == nil) != (fErr == nil) || (vErr == nil) != (cErr == nil) {
			t.Fatalf("ML-DSA-%s public key of %d bytes: vg %v, filippo %v, circl %v", s.kl, len(pk), vErr, fErr, cErr)
		}
		if vErr != nil {
			return
		}
		vRes := vgmldsa.Verify(vk, msg, sig, &vgmldsa.Options{Context: string(ctx)})
		fRes := fmldsa.Verify(fk, msg, sig, &fmldsa.Options{Context: string(ctx)})
		if (vRes == nil) != (fRes == nil) || (vRes == nil) != cOK {
			t.Fatalf("ML-DSA-%s Verify (signature %d bytes, context %d bytes, mutation %d): vg %v, filippo %v, circl accepts: %v",
				s.kl, len(sig), len(ctx), mode%6, vRes, fRes, cOK)
		}
	})
}

// FuzzHashVerify compares vg's HashVerify with Spec/fips204's
// HashML-DSA.Verify (Algorithm 5) for each of the twelve pre-hashes:
// neither filippo.io/mldsa nor circl implements HashML-DSA. The seeds are
// the Wycheproof verify cases' keys and messages with HashML-DSA
// signatures that vg makes of them.
func FuzzHashVerify(f *testing.F) {
	for i, s := range diffSets {
		w := readWycheproof(f, s.kl, "sign_seed")
		for gi, g := range w.TestGroups {
			if len(g.Tests) == 0 {
				continue
			}
			sk, err := vgmldsa.NewPrivateKey(s.vg, unhex(f, g.PrivateSeed))
			if err != nil {
				continue // a group of invalid seeds
			}
			msg := unhex(f, g.Tests[0].Msg)
			ph := uint8(gi % 12)
			for vgmldsa.PreHash(ph+1).CheckStrength(s.vg) != nil {
				ph = (ph + 1) % 12 // a pre-hash HashSign accepts for the set
			}
			sig, err := sk.HashSignDeterministic(msg, vgmldsa.PreHash(ph+1), nil)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(uint8(i), sk.PublicKey().Bytes(), msg, sig, []byte{}, ph, uint8(0), uint32(0), uint32(0))
			f.Add(uint8(i), sk.PublicKey().Bytes(), msg, sig, []byte("ctx"), ph, uint8(1+gi%5), uint32(gi*7919), uint32(gi*104729))
		}
	}
	f.Fuzz(func(t *testing.T, set uint8, pk, msg, sig, ctx []byte, ph, mode uint8, pos, val uint32) {
		s := pickSet(set)
		pk = fit(pk, s.spec.PublicKeySize, set&0x80 != 0)
		sig = fit(sig, s.spec.SignatureSize, set&0x40 != 0)
		mutateSig(s, sig, mode, pos, val)
		ph %= 12
		vk, vErr := vgmldsa.NewPublicKey(s.vg, pk)
		if vErr != nil {
			if len(pk) == s.spec.PublicKeySize {
				t.Fatalf("vg rejects a public key of the right length: %v", vErr)
			}
			return
		}
		vRes := vgmldsa.HashVerify(vk, msg, sig, vgmldsa.PreHash(ph+1), &vgmldsa.Options{Context: string(ctx)})
		sOK, sErr := fips204.HashMLDSAVerify(s.spec, pk, msg, sig, ctx, fips204.PreHash(ph))
		if (vRes == nil) != (sOK && sErr == nil) {
			t.Fatalf("ML-DSA-%s HashVerify with %v (signature %d bytes, context %d bytes, mutation %d): vg %v, Spec %v, %v",
				s.kl, vgmldsa.PreHash(ph+1), len(sig), len(ctx), mode%6, vRes, sOK, sErr)
		}
	})
}

// FuzzNewPrivateKeyFromExpanded mutates expanded private keys (Wycheproof's
// sign_noseed keys): s1 and s2 fields set to any value, bits of t0, tr, ρ
// and K flipped. vg must accept exactly the keys that Spec/fips204's
// skDecode accepts (s1, s2 in [−η, η]) and whose t0 and tr are the ones
// that ρ, s1 and s2 give (which vg checks and FIPS 204 does not require);
// circl unpacks any key of the right length without checks, so for keys vg
// accepts, circl's unpacked key must pack back to the same bytes and sign
// as vg and Spec do. filippo.io/mldsa has no expanded keys.
func FuzzNewPrivateKeyFromExpanded(f *testing.F) {
	for i, s := range diffSets {
		w := readWycheproof(f, s.kl, "sign_noseed")
		for gi, g := range w.TestGroups {
			sk := unhex(f, g.PrivateKey)
			f.Add(uint8(i), sk, uint8(0), uint32(0), uint32(0))
			f.Add(uint8(i), sk, uint8(1+gi%4), uint32(gi*7919), uint32(gi*104729))
		}
	}
	msg := []byte("message")
	f.Fuzz(func(t *testing.T, set uint8, sk []byte, mode uint8, pos, val uint32) {
		s := pickSet(set)
		p := s.spec
		sk = fit(sk, p.PrivateKeySize, set&0x80 != 0)
		if len(sk) == p.PrivateKeySize {
			nS := (p.L + p.K) * 256
			switch mode % 5 {
			case 1: // an s1 or s2 field to any value
				setBits(sk[128:], int(pos%uint32(nS))*s.ηBits, s.ηBits, val)
			case 2: // a bit of t0
				off := 128 + nS*s.ηBits/8
				sk[off+int(pos%uint32(len(sk)-off))] ^= 1 << (val % 8)
			case 3: // a bit of tr
				sk[64+int(pos%64)] ^= 1 << (val % 8)
			case 4: // a bit of ρ or K
				sk[int(pos%64)] ^= 1 << (val % 8)
			}
		}
		key, vErr := vgmldsa.NewPrivateKeyFromExpanded(s.vg, sk)
		want := specExpandedValid(p, sk)
		if (vErr == nil) != (want == nil) {
			t.Fatalf("ML-DSA-%s expanded key (mutation %d): vg %v, Spec %v", s.kl, mode%5, vErr, want)
		}
		if vErr != nil {
			return
		}
		if !bytes.Equal(key.ExpandedBytes(), sk) {
			t.Fatalf("ML-DSA-%s: vg's key does not encode back to its bytes", s.kl)
		}
		vSig, err := key.SignDeterministic(msg, nil)
		if err != nil {
			t.Fatal(err)
		}
		repacked, cSig, err := s.circl.expanded(sk, msg)
		if err != nil {
			t.Fatalf("ML-DSA-%s: circl: %v", s.kl, err)
		}
		sSig, err := fips204.Sign(p, sk, msg, nil, make([]byte, 32))
		if err != nil {
			t.Fatalf("ML-DSA-%s: Spec: %v", s.kl, err)
		}
		if !bytes.Equal(repacked, sk) || !bytes.Equal(vSig, cSig) || !bytes.Equal(vSig, sSig) {
			t.Fatalf("ML-DSA-%s: an accepted expanded key: circl packs it back equal: %v; vg's signature equals circl's: %v, Spec's: %v",
				s.kl, bytes.Equal(repacked, sk), bytes.Equal(vSig, cSig), bytes.Equal(vSig, sSig))
		}
	})
}

// specExpandedValid is nil when Spec's skDecode (Algorithm 25) accepts sk
// and its t0 and tr are those of Algorithm 6, lines 5 to 9, for its ρ, s1
// and s2.
func specExpandedValid(p fips204.Params, sk []byte) error {
	rho, _, tr, s1, s2, t0, err := fips204.SkDecode(p, sk)
	if err != nil {
		return err
	}
	aHat := fips204.ExpandA(p, rho)
	s1Hat := make([]fips204.Poly, len(s1))
	for i := range s1 {
		s1Hat[i] = fips204.NTT(s1[i])
	}
	as1 := fips204.MatrixVectorNTT(aHat, s1Hat)
	t1 := make([]fips204.Poly, p.K)
	for i := 0; i < p.K; i++ {
		t := fips204.NTTInverse(as1[i])
		for j := range t {
			v := (int64(t[j]) + int64(s2[i][j])) % fips204.Q
			if v < 0 {
				v += fips204.Q
			}
			r1, r0 := fips204.Power2Round(int32(v))
			t1[i][j] = r1
			if r0 != t0[i][j] {
				return errors.New("t0 differs from Power2Round(t)")
			}
		}
	}
	h := sha3.SumSHAKE256(fips204.PkEncode(p, rho, t1), 64)
	if !bytes.Equal(h, tr) {
		return fmt.Errorf("tr differs from H(pk)")
	}
	return nil
}
