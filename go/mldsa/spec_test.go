package mldsa

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
)

var allParams = []struct {
	p    Parameters
	spec fips204.Params
}{
	{MLDSA44(), fips204.MLDSA44},
	{MLDSA65(), fips204.MLDSA65},
	{MLDSA87(), fips204.MLDSA87},
}

func randBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// TestAgainstSpec compares key generation, signing (hedged with a given
// rnd, and deterministic) and verification with Spec/fips204 on random
// seeds, messages and contexts.
func TestAgainstSpec(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	iters := 4
	if testing.Short() {
		iters = 2
	}
	for _, ps := range allParams {
		t.Run(ps.p.String(), func(t *testing.T) {
			for it := 0; it < iters; it++ {
				ξ := randBytes(rng, 32)
				sk, err := NewPrivateKey(ps.p, ξ)
				if err != nil {
					t.Fatal(err)
				}
				wantPK, wantSK := fips204.KeyGenInternal(ps.spec, ξ)
				if !bytes.Equal(sk.PublicKey().Bytes(), wantPK) {
					t.Fatal("public key differs from Spec")
				}
				if !bytes.Equal(sk.ExpandedBytes(), wantSK) {
					t.Fatal("expanded private key differs from Spec")
				}
				msg := randBytes(rng, rng.IntN(300))
				ctx := randBytes(rng, rng.IntN(256))
				rnd := randBytes(rng, 32)
				μ := computeMu(&sk.pub.tr, 0, string(ctx), nil, msg)
				sig, err := sk.signInternal(&μ, (*[32]byte)(rnd))
				if err != nil {
					t.Fatal(err)
				}
				want, err := fips204.Sign(ps.spec, wantSK, msg, ctx, rnd)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(sig, want) {
					t.Fatal("hedged signature differs from Spec")
				}
				det, err := sk.SignDeterministic(msg, &Options{Context: string(ctx)})
				if err != nil {
					t.Fatal(err)
				}
				want, _ = fips204.Sign(ps.spec, wantSK, msg, ctx, make([]byte, 32))
				if !bytes.Equal(det, want) {
					t.Fatal("deterministic signature differs from Spec")
				}
				if err := Verify(sk.PublicKey(), msg, sig, &Options{Context: string(ctx)}); err != nil {
					t.Fatal(err)
				}
				ok, _ := fips204.Verify(ps.spec, wantPK, msg, sig, ctx)
				if !ok {
					t.Fatal("Spec rejects the signature")
				}
				bad := bytes.Clone(sig)
				bad[rng.IntN(len(bad))] ^= 1 << rng.IntN(8)
				ok, _ = fips204.Verify(ps.spec, wantPK, msg, bad, ctx)
				if got := Verify(sk.PublicKey(), msg, bad, &Options{Context: string(ctx)}) == nil; got != ok {
					t.Fatalf("corrupted signature: Verify %v, Spec %v", got, ok)
				}
			}
		})
	}
}

// TestBoundsAgreeWithSpec pins the library's copies of the FIPS 204 loop
// bounds (sample.go) to the ones Spec states with their source: the
// library may not import Spec, so it cannot share the constants.
func TestBoundsAgreeWithSpec(t *testing.T) {
	if signAttempts != fips204.SignIterations {
		t.Errorf("signAttempts = %d, Spec's Algorithm 7 stops after %d", signAttempts, fips204.SignIterations)
	}
	if rejNTTPolyBlocks != contract.RejNTTPolyBlocks {
		t.Errorf("rejNTTPolyBlocks = %d, the contract's bound is %d", rejNTTPolyBlocks, contract.RejNTTPolyBlocks)
	}
}
