package proofs

import (
	"github.com/vg-crypto/vg/Spec/check"
	"github.com/vg-crypto/vg/Spec/contract"
)

func init() {
	invariants["SHAKE256AbsorbAMD64"] = absorbBlocks
	invariants["SHAKE256AbsorbBMI2"] = absorbBlocks
}

// SHAKE256Absorb's loop head (Emit/absorbblocks.go): DX is the offset of
// the next block, a multiple of 136 up to the end of in (the head's own
// check keeps the last one in); CX the blocks still to absorb. The frame
// (the permutation's argument, the saved offset and count) is written
// before it is read on every iteration, so nothing is claimed of it.
func absorbBlocks() []check.Invariant {
	return []check.Invariant{{
		Label: "block",
		Facts: []check.Fact{
			{Loc: "DX", Lo: 0, Hi: contract.AbsorbMaxBlocks * 136, Mod: 136, Public: true},
			{Loc: "CX", Any: true, Public: true},
		},
	}}
}
