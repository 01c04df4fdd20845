package main

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func init() { register("hintbitpack", buildHintBitPack) }

// buildHintBitPack emits HintBitPack44AMD64, HintBitPack65AMD64 and
// HintBitPack87AMD64.
func buildHintBitPack(c *build.Context) {
	for _, ps := range paramSets {
		hintBitPack(c, "HintBitPack"+ps.name+"AMD64", ps.p.K, ps.p.Omega)
	}
}

// hintBitPack emits HintBitPack (Algorithm 20) for k and ω: DX is i, SI
// polynomial i (h + 1024i, from DX at poly), BX j, CX Index. The branches
// and the store's address depend on the hint, which is public. The loop at
// coef reads one coefficient; a one beyond the ω-th (which the
// precondition excludes) is not stored, so no input makes it write
// outside y.
func hintBitPack(c *build.Context, sym string, k, ω int) {
	function(c, sym)
	y, h := reg.RDI, reg.R10
	c.Load(c.Param("y"), y)
	c.Load(c.Param("h"), h)
	c.Comment("Line 1: y ← 0^(ω+k).")
	c.XORL(reg.EAX, reg.EAX)
	n := ω + k
	for off := 0; off < n; {
		switch {
		case n-off >= 8:
			c.MOVQ(reg.RAX, operand.Mem{Base: y, Disp: off})
			off += 8
		case n-off >= 4:
			c.MOVL(reg.EAX, operand.Mem{Base: y, Disp: off})
			off += 4
		default:
			c.MOVB(reg.AL, operand.Mem{Base: y, Disp: off})
			off++
		}
	}
	c.Comment("Line 2: Index ← 0.")
	c.XORL(reg.ECX, reg.ECX)
	c.XORL(reg.EDX, reg.EDX)

	c.Label("poly")
	c.Comment("Line 3: polynomial i at h + 1024i.")
	c.MOVQ(reg.RDX, reg.RSI)
	c.SHLQ(operand.U8(10), reg.RSI)
	c.ADDQ(h, reg.RSI)
	c.XORL(reg.EBX, reg.EBX)

	c.Label("coef")
	c.Comment("Line 5: h[i]_j ≠ 0.")
	c.MOVL(operand.Mem{Base: reg.RSI, Index: reg.RBX, Scale: 4}, reg.EAX)
	c.TESTL(reg.EAX, reg.EAX)
	c.JEQ(operand.LabelRef("next"))
	c.CMPQ(reg.RCX, operand.U32(ω))
	c.JCC(operand.LabelRef("next"))
	c.Comment("Lines 6 and 7: y[Index] ← j, Index ← Index + 1.")
	c.MOVB(reg.BL, operand.Mem{Base: y, Index: reg.RCX, Scale: 1})
	c.INCQ(reg.RCX)
	c.Label("next")
	c.INCQ(reg.RBX)
	c.CMPQ(reg.RBX, operand.U32(256))
	c.JCS(operand.LabelRef("coef"))
	c.Comment("Line 10: y[ω + i] ← Index.")
	c.MOVB(reg.CL, operand.Mem{Base: y, Index: reg.RDX, Scale: 1, Disp: ω})
	c.INCQ(reg.RDX)
	c.CMPQ(reg.RDX, operand.U32(k))
	c.JCS(operand.LabelRef("poly"))
	c.RET()
}
