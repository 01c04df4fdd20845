package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func init() { register("highbits", buildHighBits) }

// buildHighBits emits HighBits (FIPS 204, Algorithm 37) on a polynomial,
// for each γ2 of Table 1: HighBits32AVX2 and HighBits88AVX2, and the
// baseline HighBits32AMD64 and HighBits88AMD64.
func buildHighBits(c *build.Context) {
	for _, div := range []int{32, 88} {
		name := fmt.Sprintf("HighBits%dAVX2", div)
		c.Function(name)
		c.SignatureExpr("func(w1, w *[256]uint32)")
		c.Doc(
			name+" sets w1[i] = HighBits(w[i]) (FIPS 204, Algorithm 37) for",
			fmt.Sprintf("γ2 = (q−1)/%d and every w[i] in [0, q). The polynomials must not", div),
			"overlap. No branch or address depends on the coefficients. Needs AVX2.",
		)
		c.Pragma("noescape")
		k := newVconsts(c, fmt.Sprintf("highBits%dConsts", div))
		c.Load(c.Param("w1"), reg.RDI)
		c.Load(c.Param("w"), reg.RSI)
		coeffLoop(c, "loop", 32/avx2Unroll, 32*avx2Unroll, []reg.GPPhysical{reg.RSI, reg.RDI}, func() {
			for u := 0; u < avx2Unroll; u++ {
				c.VMOVDQU(operand.Mem{Base: reg.RSI, Disp: 32 * u}, reg.Y0)
				avx2HighBits(c, k, div, reg.Y0, reg.Y1, reg.Y2)
				c.VMOVDQU(reg.Y1, operand.Mem{Base: reg.RDI, Disp: 32 * u})
			}
		})
		c.VZEROUPPER()
		c.RET()
		k.emit()

		name = fmt.Sprintf("HighBits%dAMD64", div)
		c.Function(name)
		c.SignatureExpr("func(w1, w *[256]uint32)")
		c.Doc(
			name+" sets w1[i] = HighBits(w[i]) (FIPS 204, Algorithm 37) for",
			fmt.Sprintf("γ2 = (q−1)/%d and every w[i] in [0, q). The polynomials must not", div),
			"overlap. No branch or address depends on the coefficients. Baseline x86-64.",
		)
		c.Pragma("noescape")
		c.Load(c.Param("w1"), reg.RDI)
		c.Load(c.Param("w"), reg.RSI)
		coeffLoop(c, "loop", 256/gprUnroll, 4*gprUnroll, []reg.GPPhysical{reg.RSI, reg.RDI}, func() {
			for u := 0; u < gprUnroll; u++ {
				c.MOVL(operand.Mem{Base: reg.RSI, Disp: 4 * u}, reg.EAX)
				gprHighBits(c, div, reg.EAX, reg.EDX, reg.EBX)
				c.MOVL(reg.EDX, operand.Mem{Base: reg.RDI, Disp: 4 * u})
			}
		})
		c.RET()
	}
}
