package proofs

import "github.com/vg-crypto/vg/Spec/check"

func init() {
	for _, set := range []string{"44", "65", "87"} {
		for _, v := range []string{"AMD64", "AVX2", "AVX512"} {
			invariants["Sign"+set+v] = signInvariants
		}
	}
}

// signInvariants: at the head of an attempt, κ (scratch[128:130]) is public.
func signInvariants() []check.Invariant {
	return []check.Invariant{{Label: "attempt", PublicBuffer: map[string][][2]int{"scratch": {{128, 2}}}}}
}
