// Package proofs holds the hints the checker (Spec/check) needs to finish
// its proofs: loop invariants per routine and loop head, the samplers'
// injection points and the cut search of the Keccak proofs. Nothing here is
// trusted: the checker assumes an invariant only after checking that every
// path into the loop head establishes it, and a cut only after proving it,
// so a wrong hint makes a check fail, never pass.
package proofs

import (
	"github.com/vg-crypto/vg/Spec/check"
	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
)

// Hints implements check.Hints.
type Hints struct{}

// Invariants returns the loop invariants of a routine.
func (Hints) Invariants(symbol string) []check.Invariant {
	if f := invariants[symbol]; f != nil {
		return f()
	}
	return nil
}

// invariants maps a TEXT symbol to its loop invariants; the file named
// after the routine's stem (Spec/contract) registers them from init.
var invariants = map[string]func() []check.Invariant{}

// maxBlocks is the number of SHAKE128 blocks the samplers may squeeze.
const maxBlocks = contract.RejNTTPolyBlocks

func pub(loc string, lo, hi uint64) check.Fact {
	return check.Fact{Loc: loc, Lo: lo, Hi: hi, Public: true}
}

// perSet maps the baseline routine of each parameter set, name + "44",
// "65" or "87" + "AMD64", and the same with each of variants in place of
// "AMD64", to the set's parameters.
func perSet(name string, variants ...string) map[string]fips204.Params {
	m := map[string]fips204.Params{}
	for _, v := range append([]string{"AMD64"}, variants...) {
		m[name+"44"+v] = fips204.MLDSA44
		m[name+"65"+v] = fips204.MLDSA65
		m[name+"87"+v] = fips204.MLDSA87
	}
	return m
}
