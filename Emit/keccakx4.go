package main

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func init() { register("keccakx4", buildKeccakF1600x4) }

// buildKeccakF1600x4 emits KeccakF1600x4AVX2.
func buildKeccakF1600x4(c *build.Context) {
	rc := keccakRCTable(c)
	function(c, "KeccakF1600x4AVX2")
	tmp := c.AllocLocal(25 * 32)
	c.Load(c.Param("a"), reg.RAX)
	keccakF1600x4Body(c, operand.Mem{Base: reg.RAX}, tmp, rc)
	c.VZEROUPPER()
	c.RET()
}

// Registers of the ×4 permutation, as in the ×1 version: C[x] then B[x],
// D[x], two temporaries and the broadcast round constant.
var (
	keccak4C  = [5]reg.VecPhysical{reg.Y0, reg.Y1, reg.Y2, reg.Y3, reg.Y4}
	keccak4D  = [5]reg.VecPhysical{reg.Y5, reg.Y6, reg.Y7, reg.Y8, reg.Y9}
	keccak4T  = reg.Y10
	keccak4U  = reg.Y11
	keccak4RC = reg.Y12
)

// rol4 emits dst = ROT(src, r) on each 64-bit lane (AVX2 has no rotate);
// src may equal dst. It uses keccak4U.
func rol4(c *build.Context, r int, src, dst reg.VecPhysical) {
	c.VPSLLQ(operand.U8(r), src, keccak4U)
	c.VPSRLQ(operand.U8(64-r), src, dst)
	c.VPOR(keccak4U, dst, dst)
}

// keccakF1600x4Body emits 24 rounds on four interleaved states at a (25
// lanes of 32 bytes), ping-ponging with tmp (another 800 bytes) exactly as
// keccakF1600Body does; the result ends in a. Both KeccakF1600x4AVX2 and
// RejNTTPolyx4AVX2 use this one body.
func keccakF1600x4Body(c *build.Context, a, tmp, rc operand.Mem) {
	for round := 0; round < 24; round++ {
		src, dst := a, tmp
		if round%2 == 1 {
			src, dst = tmp, a
		}
		lane := func(m operand.Mem, i int) operand.Mem { return m.Offset(32 * i) }
		c.Commentf("Round %d", round)
		for x := 0; x < 5; x++ {
			c.VMOVDQU(lane(src, x), keccak4C[x])
			for y := 1; y < 5; y++ {
				c.VPXOR(lane(src, x+5*y), keccak4C[x], keccak4C[x])
			}
		}
		for x := 0; x < 5; x++ {
			rol4(c, 1, keccak4C[(x+1)%5], keccak4D[x])
			c.VPXOR(keccak4C[(x+4)%5], keccak4D[x], keccak4D[x])
		}
		b := keccak4C
		for Y := 0; Y < 5; Y++ {
			for X := 0; X < 5; X++ {
				x := (X + 3*Y) % 5
				c.VPXOR(lane(src, x+5*X), keccak4D[x], b[X])
				if r := keccakRho[x+5*X]; r != 0 {
					rol4(c, r, b[X], b[X])
				}
			}
			for X := 0; X < 5; X++ {
				// VPANDN computes ¬B[X+1] ∧ B[X+2] (Go operand order).
				c.VPANDN(b[(X+2)%5], b[(X+1)%5], keccak4T)
				c.VPXOR(b[X], keccak4T, keccak4T)
				if X == 0 && Y == 0 {
					c.VPBROADCASTQ(rc.Offset(8*round), keccak4RC)
					c.VPXOR(keccak4RC, keccak4T, keccak4T)
				}
				c.VMOVDQU(keccak4T, lane(dst, X+5*Y))
			}
		}
	}
}

// keccak4Transpose emits the de-interleaving of lanes i to i+3 of the four
// interleaved states at state: the 32 bytes at dst(j) receive those lanes
// of state j. It uses Y0 to Y7.
func keccak4Transpose(c *build.Context, state operand.Mem, i int, dst func(j int) operand.Mem) {
	r := [4]reg.VecPhysical{reg.Y0, reg.Y1, reg.Y2, reg.Y3}
	t := [4]reg.VecPhysical{reg.Y4, reg.Y5, reg.Y6, reg.Y7}
	for k := range r {
		c.VMOVDQU(state.Offset(32*(i+k)), r[k])
	}
	c.VPUNPCKLQDQ(r[1], r[0], t[0]) // lanes i, i+1 of states 0 and 2
	c.VPUNPCKHQDQ(r[1], r[0], t[1]) // lanes i, i+1 of states 1 and 3
	c.VPUNPCKLQDQ(r[3], r[2], t[2]) // lanes i+2, i+3 of states 0 and 2
	c.VPUNPCKHQDQ(r[3], r[2], t[3]) // lanes i+2, i+3 of states 1 and 3
	c.VPERM2I128(operand.U8(0x20), t[2], t[0], r[0])
	c.VPERM2I128(operand.U8(0x20), t[3], t[1], r[1])
	c.VPERM2I128(operand.U8(0x31), t[2], t[0], r[2])
	c.VPERM2I128(operand.U8(0x31), t[3], t[1], r[3])
	for j := range r {
		c.VMOVDQU(r[j], dst(j))
	}
}
