package mldsa

import (
	"bytes"
	"crypto"
	"testing"
)

// TestSignerOpts checks each SignerOpts that Sign and SignDeterministic
// accept: nil, crypto.Hash(0) and a nil *Options sign with the empty
// context, *Options with its own, and crypto.MLDSAMu signs the message as
// μ. Deterministic signatures must equal those of SignMuDeterministic on
// the μ each form stands for, and hedged ones must verify under exactly
// that context.
func TestSignerOpts(t *testing.T) {
	for _, p := range []Parameters{MLDSA44(), MLDSA65(), MLDSA87()} {
		t.Run(p.String(), func(t *testing.T) {
			sk, err := NewPrivateKey(p, bytes.Repeat([]byte{7}, 32))
			if err != nil {
				t.Fatal(err)
			}
			pk := sk.PublicKey()
			msg := []byte("message")
			emptyMu := computeMu(&pk.tr, 0, "", nil, msg)
			ctxMu := computeMu(&pk.tr, 0, "ctx", nil, msg)
			cases := []struct {
				name string
				opts crypto.SignerOpts
				ctx  string
			}{
				{"nil", nil, ""},
				{"crypto.Hash(0)", crypto.Hash(0), ""},
				{"nil *Options", (*Options)(nil), ""},
				{"empty *Options", &Options{}, ""},
				{"*Options with a context", &Options{Context: "ctx"}, "ctx"},
			}
			for _, c := range cases {
				μ := emptyMu
				if c.ctx != "" {
					μ = ctxMu
				}
				want, err := sk.SignMuDeterministic(μ[:])
				if err != nil {
					t.Fatal(err)
				}
				got, err := sk.SignDeterministic(msg, c.opts)
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("%s: SignDeterministic differs from SignMuDeterministic(μ with context %q) (err %v)", c.name, c.ctx, err)
				}
				sig, err := sk.Sign(nil, msg, c.opts)
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				if Verify(pk, msg, sig, &Options{Context: c.ctx}) != nil {
					t.Errorf("%s: signature does not verify with context %q", c.name, c.ctx)
				}
				other := "ctx"
				if c.ctx != "" {
					other = ""
				}
				if Verify(pk, msg, sig, &Options{Context: other}) == nil {
					t.Errorf("%s: signature verifies with context %q", c.name, other)
				}
			}
			// crypto.MLDSAMu: the message is μ itself.
			want, _ := sk.SignDeterministic(msg, &Options{Context: "ctx"})
			got, err := sk.SignDeterministic(ctxMu[:], hashMLDSAMu)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("SignDeterministic(μ, MLDSAMu) differs from signing the message (err %v)", err)
			}
			sig, err := sk.Sign(nil, ctxMu[:], hashMLDSAMu)
			if err != nil || Verify(pk, msg, sig, &Options{Context: "ctx"}) != nil || VerifyMu(pk, ctxMu[:], sig) != nil {
				t.Errorf("Sign(μ, MLDSAMu) does not verify (err %v)", err)
			}
		})
	}
}
