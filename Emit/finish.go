package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func init() { register("finish", buildFinish) }

// buildFinish emits SHAKE256FinishAMD64 and SHAKE256FinishBMI2, which
// differ only in the permutation they call.
func buildFinish(c *build.Context) {
	finish(c, "SHAKE256FinishAMD64", "KeccakF1600AMD64")
	finish(c, "SHAKE256FinishBMI2", "KeccakF1600BMI2")
}

// finish emits one routine: for n ≤ 135, the first n bytes of the tail
// XORed into the state byte by byte (a compare of the public n before
// each), 0x1F into byte n and 0x80 into byte 135 (PadBlock, FIPS 202
// §6.2 and Algorithm 9), a call of perm on the state, and the first 64
// bytes of the rate copied to out (Algorithm 8, step 8). The pointers
// are reloaded from the arguments after the call (the stack may move).
func finish(c *build.Context, sym, perm string) {
	args := newCallFrame(c, callerOnStack, sym, 8).args
	c.Load(c.Param("n"), reg.RAX)
	c.MOVQ(operand.Mem{Base: reg.RAX}, reg.RCX)
	c.Comment(fmt.Sprintf("n > %d: nothing written.", shake256Rate-1))
	c.CMPQ(reg.RCX, operand.U32(shake256Rate-1))
	c.JHI(operand.LabelRef("done"))
	c.Load(c.Param("a"), reg.RDI)
	c.Load(c.Param("tail"), reg.RSI)
	c.Comment("S ⊕ tail, byte i while i < n.")
	for i := 0; i < shake256Rate-1; i++ {
		c.CMPQ(reg.RCX, operand.U32(i))
		c.JLS(operand.LabelRef("pad"))
		c.MOVBLZX(operand.Mem{Base: reg.RSI, Disp: i}, reg.EAX)
		c.MOVBLZX(operand.Mem{Base: reg.RDI, Disp: i}, reg.EDX)
		c.XORL(reg.EDX, reg.EAX)
		c.MOVB(reg.AL, operand.Mem{Base: reg.RDI, Disp: i})
	}
	c.Label("pad")
	c.Comment("S ⊕ pad: 0x1F at n, 0x80 at the last byte of the rate.")
	c.MOVBLZX(operand.Mem{Base: reg.RDI, Index: reg.RCX, Scale: 1}, reg.EAX)
	c.XORL(operand.U32(0x1F), reg.EAX)
	c.MOVB(reg.AL, operand.Mem{Base: reg.RDI, Index: reg.RCX, Scale: 1})
	c.MOVBLZX(operand.Mem{Base: reg.RDI, Disp: shake256Rate - 1}, reg.EAX)
	c.XORL(operand.U32(0x80), reg.EAX)
	c.MOVB(reg.AL, operand.Mem{Base: reg.RDI, Disp: shake256Rate - 1})
	c.Comment("S = f(S), then the first 64 bytes of the rate.")
	c.MOVQ(reg.RDI, args)
	c.CALL(callee(perm))
	c.Load(c.Param("a"), reg.RDI)
	c.Load(c.Param("out"), reg.RSI)
	for i := 0; i < 8; i++ {
		c.MOVQ(operand.Mem{Base: reg.RDI, Disp: 8 * i}, reg.RAX)
		c.MOVQ(reg.RAX, operand.Mem{Base: reg.RSI, Disp: 8 * i})
	}
	c.Label("done")
	c.RET()
}
