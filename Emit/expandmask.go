package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// shake256Rate is the SHAKE256 block size in bytes (FIPS 202, §6.2).
const shake256Rate = 136

// expandMaskBlocks is the SHAKE256 blocks ExpandMask squeezes: 32·c bytes
// (Algorithm 34, line 4) with c = 18 or 20 need five blocks of 136.
const expandMaskBlocks = 5

func init() { register("expandmask", buildExpandMask) }

// buildExpandMask emits ExpandMask17AMD64, ExpandMask19AMD64 and their
// four-way AVX2 variants, then the four-way AVX512 ones, then the ×1
// BMI2 ones (the ×1 routines calling KeccakF1600BMI2), then the eight-way
// AVX512 ones, then the ×1 AVX2 ones (KeccakF1600BMI2 and the AVX2
// BitUnpack). Each is made of calls of proven routines: the
// permutation squeezes the SHAKE256 state(s) kept in the frame, the
// stream's first 32·c bytes are copied out block by block, and
// BitUnpack (Algorithm 19) turns each stream into its polynomial.
func buildExpandMask(c *build.Context) {
	for _, bits := range []int{17, 19} {
		buildExpandMaskAMD64(c, bits, "AMD64")
		buildExpandMaskWide(c, bits, 4, "AVX2")
	}
	for _, bits := range []int{17, 19} {
		buildExpandMaskWide(c, bits, 4, "AVX512")
	}
	for _, bits := range []int{17, 19} {
		buildExpandMaskAMD64(c, bits, "BMI2")
	}
	for _, bits := range []int{17, 19} {
		buildExpandMaskWide(c, bits, 8, "AVX512")
	}
	for _, bits := range []int{17, 19} {
		buildExpandMaskAMD64(c, bits, "AVX2")
	}
}

// expandMaskLanes is how many lanes of block blk the stream of n bytes
// takes: 17, or fewer in the last block.
func expandMaskLanes(blk, n int) int {
	return min(shake256Rate/8, (n-shake256Rate*blk)/8)
}

// expandMaskAbsorb emits the absorbing of a 66-byte seed ‖ 0x1F into lanes
// lane(i) of a state (FIPS 202, §6.2): seed bytes 0 to 63 are lanes 0 to
// 7, bytes 64, 65 and 0x1F lane 8.
func expandMaskAbsorb(c *build.Context, seed operand.Mem, lane func(i int) operand.Mem) {
	for i := 0; i < 8; i++ {
		c.MOVQ(seed.Offset(8*i), reg.RAX)
		c.MOVQ(reg.RAX, lane(i))
	}
	c.MOVWLZX(seed.Offset(64), reg.EAX)
	c.ORL(operand.U32(0x1F<<16), reg.EAX)
	c.MOVQ(reg.RAX, lane(8))
}

// unpackCall emits the call of unpack on the stream at v into the
// polynomial whose address load puts in RAX.
func unpackCall(c *build.Context, args, v operand.Mem, unpack string, load func()) {
	load()
	c.MOVQ(reg.RAX, args)
	c.LEAQ(v, reg.RAX)
	c.MOVQ(reg.RAX, args.Offset(8))
	c.CALL(callee(unpack))
}

// buildExpandMaskAMD64 emits ExpandMask<bits><variant>: the state
// squeezed by five calls of KeccakF1600<variant> (AMD64 or BMI2; BMI2 for
// the AVX2 variant), each block's lanes copied to the stream, then
// BitUnpack<c>AMD64 (BitUnpack<c>AVX2 for the AVX2 variant) from the
// stream into y.
func buildExpandMaskAMD64(c *build.Context, bits int, variant string) {
	w := bits + 1 // bits per packed coefficient, c of Algorithm 34, line 1
	n := 32 * w
	perm, unpack := "KeccakF1600"+variant, fmt.Sprintf("BitUnpack%dAMD64", w)
	if variant == "AVX2" {
		perm, unpack = "KeccakF1600BMI2", fmt.Sprintf("BitUnpack%dAVX2", w)
	}
	args := newCallFrame(c, callerOnStack, fmt.Sprintf("ExpandMask%d%s", bits, variant), 16).args // the callees' arguments
	state := c.AllocLocal(25 * 8)
	stream := c.AllocLocal(n)

	c.Comment("Absorb seed ‖ 0x1F, pad with 0x80 at byte 135 (FIPS 202, §6.2).")
	c.Load(c.Param("seed"), reg.RSI)
	expandMaskAbsorb(c, operand.Mem{Base: reg.RSI}, func(i int) operand.Mem { return state.Offset(8 * i) })
	zeroAndPad(c, state, 9, shake256Rate)

	c.Comment("Squeeze: block j is the rate after j+1 permutations (FIPS 202, Algorithm 8).")
	gp := []reg.GPPhysical{reg.RAX, reg.RBX, reg.RCX, reg.RDX}
	for blk := 0; blk < expandMaskBlocks; blk++ {
		c.LEAQ(state, reg.RAX)
		c.MOVQ(reg.RAX, args)
		c.CALL(callee(perm))
		// Four lanes in flight (general registers only: the baseline
		// contract allows no SSE).
		lanes := expandMaskLanes(blk, n)
		for i := 0; i < lanes; i += 4 {
			k := min(4, lanes-i)
			for t := 0; t < k; t++ {
				c.MOVQ(state.Offset(8*(i+t)), gp[t])
			}
			for t := 0; t < k; t++ {
				c.MOVQ(gp[t], stream.Offset(shake256Rate*blk+8*(i+t)))
			}
		}
	}

	c.Comment("y = BitUnpack(stream, γ1 − 1, γ1) mod q (Algorithm 34, line 5).")
	unpackCall(c, args, stream, unpack, func() { c.Load(c.Param("y"), reg.RAX) })
	c.RET()
}

