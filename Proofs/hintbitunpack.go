package proofs

import (
	"github.com/vg-crypto/vg/Spec/check"
	"github.com/vg-crypto/vg/Spec/fips204"
)

func init() {
	for sym, p := range hintUnpackParams {
		invariants[sym] = func() []check.Invariant { return hintBitUnpackAMD64(p.K, p.Omega) }
	}
}

// hintUnpackParams maps each HintBitUnpack routine to its parameter set.
var hintUnpackParams = map[string]fips204.Params{
	"HintBitUnpack44AMD64": fips204.MLDSA44,
	"HintBitUnpack65AMD64": fips204.MLDSA65,
	"HintBitUnpack87AMD64": fips204.MLDSA87,
}

// HintBitUnpack{44,65,87}AMD64 (Emit/hintbitunpack.go): DI is y, R10
// Index (at most ω), i at frame+0 and the polynomial's end at frame+8
// (at most ω).
func hintBitUnpackAMD64(k, ω int) []check.Invariant {
	y := check.Fact{Loc: "DI", Region: "y", Public: true}
	return []check.Invariant{
		{Label: "poly", Facts: []check.Fact{y, pub("R10", 0, uint64(ω)), pub("frame+0", 0, uint64(k-1))}},
		{Label: "coef", Facts: []check.Fact{y, pub("R10", 0, uint64(ω)), pub("frame+0", 0, uint64(k-1)), pub("frame+8", 0, uint64(ω))}},
		{Label: "pad", Facts: []check.Fact{y, pub("R10", 0, uint64(ω))}},
	}
}
