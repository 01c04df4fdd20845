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

// finish emits one routine: for n ≤ 135, the tail XORed into the state
// a word at a time while 8 bytes of it remain (a compare of the public n
// before each word), then the last n mod 8 bytes and the 0x1F after them
// as one word at byte 8⌊n/8⌋: the tail's word there masked to its low
// n mod 8 bytes (the word lies inside the 136-byte tail, as 8⌊n/8⌋ ≤
// 128), XORed with 0x1F shifted to byte n; then 0x80 into byte 135
// (PadBlock, FIPS 202 §6.2 and Algorithm 9), a call of perm on the state,
// and the first 64 bytes of the rate copied to out (Algorithm 8, step 8).
// Every address is a constant or ⌊n/8⌋ words past a pointer. The pointers
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
	c.Comment("S ⊕ tail, word w while 8w + 8 ≤ n (n ≤ 135: at most 16 words).")
	for w := 0; 8*w+8 < shake256Rate; w++ {
		c.CMPQ(reg.RCX, operand.U32(8*w+7))
		c.JLS(operand.LabelRef("last"))
		c.MOVQ(operand.Mem{Base: reg.RSI, Disp: 8 * w}, reg.RAX)
		c.XORQ(operand.Mem{Base: reg.RDI, Disp: 8 * w}, reg.RAX)
		c.MOVQ(reg.RAX, operand.Mem{Base: reg.RDI, Disp: 8 * w})
	}
	c.Label("last")
	c.Comment("S ⊕ the last n mod 8 bytes of the tail and 0x1F at n: word ⌊n/8⌋.",
		"AX = 1 and R8 = 0x1F shifted by 8(n mod 8), by n's bits 2, 1, 0.")
	c.MOVQ(reg.RCX, reg.RDX)
	c.SHRQ(operand.U8(3), reg.RDX)
	c.MOVL(operand.U32(1), reg.EAX)
	c.MOVL(operand.U32(0x1F), reg.R8L)
	for _, bit := range []int{4, 2, 1} {
		next := fmt.Sprintf("shifted%d", bit)
		c.TESTQ(operand.U32(bit), reg.RCX)
		c.JEQ(operand.LabelRef(next))
		c.SHLQ(operand.U8(8*bit), reg.RAX)
		c.SHLQ(operand.U8(8*bit), reg.R8)
		c.Label(next)
	}
	c.Comment("The tail's word ⌊n/8⌋ below byte n (inside the tail: 8⌊n/8⌋ ≤ 128).")
	c.DECQ(reg.RAX)
	c.ANDQ(operand.Mem{Base: reg.RSI, Index: reg.RDX, Scale: 8}, reg.RAX)
	c.XORQ(reg.R8, reg.RAX)
	c.XORQ(operand.Mem{Base: reg.RDI, Index: reg.RDX, Scale: 8}, reg.RAX)
	c.MOVQ(reg.RAX, operand.Mem{Base: reg.RDI, Index: reg.RDX, Scale: 8})
	c.Comment("S ⊕ 0x80 at the last byte of the rate.")
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
