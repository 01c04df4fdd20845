package proofs

import (
	"fmt"

	"github.com/vg-crypto/vg/Spec/check"
	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

func init() {
	for sym, p := range hintPackParams {
		invariants[sym] = func() []check.Invariant { return hintBitPackAMD64(p.K, p.Omega) }
	}
}

// hintPackParams maps each HintBitPack routine to its parameter set.
var hintPackParams = perSet("HintBitPack")

// HintBitPack{44,65,87}AMD64 (Emit/hintbitpack.go): DX is i, SI
// polynomial i (h + 1024i), BX j, CX Index (at most ω: a one beyond is
// not stored), DI y and R10 h.
func hintBitPackAMD64(k, ω int) []check.Invariant {
	common := []check.Fact{
		pub("DX", 0, uint64(k-1)),
		pub("CX", 0, uint64(ω)),
		{Loc: "DI", Region: "y", Public: true},
		{Loc: "R10", Region: "h", Public: true},
	}
	return []check.Invariant{
		{Label: "poly", Facts: common},
		{Label: "coef", Facts: append([]check.Fact{
			pub("BX", 0, 255),
			{Loc: "SI", Region: "h", Lo: 0, Hi: uint64(1024 * (k - 1)), Mod: 1024, Public: true},
		}, common...)},
	}
}

// HintPackPlan implements check.HintPackHints: the loop head where a
// coefficient is read, and the registers that hold a constant of the
// proof's (p, Index) there: j, Index, i, the polynomial's address, y and
// h (Emit/hintbitpack.go).
func (Hints) HintPackPlan(r *x86.Routine, c *contract.Contract) (*check.HintPackPlan, error) {
	if _, ok := hintPackParams[c.Symbol]; !ok {
		return nil, fmt.Errorf("no HintBitPack plan for %s", c.Symbol)
	}
	return &check.HintPackPlan{Coef: "coef", Keep: []string{"BX", "CX", "DX", "SI", "DI", "R10"}}, nil
}
