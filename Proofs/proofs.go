// Package proofs holds the hints the checker (Spec/check) needs to finish
// its proofs: loop invariants per routine and loop head. Nothing here is
// trusted: the checker assumes an invariant only after checking that every
// path into the loop head establishes it, so a wrong hint makes a check
// fail, never pass.
package proofs

import (
	"fmt"

	"github.com/vg-crypto/vg/Spec/check"
)

// Hints implements check.Hints.
type Hints struct{}

// Invariants returns the loop invariants of a routine.
func (Hints) Invariants(symbol string) []check.Invariant {
	switch symbol {
	case "RejNTTPolyAMD64":
		return rejNTTPolyAMD64()
	case "RejNTTPolyx4AVX2":
		return rejNTTPolyx4AVX2()
	}
	return nil
}

// Frame layout of RejNTTPolyAMD64 (see Emit/rejnttpoly.go): the Keccak
// state at 0..199, the count of accepted coefficients at 400, the number
// of blocks still allowed at 408.
func rejNTTPolyAMD64() []check.Invariant {
	state := [][2]int{{0, 200}}
	return []check.Invariant{
		{
			// Before squeezing a block: 0 ≤ count < 256, 1 ≤ blocks left ≤ 16.
			Label: "block",
			Facts: []check.Fact{
				{Loc: "frame+400", Lo: 0, Hi: 255, Public: true},
				{Loc: "frame+408", Lo: 1, Hi: 16, Public: true},
			},
			PublicRanges: state,
		},
		{
			// Rejection loop over one block: 8 groups per 24-byte step.
			Label: "reject",
			Facts: []check.Fact{
				{Loc: "CX", Lo: 0, Hi: 255, Public: true},
				{Loc: "SI", Lo: 0, Hi: 144, Mod: 24, Rem: 0, Public: true},
				{Loc: "R8", Region: "frame", Lo: 0, Hi: 0, Public: true},
				{Loc: "DI", Region: "a", Lo: 0, Hi: 0, Public: true},
				{Loc: "frame+408", Lo: 1, Hi: 16, Public: true},
			},
			PublicRanges: state,
		},
	}
}

// Frame layout of RejNTTPolyx4AVX2: four interleaved Keccak states at
// 0..799 (lane i of state j at 32i+8j), the counts at 1600+8j, the number
// of blocks still allowed at 1632.
func rejNTTPolyx4AVX2() []check.Invariant {
	state := [][2]int{{0, 800}}
	counts := func(lo, hi uint64) []check.Fact {
		var fs []check.Fact
		for j := 0; j < 4; j++ {
			fs = append(fs, check.Fact{Loc: fmt.Sprintf("frame+%d", 1600+8*j), Lo: lo, Hi: hi, Public: true})
		}
		return fs
	}
	invs := []check.Invariant{{
		Label:        "block",
		Facts:        append(counts(0, 256), check.Fact{Loc: "frame+1632", Lo: 1, Hi: 16, Public: true}),
		PublicRanges: state,
	}}
	for j := 0; j < 4; j++ {
		facts := []check.Fact{
			{Loc: "CX", Lo: 0, Hi: 255, Public: true},
			{Loc: "SI", Lo: 0, Hi: 576, Mod: 96, Rem: 0, Public: true},
			{Loc: "R8", Region: "frame", Lo: uint64(8 * j), Hi: uint64(8 * j), Public: true},
			{Loc: "DI", Region: fmt.Sprintf("a[%d]", j), Lo: 0, Hi: 0, Public: true},
			{Loc: "frame+1632", Lo: 1, Hi: 16, Public: true},
		}
		// Counts of the states already handled in this block.
		for k := 0; k < 4; k++ {
			if k != j {
				facts = append(facts, check.Fact{Loc: fmt.Sprintf("frame+%d", 1600+8*k), Lo: 0, Hi: 256, Public: true})
			}
		}
		invs = append(invs, check.Invariant{Label: fmt.Sprintf("s%dreject", j), Facts: facts, PublicRanges: state})
	}
	return invs
}
