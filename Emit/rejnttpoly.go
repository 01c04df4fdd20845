package main

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/vg-crypto/vg/Spec/contract"
)

const (
	// q = 2²³ − 2¹³ + 1 (FIPS 204, §4, Table 1).
	mldsaQ = 1<<23 - 1<<13 + 1
	// shake128Rate is the SHAKE128 block size in bytes (FIPS 202, §6.2).
	shake128Rate = 168
	// rejNTTPolyBlocksBound bounds the SHAKE128 blocks RejNTTPoly squeezes
	// (the contract's bound, with its source). Every variant must fail on
	// exactly the same seeds.
	rejNTTPolyBlocksBound = contract.RejNTTPolyBlocks
)

// rejNTTPolyBlocks is rejNTTPolyBlocksBound, in a variable so that a test
// can emit the samplers with a bound too small to complete.
var rejNTTPolyBlocks = rejNTTPolyBlocksBound

func init() { register("rejnttpoly", buildRejNTTPoly) }

// zeroAndPad clears lanes from…24 of a Keccak state whose first lanes hold
// the message and its domain byte, and sets pad10*1's final bit, bit 7 of
// the rate's last byte (FIPS 202, §6.2), for a rate of rate bytes. RAX is
// clobbered.
func zeroAndPad(c *build.Context, state operand.Mem, from, rate int) {
	last := rate/8 - 1
	c.XORL(reg.EAX, reg.EAX)
	for i := from; i < 25; i++ {
		if i != last {
			c.MOVQ(reg.RAX, state.Offset(8*i))
		}
	}
	c.MOVQ(operand.U64(0x80<<56), reg.RAX)
	c.MOVQ(reg.RAX, state.Offset(8*last))
}

// buildRejNTTPoly emits RejNTTPolyAMD64, then RejNTTPolyBMI2.
func buildRejNTTPoly(c *build.Context) {
	buildRejNTTPolyOne(c, "AMD64")
	buildRejNTTPolyOne(c, "BMI2")
}

// buildRejNTTPolyOne emits RejNTTPoly<variant>. It squeezes each block by
// calling KeccakF1600<variant> (AMD64 or BMI2) on its state, so that the
// permutation it runs is the one proven on its own, and the state changes
// only by those calls.
func buildRejNTTPolyOne(c *build.Context, variant string) {
	args := newCallFrame(c, function, "RejNTTPoly"+variant, 8).args // the permutation's argument
	state := c.AllocLocal(25 * 8)
	count := c.AllocLocal(8)
	blocks := c.AllocLocal(8)

	c.Comment("Absorb seed ‖ 0x1F, pad with 0x80 at byte 167 (FIPS 202, §6.2).")
	c.Load(c.Param("seed"), reg.RSI)
	copyQwords(c, operand.Mem{Base: reg.RSI}, state, 4)
	c.MOVWLZX(operand.Mem{Base: reg.RSI, Disp: 32}, reg.EAX)
	c.ORL(operand.U32(0x1F<<16), reg.EAX)
	c.MOVQ(reg.RAX, state.Offset(32))
	zeroAndPad(c, state, 5, 168)
	c.MOVQ(operand.U32(0), count)
	c.MOVQ(operand.U32(rejNTTPolyBlocks), blocks)

	c.Label("block")
	c.LEAQ(state, reg.RAX)
	c.MOVQ(reg.RAX, args)
	c.CALL(callee("KeccakF1600" + variant))
	c.Load(c.Param("a"), reg.RDI)
	c.MOVQ(count, reg.RCX)
	c.LEAQ(state, reg.R8)
	rejectBlock(c, "", reg.R8, 8, reg.RDI, reg.RCX, "full")
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

// rejectBlock emits the rejection of one squeezed SHAKE128 block (Algorithm
// 30, lines 4 to 9, with CoeffFromThreeBytes, Algorithm 14). The block's 21
// lanes are at buf, buf+stride, buf+2·stride, …; a points to the
// coefficients and n holds how many are accepted so far (< 256). The code
// jumps to full as soon as n reaches 256. Uses AX, DX, SI, R9, R10, R11
// besides the registers given; prefix keeps labels unique.
func rejectBlock(c *build.Context, prefix string, buf reg.GPPhysical, stride int, a, n reg.GPPhysical, full string) {
	loop := prefix + "reject"
	c.XORL(reg.ESI, reg.ESI)
	c.Label(loop)
	rejectEight(c, buf, stride, a, n, full)
	c.ADDQ(operand.U8(3*stride), reg.RSI)
	c.CMPQ(reg.RSI, operand.U32(shake128Rate/8*stride))
	c.JLT(operand.LabelRef(loop))
}

// rejectEight emits the rejection of the eight 3-byte groups in the three
// lanes at buf+SI, buf+SI+stride, buf+SI+2·stride. Each group b0, b1, b2
// gives z = b0 + 2⁸·b1 + 2¹⁶·(b2 mod 128), cut out of the lanes with shifts
// (whole lane loads, which the permutation's last stores forward to). z is
// always stored at a[n], and n grows by one if z < q; the store stays in
// bounds since the code jumps to full as soon as n reaches 256.
func rejectEight(c *build.Context, buf reg.GPPhysical, stride int, a, n reg.GPPhysical, full string) {
	lanes := [3]reg.GPPhysical{reg.R9, reg.R10, reg.R11}
	for k, l := range lanes {
		c.MOVQ(operand.Mem{Base: buf, Index: reg.RSI, Scale: 1, Disp: k * stride}, l)
	}
	for g := 0; g < 8; g++ {
		bit := 24 * g // first bit of group g in the 192 bits of the three lanes
		lo, sh := lanes[bit/64], bit%64
		c.MOVQ(lo, reg.RAX)
		if sh != 0 {
			c.SHRQ(operand.U8(sh), reg.RAX)
		}
		if sh > 64-23 { // the group's 23 bits continue in the next lane
			c.MOVQ(lanes[bit/64+1], reg.RDX)
			c.SHLQ(operand.U8(64-sh), reg.RDX)
			c.ORQ(reg.RDX, reg.RAX)
		}
		c.ANDL(operand.U32(1<<23-1), reg.EAX)
		c.MOVL(reg.EAX, operand.Mem{Base: a, Index: n, Scale: 4})
		// CF = (z < q); n += CF.
		c.CMPL(reg.EAX, operand.U32(mldsaQ))
		c.ADCQ(operand.U8(0), n)
		c.CMPQ(n, operand.U32(256))
		c.JEQ(operand.LabelRef(full))
	}
}

// result returns the address of the active function's (only) result.
func result(c *build.Context) operand.Mem {
	b, err := c.ReturnIndex(0).Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}
