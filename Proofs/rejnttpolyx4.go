package proofs

import (
	"fmt"

	"github.com/vg-crypto/vg/Spec/check"
)

func init() { invariants["RejNTTPolyx4AVX2"] = rejNTTPolyx4AVX2 }

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
