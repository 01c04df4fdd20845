package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/vg-crypto/vg/Spec/contract"
)

// ballRate is the SHAKE256 block size in bytes (FIPS 202, §6.2).
const ballRate = 136

// sampleInBallBlocks bounds the SHAKE256 blocks SampleInBall squeezes
// (the contract's bound, with its source), in a variable so that a test
// can emit the routines with a bound too small to complete.
var sampleInBallBlocks = contract.SampleInBallBlocks

func init() { register("sampleinball", buildSampleInBall) }

// buildSampleInBall emits SampleInBall44AMD64, SampleInBall65AMD64 and
// SampleInBall87AMD64, then the same calling KeccakF1600BMI2
// (SampleInBall44BMI2, …).
func buildSampleInBall(c *build.Context) {
	tbl := ballTable(c)
	for _, v := range []string{"AMD64", "BMI2"} {
		for _, ps := range paramSets {
			sampleInBall(c, "SampleInBall"+ps.name+v, ps.p.Tau, ps.p.Lambda/4, tbl, "KeccakF1600"+v)
		}
	}
}

// The masks of c (Algorithm 29): bit k of nz is set where c_k ≠ 0, bit k
// of neg where c_k = −1 (meaningful only where nz is set). Each is four
// words, coefficient k at bit k mod 64 of word k div 64.
var (
	ballNZ  = [4]reg.GPPhysical{reg.R8, reg.R9, reg.R10, reg.R11}
	ballNeg = [4]reg.GPPhysical{reg.R12, reg.R13, reg.R14, reg.RBX}
)

// sampleInBall emits one SampleInBall routine: the SHAKE256 state of
// seed in the frame, squeezed by calls of perm; the 8 bytes
// of signs (Algorithm 29, line 4) kept in the frame; the masks in eight
// registers. The loop at read takes one byte j of the stream and rejects
// it if j > i (line 8), the one branch on the stream (the declared leak);
// an accepted j updates the masks without a branch or an address that
// depends on j, and the masks become coefficients at expand.
func sampleInBall(c *build.Context, sym string, τ, seedLen int, tbl operand.Mem, perm string) {
	// It reads seed only before the first call and c only after the
	// last, each time through its argument: its callers' buffers may stay
	// on the stack.
	args := newCallFrame(c, callerOnStack, sym, 8).args // the permutation's argument
	state := c.AllocLocal(25 * 8)
	pos := c.AllocLocal(8)    // next byte of the block, 0..136
	iSlot := c.AllocLocal(8)  // i of Algorithm 29, line 6
	signs := c.AllocLocal(8)  // h as a word: bit k is h[k]
	blocks := c.AllocLocal(8) // blocks still allowed
	sign := c.AllocLocal(8)   // −h[i+τ−256], all ones or 0
	iBit := c.AllocLocal(8)   // 1 << (i − 192)
	hBit := c.AllocLocal(8)   // 1 << (i + τ − 256)
	oneHot := c.AllocLocal(8) // 1 << (j mod 64)
	spill := c.AllocLocal(80) // the masks across a call, and 16 bytes of room for their loads

	c.Comment(fmt.Sprintf("Absorb seed ‖ 0x1F, pad with 0x80 at byte %d (FIPS 202, §6.2).", ballRate-1))
	c.Load(c.Param("seed"), reg.RSI)
	for i := 0; i < seedLen/8; i++ {
		c.MOVQ(operand.Mem{Base: reg.RSI, Disp: 8 * i}, reg.RAX)
		c.MOVQ(reg.RAX, state.Offset(8*i))
	}
	c.MOVQ(operand.U32(0x1F), state.Offset(seedLen))
	zeroAndPad(c, state, seedLen/8+1, ballRate)
	c.LEAQ(state, reg.RAX)
	c.MOVQ(reg.RAX, args)
	c.CALL(callee(perm))
	c.Comment("Lines 4 and 5: h is the first 8 bytes; the loop reads on from byte 8.")
	c.MOVQ(state, reg.RAX)
	c.MOVQ(reg.RAX, signs)
	c.MOVQ(operand.U32(8), pos)
	c.MOVQ(operand.U32(256-τ), iSlot)
	c.MOVQ(operand.U32(sampleInBallBlocks-1), blocks)
	c.MOVQ(operand.U32(1<<(256-τ-192)), iBit)
	c.MOVQ(operand.U32(1), hBit)
	for k := 0; k < 4; k++ {
		c.XORL(ballNZ[k].As32(), ballNZ[k].As32())
		c.XORL(ballNeg[k].As32(), ballNeg[k].As32())
	}

	c.Label("read")
	c.MOVQ(pos, reg.RAX)
	c.CMPQ(reg.RAX, operand.U32(ballRate))
	c.JEQ(operand.LabelRef("refill"))
	c.Label("load")
	c.Comment("Lines 7 and 9: j is the next byte; line 8: reject j > i.")
	c.MOVBQZX(state.Idx(reg.RAX, 1), reg.RCX)
	c.INCQ(reg.RAX)
	c.MOVQ(reg.RAX, pos)
	c.CMPQ(reg.RCX, iSlot)
	c.JHI(operand.LabelRef("read"))
	ballUpdate(c, signs, iBit, hBit, sign, oneHot)
	c.MOVQ(iSlot, reg.RAX)
	c.INCQ(reg.RAX)
	c.MOVQ(reg.RAX, iSlot)
	c.CMPQ(reg.RAX, operand.U32(256))
	c.JNE(operand.LabelRef("read"))
	// The expansion is a label of its own, where the proof (Spec/check,
	// ballproof.go) cuts the routine.
	c.JMP(operand.LabelRef("expand"))

	c.Label("refill")
	c.Comment("The block is read to its end: squeeze the next, if the bound allows.")
	c.MOVQ(blocks, reg.RAX)
	c.CMPQ(reg.RAX, operand.U32(0))
	c.JEQ(operand.LabelRef("fail"))
	c.DECQ(reg.RAX)
	c.MOVQ(reg.RAX, blocks)
	for k := 0; k < 4; k++ {
		c.MOVQ(ballNZ[k], spill.Offset(8*k))
		c.MOVQ(ballNeg[k], spill.Offset(32+8*k))
	}
	c.LEAQ(state, reg.RAX)
	c.MOVQ(reg.RAX, args)
	c.CALL(callee(perm))
	for k := 0; k < 4; k++ {
		c.MOVQ(spill.Offset(8*k), ballNZ[k])
		c.MOVQ(spill.Offset(32+8*k), ballNeg[k])
	}
	c.XORL(reg.EAX, reg.EAX)
	c.JMP(operand.LabelRef("load"))

	c.Label("fail")
	c.MOVB(operand.U8(0), result(c))
	c.RET()

	c.Label("expand")
	ballExpand(c, tbl, spill)
	c.MOVB(operand.U8(1), result(c))
	c.RET()
}

