package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// shake256Rate is the SHAKE256 block size in bytes (FIPS 202, §6.2).
const shake256Rate = 136

// expandMaskBlocks is the SHAKE256 blocks ExpandMask squeezes: 32·c bytes
// (Algorithm 34, line 4) with c = 18 or 20 need five blocks of 136. The
// unpacking reads up to 14 bytes past 32·c, which the fifth block holds.
//
// The squeezed bytes go to the first 680 bytes of the output polynomial
// itself, and are unpacked from the last coefficients to the first: the
// output words i ≥ 8 overwrite only bytes the earlier (lower) words no
// longer need, since 32 bytes of output hold more than 32 bytes of input.
// So the routines need no buffer besides the states.
const expandMaskBlocks = 5

func init() { register("expandmask", buildExpandMask) }

// buildExpandMask emits ExpandMask17AMD64, ExpandMask19AMD64 and their
// four-way AVX2 variants.
func buildExpandMask(c *build.Context) {
	rc := keccakRCTable(c)
	for _, bits := range []int{17, 19} {
		consts := expandMaskTable(c, bits)
		buildExpandMaskAMD64(c, bits, rc)
		buildExpandMaskx4AVX2(c, bits, rc, consts)
	}
}

// expandMaskAbsorb emits the absorbing of a 66-byte seed ‖ 0x1F and the
// padding 0x80 at byte 135 (FIPS 202, §6.2) into lanes lane(i) of a zeroed
// state: seed bytes 0 to 63 are lanes 0 to 7, bytes 64, 65 and 0x1F lane 8.
func expandMaskAbsorb(c *build.Context, seed operand.Mem, lane func(i int) operand.Mem) {
	for i := 0; i < 8; i++ {
		c.MOVQ(seed.Offset(8*i), reg.RAX)
		c.MOVQ(reg.RAX, lane(i))
	}
	c.MOVWLZX(seed.Offset(64), reg.EAX)
	c.ORL(operand.U32(0x1F<<16), reg.EAX)
	c.MOVQ(reg.RAX, lane(8))
	c.MOVQ(operand.U64(0x80<<56), reg.RAX)
	c.MOVQ(reg.RAX, lane(shake256Rate/8-1))
}

