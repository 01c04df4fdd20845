// Package proofs holds the hints the checker (Spec/check) needs to finish
// its proofs: loop invariants per routine and loop head. Nothing here is
// trusted: the checker assumes an invariant only after checking that every
// path into the loop head establishes it, so a wrong hint makes a check
// fail, never pass.
package proofs

import (
	"fmt"

	"github.com/vg-crypto/vg/Spec/check"
	"github.com/vg-crypto/vg/Spec/contract"
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

// maxBlocks is the number of SHAKE128 blocks the samplers may squeeze.
const maxBlocks = contract.RejNTTPolyBlocks

func pub(loc string, lo, hi uint64) check.Fact {
	return check.Fact{Loc: loc, Lo: lo, Hi: hi, Public: true}
}

// RejNTTPolyAMD64's frame (Emit/rejnttpoly.go): the Keccak state at
// 0..199, the count of accepted coefficients at 400, the number of blocks
// still allowed at 408. The rejection loop takes 8 three-byte groups
// (24 bytes) per step from the rate (168 bytes) of the state.
func rejNTTPolyAMD64() []check.Invariant {
	state := [][2]int{{0, 200}}
	return []check.Invariant{
		{
			Label:        "block",
			Facts:        []check.Fact{pub("frame+400", 0, 255), pub("frame+408", 1, maxBlocks)},
			PublicRanges: state,
		},
		{
			Label: "reject",
			Facts: []check.Fact{
				pub("CX", 0, 255),
				{Loc: "SI", Lo: 0, Hi: 144, Mod: 24, Public: true},
				{Loc: "R8", Region: "frame", Public: true},
				{Loc: "DI", Region: "a", Public: true},
				pub("frame+408", 1, maxBlocks),
			},
			PublicRanges: state,
		},
	}
}

// RejNTTPolyx4AVX2's frame (Emit/rejnttpolyx4.go): four interleaved
// Keccak states at 0..799, the squeezed rate of state j at 1600+192j, the
// counts at 2368+8j, the blocks still allowed at 2400. R12 and R13 point
// to the packing and count tables; Y13–Y15 hold public constants.
func rejNTTPolyx4AVX2() []check.Invariant {
	state := [][2]int{{0, 800}}
	kept := []check.Fact{
		{Loc: "R12", Region: "rejPack", Public: true},
		{Loc: "R13", Region: "rejCount", Public: true},
		{Loc: "Y13", Any: true, Public: true},
		{Loc: "Y14", Any: true, Public: true},
		{Loc: "Y15", Any: true, Public: true},
		pub("frame+2400", 1, maxBlocks),
	}
	count := func(j int) string { return fmt.Sprintf("frame+%d", 2368+8*j) }
	block := append([]check.Fact{}, kept...)
	for j := 0; j < 4; j++ {
		block = append(block, pub(count(j), 0, 256))
	}
	invs := []check.Invariant{{Label: "block", Facts: block, PublicRanges: state}}
	for j := 0; j < 4; j++ {
		facts := append([]check.Fact{}, kept...)
		facts = append(facts,
			pub("CX", 0, 255),
			check.Fact{Loc: "SI", Lo: 0, Hi: 144, Mod: 24, Public: true},
			check.Fact{Loc: "R8", Region: "frame", Lo: uint64(1600 + 192*j), Hi: uint64(1600 + 192*j), Public: true},
			check.Fact{Loc: "DI", Region: fmt.Sprintf("a[%d]", j), Public: true},
		)
		for k := 0; k < 4; k++ {
			if k != j {
				facts = append(facts, pub(count(k), 0, 256))
			}
		}
		// The squeezed rates are public (derived from the public seeds).
		invs = append(invs, check.Invariant{Label: fmt.Sprintf("s%dreject", j), Facts: facts,
			PublicRanges: [][2]int{{0, 800}, {1600, 768}}})
	}
	return invs
}
