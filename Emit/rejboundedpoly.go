package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/vg-crypto/vg/Spec/contract"
)

const (
	// rejBoundedPolyBlocksBound bounds the SHAKE256 blocks RejBoundedPoly
	// squeezes (the contract's bound, with its source).
	rejBoundedPolyBlocksBound = contract.RejBoundedPolyBlocks
)

// rejBoundedPolyBlocks is rejBoundedPolyBlocksBound, in a variable so that
// a test can emit the samplers with a bound too small to complete.
var rejBoundedPolyBlocks = rejBoundedPolyBlocksBound

func init() { register("rejboundedpoly", buildRejBoundedPoly) }

// buildRejBoundedPoly emits RejBoundedPolyEta2AMD64 and
// RejBoundedPolyEta4AMD64.
func buildRejBoundedPoly(c *build.Context) {
	rc := keccakRCTable(c)
	for _, η := range []int{2, 4} {
		function(c, fmt.Sprintf("RejBoundedPolyEta%dAMD64", η))
		state := c.AllocLocal(25 * 8)
		tmp := c.AllocLocal(25 * 8)
		count := c.AllocLocal(8)
		blocks := c.AllocLocal(8)

		c.Comment("Absorb seed ‖ nonce ‖ 0x1F, pad with 0x80 at byte 135 (FIPS 202, §6.2).")
		c.Load(c.Param("seed"), reg.RSI)
		for i := 0; i < 8; i++ {
			c.MOVQ(operand.Mem{Base: reg.RSI, Disp: 8 * i}, reg.RAX)
			c.MOVQ(reg.RAX, state.Offset(8*i))
		}
		c.Load(c.Param("nonce"), reg.RSI)
		c.MOVWLZX(operand.Mem{Base: reg.RSI}, reg.EAX)
		c.ORL(operand.U32(0x1F<<16), reg.EAX)
		c.MOVQ(reg.RAX, state.Offset(8*8))
		zeroAndPad(c, state, 9, 136)
		c.MOVQ(operand.U32(0), count)
		c.MOVQ(operand.U32(rejBoundedPolyBlocks), blocks)

		c.Label("block")
		keccakF1600Body(c, state, tmp, rc)
		c.Load(c.Param("a"), reg.RDI)
		c.MOVQ(count, reg.RCX)
		c.LEAQ(state, reg.R8)
		rejectBoundedBlock(c, "", reg.R8, 8, reg.RDI, reg.RCX, "full", η)
		c.MOVQ(reg.RCX, count)
		c.MOVQ(blocks, reg.RAX)
		c.DECQ(reg.RAX)
		c.MOVQ(reg.RAX, blocks)
		c.JNE(operand.LabelRef("block"))
		c.MOVB(operand.U8(0), result(c))
		c.RET()

		c.Label("full")
		c.MOVB(operand.U8(1), result(c))
		c.RET()
	}
}

// rejectBoundedBlock emits the rejection of one squeezed SHAKE256 block
// (Algorithm 31, lines 4 to 15, with CoeffFromHalfByte, Algorithm 15). The
// block's 17 lanes are at buf, buf+stride, buf+2·stride, …; a points to the
// coefficients and n holds how many are accepted so far (< 256). Each
// half-byte, low one first, is converted and stored at a[n] whether
// accepted or not, and n grows by the acceptance bit (the carry of the
// comparison with the bound), so no branch or address depends on a
// coefficient: only on n, that is on where the rejections fall (the
// contract's declared leak). The code jumps to full as soon as n reaches
// 256, which keeps every store in bounds. Uses AX, DX, SI, R9, R10 besides
// the registers given; prefix keeps labels unique.
func rejectBoundedBlock(c *build.Context, prefix string, buf reg.GPPhysical, stride int, a, n reg.GPPhysical, full string, η int) {
	loop := prefix + "reject"
	c.XORL(reg.ESI, reg.ESI)
	c.Label(loop)
	c.MOVQ(operand.Mem{Base: buf, Index: reg.RSI, Scale: 1}, reg.R9)
	for h := 0; h < 16; h++ {
		c.MOVL(reg.R9L, reg.EAX)
		c.ANDL(operand.U8(15), reg.EAX)
		if h < 15 {
			c.SHRQ(operand.U8(4), reg.R9)
		}
		// v = η − (z mod 5) for η = 2 (z mod 5 = z − 5⌊13z/64⌋ for
		// z < 16), v = η − z for η = 4; then v mod q.
		c.MOVL(operand.U32(η), reg.EDX)
		c.SUBL(reg.EAX, reg.EDX)
		if η == 2 {
			c.LEAQ(operand.Mem{Base: reg.RAX, Index: reg.RAX, Scale: 2}, reg.R10)
			c.LEAQ(operand.Mem{Base: reg.RAX, Index: reg.R10, Scale: 4}, reg.R10)
			c.SHRL(operand.U8(6), reg.R10L)
			c.LEAQ(operand.Mem{Base: reg.R10, Index: reg.R10, Scale: 4}, reg.R10)
			c.ADDL(reg.R10L, reg.EDX)
		}
		c.MOVL(reg.EDX, reg.R10L)
		c.SARL(operand.U8(31), reg.R10L)
		c.ANDL(operand.U32(mldsaQ), reg.R10L)
		c.ADDL(reg.R10L, reg.EDX)
		c.MOVL(reg.EDX, operand.Mem{Base: a, Index: n, Scale: 4})
		// CF = (z < bound); n += CF.
		c.CMPL(reg.EAX, operand.U8(boundedLimit(η)))
		c.ADCQ(operand.U8(0), n)
		c.CMPQ(n, operand.U32(256))
		c.JEQ(operand.LabelRef(full))
	}
	c.ADDQ(operand.U32(stride), reg.RSI)
	c.CMPQ(reg.RSI, operand.U32(shake256Rate/8*stride))
	c.JLT(operand.LabelRef(loop))
}

// boundedLimit is the half-byte bound of CoeffFromHalfByte (Algorithm 15):
// z is accepted iff z < 15 for η = 2, z < 9 for η = 4.
func boundedLimit(η int) int {
	if η == 2 {
		return 15
	}
	return 9
}