// buildExpandMaskAMD64 emits ExpandMask<bits>AMD64: five permutations, each
// block's 17 lanes copied into y after the previous ones, then BitUnpack
// (Algorithm 19) in place, four coefficients a loop.
func buildExpandMaskAMD64(c *build.Context, bits int, rc operand.Mem) {
	w := bits + 1 // bits per packed coefficient, c of Algorithm 34, line 1
	function(c, fmt.Sprintf("ExpandMask%dAMD64", bits))
	c.Attributes(attr.NOSPLIT)
	state := c.AllocLocal(25 * 8)
	tmp := c.AllocLocal(25 * 8)

	c.Comment("Absorb seed ‖ 0x1F, pad with 0x80 at byte 135 (FIPS 202, §6.2).")
	c.XORL(reg.EAX, reg.EAX)
	for i := 9; i < 25; i++ {
		c.MOVQ(reg.RAX, state.Offset(8*i))
	}
	c.Load(c.Param("seed"), reg.RSI)
	expandMaskAbsorb(c, operand.Mem{Base: reg.RSI}, func(i int) operand.Mem { return state.Offset(8 * i) })

	c.Comment("Squeeze five blocks into y; the permutation leaves R13 alone.")
	c.XORL(reg.R13L, reg.R13L)
	c.Label("squeeze")
	keccakF1600Body(c, state, tmp, rc)
	c.Load(c.Param("y"), reg.RDI)
	for i := 0; i < shake256Rate/8; i++ {
		c.MOVQ(state.Offset(8*i), reg.RAX)
		c.MOVQ(reg.RAX, operand.Mem{Base: reg.RDI, Index: reg.R13, Scale: 1, Disp: 8 * i})
	}
	c.ADDQ(operand.U32(shake256Rate), reg.R13)
	c.CMPQ(reg.R13, operand.U32(expandMaskBlocks*shake256Rate))
	c.JNE(operand.LabelRef("squeeze"))

	c.Comment("y[i] = γ1 − (coefficient i of the packed bits), mod q (Algorithm 19, line 4),")
	c.Comment("four at a time from the last: all four read before any is written.")
	c.MOVQ(operand.U32(63*w/2), reg.RSI)  // byte offset of four packed coefficients
	c.MOVQ(operand.U32(1024-16), reg.RDX) // byte offset of four coefficients of y
	c.Label("unpack")
	v := [4]reg.GPPhysical{reg.RAX, reg.RBX, reg.RCX, reg.R8}
	for k := 0; k < 4; k++ {
		bit := w * k
		c.MOVL(operand.Mem{Base: reg.RDI, Index: reg.RSI, Scale: 1, Disp: bit / 8}, v[k].As32())
		if bit%8 != 0 {
			c.SHRL(operand.U8(bit%8), v[k].As32())
		}
		c.ANDL(operand.U32(1<<w-1), v[k].As32())
	}
	for k := 0; k < 4; k++ {
		c.MOVL(operand.U32(1<<bits), reg.R9L)
		c.SUBL(v[k].As32(), reg.R9L)
		c.MOVL(reg.R9L, reg.R10L)
		c.SARL(operand.U8(31), reg.R10L)
		c.ANDL(operand.U32(mldsaQ), reg.R10L)
		c.ADDL(reg.R10L, reg.R9L)
		c.MOVL(reg.R9L, operand.Mem{Base: reg.RDI, Index: reg.RDX, Scale: 1, Disp: 4 * k})
	}
	c.SUBQ(operand.U8(w/2), reg.RSI)
	c.SUBQ(operand.U8(16), reg.RDX)
	c.JCC(operand.LabelRef("unpack")) // until RDX goes below 0
	c.RET()
}

// expandMaskTable emits the constants of the AVX2 unpacking of w = bits+1
// bit coefficients: the VPSHUFB pattern that puts the three bytes holding
// coefficient k of eight into word k (after VPERMQ 0x94 the low 16 bytes are
// bytes 0 to 15 of the eight coefficients' w bytes and the high 16 bytes
// bytes 8 to 23), the VPSRLVD counts, then 2^w − 1, γ1 and q.
func expandMaskTable(c *build.Context, bits int) operand.Mem {
	w := bits + 1
	t := c.StaticGlobal(fmt.Sprintf("expandMask%dConsts", bits))
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	for k := 0; k < 8; k++ {
		first := w * k / 8
		if k >= 4 {
			first -= 8
		}
		for i := 0; i < 3; i++ {
			c.AppendDatum(operand.U8(first + i))
		}
		c.AppendDatum(operand.U8(0x80)) // bit 7 set: VPSHUFB writes 0
	}
	for k := 0; k < 8; k++ {
		c.AppendDatum(operand.U32(w * k % 8))
	}
	c.AppendDatum(operand.U32(1<<w - 1))
	c.AppendDatum(operand.U32(1 << bits))
	c.AppendDatum(operand.U32(mldsaQ))
	return t
}

