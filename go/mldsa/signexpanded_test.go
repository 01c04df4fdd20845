package mldsa

import (
	"bytes"
	"crypto"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// signTwoSteps is what SignExpanded must equal: NewPrivateKeyFromExpanded,
// then Sign or SignDeterministic.
func signTwoSteps(params Parameters, sk, msg []byte, opts crypto.SignerOpts, deterministic bool) ([]byte, error) {
	key, err := NewPrivateKeyFromExpanded(params, sk)
	if err != nil {
		return nil, err
	}
	if deterministic {
		return key.SignDeterministic(msg, opts)
	}
	return key.Sign(nil, msg, opts)
}

// TestSignExpanded checks that SignExpanded gives NewPrivateKeyFromExpanded
// and SignDeterministic's signatures and errors, with the parameter sets
// taking turns on the pooled key (a key of ML-DSA-87 leaves more of the
// room written than one of ML-DSA-44 reads), for several keys, messages
// and each kind of opts; and that its hedged signatures verify.
func TestSignExpanded(t *testing.T) {
	type key struct {
		params Parameters
		enc    []byte
		pk     *PublicKey
	}
	var keys []key
	for i := range 3 {
		for _, ps := range allParams {
			seed := bytes.Repeat([]byte{byte(i + 1)}, 32)
			sk, err := NewPrivateKey(ps.p, seed)
			if err != nil {
				t.Fatal(err)
			}
			keys = append(keys, key{ps.p, sk.ExpandedBytes(), sk.PublicKey()})
		}
	}
	// Last to first too, so each set follows each other one.
	for i := len(keys) - 1; i >= 0; i-- {
		keys = append(keys, keys[i])
	}
	mu := bytes.Repeat([]byte{7}, 64)
	for i, k := range keys {
		msg := []byte(fmt.Sprintf("message %d", i))
		for _, opts := range []crypto.SignerOpts{nil, &Options{Context: "ctx"}, crypto.Hash(0), crypto.Hash(hashMLDSAMu)} {
			m := msg
			if opts == crypto.Hash(hashMLDSAMu) {
				m = mu
			}
			want, err := signTwoSteps(k.params, k.enc, m, opts, true)
			if err != nil {
				t.Fatal(err)
			}
			got, err := SignExpandedDeterministic(k.params, k.enc, m, opts)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%v, key %d, opts %v: SignExpandedDeterministic differs from the parsed key's signature (%v)", k.params, i, opts, err)
			}
			hedged, err := SignExpanded(k.params, k.enc, m, opts)
			if err != nil {
				t.Fatal(err)
			}
			if opts == crypto.Hash(hashMLDSAMu) {
				err = VerifyMu(k.pk, m, hedged)
			} else {
				o, _ := opts.(*Options)
				err = Verify(k.pk, m, hedged, o)
			}
			if err != nil {
				t.Fatalf("%v, key %d, opts %v: a hedged SignExpanded signature does not verify: %v", k.params, i, opts, err)
			}
		}
	}
}

// TestSignExpandedErrors checks that SignExpanded rejects what
// NewPrivateKeyFromExpanded or Sign rejects, with the same error, and
// then still signs correctly with the same pooled room.
func TestSignExpandedErrors(t *testing.T) {
	if _, err := SignExpanded(Parameters{}, nil, nil, nil); !errors.Is(err, ErrInvalidParameters) {
		t.Errorf("zero Parameters: %v", err)
	}
	for _, ps := range allParams {
		p := ps.p
		sk, err := NewPrivateKey(p, make([]byte, 32))
		if err != nil {
			t.Fatal(err)
		}
		esk := sk.ExpandedBytes()
		msg := []byte("message")
		type bad struct {
			name string
			sk   []byte
			opts crypto.SignerOpts
		}
		cases := []bad{
			{"short", esk[1:], nil},
			{"long", append(bytes.Clone(esk), 0), nil},
			{"empty", nil, nil},
			{"context too long", esk, &Options{Context: strings.Repeat("x", 256)}},
			{"pre-hash opts", esk, crypto.SHA256},
		}
		for _, c := range []struct {
			name string
			off  int
			set  byte
		}{
			{"s1 out of range", 128, 0xFF},
			{"s2 out of range", 128 + 32*p.p.l*p.p.ηBits, 0xFF},
			{"t0", 128 + 32*(p.p.l+p.p.k)*p.p.ηBits + 5, 0},
			{"tr", 64, 0},
			{"ρ", 0, 0},
		} {
			b := bytes.Clone(esk)
			if c.set != 0 {
				b[c.off] = c.set
			} else {
				b[c.off] ^= 1
			}
			cases = append(cases, bad{c.name, b, nil})
		}
		for _, c := range cases {
			_, want := signTwoSteps(p, c.sk, msg, c.opts, true)
			if want == nil {
				t.Fatalf("%v, %s: the two steps accept", p, c.name)
			}
			for _, det := range []bool{true, false} {
				_, got := signExpanded(p, c.sk, msg, c.opts, det)
				if got == nil || got.Error() != want.Error() {
					t.Errorf("%v, %s: SignExpanded gives %v, the two steps %v", p, c.name, got, want)
				}
			}
		}
		want, _ := sk.SignDeterministic(msg, nil)
		if got, err := SignExpandedDeterministic(p, esk, msg, nil); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%v: after the rejections SignExpandedDeterministic gives another signature (%v)", p, err)
		}
	}
}

// TestSignExpandedWipes checks that the pooled key holds nothing secret
// once SignExpanded has returned, after a signature and after each kind
// of rejection: only Â (public) may be left in the room.
func TestSignExpandedWipes(t *testing.T) {
	for _, ps := range allParams {
		p := ps.p.p
		sk, err := NewPrivateKey(ps.p, bytes.Repeat([]byte{3}, 32))
		if err != nil {
			t.Fatal(err)
		}
		esk := sk.ExpandedBytes()
		badT0 := bytes.Clone(esk)
		badT0[len(badT0)-1] ^= 1
		badRange := bytes.Clone(esk)
		badRange[128] = 0xFF
		for _, c := range []struct {
			name string
			sk   []byte
			opts crypto.SignerOpts
		}{
			{"signature", esk, nil},
			{"t0 rejected", badT0, nil},
			{"range rejected", badRange, nil},
			{"opts rejected", esk, crypto.SHA256},
		} {
			tk := transientKeys.New().(*transientKey)
			for i := range tk.block {
				tk.block[i][0] = 1
			}
			_, err := tk.sign(p, c.sk, []byte("m"), c.opts, true)
			if (err == nil) != (c.name == "signature") {
				t.Fatalf("%v, %s: %v", ps.p, c.name, err)
			}
			tk.wipe(p)
			n := p.k * p.l
			for i, poly := range tk.block[n:keyBlockPolys(p, true, true)] {
				if poly != (ringElement{}) {
					t.Fatalf("%v, %s: polynomial %d after Â is not zeroed", ps.p, c.name, n+i)
				}
			}
			if tk.kp.sk.key != [32]byte{} || tk.kp.sk.p != nil || tk.kp.sk.s1Hat != nil || tk.kp.enc != nil {
				t.Fatalf("%v, %s: the key is not cleared", ps.p, c.name)
			}
			// Room past this set's layout is untouched (and was never the
			// key's).
			if end := keyBlockPolys(p, true, true); end < len(tk.block) && tk.block[end][0] != 1 {
				t.Fatalf("%v, %s: the room past the layout was written", ps.p, c.name)
			}
		}
	}
}
