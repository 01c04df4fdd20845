package mldsa

import (
	"bytes"
	"crypto"
	"errors"
	"testing"
)

// TestErrorsIs checks that each kind of bad input gives an error that
// errors.Is matches with its exported value, and with no other.
func TestErrorsIs(t *testing.T) {
	kinds := []error{ErrInvalidParameters, ErrInvalidPublicKey, ErrInvalidPrivateKey, ErrInvalidSignature,
		ErrContextTooLong, ErrInvalidMu, ErrUnsupportedPreHash, ErrPreHashTooWeak, ErrUnsupportedSignerOpts, ErrNoSeed}
	p := MLDSA44()
	sk, err := NewPrivateKey(p, bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	pk := sk.PublicKey()
	msg := []byte("message")
	sig, err := sk.SignDeterministic(msg, nil)
	if err != nil {
		t.Fatal(err)
	}
	long := &Options{Context: string(make([]byte, 256))}
	seedless, err := NewPrivateKeyFromExpanded(p, sk.ExpandedBytes())
	if err != nil {
		t.Fatal(err)
	}
	badExpanded := sk.ExpandedBytes()
	badExpanded[70] ^= 1 // tr
	flipped := bytes.Clone(sig)
	flipped[0] ^= 1
	badHint := bytes.Clone(sig)
	badHint[len(badHint)-1] = byte(p.p.ω + 1)
	badZ := bytes.Clone(sig)
	copy(badZ[p.p.cTildeSize():], []byte{0xff, 0xff, 0xff}) // z[0][0] = −(γ1 − 1)
	second := func(_ any, err error) error { return err }
	cases := []struct {
		name string
		err  error
		want error
	}{
		{"GenerateKey zero Parameters", second(GenerateKey(Parameters{})), ErrInvalidParameters},
		{"NewPublicKey zero Parameters", second(NewPublicKey(Parameters{}, pk.Bytes())), ErrInvalidParameters},
		{"NewPublicKey length", second(NewPublicKey(p, pk.Bytes()[1:])), ErrInvalidPublicKey},
		{"NewPrivateKey seed length", second(NewPrivateKey(p, make([]byte, 31))), ErrInvalidPrivateKey},
		{"NewPrivateKeyFromExpanded length", second(NewPrivateKeyFromExpanded(p, badExpanded[1:])), ErrInvalidPrivateKey},
		{"NewPrivateKeyFromExpanded tr", second(NewPrivateKeyFromExpanded(p, badExpanded)), ErrInvalidPrivateKey},
		{"Sign nil key", second((*PrivateKey)(nil).Sign(nil, msg, nil)), ErrInvalidPrivateKey},
		{"Verify nil key", Verify(nil, msg, sig, nil), ErrInvalidPublicKey},
		{"Verify wrong message", Verify(pk, []byte("other"), sig, nil), ErrInvalidSignature},
		{"Verify flipped c̃", Verify(pk, msg, flipped, nil), ErrInvalidSignature},
		{"Verify length", Verify(pk, msg, sig[1:], nil), ErrInvalidSignature},
		{"Verify malformed hint", Verify(pk, msg, badHint, nil), ErrInvalidSignature},
		{"Verify z out of range", Verify(pk, msg, badZ, nil), ErrInvalidSignature},
		// No ρ is known whose ExpandA exceeds its bound: the mapping alone.
		{"Verify ExpandA(ρ) out of its bound", verifyExpandAError(errSamplerExhausted), ErrInvalidPublicKey},
		{"Sign context", second(sk.Sign(nil, msg, long)), ErrContextTooLong},
		{"Verify context", Verify(pk, msg, sig, long), ErrContextTooLong},
		{"SignMu length", second(sk.SignMu(make([]byte, 63))), ErrInvalidMu},
		{"VerifyMu length", VerifyMu(pk, make([]byte, 65), sig), ErrInvalidMu},
		{"HashSign unknown", second(sk.HashSign(msg, 0, nil)), ErrUnsupportedPreHash},
		{"HashVerify unknown", HashVerify(pk, msg, sig, SHAKE256+1, nil), ErrUnsupportedPreHash},
		{"HashSign weak", second(sk.HashSign(msg, SHA224, nil)), ErrPreHashTooWeak},
		{"Sign crypto.SHA256", second(sk.Sign(nil, msg, crypto.SHA256)), ErrUnsupportedSignerOpts},
		{"Sign other type", second(sk.Sign(nil, msg, hashOpts(0))), ErrUnsupportedSignerOpts},
		{"PKCS#8 seed form without seed", second(MarshalPKCS8PrivateKeyFormat(seedless, PKCS8Seed)), ErrNoSeed},
		{"ParsePKCS8PrivateKey garbage", second(ParsePKCS8PrivateKey([]byte{0x30, 0})), ErrInvalidPrivateKey},
		{"ParsePKIXPublicKey garbage", second(ParsePKIXPublicKey([]byte{0x30, 0})), ErrInvalidPublicKey},
	}
	for _, c := range cases {
		if c.err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		for _, k := range kinds {
			if got := errors.Is(c.err, k); got != (k == c.want) {
				t.Errorf("%s: errors.Is(%q, %q) = %v", c.name, c.err, k, got)
			}
		}
	}
}

// TestPreHashStrength checks the policy of HashSign against FIPS 204,
// §5.4, written out per parameter set, and that HashVerify accepts a
// signature with a pre-hash that HashSign refuses.
func TestPreHashStrength(t *testing.T) {
	allowed := map[Parameters][]PreHash{
		MLDSA44(): {SHA256, SHA384, SHA512, SHA512_256, SHA3_256, SHA3_384, SHA3_512, SHAKE128, SHAKE256},
		MLDSA65(): {SHA384, SHA512, SHA3_384, SHA3_512, SHAKE256},
		MLDSA87(): {SHA512, SHA3_512, SHAKE256},
	}
	msg := []byte("message")
	for p, list := range allowed {
		sk, err := NewPrivateKey(p, bytes.Repeat([]byte{1}, 32))
		if err != nil {
			t.Fatal(err)
		}
		for ph := SHA224; ph <= SHAKE256; ph++ {
			want := false
			for _, a := range list {
				want = want || a == ph
			}
			err := ph.CheckStrength(p)
			sig, signErr := sk.HashSignDeterministic(msg, ph, nil)
			if want {
				if err != nil || signErr != nil || HashVerify(sk.PublicKey(), msg, sig, ph, nil) != nil {
					t.Errorf("%v with %v: CheckStrength %v, HashSign %v; want accepted", p, ph, err, signErr)
				}
				continue
			}
			if !errors.Is(err, ErrPreHashTooWeak) || !errors.Is(signErr, ErrPreHashTooWeak) || sig != nil {
				t.Errorf("%v with %v: CheckStrength %v, HashSign %v; want ErrPreHashTooWeak", p, ph, err, signErr)
				continue
			}
			μ, err := hashMu(&sk.pub.tr, msg, ph, nil)
			if err != nil {
				t.Fatal(err)
			}
			sig, err = sk.signInternal(&μ, new([32]byte))
			if err != nil {
				t.Fatal(err)
			}
			if err := HashVerify(sk.PublicKey(), msg, sig, ph, nil); err != nil {
				t.Errorf("%v with %v: HashVerify refuses a valid signature: %v", p, ph, err)
			}
		}
	}
	if !errors.Is(SHA256.CheckStrength(Parameters{}), ErrInvalidParameters) || !errors.Is(PreHash(0).CheckStrength(MLDSA44()), ErrUnsupportedPreHash) {
		t.Error("CheckStrength of invalid arguments")
	}
	if PreHash(0).CollisionStrength() != 0 || SHAKE128.CollisionStrength() != 128 || SHA512_224.CollisionStrength() != 112 {
		t.Error("CollisionStrength")
	}
}
