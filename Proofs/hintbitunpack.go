package proofs

import (
	"fmt"

	"github.com/vg-crypto/vg/Spec/check"
	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

func init() {
	for sym, p := range hintUnpackParams {
		invariants[sym] = func() []check.Invariant { return hintBitUnpackAMD64(p.K, p.Omega) }
	}
}

// hintUnpackParams maps each HintBitUnpack routine to its parameter set.
var hintUnpackParams = perSet("HintBitUnpack")

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

// HintUnpackPlan implements check.HintUnpackHints: the heads where a
// count, a position and a padding byte are read, the locations that hold
// a constant of the proof's state there (y and Index; i at poly and coef;
// the polynomial's end at coef), the mask's registers, the least next
// position's and the flag's (Emit/hintbitunpack.go).
func (Hints) HintUnpackPlan(r *x86.Routine, c *contract.Contract) (*check.HintUnpackPlan, error) {
	if _, ok := hintUnpackParams[c.Symbol]; !ok {
		return nil, fmt.Errorf("no HintBitUnpack plan for %s", c.Symbol)
	}
	return &check.HintUnpackPlan{Poly: "poly", Coef: "coef", Pad: "pad",
		Keep: map[string][]string{
			"poly": {"DI", "R10", "frame+0"},
			"coef": {"DI", "R10", "frame+0", "frame+8"},
			"pad":  {"DI", "R10"},
		},
		Mask: [4]string{"R8", "R9", "R11", "R14"}, Lo: "R12", Bad: "R13"}, nil
}
