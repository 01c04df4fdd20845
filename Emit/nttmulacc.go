package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The rows of MatrixVectorNTT (FIPS 204, Algorithm 48), one symbol per ℓ
// of ML-DSA-44, -65 and -87 (Table 1), all in one file, on the body of
// MultiplyNTT (nttmul.go). Each has its own constants table, so that each
// symbol stands alone.
func init() { register("nttmulacc", buildMultiplyAccNTT) }

// buildMultiplyAccNTT emits MultiplyAccNTT<ℓ>AMD64 (nttsse2.go),
// MultiplyAccNTT<ℓ>AVX2 and MultiplyAccNTT<ℓ>AVX512 (nttavx512.go) for
// ℓ = 4, 5 and 7.
func buildMultiplyAccNTT(c *build.Context) {
	for _, l := range []int{4, 5, 7} {
		sseMulAcc(c, fmt.Sprintf("MultiplyAccNTT%dAMD64", l), fmt.Sprintf("mulAcc%dConstsSSE2", l), l, func(j, i int) (a, b operand.Mem) {
			return operand.Mem{Base: reg.RSI, Disp: 1024*j + 16*i}, operand.Mem{Base: reg.RDX, Disp: 1024*j + 16*i}
		})
		function(c, fmt.Sprintf("MultiplyAccNTT%dAVX2", l))
		mulAccRoutine(c, fmt.Sprintf("mulAcc%dConsts", l), l, func(j, i int) (a, b operand.Mem) {
			return operand.Mem{Base: reg.RSI, Disp: 1024*j + 32*i}, operand.Mem{Base: reg.RDX, Disp: 1024*j + 32*i}
		})
	}
	for _, l := range []int{4, 5, 7} {
		zMulAccRoutine(c, fmt.Sprintf("MultiplyAccNTT%dAVX512", l), fmt.Sprintf("mulAcc%dConstsAVX512", l), l, func(j, i int) (a, b operand.Mem) {
			return operand.Mem{Base: reg.RSI, Disp: 1024*j + 64*i}, operand.Mem{Base: reg.RDX, Disp: 1024*j + 64*i}
		})
	}
}
