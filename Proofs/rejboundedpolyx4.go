package proofs

import (
	"fmt"

	"github.com/vg-crypto/vg/Spec/check"
)

func init() {
	invariants["RejBoundedPolyx4Eta2AVX2"] = rejBoundedPolyx4AVX2
	invariants["RejBoundedPolyx4Eta4AVX2"] = rejBoundedPolyx4AVX2
	// The same code, calling the AVX-512 permutation.
	invariants["RejBoundedPolyx4Eta2AVX512"] = rejBoundedPolyx4AVX2
	invariants["RejBoundedPolyx4Eta4AVX512"] = rejBoundedPolyx4AVX2
}

// RejBoundedPolyx4Eta{2,4}AVX2's frame (Emit/rejboundedpolyx4.go): the
// permutation's argument at 0, four interleaved Keccak states at 8..807
// (secret: absorbed from ρ′), the rate of state j de-interleaved at
// boundedx4Rate(j), the counts at boundedx4Count(j) (secret: they follow
// the rejections), the blocks still allowed at 1384. In the rejection
// loops R12 and R13 point to the packing and count tables and Y7–Y15 hold
// public constants, loaded after each call of the permutation; the loops
// read boundedPassAVX2 bytes a pass.
const (
	boundedPassAVX2 = 4
	boundedx4State  = 8
	boundedx4Blocks = "frame+1384"
)

// boundedKept are the vector registers of constants (Y9 is read for η = 2
// only, and loaded for both).
var boundedKept = []string{"Y7", "Y8", "Y9", "Y10", "Y11", "Y12", "Y13", "Y14", "Y15"}

func boundedx4Rate(j int) int     { return 808 + 136*j }
func boundedx4Count(j int) string { return fmt.Sprintf("frame+%d", 1352+8*j) }

func rejBoundedPolyx4AVX2() []check.Invariant {
	blocks := pub(boundedx4Blocks, 1, maxBoundedBlocks)
	count := func(j int) check.Fact { return check.Fact{Loc: boundedx4Count(j), Lo: 0, Hi: 256} }
	block := []check.Fact{blocks}
	for j := 0; j < 4; j++ {
		block = append(block, count(j))
	}
	invs := []check.Invariant{{Label: "block", Facts: block}}
	for j := 0; j < 4; j++ {
		facts := []check.Fact{
			blocks,
			{Loc: "R12", Region: "boundedPack", Public: true},
			{Loc: "R13", Region: "boundedCount", Public: true},
		}
		for _, y := range boundedKept {
			facts = append(facts, check.Fact{Loc: y, Any: true, Public: true})
		}
		facts = append(facts, []check.Fact{
			{Loc: "CX", Lo: 0, Hi: 256},
			{Loc: "SI", Lo: 0, Hi: 136 - boundedPassAVX2, Mod: boundedPassAVX2, Public: true},
			{Loc: "R8", Region: "frame", Lo: uint64(boundedx4Rate(j)), Hi: uint64(boundedx4Rate(j)), Public: true},
			{Loc: "DI", Region: fmt.Sprintf("a[%d]", j), Public: true},
		}...)
		for k := 0; k < 4; k++ {
			if k != j {
				facts = append(facts, count(k))
			}
		}
		invs = append(invs, check.Invariant{Label: fmt.Sprintf("s%dreject", j), Facts: facts})
	}
	return invs
}