// ballUpdate emits lines 11 and 12 of Algorithm 29 for the accepted j in
// CX (j ≤ i): c_i ← c_j, then c_j ← (−1)^h[i+τ−256]. The word 1 << (j mod
// 64) is built by six selections on the bits of j, and each mask word k
// takes it only where j − 64k < 64 (a selection on the carry), so no
// branch, address or shift count depends on j. Bit i of both masks is 0
// before (no earlier iteration reaches past its i), and i ≥ 256 − τ ≥ 196
// lies in word 3, so c_i ← c_j ORs the old bit j there, at iBit = 1 <<
// (i − 192); hBit = 1 << (i + τ − 256) picks the sign. Uses AX, DX, SI, DI
// besides the masks.
func ballUpdate(c *build.Context, signs, iBit, hBit, sign, oneHot operand.Mem) {
	sel, tmp, oldNZ, oldNeg := reg.RDX, reg.RSI, reg.RDI, reg.RAX
	c.Comment("sign = −h[i+τ−256]: all ones or 0.")
	c.MOVQ(signs, sel)
	c.ANDQ(hBit, sel)
	c.XORL(tmp.As32(), tmp.As32())
	c.SUBQ(sel, tmp)
	c.ORQ(tmp, sel)
	c.SARQ(operand.U8(63), sel)
	c.MOVQ(sel, sign)
	c.Comment("oneHot = 1 << (j mod 64).")
	c.MOVL(operand.U32(1), sel.As32())
	for t := 0; t < 6; t++ {
		c.MOVQ(sel, tmp)
		c.SHLQ(operand.U8(1<<t), tmp)
		c.TESTQ(operand.U32(1<<t), reg.RCX)
		c.CMOVQNE(tmp, sel)
	}
	c.MOVQ(sel, oneHot)
	c.XORL(oldNZ.As32(), oldNZ.As32())
	c.XORL(oldNeg.As32(), oldNeg.As32())
	for k := 0; k < 4; k++ {
		c.Comment(fmt.Sprintf("Word %d: CX = j − %d.", k, 64*k))
		c.XORL(sel.As32(), sel.As32())
		c.CMPQ(reg.RCX, operand.U32(64))
		c.CMOVQCS(oneHot, sel)
		nz, neg := ballNZ[k], ballNeg[k]
		c.MOVQ(nz, tmp)
		c.ANDQ(sel, tmp)
		c.ORQ(tmp, oldNZ)
		c.MOVQ(neg, tmp)
		c.ANDQ(sel, tmp)
		c.ORQ(tmp, oldNeg)
		c.ORQ(sel, nz)
		c.MOVQ(neg, tmp)
		c.XORQ(sign, tmp)
		c.ANDQ(sel, tmp)
		c.XORQ(tmp, neg)
		if k < 3 {
			c.SUBQ(operand.U32(64), reg.RCX)
		}
	}
	c.Comment("c_i ← old c_j: the old bits j (each word 0 or oneHot) to bit i − 192 of word 3.")
	for _, r := range []reg.GPPhysical{oldNZ, oldNeg} {
		c.XORL(tmp.As32(), tmp.As32())
		c.SUBQ(r, tmp)
		c.ORQ(tmp, r)
		c.SARQ(operand.U8(63), r)
		c.ANDQ(iBit, r)
	}
	c.ORQ(oldNZ, ballNZ[3])
	c.ORQ(oldNeg, ballNeg[3])
	c.SHLQ(operand.U8(1), iBit)
	c.SHLQ(operand.U8(1), hBit)
}

