package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func init() { register("lowbitsexceed", buildLowBitsExceed) }

// buildLowBitsExceed emits the check of Algorithm 7, line 23 on r0:
// whether ‖LowBits(w)‖∞ ≥ bound (LowBits: Algorithm 38), for each γ2 of
// Table 1, AVX2 and baseline.
func buildLowBitsExceed(c *build.Context) {
	for _, div := range []int{32, 88} {
		for _, avx2 := range []bool{true, false} {
			name := fmt.Sprintf("LowBitsExceed%d%s", div, suffix(avx2))
			doc := []string{
				name + " sets *exceeds to 1 if |LowBits(w[i])| ≥ *bound for some i",
				fmt.Sprintf("(FIPS 204, Algorithm 38 and Algorithm 7, line 23), else to 0; γ2 = (q−1)/%d,", div),
				"every w[i] in [0, q), *bound < 2³¹. It looks at every coefficient.",
				variantDoc(avx2),
			}
			if avx2 {
				k := newVconsts(c, fmt.Sprintf("lowBitsExceed%dConsts", div))
				exceedsRoutine(c, name, doc, k, nil,
					func(u int) {
						c.VMOVDQU(ymm(reg.RSI, u), reg.Y0)
						avx2HighBits(c, k, div, reg.Y0, reg.Y1, reg.Y2)
						avx2LowBits(c, k, div, reg.Y0, reg.Y1, reg.Y3, reg.Y2)
						// |r0| = (r0 ⊕ s) − s, s = r0 >> 31 (arithmetic).
						c.VPSRAD(operand.U8(31), reg.Y3, reg.Y4)
						c.VPXOR(reg.Y4, reg.Y3, reg.Y3)
						c.VPSUBD(reg.Y4, reg.Y3, reg.Y3)
						c.VPCMPGTD(reg.Y3, reg.Y8, reg.Y2) // bound > |r0|
					}, nil)
				k.emit()
				continue
			}
			exceedsRoutine(c, name, doc, nil, nil, nil, func(u int) operand.Op {
				c.MOVL(word(reg.RSI, u), reg.EAX)
				gprHighBits(c, div, reg.EAX, reg.EDX, reg.EBX)
				gprLowBits(c, div, reg.EAX, reg.EDX, reg.R11L, reg.EBX)
				// |r0| = (r0 ⊕ s) − s, s = r0 >> 31 (arithmetic).
				c.MOVL(reg.R11L, reg.EBX)
				c.SARL(operand.U8(31), reg.EBX)
				c.XORL(reg.EBX, reg.R11L)
				c.SUBL(reg.EBX, reg.R11L)
				return reg.R11L
			})
		}
	}
}
