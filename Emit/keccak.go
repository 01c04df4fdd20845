package main

import (
	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Keccak-f[1600] constants, derived here from FIPS 202 rather than typed in:
// keccakRho[x+5y] is the ρ offset of lane A[x,y] (FIPS 202 Algorithm 2) and
// keccakRC[i] the ι round constant of round i (Algorithms 5 and 6).
var (
	keccakRho [25]int
	keccakRC  [24]uint64
)

func init() {
	x, y := 1, 0
	for t := 0; t < 24; t++ {
		keccakRho[x+5*y] = ((t + 1) * (t + 2) / 2) % 64
		x, y = y, (2*x+3*y)%5
	}
	for i := range keccakRC {
		for j := 0; j <= 6; j++ {
			keccakRC[i] |= uint64(rcBit(j+7*i)) << (1<<j - 1)
		}
	}
}

// rcBit is rc(t) of FIPS 202 Algorithm 5: an LFSR over GF(2)[x]/(x⁸+x⁶+x⁵+x⁴+1).
func rcBit(t int) uint8 {
	r := uint16(1) // bit k is R[k]
	for i := 0; i < t%255; i++ {
		r <<= 1
		if r&0x100 != 0 {
			r ^= 0x171 // R[0], R[4], R[5], R[6] ^= R[8]; drop R[8]
		}
	}
	return uint8(r & 1)
}

// keccakRCTable emits the 24 round constants as a read-only table.
func keccakRCTable(c *build.Context) operand.Mem {
	rc := c.StaticGlobal("keccakRC")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	for _, v := range keccakRC {
		c.AppendDatum(operand.U64(v))
	}
	return rc
}

// buildKeccakF1600 emits KeccakF1600AMD64.
func buildKeccakF1600(c *build.Context) {
	rc := keccakRCTable(c)
	c.Function("KeccakF1600AMD64")
	c.Attributes(attr.NOSPLIT)
	c.SignatureExpr("func(a *[25]uint64)")
	c.Doc(
		"KeccakF1600AMD64 applies Keccak-f[1600] (FIPS 202, §3.3 and §3.4, 24",
		"rounds) to a in place; lane A[x,y] is a[x+5y]. It uses baseline x86-64",
		"only and no secret-dependent branch or address.",
	)
	c.Pragma("noescape") // keeps no pointer: callers' buffers may stay on the stack
	tmp := c.AllocLocal(25 * 8)
	c.Load(c.Param("a"), reg.R13)
	keccakF1600Body(c, operand.Mem{Base: reg.R13}, tmp, rc)
	c.RET()
}

// Registers of the ×1 permutation: C[x] while the column parities are
// computed, then B[x] (one output row at a time); D[x] (θ) and a temporary.
// Only AX..R12 are used, so that callers keep R13 for a pointer and R14/R15
// stay untouched.
var (
	keccakC = [5]reg.GPPhysical{reg.RAX, reg.RBX, reg.RCX, reg.RDX, reg.RSI}
	keccakD = [5]reg.GPPhysical{reg.RDI, reg.R8, reg.R9, reg.R10, reg.R11}
	keccakT = reg.R12
)

// keccakF1600Body emits the 24 rounds of Keccak-f[1600] on the state at a
// (25 lanes of 8 bytes), using tmp (another 200 bytes) as the other half of
// a ping-pong: even rounds read a and write tmp, odd rounds the reverse, so
// after 24 rounds the result is in a. rc is keccakRCTable's table. Both
// KeccakF1600AMD64 and RejNTTPolyAMD64 use this one body.
func keccakF1600Body(c *build.Context, a, tmp, rc operand.Mem) {
	for round := 0; round < 24; round++ {
		src, dst := a, tmp
		if round%2 == 1 {
			src, dst = tmp, a
		}
		lane := func(m operand.Mem, i int) operand.Mem { return m.Offset(8 * i) }
		c.Commentf("Round %d", round)
		// θ: C[x] = A[x,0] ⊕ … ⊕ A[x,4]; D[x] = C[x−1] ⊕ ROT(C[x+1], 1).
		for x := 0; x < 5; x++ {
			c.MOVQ(lane(src, x), keccakC[x])
			for y := 1; y < 5; y++ {
				c.XORQ(lane(src, x+5*y), keccakC[x])
			}
		}
		for x := 0; x < 5; x++ {
			c.MOVQ(keccakC[(x+1)%5], keccakD[x])
			c.ROLQ(operand.U8(1), keccakD[x])
			c.XORQ(keccakC[(x+4)%5], keccakD[x])
		}
		// Row by row: B[X] = ROT(A[x,y] ⊕ D[x], ρ[x,y]) with (X,Y) = π(x,y),
		// i.e. x = X+3Y, y = X; then χ and, for lane 0, ι.
		b := keccakC
		for Y := 0; Y < 5; Y++ {
			for X := 0; X < 5; X++ {
				x := (X + 3*Y) % 5
				c.MOVQ(lane(src, x+5*X), b[X])
				c.XORQ(keccakD[x], b[X])
				if r := keccakRho[x+5*X]; r != 0 {
					c.ROLQ(operand.U8(r), b[X])
				}
			}
			for X := 0; X < 5; X++ {
				c.MOVQ(b[(X+1)%5], keccakT)
				c.NOTQ(keccakT)
				c.ANDQ(b[(X+2)%5], keccakT)
				c.XORQ(b[X], keccakT)
				if X == 0 && Y == 0 {
					c.XORQ(rc.Offset(8*round), keccakT)
				}
				c.MOVQ(keccakT, lane(dst, X+5*Y))
			}
		}
	}
}
