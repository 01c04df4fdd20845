package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// boundedSeedBytes is one seed of the four-way sampler: ρ′ ‖ r.
const boundedSeedBytes = 66

func init() { register("rejboundedpolyx4", buildRejBoundedPolyx4) }

// buildRejBoundedPolyx4 emits RejBoundedPolyx4Eta2AVX2 and
// RejBoundedPolyx4Eta4AVX2, then their AVX512 twins. They squeeze the four
// SHAKE256 states by calling KeccakF1600x4 of their variant, so that the permutation they run is the one
// proven on its own and the states change only by those calls; each
// polynomial's block is then read by the rejection loop of the single
// sampler's arithmetic, eight half-bytes a pass in one vector
// (rejectBoundedBlockAVX2). They reach a and the seeds only through their
// arguments after a call, so their callers' buffers may stay on the stack.
func buildRejBoundedPolyx4(c *build.Context) {
	consts, pack, count := boundedTables(c)
	for _, v := range []string{"AVX2", "AVX512"} {
		for _, η := range []int{2, 4} {
			emitRejBoundedPolyx4(c, η, v, consts, pack, count)
		}
	}
}

// emitRejBoundedPolyx4 emits RejBoundedPolyx4Eta<η><variant>, with the
// read-only tables of the vector pass.
func emitRejBoundedPolyx4(c *build.Context, η int, variant string, consts, pack, count operand.Mem) {
	args := newCallFrame(c, callerOnStack, fmt.Sprintf("RejBoundedPolyx4Eta%d%s", η, variant), 8).args // the permutation's argument
	state := c.AllocLocal(25 * 32)
	// Each state's rate (17 lanes), de-interleaved.
	const stride = shake256Rate
	scratch := c.AllocLocal(4 * stride)
	counts := c.AllocLocal(4 * 8)
	blocks := c.AllocLocal(8)

	c.Comment("Absorb seeds[j] ‖ 0x1F, pad with 0x80 at byte 135 (FIPS 202, §6.2).")
	absorbSeeds4(c, state, boundedSeedBytes)
	c.MOVQ(operand.U64(0x80<<56), reg.RAX)
	last := shake256Rate/8 - 1
	for j := 0; j < 4; j++ {
		c.MOVQ(reg.RAX, state.Offset(32*last+8*j))
		c.MOVQ(operand.U32(0), counts.Offset(8*j))
	}
	c.MOVQ(operand.U32(rejBoundedPolyBlocks), blocks)

	c.Label("block")
	allComplete(c, counts, "full")
	c.LEAQ(state, reg.RAX)
	c.MOVQ(reg.RAX, args)
	callVariant(c, "KeccakF1600x4", variant)
	c.Comment("Transpose lanes 0 to 16 into one buffer per state.")
	for i := 0; i+4 <= last; i += 4 {
		keccak4Transpose(c, state, i, func(j int) operand.Mem { return scratch.Offset(stride*j + 8*i) })
	}
	for j := 0; j < 4; j++ {
		c.MOVQ(state.Offset(32*last+8*j), reg.RAX)
		c.MOVQ(reg.RAX, scratch.Offset(stride*j+8*last))
	}
	// The call and the transposes leave Y0 to Y7 and the
	// general registers but SP and BP theirs.
	boundedConstants(c, consts, pack, count, η)
	// Polynomial j starts at s<j>next (the label of a head of the
	// stream proof: it skips a complete polynomial there).
	for j := 0; j < 4; j++ {
		p, skip := fmt.Sprintf("s%d", j), fmt.Sprintf("s%dnext", j+1)
		if j == 3 {
			skip = "s3skip"
		}
		c.MOVQ(counts.Offset(8*j), reg.RCX)
		c.CMPQ(reg.RCX, operand.U32(256))
		c.JEQ(operand.LabelRef(skip))
		c.Load(c.Param("a"), reg.RDI)
		c.MOVQ(operand.Mem{Base: reg.RDI, Disp: 8 * j}, reg.RDI)
		c.LEAQ(scratch.Offset(stride*j), reg.R8)
		rejectBoundedBlockAVX2(c, p, reg.R8, reg.RDI, reg.RCX, p+"done", η)
		c.Label(p + "done")
		c.MOVQ(reg.RCX, counts.Offset(8*j))
		c.Label(skip)
	}
	// The next block starts with the check whether all four are
	// complete; after the last, it is made here.
	c.MOVQ(blocks, reg.RAX)
	c.DECQ(reg.RAX)
	c.MOVQ(reg.RAX, blocks)
	c.JNE(operand.LabelRef("block"))
	allComplete(c, counts, "full")
	c.MOVB(operand.U8(0), result(c))
	c.VZEROUPPER()
	c.RET()

	c.Label("full")
	c.MOVB(operand.U8(1), result(c))
	c.VZEROUPPER()
	c.RET()
}

