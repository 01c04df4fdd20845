package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
)

// The rows of MatrixVectorNTT (FIPS 204, Algorithm 48), one symbol per ℓ
// of ML-DSA-44, -65 and -87 (Table 1), all in one file, on the body of
// MultiplyNTT (nttmul.go). Each has its own constants table, so that each
// symbol stands alone.
func init() { register("nttmulacc", buildMultiplyAccNTT) }

// mulAccPasses is the number of passes of the AVX2 rows' loop, two groups
// of eight coefficients a pass.
const mulAccPasses = 16

// buildMultiplyAccNTT emits MultiplyAccNTT<ℓ>AMD64 (nttsse2.go),
// MultiplyAccNTT<ℓ>AVX2 and MultiplyAccNTT<ℓ>AVX512 for ℓ = 4, 5 and 7.
func buildMultiplyAccNTT(c *build.Context) {
	for _, l := range []int{4, 5, 7} {
		sseMulAcc(c, fmt.Sprintf("MultiplyAccNTT%dAMD64", l), fmt.Sprintf("mulAcc%dConstsSSE2", l), l)
		mulAccRoutine(c, newNTTGen(c, fmt.Sprintf("mulAcc%dConsts", l)), fmt.Sprintf("MultiplyAccNTT%dAVX2", l), l, mulAccPasses)
	}
	for _, l := range []int{4, 5, 7} {
		mulAccRoutine(c, newZGen(c, fmt.Sprintf("mulAcc%dConstsAVX512", l)), fmt.Sprintf("MultiplyAccNTT%dAVX512", l), l, 1)
	}
}
