package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func init() { register("makehint", buildMakeHint) }

// buildMakeHint emits MakeHint (FIPS 204, Algorithm 39) on a polynomial,
// with the count of ones, for each γ2 of Table 1, AVX2 and baseline.
func buildMakeHint(c *build.Context) {
	for _, div := range []int{32, 88} {
		for _, avx2 := range []bool{true, false} {
			name := fmt.Sprintf("MakeHint%d%s", div, suffix(avx2))
			doc := []string{
				name + " sets h[i] = MakeHint(z[i], r[i]) (FIPS 204, Algorithm 39)",
				fmt.Sprintf("as 0 or 1 for γ2 = (q−1)/%d, and *count to the number of ones, for every", div),
				"z[i], r[i] in [0, q). The buffers must not overlap.",
				variantDoc(avx2),
			}
			sig := "func(h, z, r *[256]uint32, count *uint32)"
			params := []string{"h", "z", "r", "count"}
			if avx2 {
				k := newVconsts(c, fmt.Sprintf("makeHint%dConsts", div))
				var sum operand.Mem
				coeffRoutine(c, name, sig, doc, true, params, []reg.GPPhysical{reg.RDI, reg.RSI, reg.R12, reg.R8},
					func() {
						sum = c.AllocLocal(32)
						c.VPXOR(reg.Y9, reg.Y9, reg.Y9)    // ones so far, per lane
						c.VPXOR(reg.Y11, reg.Y11, reg.Y11) // zero
						c.VMOVDQU(k.of(mldsaQ), reg.Y10)
					},
					func(u int) {
						c.VMOVDQU(ymm(reg.R12, u), reg.Y0)
						// v = r + z mod q.
						c.VPADDD(ymm(reg.RSI, u), reg.Y0, reg.Y3)
						c.VPSUBD(reg.Y10, reg.Y3, reg.Y3)
						c.VPSRAD(operand.U8(31), reg.Y3, reg.Y4)
						c.VPAND(reg.Y10, reg.Y4, reg.Y4)
						c.VPADDD(reg.Y4, reg.Y3, reg.Y3)
						avx2HighBits(c, k, div, reg.Y0, reg.Y1, reg.Y2)
						avx2HighBits(c, k, div, reg.Y3, reg.Y4, reg.Y2)
						// The high bits lie in [0, 44): r1 ⊕ v1 > 0 exactly
						// where they differ; 0 − (−1 or 0) is the hint.
						c.VPXOR(reg.Y1, reg.Y4, reg.Y4)
						c.VPCMPGTD(reg.Y11, reg.Y4, reg.Y4)
						c.VPSUBD(reg.Y4, reg.Y11, reg.Y4)
						c.VMOVDQU(reg.Y4, ymm(reg.RDI, u))
						c.VPADDD(reg.Y4, reg.Y9, reg.Y9)
					},
					func() {
						c.VMOVDQU(reg.Y9, sum)
						c.MOVL(sum, reg.EAX)
						for off := 4; off < 32; off += 4 {
							c.ADDL(sum.Offset(off), reg.EAX)
						}
						c.MOVL(reg.EAX, operand.Mem{Base: reg.R8})
					})
				k.emit()
				continue
			}
			coeffRoutine(c, name, sig, doc, false, params, []reg.GPPhysical{reg.RDI, reg.RSI, reg.R12, reg.R8},
				func() { c.XORL(reg.R10L, reg.R10L) },
				func(u int) {
					c.MOVL(word(reg.R12, u), reg.EAX)
					// v = r + z mod q.
					c.MOVL(word(reg.RSI, u), reg.R9L)
					c.ADDL(reg.EAX, reg.R9L)
					c.SUBL(operand.U32(mldsaQ), reg.R9L)
					c.MOVL(reg.R9L, reg.EBX)
					c.SARL(operand.U8(31), reg.EBX)
					c.ANDL(operand.U32(mldsaQ), reg.EBX)
					c.ADDL(reg.EBX, reg.R9L)
					gprHighBits(c, div, reg.EAX, reg.EDX, reg.EBX)
					gprHighBits(c, div, reg.R9L, reg.R11L, reg.EBX)
					// The two high bits lie in [0, 44): they differ exactly
					// when 0 − (r1 ⊕ v1) is negative.
					c.XORL(reg.EDX, reg.R11L)
					c.XORL(reg.EBX, reg.EBX)
					c.SUBL(reg.R11L, reg.EBX)
					c.SHRL(operand.U8(31), reg.EBX)
					c.MOVL(reg.EBX, word(reg.RDI, u))
					c.ADDL(reg.EBX, reg.R10L)
				},
				func() { c.MOVL(reg.R10L, operand.Mem{Base: reg.R8}) })
		}
	}
}
