package proofs

import "github.com/vg-crypto/vg/Spec/check"

func init() {
	invariants["RejNTTPolyAMD64"] = rejNTTPolyAMD64
	invariants["RejNTTPolyBMI2"] = rejNTTPolyAMD64
}

// RejNTTPolyAMD64's frame, and RejNTTPolyBMI2's, which calls the BMI2
// permutation instead (Emit/rejnttpoly.go): the permutation's
// argument at 0, the Keccak state at 8..207, the count of accepted
// coefficients at 208, the number of blocks still allowed at 216. The
// rejection loop takes 8 three-byte groups (24 bytes) per step from the
// rate (168 bytes) of the state.
func rejNTTPolyAMD64() []check.Invariant {
	state := [][2]int{{8, 200}}
	return []check.Invariant{
		{
			Label:        "block",
			Facts:        []check.Fact{pub("frame+208", 0, 255), pub("frame+216", 1, maxBlocks)},
			PublicRanges: state,
		},
		{
			Label: "reject",
			Facts: []check.Fact{
				pub("CX", 0, 255),
				{Loc: "SI", Lo: 0, Hi: 144, Mod: 24, Public: true},
				{Loc: "R8", Region: "frame", Lo: 8, Hi: 8, Public: true},
				{Loc: "DI", Region: "a", Public: true},
				pub("frame+216", 1, maxBlocks),
			},
			PublicRanges: state,
		},
	}
}
