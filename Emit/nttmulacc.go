package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The rows of MatrixVectorNTT (FIPS 204, Algorithm 48), one per ℓ of
// ML-DSA-44, -65 and -87 (Table 1), on the body of MultiplyNTT (nttmul.go).
func init() {
	for _, l := range []int{4, 5, 7} {
		register(fmt.Sprintf("nttmulacc%d", l), buildMultiplyAccNTT(l))
	}
}

// buildMultiplyAccNTT returns the emitter of MultiplyAccNTT<ℓ>AVX2.
func buildMultiplyAccNTT(l int) func(c *build.Context) {
	return func(c *build.Context) {
		function(c, fmt.Sprintf("MultiplyAccNTT%dAVX2", l))
		mulAccRoutine(c, l, func(j, i int) (a, b operand.Mem) {
			return operand.Mem{Base: reg.RSI, Disp: 1024*j + 32*i}, operand.Mem{Base: reg.RDX, Disp: 1024*j + 32*i}
		})
	}
}