// buildExpandMaskWide emits ExpandMask<bits>x<n><variant> (n = 4 or 8):
// the n states interleaved as KeccakF1600x<n><variant> has them (lane L of
// state j at word n·L + j), squeezed by five calls of it, each block's
// lanes de-interleaved into one stream per state (four states at a time:
// the low and high 32 bytes of a lane vector of eight), then
// BitUnpack<c>AVX2 from stream j into y[j].
//
// Eight streams do not fit in a frame of at most 4096 bytes (the largest
// whose stack check the model knows): streams 3 to 7 are kept in the
// outputs y[0] to y[4] (640 of their 1024 bytes), and the streams are
// unpacked from the last to the first, so that y[j] is written only
// after the stream it held (stream j+3) has been unpacked.
func buildExpandMaskWide(c *build.Context, bits, n int, variant string) {
	w := bits + 1
	sn := 32 * w
	args := newCallFrame(c, callerOnStack, fmt.Sprintf("ExpandMask%dx%d%s", bits, n, variant), 16).args
	state := c.AllocLocal(25 * 8 * n)
	inFrame := n
	if n == 8 {
		inFrame = 3
	}
	streams := c.AllocLocal(inFrame * sn)
	// The outputs holding streams inFrame to n−1, their addresses loaded
	// after each permutation call (which clobbers every register).
	outReg := []reg.GPPhysical{reg.R8, reg.R9, reg.R10, reg.R11, reg.R12}
	stream := func(j int) operand.Mem {
		if j < inFrame {
			return streams.Offset(sn * j)
		}
		return operand.Mem{Base: outReg[j-inFrame]}
	}
	lane := func(i, j int) operand.Mem { return state.Offset(8*n*i + 8*j) }

	c.Comment("Absorb seeds[j] ‖ 0x1F, pad with 0x80 at byte 135 (FIPS 202, §6.2).")
	c.VPXOR(reg.Y0, reg.Y0, reg.Y0)
	for i := 9; i < 25; i++ {
		for h := 0; h < n/4; h++ {
			c.VMOVDQU(reg.Y0, state.Offset(8*n*i+32*h))
		}
	}
	c.Load(c.Param("seeds"), reg.RSI)
	for j := 0; j < n; j++ {
		expandMaskAbsorb(c, operand.Mem{Base: reg.RSI, Disp: 66 * j}, func(i int) operand.Mem { return lane(i, j) })
	}
	c.MOVQ(operand.U64(0x80<<56), reg.RAX)
	for j := 0; j < n; j++ {
		c.MOVQ(reg.RAX, lane(shake256Rate/8-1, j))
	}

	c.Comment("Squeeze the states in step, de-interleaving each block into the streams.")
	for blk := 0; blk < expandMaskBlocks; blk++ {
		c.LEAQ(state, reg.RAX)
		c.MOVQ(reg.RAX, args)
		callVariant(c, fmt.Sprintf("KeccakF1600x%d", n), variant)
		if inFrame < n {
			c.Load(c.Param("y"), reg.RAX)
			for j := inFrame; j < n; j++ {
				c.MOVQ(operand.Mem{Base: reg.RAX, Disp: 8 * (j - inFrame)}, outReg[j-inFrame])
			}
		}
		lanes := expandMaskLanes(blk, sn)
		for i := 0; i+4 <= lanes; i += 4 {
			for h := 0; h < n/4; h++ { // states 4h to 4h+3
				keccak4TransposeFrom(c, func(k int) operand.Mem { return state.Offset(8*n*(i+k) + 32*h) },
					func(j int) operand.Mem { return stream(4*h + j).Offset(shake256Rate*blk + 8*i) })
			}
		}
		for i := lanes / 4 * 4; i < lanes; i++ {
			for j := 0; j < n; j++ {
				c.MOVQ(lane(i, j), reg.RAX)
				c.MOVQ(reg.RAX, stream(j).Offset(shake256Rate*blk+8*i))
			}
		}
	}

	c.Comment("y[j] = BitUnpack(stream j, γ1 − 1, γ1) mod q (Algorithm 34, line 5).")
	for k := 0; k < n; k++ {
		j := k
		if inFrame < n {
			j = n - 1 - k // the last first: see above
		}
		output := func() {
			c.Load(c.Param("y"), reg.RAX)
			c.MOVQ(operand.Mem{Base: reg.RAX, Disp: 8 * j}, reg.RAX)
		}
		if j < inFrame {
			unpackCall(c, args, stream(j), fmt.Sprintf("BitUnpack%dAVX2", w), output)
			continue
		}
		output()
		c.MOVQ(reg.RAX, args)
		c.Load(c.Param("y"), reg.RAX)
		c.MOVQ(operand.Mem{Base: reg.RAX, Disp: 8 * (j - inFrame)}, reg.RAX)
		c.MOVQ(reg.RAX, args.Offset(8))
		c.CALL(callee(fmt.Sprintf("BitUnpack%dAVX2", w)))
	}
	c.VZEROUPPER()
	c.RET()
}
