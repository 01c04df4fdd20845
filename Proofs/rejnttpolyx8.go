package proofs

import "github.com/vg-crypto/vg/Spec/check"

func init() {
	// The four-way routine's invariants on eight states (rejnttpolyx4.go).
	invariants["RejNTTPolyx8AVX512"] = func() []check.Invariant { return rejNTTPolyWide(8) }
}
