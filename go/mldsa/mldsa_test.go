package mldsa

import (
	"bytes"
	"crypto"
	"crypto/sha3"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

var _ crypto.Signer = (*PrivateKey)(nil)

var accumulated10k = flag.Bool("accumulated10k", false, "run the 10,000-iteration accumulated test")

// TestAccumulated derives n seeds from SHAKE128(""), and hashes into a
// second SHAKE128 each public key and the deterministic signature of the
// empty message with it. The digests were computed with Go 1.27's
// crypto/mldsa (an independent implementation); the 100 and 10,000
// iteration ones also appear in its own tests.
func TestAccumulated(t *testing.T) {
	runs := []struct {
		p    Parameters
		n    int
		want string
	}{
		{MLDSA44(), 100, "d51148e1f9f4fa1a723a6cf42e25f2a99eb5c1b378b3d2dbbd561b1203beeae4"},
		{MLDSA65(), 100, "8358a1843220194417cadbc2651295cd8fc65125b5a5c1a239a16dc8b57ca199"},
		{MLDSA87(), 100, "8c3ad714777622b8f21ce31bb35f71394f23bc0fcf3c78ace5d608990f3b061b"},
	}
	if !testing.Short() {
		runs = append(runs,
			struct {
				p    Parameters
				n    int
				want string
			}{MLDSA44(), 1000, "7434c9b35edb47bb57c78dabf6b98a2582e1013004054ac6dc6ee0e044663f4e"},
			struct {
				p    Parameters
				n    int
				want string
			}{MLDSA65(), 1000, "5cdf21d72d72a5a5af71e4028f87fa340679dc1a89b7bc123fdab45cb572e84b"},
			struct {
				p    Parameters
				n    int
				want string
			}{MLDSA87(), 1000, "842009cabe9aa4b4cf3cbb16f6428e5264da92b91ddc42270e5494b612cd9e1f"},
		)
	}
	if *accumulated10k {
		runs = append(runs,
			struct {
				p    Parameters
				n    int
				want string
			}{MLDSA44(), 10000, "e7fd21f6a59bcba60d65adc44404bb29a7c00e5d8d3ec06a732c00a306a7d143"},
			struct {
				p    Parameters
				n    int
				want string
			}{MLDSA65(), 10000, "5ff5e196f0b830c3b10a9eb5358e7c98a3a20136cb677f3ae3b90175c3ace329"},
			struct {
				p    Parameters
				n    int
				want string
			}{MLDSA87(), 10000, "80a8cf39317f7d0be0e24972c51ac152bd2a3e09bc0c32ce29dd82c4e7385e60"},
		)
	}
	for _, r := range runs {
		t.Run(r.p.String(), func(t *testing.T) {
			seeds, out := sha3.NewSHAKE128(), sha3.NewSHAKE128()
			seed := make([]byte, PrivateKeySize)
			for i := 0; i < r.n; i++ {
				seeds.Read(seed)
				sk, err := NewPrivateKey(r.p, seed)
				if err != nil {
					t.Fatal(err)
				}
				pk := sk.PublicKey().Bytes()
				out.Write(pk)
				sig, err := sk.SignDeterministic(nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				out.Write(sig)
				if i%10 == 0 {
					parsed, err := NewPublicKey(r.p, pk)
					if err != nil {
						t.Fatal(err)
					}
					if err := Verify(parsed, nil, sig, nil); err != nil {
						t.Fatal(err)
					}
				}
			}
			sum := make([]byte, 32)
			out.Read(sum)
			if got := hex.EncodeToString(sum); got != r.want {
				t.Errorf("%d iterations: got %s, want %s", r.n, got, r.want)
			}
		})
	}
}

// TestAPI checks sizes, names, Equal, Bytes and the round trips of every
// signing entry point.
func TestAPI(t *testing.T) {
	sizes := map[string][2]int{
		"ML-DSA-44": {MLDSA44PublicKeySize, MLDSA44SignatureSize},
		"ML-DSA-65": {MLDSA65PublicKeySize, MLDSA65SignatureSize},
		"ML-DSA-87": {MLDSA87PublicKeySize, MLDSA87SignatureSize},
	}
	rng := rand.New(rand.NewPCG(23, 24))
	for _, ps := range allParams {
		p := ps.p
		t.Run(p.String(), func(t *testing.T) {
			if p != ps.p || p == (Parameters{}) {
				t.Fatal("Parameters are not comparable values")
			}
			if want := sizes[p.String()]; p.PublicKeySize() != want[0] || p.SignatureSize() != want[1] {
				t.Fatalf("sizes %d, %d; want %v", p.PublicKeySize(), p.SignatureSize(), want)
			}
			if p.PublicKeySize() != ps.spec.PublicKeySize || p.SignatureSize() != ps.spec.SignatureSize || p.ExpandedPrivateKeySize() != ps.spec.PrivateKeySize {
				t.Fatal("sizes differ from Spec")
			}
			sk, err := GenerateKey(p)
			if err != nil {
				t.Fatal(err)
			}
			sk2, err := NewPrivateKey(p, sk.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			if !sk.Equal(sk2) || !sk.PublicKey().Equal(sk2.PublicKey()) || sk.PublicKey().Parameters() != p {
				t.Fatal("key from the same seed is not Equal")
			}
			sk3, err := NewPrivateKeyFromExpanded(p, sk.ExpandedBytes())
			if err != nil {
				t.Fatal(err)
			}
			if sk3.Bytes() != nil || !sk3.Equal(sk) || !sk.Equal(sk3) || !bytes.Equal(sk3.ExpandedBytes(), sk.ExpandedBytes()) {
				t.Fatal("expanded key round trip")
			}
			other, _ := GenerateKey(p)
			if sk.Equal(other) || sk.PublicKey().Equal(other.PublicKey()) || sk.Equal(other.PublicKey()) || sk.PublicKey().Equal(sk) {
				t.Fatal("different keys are Equal")
			}
			if _, ok := sk.Public().(*PublicKey); !ok {
				t.Fatal("Public does not return a *PublicKey")
			}
			pk := sk.PublicKey()
			msg := randBytes(rng, 100)
			opts := &Options{Context: "context"}
			sig, err := sk.Sign(nil, msg, opts)
			if err != nil || Verify(pk, msg, sig, opts) != nil {
				t.Fatal("Sign round trip", err)
			}
			if Verify(pk, msg, sig, nil) == nil || Verify(pk, msg[1:], sig, opts) == nil {
				t.Fatal("signature verifies with another context or message")
			}
			sig2, _ := sk.Sign(nil, msg, opts)
			if bytes.Equal(sig, sig2) {
				t.Fatal("hedged signatures repeat")
			}
			d1, _ := sk3.SignDeterministic(msg, nil)
			d2, _ := sk.SignDeterministic(msg, &Options{})
			if !bytes.Equal(d1, d2) || Verify(pk, msg, d1, nil) != nil {
				t.Fatal("deterministic signatures differ")
			}
			μ := computeMu(&pk.tr, 0, "", nil, msg)
			sm, err := sk.SignMu(μ[:])
			if err != nil || Verify(pk, msg, sm, nil) != nil || VerifyMu(pk, μ[:], sm) != nil {
				t.Fatal("SignMu round trip", err)
			}
			smd, _ := sk.SignMuDeterministic(μ[:])
			if !bytes.Equal(smd, d1) {
				t.Fatal("SignMuDeterministic differs from SignDeterministic")
			}
			for ph := SHA224; ph <= SHAKE256; ph++ {
				hs, err := sk.HashSign(msg, ph, opts)
				if ph.CollisionStrength() < p.p.λ {
					// Refused for signing; a signature made elsewhere verifies.
					if !errors.Is(err, ErrPreHashTooWeak) || hs != nil {
						t.Fatalf("HashSign %v with %v: %v, want ErrPreHashTooWeak", ph, p, err)
					}
					μ, err := hashMu(&pk.tr, msg, ph, opts)
					if err != nil {
						t.Fatal(err)
					}
					if hs, err = sk.signInternal(&μ, new([32]byte)); err != nil {
						t.Fatal(err)
					}
					if HashVerify(pk, msg, hs, ph, opts) != nil {
						t.Fatalf("HashVerify %v of a signature made without the policy", ph)
					}
					continue
				}
				if err != nil || HashVerify(pk, msg, hs, ph, opts) != nil {
					t.Fatalf("HashSign %v round trip: %v", ph, err)
				}
				if HashVerify(pk, msg, hs, ph%SHAKE256+1, opts) == nil || Verify(pk, msg, hs, opts) == nil {
					t.Fatalf("HashML-DSA signature with %v verifies otherwise", ph)
				}
				hd, _ := sk.HashSignDeterministic(msg, ph, nil)
				want, _ := sk.HashSignDeterministic(msg, ph, &Options{})
				if !bytes.Equal(hd, want) || HashVerify(pk, msg, hd, ph, nil) != nil {
					t.Fatalf("HashSignDeterministic %v", ph)
				}
			}
		})
	}
	names := map[PreHash]string{SHA224: "SHA2-224", SHA256: "SHA2-256", SHA384: "SHA2-384", SHA512: "SHA2-512",
		SHA512_224: "SHA2-512/224", SHA512_256: "SHA2-512/256", SHA3_224: "SHA3-224", SHA3_256: "SHA3-256",
		SHA3_384: "SHA3-384", SHA3_512: "SHA3-512", SHAKE128: "SHAKE-128", SHAKE256: "SHAKE-256"}
	for ph, name := range names {
		if ph.String() != name {
			t.Errorf("PreHash %d String = %q, want %q", int(ph), ph.String(), name)
		}
	}
}

type hashOpts crypto.Hash

func (h hashOpts) HashFunc() crypto.Hash { return crypto.Hash(h) }

// TestBadInput feeds wrong lengths, long contexts, bad options, malformed
// signatures and keys, nil and zero values: each must give an error, never
// a panic or a valid result.
func TestBadInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	expectErr := func(t *testing.T, what string, err error, contains string) {
		t.Helper()
		if err == nil {
			t.Errorf("%s: no error", what)
		} else if !strings.Contains(err.Error(), contains) {
			t.Errorf("%s: error %q does not mention %q", what, err, contains)
		}
	}
	for _, ps := range allParams {
		p := ps.p
		t.Run(p.String(), func(t *testing.T) {
			sk, _ := NewPrivateKey(p, make([]byte, 32))
			pk := sk.PublicKey()
			msg := []byte("message")
			sig, _ := sk.SignDeterministic(msg, nil)
			for _, n := range []int{0, 31, 33, 64} {
				_, err := NewPrivateKey(p, make([]byte, n))
				expectErr(t, "seed length", err, "seed length")
			}
			for _, n := range []int{0, p.PublicKeySize() - 1, p.PublicKeySize() + 1} {
				_, err := NewPublicKey(p, make([]byte, n))
				expectErr(t, "public key length", err, "public key length")
			}
			for _, n := range []int{0, p.ExpandedPrivateKeySize() - 1, p.ExpandedPrivateKeySize() + 1} {
				_, err := NewPrivateKeyFromExpanded(p, make([]byte, n))
				expectErr(t, "expanded key length", err, "length")
			}
			for _, n := range []int{0, p.SignatureSize() - 1, p.SignatureSize() + 1} {
				expectErr(t, "signature length", Verify(pk, msg, make([]byte, n), nil), "signature length")
				expectErr(t, "signature length", VerifyMu(pk, make([]byte, 64), make([]byte, n)), "signature length")
			}
			long := &Options{Context: strings.Repeat("x", 256)}
			_, err := sk.Sign(nil, msg, long)
			expectErr(t, "Sign context", err, "context too long")
			_, err = sk.SignDeterministic(msg, long)
			expectErr(t, "SignDeterministic context", err, "context too long")
			_, err = sk.HashSign(msg, SHAKE256, long)
			expectErr(t, "HashSign context", err, "context too long")
			expectErr(t, "Verify context", Verify(pk, msg, sig, long), "context too long")
			expectErr(t, "HashVerify context", HashVerify(pk, msg, sig, SHA256, long), "context too long")
			if _, err := sk.Sign(nil, msg, &Options{Context: strings.Repeat("x", 255)}); err != nil {
				t.Error("255-byte context refused:", err)
			}
			for _, h := range []crypto.Hash{crypto.SHA256, crypto.SHA512, crypto.Hash(99)} {
				_, err = sk.Sign(nil, msg, h)
				expectErr(t, "Sign with a hash", err, "SignerOpts crypto.Hash "+h.String())
				_, err = sk.SignDeterministic(msg, h)
				expectErr(t, "SignDeterministic with a hash", err, "SignerOpts crypto.Hash "+h.String())
			}
			// Any other type, even with HashFunc zero, might carry a context.
			for _, o := range []crypto.SignerOpts{hashOpts(0), hashOpts(crypto.SHA256), hashOpts(hashMLDSAMu)} {
				_, err = sk.Sign(nil, msg, o)
				expectErr(t, "Sign with another SignerOpts type", err, "SignerOpts type mldsa.hashOpts")
				_, err = sk.SignDeterministic(msg, o)
				expectErr(t, "SignDeterministic with another SignerOpts type", err, "SignerOpts type mldsa.hashOpts")
			}
			for _, n := range []int{0, 32, 63, 65} {
				_, err = sk.Sign(nil, make([]byte, n), hashMLDSAMu)
				expectErr(t, "Sign μ length", err, "μ")
			}
			for _, n := range []int{0, 32, 63, 65} {
				_, err = sk.SignMu(make([]byte, n))
				expectErr(t, "SignMu length", err, "μ")
				expectErr(t, "VerifyMu length", VerifyMu(pk, make([]byte, n), sig), "μ")
			}
			for _, ph := range []PreHash{0, -1, SHAKE256 + 1} {
				_, err = sk.HashSign(msg, ph, nil)
				expectErr(t, "HashSign pre-hash", err, "pre-hash")
				expectErr(t, "HashVerify pre-hash", HashVerify(pk, msg, sig, ph, nil), "pre-hash")
			}
			// Malformed hints: counts decreasing, above ω, and nonzero padding.
			hintOff := p.SignatureSize() - p.p.ω - p.p.k
			bad := bytes.Clone(sig)
			bad[p.SignatureSize()-1] = byte(p.p.ω + 1)
			expectErr(t, "hint count above ω", Verify(pk, msg, bad, nil), "hint")
			bad = bytes.Clone(sig)
			bad[hintOff+p.p.ω] = byte(p.p.ω)
			bad[hintOff+p.p.ω+1] = byte(p.p.ω - 1)
			expectErr(t, "hint counts decreasing", Verify(pk, msg, bad, nil), "hint")
			bad = bytes.Clone(sig)
			clear(bad[hintOff:])
			bad[hintOff] = 1
			expectErr(t, "hint padding", Verify(pk, msg, bad, nil), "hint")
			bad = bytes.Clone(sig)
			clear(bad[hintOff:])
			bad[hintOff], bad[hintOff+1] = 9, 9 // a repeated index
			for i := 0; i < p.p.k; i++ {
				bad[hintOff+p.p.ω+i] = 2
			}
			expectErr(t, "repeated hint", Verify(pk, msg, bad, nil), "hint")
			// z out of range: a coefficient of −γ1 (packed value 2γ1)
			// decodes but fails ‖z‖∞ < γ1 − β.
			bad = bytes.Clone(sig)
			var z ringElement
			bitUnpackSigned(&z, bad[p.p.cTildeSize():], p.p.γ1Bits+1, fieldElement(p.p.γ1()))
			z[rng.IntN(n256)] = fieldElement(q - p.p.γ1())
			bitPackSigned(bad[p.p.cTildeSize():], &z, p.p.γ1Bits+1, fieldElement(p.p.γ1()))
			expectErr(t, "z out of range", Verify(pk, msg, bad, nil), "z out of range")
			// Expanded keys with s1 or s2 out of range, t0 or tr wrong.
			esk := sk.ExpandedBytes()
			for _, c := range []struct {
				off      int
				contains string
			}{
				{128, "out of range"},                        // s1
				{128 + 32*p.p.l*p.p.ηBits, "out of range"},   // s2
				{128 + 32*(p.p.l+p.p.k)*p.p.ηBits + 5, "t0"}, // t0
				{64, "tr"}, // tr
				{0, "t0"},  // ρ: t0 no longer matches
				{32, ""},   // K: any value is valid
			} {
				bad := bytes.Clone(esk)
				if c.off >= 128 && c.off < 128+32*(p.p.l+p.p.k)*p.p.ηBits {
					bad[c.off] = 0xFF // packed values 7 (η = 2) or 15 (η = 4)
				} else {
					bad[c.off] ^= 1
				}
				_, err := NewPrivateKeyFromExpanded(p, bad)
				if c.contains == "" {
					if err != nil {
						t.Errorf("K changed: %v", err)
					}
					continue
				}
				expectErr(t, fmt.Sprintf("expanded key changed at byte %d", c.off), err, c.contains)
			}
			// Nil and zero values.
			var zsk PrivateKey
			_, err = zsk.Sign(nil, msg, nil)
			expectErr(t, "zero private key", err, "private key")
			_, err = (*PrivateKey)(nil).SignMu(make([]byte, 64))
			expectErr(t, "nil private key", err, "private key")
			expectErr(t, "nil public key", Verify(nil, msg, sig, nil), "public key")
			expectErr(t, "zero public key", Verify(&PublicKey{}, msg, sig, nil), "public key")
			if zsk.Bytes() != nil || zsk.ExpandedBytes() != nil || zsk.Equal(&zsk) {
				t.Error("zero private key methods")
			}
			if zsk.PublicKey() != nil {
				t.Error("zero private key has a public key")
			}
		})
	}
	_, err := GenerateKey(Parameters{})
	expectErr(t, "zero Parameters", err, "parameters")
	_, err = NewPrivateKey(Parameters{}, make([]byte, 32))
	expectErr(t, "zero Parameters", err, "parameters")
	_, err = NewPublicKey(Parameters{}, nil)
	expectErr(t, "zero Parameters", err, "parameters")
	_, err = NewPrivateKeyFromExpanded(Parameters{}, nil)
	expectErr(t, "zero Parameters", err, "parameters")
	if (Parameters{}).PublicKeySize() != 0 || (Parameters{}).SignatureSize() != 0 {
		t.Error("zero Parameters have sizes")
	}
}

// TestConcurrent signs and verifies with shared keys from several
// goroutines (run with -race to check the keys are safe for concurrent use).
func TestConcurrent(t *testing.T) {
	sk, err := NewPrivateKey(MLDSA44(), make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	pk := sk.PublicKey()
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		go func() {
			msg := []byte{byte(g)}
			sig, err := sk.Sign(nil, msg, nil)
			if err == nil {
				err = Verify(pk, msg, sig, nil)
			}
			errs <- err
		}()
	}
	for g := 0; g < 8; g++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestParsedKeyVerifications runs a parsed key's first verification (Â in
// pooled scratch), second (Â sampled into the key) and third (the key's
// Â), each on a good and on a corrupted signature, in every order of
// the two, and checks that the key's Â and t̂1 are the private key's.
func TestParsedKeyVerifications(t *testing.T) {
	for _, params := range []Parameters{MLDSA44(), MLDSA65(), MLDSA87()} {
		sk, err := NewPrivateKey(params, bytes.Repeat([]byte{3}, 32))
		if err != nil {
			t.Fatal(err)
		}
		msg := []byte("parsed")
		sig, err := sk.SignDeterministic(msg, nil)
		if err != nil {
			t.Fatal(err)
		}
		bad := bytes.Clone(sig)
		bad[len(bad)/2] ^= 1
		for _, badFirst := range []bool{false, true} {
			pk, err := NewPublicKey(params, sk.PublicKey().Bytes())
			if err != nil {
				t.Fatal(err)
			}
			if pk.aHat != nil {
				t.Fatalf("%v: NewPublicKey sampled Â", params)
			}
			// A signature of the wrong length is refused before Â is
			// sampled, and does not count as the first verification.
			if err := VerifyMu(pk, make([]byte, 64), sig[1:]); err == nil || pk.firstUse.Load() {
				t.Errorf("%v: a short signature: %v, first verification begun: %v", params, err, pk.firstUse.Load())
			}
			for i := 0; i < 6; i++ {
				good := (i%2 == 0) != badFirst
				s := sig
				if !good {
					s = bad
				}
				if err := Verify(pk, msg, s, nil); (err == nil) != good {
					t.Errorf("%v: verification %d of a parsed key (good signature %v): %v", params, i, good, err)
				}
				if (pk.aHat == nil) != (i == 0) {
					t.Errorf("%v: after verification %d, the key holds Â: %v", params, i, pk.aHat != nil)
				}
			}
			want := sk.PublicKey()
			keepA(want, true)
			if err := Verify(want, msg, sig, nil); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(pk.aHat, want.aHat) || !slices.Equal(pk.t1Hat, want.t1Hat) {
				t.Errorf("%v: the parsed key's Â or t̂1 differs from the private key's", params)
			}
		}
	}
}

// TestSeedKeyUses checks that a key made from its seed keeps no Â, that
// its first signature samples Â into pooled scratch and its second into
// the key, that signing and verifying share that, and that every
// signature equals the one from the same key parsed from its expanded
// encoding, which keeps Â from the start.
func TestSeedKeyUses(t *testing.T) {
	for _, params := range []Parameters{MLDSA44(), MLDSA65(), MLDSA87()} {
		for _, verifyFirst := range []bool{false, true} {
			sk, err := NewPrivateKey(params, bytes.Repeat([]byte{5}, 32))
			if err != nil {
				t.Fatal(err)
			}
			parsed, err := NewPrivateKeyFromExpanded(params, sk.ExpandedBytes())
			if err != nil {
				t.Fatal(err)
			}
			if sk.pub.aHat != nil || parsed.pub.aHat == nil {
				t.Fatalf("%v: a key from its seed holds Â: %v; from its expanded encoding: %v", params, sk.pub.aHat != nil, parsed.pub.aHat != nil)
			}
			for i := 0; i < 4; i++ {
				msg := []byte{byte(i)}
				want, err := parsed.SignDeterministic(msg, nil)
				if err != nil {
					t.Fatal(err)
				}
				if verifyFirst && i == 0 {
					if err := Verify(sk.PublicKey(), msg, want, nil); err != nil {
						t.Fatalf("%v: %v", params, err)
					}
				} else {
					got, err := sk.SignDeterministic(msg, nil)
					if err != nil || !bytes.Equal(got, want) {
						t.Errorf("%v: signature %d of a key from its seed differs (%v)", params, i, err)
					}
				}
				if (sk.pub.aHat == nil) != (i == 0) {
					t.Errorf("%v: after use %d, the key holds Â: %v", params, i, sk.pub.aHat != nil)
				}
				if err := Verify(sk.PublicKey(), msg, want, nil); err != nil {
					t.Errorf("%v: verification %d: %v", params, i, err)
				}
			}
			if !slices.Equal(sk.pub.aHat, parsed.pub.aHat) {
				t.Errorf("%v: the seed key's Â differs from the parsed key's", params)
			}
		}
	}
}
