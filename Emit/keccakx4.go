package main

import (
	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func init() { register("keccakx4", buildKeccakF1600x4) }

// buildKeccakF1600x4 emits KeccakF1600x4AVX2 and KeccakF1600x4AVX512.
func buildKeccakF1600x4(c *build.Context) {
	k := keccak4Tables(c)
	for _, v := range []string{"AVX2", "AVX512"} {
		k.avx512 = v == "AVX512"
		function(c, "KeccakF1600x4"+v)
		tmp := c.AllocLocal(25 * 32)
		c.Load(c.Param("a"), reg.RAX)
		keccakF1600x4Body(c, operand.Mem{Base: reg.RAX}, tmp, k)
		c.VZEROUPPER()
		c.RET()
	}
}

// keccak4Consts are the read-only tables of the ×4 permutation: rc holds
// the round constants, each repeated in the four words of 32 bytes, so ι
// is one VPXOR from memory; rot8 and rot56 are VPSHUFB controls rotating
// every 64-bit word left by 8 and by 56 bits (a whole byte: one shuffle
// instead of two shifts and an OR). avx512 selects the AVX-512VL body:
// VPROLQ for every rotation and VPTERNLOGQ for χ, on the same registers
// (Y0–Y15, EVEX.256).
type keccak4Consts struct {
	rc, rot8, rot56 operand.Mem
	avx512          bool
}

// keccak4Tables emits the tables of keccak4Consts.
func keccak4Tables(c *build.Context) keccak4Consts {
	rc := c.StaticGlobal("keccakRC4")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	for _, v := range keccakRC {
		for j := 0; j < 4; j++ {
			c.AppendDatum(operand.U64(v))
		}
	}
	rot := c.StaticGlobal("keccakRot")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	for _, r := range []int{1, 7} { // bytes: rotations by 8 and 56 bits
		for w := 0; w < 4; w++ {
			// Byte b of word w of the result is byte b−r of that word;
			// PSHUFB indexes bytes within each 16-byte half.
			var v uint64
			for b := 0; b < 8; b++ {
				v |= uint64(8*(w%2)+(b-r)&7) << (8 * b)
			}
			c.AppendDatum(operand.U64(v))
		}
	}
	return keccak4Consts{rc: rc, rot8: rot, rot56: rot.Offset(32)}
}

// Registers of the ×4 permutation (all sixteen): the column parities
// C[x] of θ, D[x], one plane's B[X], and a temporary.
var (
	keccak4C = [5]reg.VecPhysical{reg.Y0, reg.Y1, reg.Y2, reg.Y3, reg.Y4}
	keccak4D = [5]reg.VecPhysical{reg.Y5, reg.Y6, reg.Y7, reg.Y8, reg.Y9}
	keccak4B = [5]reg.VecPhysical{reg.Y10, reg.Y11, reg.Y12, reg.Y13, reg.Y14}
	keccak4T = reg.Y15
)

// rol4 emits dst = ROT(src, r) on each 64-bit lane, src may equal dst:
// one VPSHUFB for r = 8 or 56, else two shifts and an OR through
// keccak4T (AVX2 has no rotate).
func rol4(c *build.Context, k keccak4Consts, r int, src, dst reg.VecPhysical) {
	if k.avx512 {
		c.VPROLQ(operand.U8(r), src, dst)
		return
	}
	switch r {
	case 8:
		c.VPSHUFB(k.rot8, src, dst)
	case 56:
		c.VPSHUFB(k.rot56, src, dst)
	default:
		c.VPSLLQ(operand.U8(r), src, keccak4T)
		c.VPSRLQ(operand.U8(64-r), src, dst)
		c.VPOR(keccak4T, dst, dst)
	}
}

// keccakF1600x4Body emits 24 rounds on four interleaved states at a (25
// lanes of 32 bytes), ping-ponging with tmp (another 800 bytes): even
// rounds read a and write tmp, odd rounds the reverse, so the result ends
// in a. It uses the vector registers and the tables k, and on AVX2 CX and
// DX too.
//
// The AVX2 body runs rounds 1 to 22 as a loop of eleven passes of two
// rounds (an odd one and an even one, so the buffers are where they were),
// CX pointing at the pass's round constants and DX counting passes: the
// unrolled 24 rounds do not fit the decoded-instruction cache and run at
// the speed of instruction fetch. Round 0 (its parities from memory) and
// round 23 (no parities) are outside the loop.
func keccakF1600x4Body(c *build.Context, a, tmp operand.Mem, k keccak4Consts) {
	C := keccak4C
	lane := func(m operand.Mem, i int) operand.Mem { return m.Offset(32 * i) }
	for x := 0; x < 5; x++ {
		c.VMOVDQU(lane(a, x), C[x])
		for y := 1; y < 5; y++ {
			c.VPXOR(lane(a, x+5*y), C[x], C[x])
		}
	}
	if k.avx512 {
		for round := 0; round < 24; round++ {
			src, dst := keccakBuffers(round, a, tmp)
			keccak4Round(c, k, round, src, dst, k.rc.Offset(32*round))
		}
		return
	}
	keccak4Round(c, k, 0, a, tmp, k.rc)
	c.LEAQ(k.rc.Offset(32), reg.RCX)
	c.MOVL(operand.U32(11), reg.EDX)
	c.Label("rounds")
	for round := 1; round <= 2; round++ {
		src, dst := keccakBuffers(round, a, tmp)
		keccak4Round(c, k, round, src, dst, operand.Mem{Base: reg.RCX, Disp: 32 * (round - 1)})
	}
	c.ADDQ(operand.U8(64), reg.RCX)
	c.DECL(reg.EDX)
	c.JNE(operand.LabelRef("rounds"))
	src, dst := keccakBuffers(23, a, tmp)
	keccak4Round(c, k, 23, src, dst, k.rc.Offset(32*23))
}

// keccak4Round emits one round from src to dst with ι's constant at rc.
// Each round is θ, then ρ, π, χ and ι one output plane at a time, each
// lane of B loaded once with its ⊕ D[x] (ρ and π choose which) and
// rotated in place. The column parities of the next round's θ are
// accumulated from χ's outputs as they are stored: the first plane's
// outputs are computed in the C registers themselves, free once D is
// known, and the others XORed in; only round 0 reads its parities from
// memory. Lane A[4,4] goes from one round to the next in B[4], unstored.
func keccak4Round(c *build.Context, k keccak4Consts, round int, src, dst, rc operand.Mem) {
	C, D, B, T := keccak4C, keccak4D, keccak4B, keccak4T
	lane := func(m operand.Mem, i int) operand.Mem { return m.Offset(32 * i) }
	c.Commentf("Round %d", round)
	// θ: D[x] = C[x−1] ⊕ ROT(C[x+1], 1).
	for x := 0; x < 5; x++ {
		rol4(c, k, 1, C[(x+1)%5], D[x])
		c.VPXOR(C[(x+4)%5], D[x], D[x])
	}
	parity := round < 23 // the next round's θ needs this round's parities
	for Y := 0; Y < 5; Y++ {
		// B[X] = ROT(A[x,y] ⊕ D[x], ρ[x,y]) with (X,Y) = π(x,y).
		for X := 0; X < 5; X++ {
			x := (X + 3*Y) % 5
			if round > 0 && Y == 0 && X == 4 {
				// A[4,4] is still in B[4] from the last plane.
				c.VPXOR(D[x], B[X], B[X])
			} else {
				c.VPXOR(lane(src, x+5*X), D[x], B[X])
			}
			if r := keccakRho[x+5*X]; r != 0 {
				rol4(c, k, r, B[X], B[X])
			}
		}
		// χ and ι: E[X] = B[X] ⊕ (¬B[X+1] ∧ B[X+2]).
		if k.avx512 {
			keccak4ChiAVX512(c, k, rc, Y, parity, lane(dst, 5*Y))
			continue
		}
		for X := 0; X < 5; X++ {
			out := T
			if parity && Y == 0 {
				out = C[X]
			}
			// VPANDN computes ¬B[X+1] ∧ B[X+2] (Go operand order).
			c.VPANDN(B[(X+2)%5], B[(X+1)%5], out)
			if parity && Y == 4 && X == 4 {
				// E[4,4], the next round's first plane's B[4] (π
				// moves A[4,4] to B[4] of plane 0), stays in B[4],
				// which no later output reads: it is never stored.
				c.VPXOR(out, B[X], B[X])
				c.VPXOR(B[X], C[X], C[X])
				continue
			}
			c.VPXOR(B[X], out, out)
			if X == 0 && Y == 0 {
				c.VPXOR(rc, out, out)
			}
			c.VMOVDQU(out, lane(dst, X+5*Y))
			if parity && Y > 0 {
				c.VPXOR(T, C[X], C[X])
			}
		}
	}
}

// keccak4ChiAVX512 emits χ and ι of plane Y from B into the five lanes
// at row, one VPTERNLOGQ per lane (0xD2 is the table of a ⊕ (¬b ∧ c) for
// (a, b, c) = (E[X]'s register, B[X+1], B[X+2])), with the parities
// as keccakF1600x4Body keeps them. E[X] is computed in B[X] itself for X ≥
// 2, whose B[X] E[X−1] and E[X−2] have read already; E[0] and E[1] go
// through T, as B[0] and B[1] are still read by E[3] and E[4].
func keccak4ChiAVX512(c *build.Context, k keccak4Consts, rc operand.Mem, Y int, parity bool, row operand.Mem) {
	C, B, T := keccak4C, keccak4B, keccak4T
	for X := 0; X < 5; X++ {
		out := T
		switch {
		case parity && Y == 0:
			out = C[X]
		case X >= 2:
			out = B[X]
		}
		if out != B[X] {
			c.VMOVDQU(B[X], out)
		}
		c.VPTERNLOGQ(operand.U8(0xD2), B[(X+2)%5], B[(X+1)%5], out)
		if parity && Y == 4 && X == 4 {
			// E[4,4] stays in B[4] for the next round, unstored.
			c.VPXOR(out, C[X], C[X])
			continue
		}
		if X == 0 && Y == 0 {
			c.VPXOR(rc, out, out)
		}
		c.VMOVDQU(out, row.Offset(32*X))
		if parity && Y > 0 {
			c.VPXOR(out, C[X], C[X])
		}
	}
}

// keccak4Transpose emits the de-interleaving of lanes i to i+3 of the four
// interleaved states at state: the 32 bytes at dst(j) receive those lanes
// of state j. It uses Y0 to Y7.
func keccak4Transpose(c *build.Context, state operand.Mem, i int, dst func(j int) operand.Mem) {
	keccak4TransposeFrom(c, func(k int) operand.Mem { return state.Offset(32 * (i + k)) }, dst)
}

// keccak4TransposeFrom is keccak4Transpose with lane i+k of the four
// states read as the 32 bytes at src(k) (four words of a wider lane
// vector too).
func keccak4TransposeFrom(c *build.Context, src func(k int) operand.Mem, dst func(j int) operand.Mem) {
	r := [4]reg.VecPhysical{reg.Y0, reg.Y1, reg.Y2, reg.Y3}
	t := [4]reg.VecPhysical{reg.Y4, reg.Y5, reg.Y6, reg.Y7}
	for k := range r {
		c.VMOVDQU(src(k), r[k])
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
