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

// RejBoundedPolyEta{2,4}AMD64's frame (Emit/rejboundedpoly.go): the Keccak
// state at 0..199, the count of accepted coefficients at 400 (secret: it
// follows the rejections), the number of blocks still allowed at 408. The
// rejection loop takes one lane (16 half-bytes) per step from the rate
// (136 bytes) of the state.
func rejBoundedPolyAMD64() []check.Invariant {
	return []check.Invariant{
		{
			Label: "block",
			Facts: []check.Fact{{Loc: "frame+400", Lo: 0, Hi: 255}, pub("frame+408", 1, maxBoundedBlocks)},
		},
		{
			Label: "reject",
			Facts: []check.Fact{
				{Loc: "CX", Lo: 0, Hi: 255},
				{Loc: "SI", Lo: 0, Hi: 128, Mod: 8, Public: true},
				{Loc: "R8", Region: "frame", Public: true},
				{Loc: "DI", Region: "a", Public: true},
				pub("frame+408", 1, maxBoundedBlocks),
			},
		},
	}
}
