package proofs

import (
	"fmt"

	"github.com/vg-crypto/vg/Spec/check"
)

func init() {
	invariants["RejNTTPolyx4AVX2"] = rejNTTPolyx4AVX2
	// The same code, calling the AVX-512 permutation.
	invariants["RejNTTPolyx4AVX512"] = rejNTTPolyx4AVX2
}

// RejNTTPolyx4AVX2's frame (Emit/rejnttpolyx4.go): the permutation's
// argument at 0, four interleaved Keccak states at 8..807, the squeezed
// rate of state j at 808+192j, the counts at 1576+8j, the blocks still
// allowed at 1608. In the rejection loops R12 and R13 point to the
// packing and count tables and Y13–Y15 hold public constants, loaded
// after each call of the permutation.
func rejNTTPolyx4AVX2() []check.Invariant { return rejNTTPolyWide(4) }

// rejNTTPolyWide gives the invariants of the n-way routine (n = 4 or 8),
// whose frame is the four-way one's with n states: the argument at 0,
// the states at 8 (200n bytes), the rates at 8+200n (192 bytes each),
// the counts after them, then the blocks.
func rejNTTPolyWide(n int) []check.Invariant {
	rates := 8 + 200*n
	counts := rates + 192*n
	state := [][2]int{{8, 200 * n}}
	blocks := pub(fmt.Sprintf("frame+%d", counts+8*n), 1, maxBlocks)
	tables := "" // the eight-way routine's tables carry a suffix
	if n == 8 {
		tables = "8"
	}
	kept := []check.Fact{
		{Loc: "R12", Region: "rejPack" + tables, Public: true},
		{Loc: "R13", Region: "rejCount" + tables, Public: true},
		{Loc: "Y13", Any: true, Public: true},
		{Loc: "Y14", Any: true, Public: true},
		{Loc: "Y15", Any: true, Public: true},
		blocks,
	}
	count := func(j int) string { return fmt.Sprintf("frame+%d", counts+8*j) }
	block := []check.Fact{blocks}
	for j := 0; j < n; j++ {
		block = append(block, pub(count(j), 0, 256))
	}
	invs := []check.Invariant{{Label: "block", Facts: block, PublicRanges: state}}
	for j := 0; j < n; j++ {
		facts := append([]check.Fact{}, kept...)
		facts = append(facts,
			pub("CX", 0, 256), // 256: the pass before completed it
			check.Fact{Loc: "SI", Lo: 0, Hi: 144, Mod: 24, Public: true},
			check.Fact{Loc: "R8", Region: "frame", Lo: uint64(rates + 192*j), Hi: uint64(rates + 192*j), Public: true},
			check.Fact{Loc: "DI", Region: fmt.Sprintf("a[%d]", j), Public: true},
		)
		for k := 0; k < n; k++ {
			if k != j {
				facts = append(facts, pub(count(k), 0, 256))
			}
		}
		// The squeezed rates are public (derived from the public seeds).
		invs = append(invs, check.Invariant{Label: fmt.Sprintf("s%dreject", j), Facts: facts,
			PublicRanges: [][2]int{{8, 200 * n}, {rates, 192 * n}}})
	}
	return invs
}