// allComplete jumps to full if the four counts are 256 (counts are ≤ 256,
// so their AND is 256 exactly then).
func allComplete(c *build.Context, counts operand.Mem, full string) {
	c.MOVQ(counts, reg.RAX)
	for j := 1; j < 4; j++ {
		c.ANDQ(counts.Offset(8*j), reg.RAX)
	}
	c.CMPQ(reg.RAX, operand.U32(256))
	c.JEQ(operand.LabelRef(full))
}

// boundedPassAVX2 is the bytes rejectBoundedBlockAVX2 reads per pass: eight
// half-bytes, one per 32-bit word of a vector. The stream proof explores
// 2⁸ outcomes from each of its shake256Rate/boundedPassAVX2 loop heads.
const boundedPassAVX2 = 4

// Constant registers of the vector rejection of half-bytes.
var (
	boundedSpread = reg.Y15 // byte i/2 of the pass into word i
	boundedShifts = reg.Y14 // 0, 4, 0, 4, …: the half-byte of word i
	boundedLow    = reg.Y13 // 15 in each word
	boundedBound  = reg.Y12 // CoeffFromHalfByte's bound in each word
	boundedEta    = reg.Y11 // η in each word
	boundedQ      = reg.Y10 // q in each word
	boundedMul13  = reg.Y9  // 13 in each word (η = 2)
	boundedGather = reg.Y8  // the top byte of each word to bytes 0 to 3 of its half
	boundedJoin   = reg.Y7  // words 0 and 4 to words 0 and 1; word 1 (zero) to the others

	boundedPackBase  = reg.R12 // the pack table
	boundedCountBase = reg.R13 // the count table
)

// boundedTables emits the constants of rejectBoundedBlockAVX2: consts (the
// VPSHUFB pattern that puts byte i/2 of four broadcast bytes into word i,
// the shifts 0, 4, …, the VPSHUFB pattern that gathers the top byte of each
// word of a comparison to bytes 0 to 3 of its half and the VPERMD indices
// that join the halves' words 0, then 15, q, 13, and per η its bound and
// η), pack and count (packTables).
func boundedTables(c *build.Context) (consts, pack, count operand.Mem) {
	consts = c.StaticGlobal("boundedConsts")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	// VPBROADCASTD puts the pass's four bytes at 0..3 of each 128-bit
	// half: words 0 to 3 take bytes 0, 0, 1, 1, words 4 to 7 bytes 2, 2,
	// 3, 3.
	for i := 0; i < 8; i++ {
		c.AppendDatum(operand.U8(i / 2))
		for k := 1; k < 4; k++ {
			c.AppendDatum(operand.U8(0x80)) // bit 7 set: VPSHUFB writes 0
		}
	}
	for i := 0; i < 8; i++ {
		c.AppendDatum(operand.U32(4 * (i % 2)))
	}
	for b := 0; b < 32; b++ {
		if b%16 < 4 {
			c.AppendDatum(operand.U8(4*(b%16) + 3))
		} else {
			c.AppendDatum(operand.U8(0x80))
		}
	}
	for _, w := range []int{0, 4, 1, 1, 1, 1, 1, 1} {
		c.AppendDatum(operand.U32(w))
	}
	c.AppendDatum(operand.U32(15))
	c.AppendDatum(operand.U32(mldsaQ))
	c.AppendDatum(operand.U32(13))
	for _, η := range []int{2, 4} {
		c.AppendDatum(operand.U32(boundedLimit(η)))
		c.AppendDatum(operand.U32(η))
	}
	pack, count = packTables(c, "boundedPack", "boundedCount")
	return consts, pack, count
}

// boundedConstants loads the constant registers of rejectBoundedBlockAVX2
// for η from the tables of boundedTables.
func boundedConstants(c *build.Context, consts, pack, count operand.Mem, η int) {
	c.VMOVDQU(consts, boundedSpread)
	c.VMOVDQU(consts.Offset(32), boundedShifts)
	c.VMOVDQU(consts.Offset(64), boundedGather)
	c.VMOVDQU(consts.Offset(96), boundedJoin)
	c.VPBROADCASTD(consts.Offset(128), boundedLow)
	c.VPBROADCASTD(consts.Offset(132), boundedQ)
	c.VPBROADCASTD(consts.Offset(136), boundedMul13) // unused for η = 4, kept all the same
	off := 140
	if η == 4 {
		off += 8
	}
	c.VPBROADCASTD(consts.Offset(off), boundedBound)
	c.VPBROADCASTD(consts.Offset(off+4), boundedEta)
	c.LEAQ(pack, boundedPackBase) // RIP-relative addresses take no index
	c.LEAQ(count, boundedCountBase)
}

