package main

import (
	"fmt"
	"math/bits"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func init() {
	register("rejnttpolyx4", buildRejNTTPolyx4)
	register("rejnttpolyx8", buildRejNTTPolyx8)
}

// buildRejNTTPolyx4 emits RejNTTPolyx4AVX2 and RejNTTPolyx4AVX512. Each
// squeezes the four states by calling KeccakF1600x4 of its variant, so that
// the permutation it runs is the one proven on its own, and the states
// change only by those calls.
func buildRejNTTPolyx4(c *build.Context) {
	consts, pack, count := rejectTables(c)
	for _, v := range []string{"AVX2", "AVX512"} {
		emitRejNTTPolyWide(c, 4, v, consts, pack, count)
	}
}

// buildRejNTTPolyx8 emits RejNTTPolyx8AVX512: the four-way routine's code
// on eight states, squeezed by KeccakF1600x8AVX512 and de-interleaved as
// two groups of four (the low and high 32 bytes of each lane vector).
func buildRejNTTPolyx8(c *build.Context) {
	// Tables of its own name: a file-local table is one symbol of the
	// linked program.
	consts, pack, count := rejectTablesNamed(c, "8")
	emitRejNTTPolyWide(c, 8, "AVX512", consts, pack, count)
}

// emitRejNTTPolyWide emits RejNTTPolyx<n><variant> (n = 4 or 8).
func emitRejNTTPolyWide(c *build.Context, n int, variant string, consts, pack, count operand.Mem) {
	args := newCallFrame(c, function, fmt.Sprintf("RejNTTPolyx%d%s", n, variant), 8).args // the permutation's argument
	state := c.AllocLocal(25 * 8 * n)
	// Each state's first 24 lanes, de-interleaved: eight groups are read as
	// 32 bytes from offsets up to 144.
	const stride = 24 * 8
	scratch := c.AllocLocal(n * stride)
	counts := c.AllocLocal(n * 8)
	blocks := c.AllocLocal(8)

	c.Comment("Absorb seeds[j] ‖ 0x1F, pad with 0x80 at byte 167 (FIPS 202, §6.2).")
	absorbSeeds(c, state, n, 34)
	c.MOVQ(operand.U64(0x80<<56), reg.RAX)
	for j := 0; j < n; j++ {
		c.MOVQ(reg.RAX, state.Offset(8*n*20+8*j))
		c.MOVQ(operand.U32(0), counts.Offset(8*j))
	}
	c.MOVQ(operand.U32(rejNTTPolyBlocks), blocks)

	c.Label("block")
	c.LEAQ(state, reg.RAX)
	c.MOVQ(reg.RAX, args)
	callVariant(c, fmt.Sprintf("KeccakF1600x%d", n), variant)
	// The call leaves every register but SP and BP the callee's.
	c.VMOVDQU(consts, rejShuffle)
	c.VPBROADCASTD(consts.Offset(32), rejMask)
	c.VPBROADCASTD(consts.Offset(36), rejQ)
	c.LEAQ(pack, rejPackBase) // RIP-relative addresses take no index
	c.LEAQ(count, rejCountBase)
	c.Comment("Transpose lanes 0 to 23, four at a time, into one buffer per state.")
	for i := 0; i < 24; i += 4 {
		for h := 0; h < n/4; h++ { // states 4h to 4h+3
			keccak4TransposeFrom(c, func(k int) operand.Mem { return state.Offset(8*n*(i+k) + 32*h) },
				func(j int) operand.Mem { return scratch.Offset(stride*(4*h+j) + 8*i) })
		}
	}
	for j := 0; j < n; j++ {
		p := fmt.Sprintf("s%d", j)
		c.MOVQ(counts.Offset(8*j), reg.RCX)
		c.CMPQ(reg.RCX, operand.U32(256))
		c.JEQ(operand.LabelRef(p + "skip"))
		c.Load(c.Param("a"), reg.RDI)
		c.MOVQ(operand.Mem{Base: reg.RDI, Disp: 8 * j}, reg.RDI)
		c.LEAQ(scratch.Offset(stride*j), reg.R8)
		rejectBlockAVX2(c, p, reg.R8, reg.RDI, reg.RCX, p+"done")
		c.Label(p + "done")
		c.MOVQ(reg.RCX, counts.Offset(8*j))
		c.Label(p + "skip")
	}
	c.Comment("All are complete iff every count is 256 (counts are ≤ 256).")
	c.MOVQ(counts, reg.RAX)
	for j := 1; j < n; j++ {
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

// Constant registers of the vector rejection.
var (
	rejShuffle = reg.Y13 // bytes of eight 3-byte groups into eight 32-bit words
	rejMask    = reg.Y14 // 2²³ − 1 in each word
	rejQ       = reg.Y15 // q in each word

	rejPackBase  = reg.R12 // the pack table
	rejCountBase = reg.R13 // the count table
)

// rejectTables emits the constants of rejectBlockAVX2: consts (the VPSHUFB
// pattern, 2²³ − 1, q), pack (for each 8-bit mask of accepted words, the
// VPERMD indices that move them to the front in order: 256 entries of 32
// bytes) and count (the number of bits of each mask).
func rejectTables(c *build.Context) (consts, pack, count operand.Mem) {
	return rejectTablesNamed(c, "")
}

// rejectTablesNamed is rejectTables with suffix after each table's name.
func rejectTablesNamed(c *build.Context, suffix string) (consts, pack, count operand.Mem) {
	consts = c.StaticGlobal("rejConsts" + suffix)
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	// After VPERMQ 0x94 the low 16 bytes are stream bytes 0..15 and the
	// high 16 bytes stream bytes 8..23; group g starts at byte 3g.
	for g := 0; g < 8; g++ {
		base := 3 * g
		if g >= 4 {
			base -= 8
		}
		for k := 0; k < 3; k++ {
			c.AppendDatum(operand.U8(base + k))
		}
		c.AppendDatum(operand.U8(0x80)) // bit 7 set: VPSHUFB writes 0
	}
	c.AppendDatum(operand.U32(1<<23 - 1))
	c.AppendDatum(operand.U32(mldsaQ))

	pack, count = packTables(c, "rejPack"+suffix, "rejCount"+suffix)
	return consts, pack, count
}

// packTables emits, as read-only data named pack and count, for each 8-bit
// mask of accepted words the VPERMD indices that move them to the front in
// order (256 entries of 32 bytes) and the number of its bits.
func packTables(c *build.Context, packName, countName string) (pack, count operand.Mem) {
	pack = c.StaticGlobal(packName)
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	for m := 0; m < 256; m++ {
		var idx []int
		for i := 0; i < 8; i++ {
			if m>>i&1 == 1 {
				idx = append(idx, i)
			}
		}
		for len(idx) < 8 {
			idx = append(idx, 0)
		}
		for _, i := range idx {
			c.AppendDatum(operand.U32(i))
		}
	}

	count = c.StaticGlobal(countName)
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	for m := 0; m < 256; m++ {
		c.AppendDatum(operand.U8(bits.OnesCount8(uint8(m))))
	}
	return pack, count
}

// rejectBlockAVX2 emits the rejection of one squeezed SHAKE128 block, as
// rejectBlock does, for a block stored contiguously at buf (with 24 bytes to
// spare), eight groups at a time: while n ≤ 248 the eight candidates z are
// computed in one vector, compared with q, the accepted ones packed to the
// front (VPERMD with the pack entry of the comparison mask) and all eight
// words stored at a[n..n+7], n growing by the mask's count; the words past
// the accepted ones are overwritten later or lie past the final n. Above
// 248, the code jumps to full if n is 256 (a vector pass completed it),
// else eight groups go through rejectEight, which stops at 256. So
// n ≤ 256 before every eight groups, and no group is read at 256. Uses
// AX, DX, SI, R9 to R11 and Y0 to Y2 besides the registers given, and the
// constants in Y13 to Y15, R12 and R13.
func rejectBlockAVX2(c *build.Context, prefix string, buf, a, n reg.GPPhysical, full string) {
	loop, scalar, next := prefix+"reject", prefix+"scalar", prefix+"next"
	c.XORL(reg.ESI, reg.ESI)
	// The scalar path first, out of the loop: a vector pass runs straight
	// into the next.
	c.JMP(operand.LabelRef(loop))
	c.Label(scalar)
	c.CMPQ(n, operand.U32(256)) // the pass before may have completed it
	c.JEQ(operand.LabelRef(full))
	rejectEight(c, buf, 8, a, n, full)
	c.JMP(operand.LabelRef(next))
	c.Label(loop)
	c.CMPQ(n, operand.U32(256-8))
	c.JHI(operand.LabelRef(scalar))
	c.VMOVDQU(operand.Mem{Base: buf, Index: reg.RSI, Scale: 1}, reg.Y0)
	c.VPERMQ(operand.U8(0x94), reg.Y0, reg.Y0) // 64-bit words 0, 1, 1, 2
	c.VPSHUFB(rejShuffle, reg.Y0, reg.Y0)
	c.VPAND(rejMask, reg.Y0, reg.Y0)
	c.VPCMPGTD(reg.Y0, rejQ, reg.Y1) // q > z
	c.VMOVMSKPS(reg.Y1, reg.EAX)
	// The count first, so that the mask can become the pack entry's offset
	// in place.
	c.MOVBQZX(operand.Mem{Base: rejCountBase, Index: reg.RAX, Scale: 1}, reg.RDX)
	c.SHLL(operand.U8(5), reg.EAX)
	c.VMOVDQU(operand.Mem{Base: rejPackBase, Index: reg.RAX, Scale: 1}, reg.Y2)
	c.VPERMD(reg.Y0, reg.Y2, reg.Y0)
	c.VMOVDQU(reg.Y0, operand.Mem{Base: a, Index: n, Scale: 4})
	c.ADDQ(reg.RDX, n)
	c.Label(next)
	c.ADDQ(operand.U8(24), reg.RSI)
	c.CMPQ(reg.RSI, operand.U32(shake128Rate))
	c.JLT(operand.LabelRef(loop))
}

// absorbSeeds4 is absorbSeeds for four states.
func absorbSeeds4(c *build.Context, state operand.Mem, seedBytes int) {
	absorbSeeds(c, state, 4, seedBytes)
}

// absorbSeeds writes into the n interleaved states at state (n = 4 or 8)
// the seeds (argument seeds, n of seedBytes bytes, a whole number of lanes
// and two bytes), each followed by SHAKE's domain bits 0x1F, and zeros in
// every later lane; the pad's last bit is the caller's.
func absorbSeeds(c *build.Context, state operand.Mem, n, seedBytes int) {
	words := seedBytes / 8
	c.VPXOR(reg.Y0, reg.Y0, reg.Y0)
	for i := words + 1; i < 25; i++ {
		for h := 0; h < n/4; h++ {
			c.VMOVDQU(reg.Y0, state.Offset(8*n*i+32*h))
		}
	}
	c.Load(c.Param("seeds"), reg.RSI)
	for j := 0; j < n; j++ {
		for i := 0; i < words; i++ {
			c.MOVQ(operand.Mem{Base: reg.RSI, Disp: seedBytes*j + 8*i}, reg.RAX)
			c.MOVQ(reg.RAX, state.Offset(8*n*i+8*j))
		}
		c.MOVWLZX(operand.Mem{Base: reg.RSI, Disp: seedBytes*j + 8*words}, reg.EAX)
		c.ORL(operand.U32(0x1F<<16), reg.EAX)
		c.MOVQ(reg.RAX, state.Offset(8*n*words+8*j))
	}
}
