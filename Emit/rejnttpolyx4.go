package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// buildRejNTTPolyx4 emits RejNTTPolyx4AVX2.
func buildRejNTTPolyx4(c *build.Context) {
	rc := keccakRCTable(c)
	c.Function("RejNTTPolyx4AVX2")
	c.SignatureExpr("func(a *[4]*[256]uint32, seeds *[4][34]byte) bool")
	c.Doc(
		"RejNTTPolyx4AVX2 runs RejNTTPoly (FIPS 204, Algorithm 30) on four seeds",
		"at once, a[j] receiving the sample of seeds[j]; the four SHAKE128",
		"states are squeezed in step with the four-way permutation, at most 16",
		"blocks each (Appendix C). It returns true iff all four completed; a[j]",
		"of an incomplete sample holds garbage. The four pointers must not",
		"alias. Branches and addresses depend on the public seeds only. Needs",
		"AVX2.",
	)
	c.Pragma("noescape") // keeps no pointer: callers' buffers may stay on the stack
	state := c.AllocLocal(25 * 32)
	tmp := c.AllocLocal(25 * 32)
	counts := c.AllocLocal(4 * 8)
	blocks := c.AllocLocal(8)

	c.Comment("Absorb seeds[j] ‖ 0x1F, pad with 0x80 at byte 167 (FIPS 202, §6.2).")
	c.VPXOR(reg.Y0, reg.Y0, reg.Y0)
	for i := 5; i < 25; i++ {
		c.VMOVDQU(reg.Y0, state.Offset(32*i))
	}
	c.Load(c.Param("seeds"), reg.RSI)
	for j := 0; j < 4; j++ {
		for i := 0; i < 4; i++ {
			c.MOVQ(operand.Mem{Base: reg.RSI, Disp: 34*j + 8*i}, reg.RAX)
			c.MOVQ(reg.RAX, state.Offset(32*i+8*j))
		}
		c.MOVWLZX(operand.Mem{Base: reg.RSI, Disp: 34*j + 32}, reg.EAX)
		c.ORL(operand.U32(0x1F<<16), reg.EAX)
		c.MOVQ(reg.RAX, state.Offset(32*4+8*j))
	}
	c.MOVQ(operand.U64(0x80<<56), reg.RAX)
	for j := 0; j < 4; j++ {
		c.MOVQ(reg.RAX, state.Offset(32*20+8*j))
		c.MOVQ(operand.U32(0), counts.Offset(8*j))
	}
	c.MOVQ(operand.U32(rejNTTPolyBlocks), blocks)

	c.Label("block")
	keccakF1600x4Body(c, state, tmp, rc)
	for j := 0; j < 4; j++ {
		p := fmt.Sprintf("s%d", j)
		c.MOVQ(counts.Offset(8*j), reg.RCX)
		c.CMPQ(reg.RCX, operand.U32(256))
		c.JEQ(operand.LabelRef(p + "skip"))
		c.Load(c.Param("a"), reg.RDI)
		c.MOVQ(operand.Mem{Base: reg.RDI, Disp: 8 * j}, reg.RDI)
		c.LEAQ(state.Offset(8*j), reg.R8) // lane i of state j is at 32i+8j
		rejectBlock(c, p, reg.R8, 32, reg.RDI, reg.RCX, p+"done")
		c.Label(p + "done")
		c.MOVQ(reg.RCX, counts.Offset(8*j))
		c.Label(p + "skip")
	}
	c.Comment("All four are complete iff every count is 256 (counts are ≤ 256).")
	c.MOVQ(counts, reg.RAX)
	for j := 1; j < 4; j++ {
		c.ANDQ(counts.Offset(8*j), reg.RAX)
	}
	c.CMPQ(reg.RAX, operand.U32(256))
	c.JEQ(operand.LabelRef("full"))
	c.MOVQ(blocks, reg.RAX)
	c.DECQ(reg.RAX)
	c.MOVQ(reg.RAX, blocks)
	c.JNE(operand.LabelRef("block"))
	c.MOVB(operand.U8(0), result(c))
	c.VZEROUPPER()
	c.RET()

	c.Label("full")
	c.MOVB(operand.U8(1), result(c))
	c.VZEROUPPER()
	c.RET()
}
