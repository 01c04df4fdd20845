package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func init() { register("usehint", buildUseHint) }

// buildUseHint emits UseHint (FIPS 204, Algorithm 40) on a polynomial,
// for each γ2 of Table 1, AVX2 and baseline. With m = (q−1)/(2γ2) (16 or
// 44), r1 ± 1 lies in [−1, m]; the result is taken mod m.
func buildUseHint(c *build.Context) {
	for _, div := range []int{32, 88} {
		for _, avx2 := range []bool{true, false} {
			name := fmt.Sprintf("UseHint%d%s", div, suffix(avx2))
			doc := []string{
				name + " sets w1[i] = UseHint(h[i], r[i]) (FIPS 204, Algorithm 40)",
				fmt.Sprintf("for γ2 = (q−1)/%d, every h[i] in {0, 1} and r[i] in [0, q). The", div),
				"polynomials must not overlap.",
				variantDoc(avx2),
			}
			sig := "func(w1, h, r *[256]uint32)"
			params := []string{"w1", "h", "r"}
			m := uint32(mldsaQ-1) / (2 * gamma2(div))
			if avx2 {
				k := newVconsts(c, fmt.Sprintf("useHint%dConsts", div))
				coeffRoutine(c, name, sig, doc, true, params, []reg.GPPhysical{reg.RDI, reg.RSI, reg.R12},
					func() { c.VPXOR(reg.Y9, reg.Y9, reg.Y9) },
					func(u int) {
						c.VMOVDQU(ymm(reg.R12, u), reg.Y0)
						avx2HighBits(c, k, div, reg.Y0, reg.Y1, reg.Y2)
						avx2LowBits(c, k, div, reg.Y0, reg.Y1, reg.Y3, reg.Y2)
						// δ = (r0 > 0 ? 1 : −1) where h = 1, else 0:
						// ¬(2·[r0 > 0 as −1 or 0]) ∧ (−h).
						c.VPCMPGTD(reg.Y9, reg.Y3, reg.Y2)
						c.VPADDD(reg.Y2, reg.Y2, reg.Y2)
						c.VPSUBD(ymm(reg.RSI, u), reg.Y9, reg.Y5)
						c.VPANDN(reg.Y5, reg.Y2, reg.Y2)
						c.VPADDD(reg.Y2, reg.Y1, reg.Y1)
						if m == 16 {
							c.VPAND(k.of(15), reg.Y1, reg.Y1)
						} else {
							c.VPSRAD(operand.U8(31), reg.Y1, reg.Y2) // −1 → m − 1
							c.VPAND(k.of(m), reg.Y2, reg.Y2)
							c.VPADDD(reg.Y2, reg.Y1, reg.Y1)
							c.VPCMPGTD(k.of(m-1), reg.Y1, reg.Y2) // m → 0
							c.VPANDN(reg.Y1, reg.Y2, reg.Y1)
						}
						c.VMOVDQU(reg.Y1, ymm(reg.RDI, u))
					}, nil)
				k.emit()
				continue
			}
			coeffRoutine(c, name, sig, doc, false, params, []reg.GPPhysical{reg.RDI, reg.RSI, reg.R12},
				nil,
				func(u int) {
					c.MOVL(word(reg.R12, u), reg.EAX)
					gprHighBits(c, div, reg.EAX, reg.EDX, reg.EBX)
					gprLowBits(c, div, reg.EAX, reg.EDX, reg.R11L, reg.EBX)
					// δ = ¬(2·((0 − r0) >> 31)) ∧ (0 − h), arithmetic shift.
					c.XORL(reg.EBX, reg.EBX)
					c.SUBL(reg.R11L, reg.EBX)
					c.SARL(operand.U8(31), reg.EBX)
					c.ADDL(reg.EBX, reg.EBX)
					c.NOTL(reg.EBX)
					c.XORL(reg.R9L, reg.R9L)
					c.SUBL(word(reg.RSI, u), reg.R9L)
					c.ANDL(reg.R9L, reg.EBX)
					c.ADDL(reg.EBX, reg.EDX)
					if m == 16 {
						c.ANDL(operand.U32(15), reg.EDX)
					} else {
						c.MOVL(reg.EDX, reg.EBX) // −1 → m − 1
						c.SARL(operand.U8(31), reg.EBX)
						c.ANDL(operand.U32(m), reg.EBX)
						c.ADDL(reg.EBX, reg.EDX)
						c.MOVL(operand.U32(m-1), reg.EBX) // m → 0
						c.SUBL(reg.EDX, reg.EBX)
						c.SARL(operand.U8(31), reg.EBX)
						c.ANDL(reg.EDX, reg.EBX)
						c.XORL(reg.EBX, reg.EDX)
					}
					c.MOVL(reg.EDX, word(reg.RDI, u))
				}, nil)
		}
	}
}
