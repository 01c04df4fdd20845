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

// boundedPass is the bytes the rejection loop reads per pass. Each pass
// makes two decisions per byte, so the stream proof explores 4^boundedPass
// outcomes from each of its shake256Rate/boundedPass loop heads.
const boundedPass = 2

func init() { register("rejboundedpoly", buildRejBoundedPoly) }

// buildRejBoundedPoly emits RejBoundedPolyEta2AMD64 and
// RejBoundedPolyEta4AMD64. They squeeze each block by calling
// KeccakF1600AMD64 on their state, so that the permutation they run is the
// one proven on its own, and the state changes only by those calls.
func buildRejBoundedPoly(c *build.Context) {
	for _, η := range []int{2, 4} {
		args := newCallFrame(c, function, fmt.Sprintf("RejBoundedPolyEta%dAMD64", η), 8).args // the permutation's argument
		state := c.AllocLocal(25 * 8)
		count := c.AllocLocal(8)
		blocks := c.AllocLocal(8)

		c.Comment("Absorb seed ‖ nonce ‖ 0x1F, pad with 0x80 at byte 135 (FIPS 202, §6.2).")
		c.Load(c.Param("seed"), reg.RSI)
		copyQwords(c, operand.Mem{Base: reg.RSI}, state, 8)
		c.Load(c.Param("nonce"), reg.RSI)
		c.MOVWLZX(operand.Mem{Base: reg.RSI}, reg.EAX)
		c.ORL(operand.U32(0x1F<<16), reg.EAX)
		c.MOVQ(reg.RAX, state.Offset(8*8))
		zeroAndPad(c, state, 9, shake256Rate)
		c.MOVQ(operand.U32(0), count)
		c.MOVQ(operand.U32(rejBoundedPolyBlocks), blocks)

		c.Label("block")
		c.LEAQ(state, reg.RAX)
		c.MOVQ(reg.RAX, args)
		c.CALL(callee("KeccakF1600AMD64"))
		c.Load(c.Param("a"), reg.RDI)
		c.MOVQ(count, reg.RCX)
		c.LEAQ(state, reg.R8)
		rejectBoundedBlock(c, "", reg.R8, reg.RDI, reg.RCX, "full", η)
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
// at buf (Algorithm 31, lines 4 to 15, with CoeffFromHalfByte, Algorithm
// 15), boundedPass bytes a pass of the loop; a points to the coefficients
// and n holds how many are accepted so far (< 256). Each half-byte, low
// one first, is converted and stored at a[n] whether accepted or not,
// and n grows by the acceptance bit (the carry of the comparison with the
// bound), so no branch or address depends on a coefficient: only on n,
// that is on where the rejections fall (the contract's declared leak).
// The code jumps to full as soon as n reaches 256, which keeps every
// store in bounds. The loop's label is prefix+"reject". Uses AX, DX, SI,
// R9, R10 besides the registers given.
func rejectBoundedBlock(c *build.Context, prefix string, buf, a, n reg.GPPhysical, full string, η int) {
	c.XORL(reg.ESI, reg.ESI)
	c.Label(prefix + "reject")
	for k := 0; k < boundedPass; k++ {
		c.MOVBLZX(operand.Mem{Base: buf, Index: reg.RSI, Scale: 1, Disp: k}, reg.R9L)
		c.MOVL(reg.R9L, reg.EAX)
		c.ANDL(operand.U8(15), reg.EAX)
		boundedHalfByte(c, reg.RAX, a, n, full, η)
		c.SHRL(operand.U8(4), reg.R9L)
		boundedHalfByte(c, reg.R9, a, n, full, η)
	}
	c.ADDQ(operand.U8(boundedPass), reg.RSI)
	c.CMPQ(reg.RSI, operand.U32(shake256Rate))
	c.JLT(operand.LabelRef(prefix + "reject"))
}

// boundedHalfByte converts the half-byte z (< 16) in register h, stores
// it at a[n] and advances n if it is accepted (CoeffFromHalfByte,
// Algorithm 15): v = η − (z mod 5) for η = 2, with z mod 5 =
// z − 5⌊13z/64⌋ for z < 16, v = η − z for η = 4; then v mod q. Uses DX
// and R10.
func boundedHalfByte(c *build.Context, h, a, n reg.GPPhysical, full string, η int) {
	c.MOVL(operand.U32(η), reg.EDX)
	c.SUBL(h.As32(), reg.EDX)
	if η == 2 {
		c.LEAQ(operand.Mem{Base: h, Index: h, Scale: 2}, reg.R10)
		c.LEAQ(operand.Mem{Base: h, Index: reg.R10, Scale: 4}, reg.R10)
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
	c.CMPL(h.As32(), operand.U8(boundedLimit(η)))
	c.ADCQ(operand.U8(0), n)
	c.CMPQ(n, operand.U32(256))
	c.JEQ(operand.LabelRef(full))
}

// boundedLimit is the half-byte bound of CoeffFromHalfByte (Algorithm 15):
// z is accepted iff z < 15 for η = 2, z < 9 for η = 4.
func boundedLimit(η int) int {
	if η == 2 {
		return 15
	}
	return 9
}