// rejectBoundedBlockAVX2 emits the rejection of one squeezed SHAKE256
// block at buf, as rejectBoundedBlock does, eight half-bytes (four bytes)
// a pass: while n ≤ 248 the eight half-bytes z, low one of each byte
// first, are spread over the words of one vector, compared with the bound
// (the mask of the accepted ones), converted as boundedHalfByte does
// (η − z + 5⌊13z/64⌋ for η = 2, η − z for η = 4, plus q where negative), the
// accepted ones packed to the front (VPERMD with the pack entry of the
// mask) and all eight words stored at a[n..n+7], n growing by the mask's
// count; the words past the accepted ones are overwritten later or lie
// past the final n. Above 248, the code jumps to full if n is 256 (a
// vector pass completed it), else the four bytes go through
// boundedHalfByte, which stops at 256. So n ≤ 256 before every pass, no
// half-byte is read at 256 and no store leaves a. The scalar path comes
// first, out of the loop, so that a vector pass runs straight into the
// next. The loop's label is prefix+"reject". Uses AX, DX, SI, R9, R10 and Y0 to Y3 besides the
// registers given, and the constants of boundedConstants.
func rejectBoundedBlockAVX2(c *build.Context, prefix string, buf, a, n reg.GPPhysical, full string, η int) {
	loop, scalar, next := prefix+"reject", prefix+"scalar", prefix+"pass"
	c.XORL(reg.ESI, reg.ESI)
	c.JMP(operand.LabelRef(loop))
	c.Label(scalar)
	c.CMPQ(n, operand.U32(256)) // the pass before may have completed it
	c.JEQ(operand.LabelRef(full))
	for k := 0; k < boundedPassAVX2; k++ {
		c.MOVBLZX(operand.Mem{Base: buf, Index: reg.RSI, Scale: 1, Disp: k}, reg.R9L)
		c.MOVL(reg.R9L, reg.EAX)
		c.ANDL(operand.U8(15), reg.EAX)
		boundedHalfByte(c, reg.RAX, a, n, full, η)
		c.SHRL(operand.U8(4), reg.R9L)
		boundedHalfByte(c, reg.R9, a, n, full, η)
	}
	c.JMP(operand.LabelRef(next))
	c.Label(loop)
	c.CMPQ(n, operand.U32(256-8))
	c.JHI(operand.LabelRef(scalar))
	c.VPBROADCASTD(operand.Mem{Base: buf, Index: reg.RSI, Scale: 1}, reg.Y0)
	c.VPSHUFB(boundedSpread, reg.Y0, reg.Y0)
	c.VPSRLVD(boundedShifts, reg.Y0, reg.Y0)
	c.VPAND(boundedLow, reg.Y0, reg.Y0)      // z
	c.VPCMPGTD(reg.Y0, boundedBound, reg.Y1) // bound > z
	// The mask of the accepted words, by DOIT instructions (VMOVMSKPS is
	// not one): a byte of each word, in bytes 0 to 7 of one half.
	c.VPSHUFB(boundedGather, reg.Y1, reg.Y1)
	c.VPERMD(reg.Y1, boundedJoin, reg.Y1)
	c.VPMOVMSKB(reg.Y1, reg.EAX)
	c.ANDL(operand.U32(0xff), reg.EAX)   // bits 8 to 31 are 0: this says so to the bounds check
	c.VPSUBD(reg.Y0, boundedEta, reg.Y2) // η − z
	if η == 2 {
		c.VPMULLD(boundedMul13, reg.Y0, reg.Y3)
		c.VPSRLD(operand.U8(6), reg.Y3, reg.Y3) // ⌊13z/64⌋ = ⌊z/5⌋
		c.VPADDD(reg.Y3, reg.Y2, reg.Y2)
		c.VPSLLD(operand.U8(2), reg.Y3, reg.Y3)
		c.VPADDD(reg.Y3, reg.Y2, reg.Y2)
	}
	c.VPSRAD(operand.U8(31), reg.Y2, reg.Y3)
	c.VPAND(boundedQ, reg.Y3, reg.Y3)
	c.VPADDD(reg.Y3, reg.Y2, reg.Y2)
	c.MOVBQZX(operand.Mem{Base: boundedCountBase, Index: reg.RAX, Scale: 1}, reg.RDX)
	c.SHLL(operand.U8(5), reg.EAX)
	c.VMOVDQU(operand.Mem{Base: boundedPackBase, Index: reg.RAX, Scale: 1}, reg.Y1)
	c.VPERMD(reg.Y2, reg.Y1, reg.Y2)
	c.VMOVDQU(reg.Y2, operand.Mem{Base: a, Index: n, Scale: 4})
	c.ADDQ(reg.RDX, n)
	c.Label(next)
	c.ADDQ(operand.U8(boundedPassAVX2), reg.RSI)
	c.CMPQ(reg.RSI, operand.U32(shake256Rate))
	c.JLT(operand.LabelRef(loop))
}