// buildExpandMaskx4AVX2 emits ExpandMask<bits>x4AVX2: the four states
// interleaved as KeccakF1600x4AVX2 has them, each block's 17 lanes
// de-interleaved into y[j], then the unpacking in place, eight
// coefficients a vector.
func buildExpandMaskx4AVX2(c *build.Context, bits int, rc, consts operand.Mem) {
	w := bits + 1
	function(c, fmt.Sprintf("ExpandMask%dx4AVX2", bits))
	state := c.AllocLocal(25 * 32)
	tmp := c.AllocLocal(25 * 32)

	c.Comment("Absorb seeds[j] ‖ 0x1F, pad with 0x80 at byte 135 (FIPS 202, §6.2).")
	c.VPXOR(reg.Y0, reg.Y0, reg.Y0)
	for i := 9; i < 25; i++ {
		c.VMOVDQU(reg.Y0, state.Offset(32*i))
	}
	c.Load(c.Param("seeds"), reg.RSI)
	for j := 0; j < 4; j++ {
		expandMaskAbsorb(c, operand.Mem{Base: reg.RSI, Disp: 66 * j}, func(i int) operand.Mem { return state.Offset(32*i + 8*j) })
	}

	c.Comment("Squeeze five blocks of each state into y[j]; the permutation uses no general register.")
	c.Load(c.Param("y"), reg.RDI)
	out := [4]reg.GPPhysical{reg.R8, reg.R9, reg.R10, reg.R11}
	for j := range out {
		c.MOVQ(operand.Mem{Base: reg.RDI, Disp: 8 * j}, out[j])
	}
	c.XORL(reg.ECX, reg.ECX)
	c.Label("squeeze")
	keccakF1600x4Body(c, state, tmp, rc)
	for i := 0; i < 16; i += 4 {
		keccak4Transpose(c, state, i, func(j int) operand.Mem {
			return operand.Mem{Base: out[j], Index: reg.RCX, Scale: 1, Disp: 8 * i}
		})
	}
	for j := 0; j < 4; j++ {
		c.MOVQ(state.Offset(32*16+8*j), reg.RAX)
		c.MOVQ(reg.RAX, operand.Mem{Base: out[j], Index: reg.RCX, Scale: 1, Disp: 8 * 16})
	}
	c.ADDQ(operand.U32(shake256Rate), reg.RCX)
	c.CMPQ(reg.RCX, operand.U32(expandMaskBlocks*shake256Rate))
	c.JNE(operand.LabelRef("squeeze"))

	c.Comment("y[j][i] = γ1 − (coefficient i of the packed bits), mod q (Algorithm 19, line 4).")
	shuffle, counts, mask, gamma1, q := reg.Y8, reg.Y9, reg.Y10, reg.Y11, reg.Y12
	c.VMOVDQU(consts, shuffle)
	c.VMOVDQU(consts.Offset(32), counts)
	c.VPBROADCASTD(consts.Offset(64), mask)
	c.VPBROADCASTD(consts.Offset(68), gamma1)
	c.VPBROADCASTD(consts.Offset(72), q)
	for j := 0; j < 4; j++ {
		l := fmt.Sprintf("unpack%d", j)
		c.MOVQ(operand.U32(31*w), reg.RSI)    // byte offset of eight packed coefficients
		c.MOVQ(operand.U32(1024-32), reg.RDX) // byte offset of eight coefficients of y
		c.Label(l)
		c.VMOVDQU(operand.Mem{Base: out[j], Index: reg.RSI, Scale: 1}, reg.Y0)
		c.VPERMQ(operand.U8(0x94), reg.Y0, reg.Y0) // 64-bit words 0, 1, 1, 2
		c.VPSHUFB(shuffle, reg.Y0, reg.Y0)
		c.VPSRLVD(counts, reg.Y0, reg.Y0)
		c.VPAND(mask, reg.Y0, reg.Y0)
		c.VPSUBD(reg.Y0, gamma1, reg.Y0)
		c.VPSRAD(operand.U8(31), reg.Y0, reg.Y1)
		c.VPAND(q, reg.Y1, reg.Y1)
		c.VPADDD(reg.Y1, reg.Y0, reg.Y0)
		c.VMOVDQU(reg.Y0, operand.Mem{Base: out[j], Index: reg.RDX, Scale: 1})
		c.SUBQ(operand.U8(w), reg.RSI)
		c.SUBQ(operand.U8(32), reg.RDX)
		c.JCC(operand.LabelRef(l)) // until RDX goes below 0
	}
	c.VZEROUPPER()
	c.RET()
}
