package proofs

import (
	"github.com/vg-crypto/vg/Spec/check"
	"github.com/vg-crypto/vg/Spec/contract"
)

func init() {
	invariants["RejBoundedPolyEta2AMD64"] = rejBoundedPolyAMD64
	invariants["RejBoundedPolyEta4AMD64"] = rejBoundedPolyAMD64
}

// maxBoundedBlocks is the number of SHAKE256 blocks RejBoundedPoly may
// squeeze.
const maxBoundedBlocks = contract.RejBoundedPolyBlocks

// boundedPass is the bytes RejBoundedPoly's rejection loop reads per pass
// (Emit/rejboundedpoly.go): its heads are at offsets 0, 2, …, 134.
const boundedPass = 2

// RejBoundedPolyEta{2,4}AMD64's frame (Emit/rejboundedpoly.go): the
// permutation's argument at 0, the Keccak state at 8..207 (secret: it is
// absorbed from ρ′), the count of accepted coefficients at 208 (secret: it
// follows the rejections), the number of blocks still allowed at 216. The
// rejection loop reads the rate (136 bytes) of the state, boundedPass
// bytes a pass.
func rejBoundedPolyAMD64() []check.Invariant {
	return []check.Invariant{
		{
			Label: "block",
			Facts: []check.Fact{{Loc: "frame+208", Lo: 0, Hi: 255}, pub("frame+216", 1, maxBoundedBlocks)},
		},
		{
			Label: "reject",
			Facts: []check.Fact{
				{Loc: "CX", Lo: 0, Hi: 255},
				{Loc: "SI", Lo: 0, Hi: 136 - boundedPass, Mod: boundedPass, Public: true},
				{Loc: "R8", Region: "frame", Lo: 8, Hi: 8, Public: true},
				{Loc: "DI", Region: "a", Public: true},
				pub("frame+216", 1, maxBoundedBlocks),
			},
		},
	}
}
