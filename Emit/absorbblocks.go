package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/vg-crypto/vg/Spec/contract"
)

func init() { register("absorbblocks", buildAbsorbBlocks) }

// buildAbsorbBlocks emits SHAKE256AbsorbAMD64 and SHAKE256AbsorbBMI2,
// which differ only in the permutation they call.
func buildAbsorbBlocks(c *build.Context) {
	absorbBlocks(c, "SHAKE256AbsorbAMD64", "KeccakF1600AMD64")
	absorbBlocks(c, "SHAKE256AbsorbBMI2", "KeccakF1600BMI2")
}

// absorbBlocks emits one routine: for n ≤ AbsorbMaxBlocks, a loop over
// the first n blocks of in, each XORed into lanes 0 to 16 of the state
// and permuted by a call of perm (FIPS 202, Algorithm 8, step 6). The
// count (CX) and the offset of the block (DX) stay in the frame across
// the call, and the pointers are reloaded from the arguments after it
// (the stack may move). At the loop head the offset is checked against
// the last block's as well: the count keeps it in bounds, but the
// inductive check over intervals cannot relate the two.
func absorbBlocks(c *build.Context, sym, perm string) {
	max := contract.AbsorbMaxBlocks
	args := newCallFrame(c, callerOnStack, sym, 8).args // the permutation's argument
	off := c.AllocLocal(8)
	count := c.AllocLocal(8)
	c.Load(c.Param("n"), reg.RAX)
	c.MOVQ(operand.Mem{Base: reg.RAX}, reg.RCX)
	c.Comment(fmt.Sprintf("n > %d: nothing absorbed; n = 0: nothing to absorb.", max))
	c.CMPQ(reg.RCX, operand.U32(max))
	c.JHI(operand.LabelRef("done"))
	c.TESTQ(reg.RCX, reg.RCX)
	c.JEQ(operand.LabelRef("done"))
	c.XORL(reg.EDX, reg.EDX)
	c.Label("block")
	c.CMPQ(reg.RDX, operand.U32((max-1)*shake256Rate))
	c.JHI(operand.LabelRef("done"))
	c.Load(c.Param("a"), reg.RDI)
	c.Load(c.Param("in"), reg.RSI)
	c.ADDQ(reg.RDX, reg.RSI)
	xorBlock(c)
	c.Comment("S = f(S).")
	c.MOVQ(reg.RDX, off)
	c.MOVQ(reg.RCX, count)
	c.MOVQ(reg.RDI, args)
	c.CALL(callee(perm))
	c.MOVQ(off, reg.RDX)
	c.MOVQ(count, reg.RCX)
	c.ADDQ(operand.U32(shake256Rate), reg.RDX)
	c.DECQ(reg.RCX)
	c.JNE(operand.LabelRef("block"))
	c.Label("done")
	c.RET()
}
