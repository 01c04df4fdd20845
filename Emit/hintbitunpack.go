package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func init() { register("hintbitunpack", buildHintBitUnpack) }

// buildHintBitUnpack emits HintBitUnpack44AMD64, HintBitUnpack65AMD64 and
// HintBitUnpack87AMD64.
func buildHintBitUnpack(c *build.Context) {
	for _, ps := range paramSets {
		hintBitUnpack(c, "HintBitUnpack"+ps.name+"AMD64", ps.p.K, ps.p.Omega)
	}
}

// The mask of polynomial i's ones (Algorithm 21, line 12): bit b of word
// b div 64 is set where h[i]_b = 1.
var unpackMask = [4]reg.GPPhysical{reg.R8, reg.R9, reg.R11, reg.R14}

// hintBitUnpack emits HintBitUnpack (Algorithm 21) for k and ω. DI is y,
// R10 Index, R12 the least position the next one may take (0 for a
// polynomial's first, else the last position + 1: line 9), R13 nonzero
// once a position is out of order (lines 8 and 9) or a padding byte is
// not 0 (line 17); i and the polynomial's end are in the frame. The
// counts (line 4) choose branches and so do the loops' bounds; each
// position sets its bit of the mask without a branch or an address that
// depends on it, by selections on its bits, and the mask becomes h[i]
// with SSE2 at the polynomial's end. A position out of order or a nonzero
// padding byte does not stop the routine: it returns false at the end.
func hintBitUnpack(c *build.Context, sym string, k, ω int) {
	function(c, sym)
	iSlot := c.AllocLocal(8)
	endSlot := c.AllocLocal(8)
	spill := c.AllocLocal(48) // the mask, and 16 bytes of room for its loads
	y, index, lo, bad := reg.RDI, reg.R10, reg.R12, reg.R13
	c.Load(c.Param("y"), y)
	c.Comment("Line 2: Index ← 0.")
	c.XORL(index.As32(), index.As32())
	c.XORL(bad.As32(), bad.As32())
	c.MOVQ(operand.U32(0), iSlot)

	c.Label("poly")
	c.Comment(fmt.Sprintf("Line 4: ⊥ unless Index ≤ y[ω + i] ≤ ω = %d.", ω))
	c.MOVQ(iSlot, reg.RAX)
	c.MOVBQZX(operand.Mem{Base: y, Index: reg.RAX, Scale: 1, Disp: ω}, reg.RDX)
	c.CMPQ(reg.RDX, index)
	c.JCS(operand.LabelRef("fail"))
	c.CMPQ(reg.RDX, operand.U32(ω))
	c.JHI(operand.LabelRef("fail"))
	c.MOVQ(reg.RDX, endSlot)
	c.XORL(lo.As32(), lo.As32())
	for _, m := range unpackMask {
		c.XORL(m.As32(), m.As32())
	}
	c.CMPQ(index, reg.RDX)
	c.JCC(operand.LabelRef("expand"))

	c.Label("coef")
	// Index < end ≤ ω here; the test bounds Index for the inductive
	// check, whose intervals do not relate it to the end.
	c.CMPQ(index, operand.U32(ω))
	c.JCC(operand.LabelRef("expand"))
	c.Comment("Lines 8 and 9: R13 ≠ 0 if y[Index] < R12 (y[Index − 1] ≥ y[Index]).")
	c.MOVBQZX(operand.Mem{Base: y, Index: index, Scale: 1}, reg.RBX)
	c.CMPQ(reg.RBX, lo)
	c.SBBQ(reg.RSI, reg.RSI)
	c.ORQ(reg.RSI, bad)
	c.LEAQ(operand.Mem{Base: reg.RBX, Disp: 1}, lo)
	c.Comment("Line 12: AX = 1 << (y[Index] mod 64), by selections on its bits.")
	c.MOVL(operand.U32(1), reg.EAX)
	for t := 0; t < 6; t++ {
		c.MOVQ(reg.RAX, reg.RDX)
		c.SHLQ(operand.U8(1<<t), reg.RDX)
		c.TESTQ(operand.U32(1<<t), reg.RBX)
		c.CMOVQNE(reg.RDX, reg.RAX)
	}
	c.Comment("Word y[Index] div 64 of the mask takes it.")
	c.SHRQ(operand.U8(6), reg.RBX)
	for w, m := range unpackMask {
		c.XORL(reg.EDX, reg.EDX)
		c.CMPQ(reg.RBX, operand.U32(w))
		c.CMOVQEQ(reg.RAX, reg.RDX)
		c.ORQ(reg.RDX, m)
	}
	c.Comment("Line 13.")
	c.INCQ(index)
	c.CMPQ(index, endSlot)
	c.JCS(operand.LabelRef("coef"))

	c.Label("expand")
	c.Comment("h[i] from the mask: word b is bit b.")
	c.Load(c.Param("h"), reg.RSI)
	c.MOVQ(iSlot, reg.RAX)
	c.SHLQ(operand.U8(10), reg.RAX)
	c.ADDQ(reg.RAX, reg.RSI)
	for w, m := range unpackMask {
		c.MOVQ(m, spill.Offset(8*w))
	}
	for w := 0; w < 4; w++ {
		for half := 0; half < 2; half++ {
			// x, the 32-bit half, in every lane; then the lanes x << 3,
			// x << 2, x << 1, x, so that lane l shifted left by 28 − 4g
			// holds bit 4g + l of x at bit 31.
			c.MOVOU(spill.Offset(8*w), reg.X0)
			c.PSHUFL(operand.U8(0x55*half), reg.X0, reg.X0)
			t := [3]reg.VecPhysical{reg.X4, reg.X5, reg.X6}
			for s, x := range t {
				c.MOVO(reg.X0, x)
				c.PSLLL(operand.U8(3-s), x)
			}
			c.PUNPCKLLQ(t[1], t[0])
			c.PUNPCKLLQ(reg.X0, t[2])
			c.PUNPCKLQDQ(t[2], t[0])
			for g := 0; g < 8; g++ {
				c.MOVO(t[0], reg.X2)
				c.PSLLL(operand.U8(28-4*g), reg.X2)
				c.PSRAL(operand.U8(31), reg.X2) // 0 or −1
				c.PXOR(reg.X3, reg.X3)
				c.PSUBL(reg.X2, reg.X3) // 0 or 1
				c.MOVOU(reg.X3, operand.Mem{Base: reg.RSI, Disp: 4 * (64*w + 32*half + 4*g)})
			}
		}
	}
	c.MOVQ(iSlot, reg.RAX)
	c.INCQ(reg.RAX)
	c.MOVQ(reg.RAX, iSlot)
	c.CMPQ(reg.RAX, operand.U32(k))
	c.JCS(operand.LabelRef("poly"))

	c.Label("pad")
	c.Comment("Lines 16 and 17: R13 ≠ 0 if a padding byte is not 0.")
	c.CMPQ(index, operand.U32(ω))
	c.JCC(operand.LabelRef("done"))
	c.MOVBQZX(operand.Mem{Base: y, Index: index, Scale: 1}, reg.RBX)
	c.ORQ(reg.RBX, bad)
	c.INCQ(index)
	c.JMP(operand.LabelRef("pad"))

	c.Label("done")
	c.XORL(reg.EAX, reg.EAX)
	c.MOVL(operand.U32(1), reg.EDX)
	c.TESTQ(bad, bad)
	c.CMOVQNE(reg.RAX, reg.RDX)
	c.MOVB(reg.DL, result(c))
	c.RET()

	c.Label("fail")
	c.MOVB(operand.U8(0), result(c))
	c.RET()
}
