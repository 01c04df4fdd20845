package mldsa

import (
	"testing"
)

// TestAllocations pins the allocations of signing and verifying with keys
// already in memory: a signature is the one object deterministic signing
// allocates (none in its rejection loop), hedged signing adds the buffer
// crypto/rand fills, and Verify allocates nothing.
func TestAllocations(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation allocates")
	}
	for _, params := range []Parameters{MLDSA44(), MLDSA65(), MLDSA87()} {
		sk, err := NewPrivateKey(params, make([]byte, 32))
		if err != nil {
			t.Fatal(err)
		}
		msg := []byte("message")
		var sig []byte
		signs := testing.AllocsPerRun(20, func() {
			sig, err = sk.SignDeterministic(msg, nil)
		})
		if err != nil {
			t.Fatal(err)
		}
		hedged := testing.AllocsPerRun(20, func() {
			_, err = sk.Sign(nil, msg, nil)
		})
		if err != nil {
			t.Fatal(err)
		}
		verifies := testing.AllocsPerRun(20, func() {
			err = Verify(sk.PublicKey(), msg, sig, nil)
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v: SignDeterministic %.0f allocations, Sign %.0f, Verify %.0f", params, signs, hedged, verifies)
		if signs > 1 || hedged > 2 || verifies > 0 {
			t.Errorf("%v: SignDeterministic allocates %.0f objects (want 1), Sign %.0f (want 2), Verify %.0f (want none)", params, signs, hedged, verifies)
		}
	}
}
