package main

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func init() { register("power2round", buildPower2Round) }

// buildPower2Round emits Power2Round (FIPS 204, Algorithm 35) on a
// polynomial, AVX2 and baseline: r1 = ⌊(r + 2¹² − 1)/2¹³⌋ and
// r0 = r − r1·2¹³ ∈ [−2¹² + 1, 2¹²], returned mod q.
func buildPower2Round(c *build.Context) {
	for _, avx2 := range []bool{true, false} {
		name := "Power2RoundPoly" + suffix(avx2)
		doc := []string{
			name + " sets (t1[i], t0[i] mod q) = Power2Round(t[i]) (FIPS 204,",
			"Algorithm 35) for every t[i] in [0, q). The polynomials must not overlap.",
			variantDoc(avx2),
		}
		sig := "func(t1, t0, t *[256]uint32)"
		params := []string{"t1", "t0", "t"}
		regs := []reg.GPPhysical{reg.RDI, reg.R8, reg.RSI}
		if avx2 {
			k := newVconsts(c, "power2RoundConsts")
			// The constants stay in registers: as memory operands
			// they tripled the loads.
			half, mask, q := reg.Y13, reg.Y14, reg.Y15
			coeffRoutine(c, name, sig, doc, true, params, regs,
				func() {
					c.VMOVDQU(k.of(1<<12-1), half)
					c.VMOVDQU(k.of(^uint32(1<<13-1)), mask)
					c.VMOVDQU(k.of(mldsaQ), q)
				},
				func(u int) {
					c.VMOVDQU(ymm(reg.RSI, u), reg.Y0)
					c.VPADDD(half, reg.Y0, reg.Y1)
					c.VPSRAD(operand.U8(13), reg.Y1, reg.Y2) // t + 2¹² − 1 < 2³¹
					c.VMOVDQU(reg.Y2, ymm(reg.RDI, u))
					// r1·2¹³ is t + 2¹² − 1 with its low 13 bits
					// cleared: no multiplication.
					c.VPAND(mask, reg.Y1, reg.Y1)
					c.VPSUBD(reg.Y1, reg.Y0, reg.Y0)
					// r0 mod q: of r0 and r0 + q, the smaller as
					// unsigned words (r0 < 0 wraps above r0 + q).
					c.VPADDD(q, reg.Y0, reg.Y1)
					c.VPMINUD(reg.Y1, reg.Y0, reg.Y0)
					c.VMOVDQU(reg.Y0, ymm(reg.R8, u))
				}, nil)
			k.emit()
			continue
		}
		coeffRoutine(c, name, sig, doc, false, params, regs, nil,
			func(u int) {
				c.MOVL(word(reg.RSI, u), reg.EAX)
				c.MOVL(reg.EAX, reg.EDX)
				c.ADDL(operand.U32(1<<12-1), reg.EDX)
				c.SHRL(operand.U8(13), reg.EDX)
				c.MOVL(reg.EDX, word(reg.RDI, u))
				c.SHLL(operand.U8(13), reg.EDX)
				c.SUBL(reg.EDX, reg.EAX)
				c.MOVL(reg.EAX, reg.EBX)
				c.SARL(operand.U8(31), reg.EBX)
				c.ANDL(operand.U32(mldsaQ), reg.EBX)
				c.ADDL(reg.EBX, reg.EAX)
				c.MOVL(reg.EAX, word(reg.R8, u))
			}, nil)
	}
}
