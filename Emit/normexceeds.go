package main

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func init() { register("normexceeds", buildNormExceeds) }

// buildNormExceeds emits the infinity-norm check of Algorithm 7, lines 23
// and 28, and Algorithm 8, line 13: whether ‖w‖∞ ≥ bound, AVX2 and
// baseline.
func buildNormExceeds(c *build.Context) {
	for _, avx2 := range []bool{true, false} {
		name := "NormExceeds" + suffix(avx2)
		doc := []string{
			name + " sets *exceeds to 1 if |w[i] mod± q| ≥ *bound for some i (‖w‖∞ ≥",
			"bound, FIPS 204, §2.3), else to 0, for every w[i] in [0, q) and *bound < 2³¹.",
			"It looks at every coefficient.",
			variantDoc(avx2),
		}
		if avx2 {
			k := newVconsts(c, "normExceedsConsts")
			exceedsRoutine(c, name, doc, k,
				func() { c.VMOVDQU(k.of(mldsaQ), reg.Y10) },
				func(u int) {
					// |r mod± q| = min(r, q − r) for r in [0, q): it is
					// below the bound when r or q − r is.
					c.VMOVDQU(ymm(reg.RSI, u), reg.Y0)
					c.VPSUBD(reg.Y0, reg.Y10, reg.Y1)
					c.VPCMPGTD(reg.Y0, reg.Y8, reg.Y2) // bound > r
					c.VPCMPGTD(reg.Y1, reg.Y8, reg.Y1) // bound > q − r
					c.VPOR(reg.Y1, reg.Y2, reg.Y2)
				}, nil)
			k.emit()
			continue
		}
		exceedsRoutine(c, name, doc, nil, nil, nil, func(u int) operand.Op {
			// |r mod± q| = r, or q − r when r > (q−1)/2.
			c.MOVL(word(reg.RSI, u), reg.EAX)
			c.MOVL(operand.U32((mldsaQ-1)/2), reg.EBX)
			c.SUBL(reg.EAX, reg.EBX)
			c.SARL(operand.U8(31), reg.EBX)
			c.MOVL(operand.U32(mldsaQ), reg.EDX)
			c.SUBL(reg.EAX, reg.EDX)
			c.XORL(reg.EAX, reg.EDX)
			c.ANDL(reg.EBX, reg.EDX)
			c.XORL(reg.EDX, reg.EAX)
			return reg.EAX
		})
	}
}