// ballTable lays down the constants of ballExpand: q and 1 in every lane.
func ballTable(c *build.Context) operand.Mem {
	sym := c.StaticGlobal("sampleInBallConsts")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	for _, x := range []uint32{mldsaQ, 1} {
		for l := 0; l < 4; l++ {
			c.AppendDatum(operand.U32(x))
		}
	}
	return sym
}

// ballExpand writes c from the masks (Algorithm 29's c mod q): word k is
// q − 1 where bits k of nz and neg are set, 1 where only nz's is, else 0.
// Each 32-bit half x of a mask word becomes the lanes x << 3, x << 2,
// x << 1, x; shifted left by 28 − 4g, lane l has bit 4g + l of x at bit
// 31, which an arithmetic shift spreads over the lane. The masks go
// through the frame (spill) to the vector registers.
func ballExpand(c *build.Context, tbl, spill operand.Mem) {
	q, one := reg.X14, reg.X15
	c.MOVOU(tbl, q)
	c.MOVOU(tbl.Offset(16), one)
	c.Load(c.Param("c"), reg.RDI)
	for k := 0; k < 4; k++ {
		c.MOVQ(ballNZ[k], spill.Offset(8*k))
		c.MOVQ(ballNeg[k], spill.Offset(32+8*k))
	}
	spread := func(src operand.Mem, lane int, dst reg.VecPhysical) {
		c.MOVOU(src, dst)
		c.PSHUFL(operand.U8(0x55*lane), dst, dst)
		t := [3]reg.VecPhysical{reg.X4, reg.X5, reg.X6}
		for s, x := range t {
			c.MOVO(dst, x)
			c.PSLLL(operand.U8(3-s), x)
		}
		// dst = x; t = x<<3, x<<2, x<<1.
		c.PUNPCKLLQ(t[1], t[0]) // x<<3, x<<2, x<<3, x<<2
		c.PUNPCKLLQ(dst, t[2])  // x<<1, x, x<<1, x
		c.PUNPCKLQDQ(t[2], t[0])
		c.MOVO(t[0], dst)
	}
	// Coefficients 32k to 32k + 31 from the 32-bit halves k of nz and neg,
	// a loop of eight iterations (RSI walks the halves): the code of one
	// sits in the instruction cache beside the signing attempt's other
	// routines. Half k of neg is the top lane of the 16 bytes at 20 + 4k,
	// which, like those of nz at 4k, lie inside spill for every k.
	c.LEAQ(spill, reg.RSI)
	coeffLoop(c, "coefficients", 8, 4, []reg.GPPhysical{reg.RSI}, func() {
		spread(operand.Mem{Base: reg.RSI}, 0, reg.X0)
		spread(operand.Mem{Base: reg.RSI, Disp: 20}, 3, reg.X1)
		for g := 0; g < 8; g++ {
			c.MOVO(reg.X0, reg.X2)
			c.PSLLL(operand.U8(28-4*g), reg.X2)
			c.PSRAL(operand.U8(31), reg.X2)
			c.MOVO(reg.X1, reg.X3)
			c.PSLLL(operand.U8(28-4*g), reg.X3)
			c.PSRAL(operand.U8(31), reg.X3)
			c.PAND(q, reg.X3)
			c.PXOR(one, reg.X3)
			c.PAND(reg.X2, reg.X3)
			c.MOVOU(reg.X3, operand.Mem{Base: reg.RDI, Disp: 16 * g})
		}
		// RDI moves on by 32 coefficients.
		c.ADDQ(operand.U32(128), reg.RDI)
	})
}
