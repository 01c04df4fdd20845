package main

import (
	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func init() { register("keccakx8", buildKeccakF1600x8) }

// keccak8Regs are the 32 zmm registers; the state lives in 25 of them for
// all 24 rounds, one state per 64-bit word.
var keccak8Regs = [32]reg.VecPhysical{
	reg.Z0, reg.Z1, reg.Z2, reg.Z3, reg.Z4, reg.Z5, reg.Z6, reg.Z7,
	reg.Z8, reg.Z9, reg.Z10, reg.Z11, reg.Z12, reg.Z13, reg.Z14, reg.Z15,
	reg.Z16, reg.Z17, reg.Z18, reg.Z19, reg.Z20, reg.Z21, reg.Z22, reg.Z23,
	reg.Z24, reg.Z25, reg.Z26, reg.Z27, reg.Z28, reg.Z29, reg.Z30, reg.Z31,
}

// buildKeccakF1600x8 emits KeccakF1600x8AVX512: eight interleaved states
// (lane i of state j at a[8i+j], so lane i of all eight is one 64-byte
// vector), kept in Z0–Z24 for all 24 rounds. θ's column parities go to
// Z25–Z29; Z30 and Z31 are temporaries.
//
// Each round: C[x] by one VPXORQ and one VPTERNLOGQ (0x96, a three-way
// XOR) per column and one more XOR; D[x] = C[x−1] ⊕ ROT(C[x+1], 1) is
// applied to the five lanes of column x by one VPTERNLOGQ 0x96 each
// (A ⊕ C[x−1] ⊕ ROT(C[x+1], 1)); ρ rotates every lane in place (VPROLQ);
// π moves no data: the emitter renames which register holds which lane;
// χ is one VPTERNLOGQ 0xD2 per lane in place, with copies of the plane's
// first two lanes, which the last two outputs read after they are
// overwritten; ι is one VPXORQ of a 64-byte row of round constants.
// π has order 24, so after the last round every lane is back in its own
// register.
func buildKeccakF1600x8(c *build.Context) {
	rc := c.StaticGlobal("keccakRC8")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	for _, v := range keccakRC {
		for j := 0; j < 8; j++ {
			c.AppendDatum(operand.U64(v))
		}
	}
	function(c, "KeccakF1600x8AVX512")
	c.Load(c.Param("a"), reg.RAX)
	a := operand.Mem{Base: reg.RAX}
	Z := keccak8Regs
	C := Z[25:30]
	T0, T1 := Z[30], Z[31]
	var at [25]reg.VecPhysical // at[x+5y]: the register holding lane A[x,y]
	for i := range at {
		at[i] = Z[i]
		c.VMOVDQU64(a.Offset(64*i), at[i])
	}
	for round := 0; round < 24; round++ {
		c.Commentf("Round %d", round)
		// θ.
		for x := 0; x < 5; x++ {
			c.VPXORQ(at[x+5], at[x], C[x])
			c.VPTERNLOGQ(operand.U8(0x96), at[x+15], at[x+10], C[x])
			c.VPXORQ(at[x+20], C[x], C[x])
		}
		for x := 0; x < 5; x++ {
			c.VPROLQ(operand.U8(1), C[(x+1)%5], T0)
			for y := 0; y < 5; y++ {
				c.VPTERNLOGQ(operand.U8(0x96), T0, C[(x+4)%5], at[x+5*y])
			}
		}
		// ρ in place, π by renaming: B[X,Y] = ROT(A[x,X], ρ[x,X]) with
		// x = X+3Y mod 5.
		var next [25]reg.VecPhysical
		for i := range at {
			if r := keccakRho[i]; r != 0 {
				c.VPROLQ(operand.U8(r), at[i], at[i])
			}
		}
		for X := 0; X < 5; X++ {
			for Y := 0; Y < 5; Y++ {
				x := (X + 3*Y) % 5
				next[X+5*Y] = at[x+5*X]
			}
		}
		at = next
		// χ: E[X] = B[X] ⊕ (¬B[X+1] ∧ B[X+2]), in place; E[3] and E[4]
		// read B[0] and B[1] from their copies.
		for Y := 0; Y < 5; Y++ {
			B := at[5*Y : 5*Y+5]
			c.VMOVDQU64(B[0], T0)
			c.VMOVDQU64(B[1], T1)
			src := [7]reg.VecPhysical{B[0], B[1], B[2], B[3], B[4], T0, T1}
			for X := 0; X < 5; X++ {
				c.VPTERNLOGQ(operand.U8(0xD2), src[X+2], src[X+1], B[X])
			}
		}
		// ι.
		c.VPXORQ(rc.Offset(64*round), at[0], at[0])
	}
	for i := range at {
		c.VMOVDQU64(at[i], a.Offset(64*i))
	}
	c.VZEROUPPER()
	c.RET()
}
