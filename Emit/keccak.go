package main

import (
	"math/bits"

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

// keccakComplemented lists the lanes that keccakF1600Body keeps complemented
// between rounds ("lane complementing", Bertoni et al., Keccak implementation
// overview, §2.2): with them most lanes of χ need no NOT. Which lanes are
// complemented only changes the instruction count; the formulas below are
// chosen for whatever polarity each value has.
var keccakComplemented = [25]bool{1: true, 2: true, 8: true, 12: true, 17: true, 20: true}

// keccakF1600Body emits the 24 rounds of Keccak-f[1600] on the state at a
// (25 lanes of 8 bytes), using tmp (another 200 bytes) as the other half of
// a ping-pong: even rounds read a and write tmp, odd rounds the reverse, so
// after 24 rounds the result is in a. rc is keccakRCTable's table. Both
// KeccakF1600AMD64 and RejNTTPolyAMD64 use this one body.
//
// Round 0 reads plain lanes and writes the lanes of keccakComplemented
// complemented; round 23 reads them so and writes plain lanes again.
func keccakF1600Body(c *build.Context, a, tmp, rc operand.Mem) {
	var plain [25]bool
	for round := 0; round < 24; round++ {
		src, dst := a, tmp
		if round%2 == 1 {
			src, dst = tmp, a
		}
		pin, pout := keccakComplemented, keccakComplemented
		if round == 0 {
			pin = plain
		}
		if round == 23 {
			pout = plain
		}
		lane := func(m operand.Mem, i int) operand.Mem { return m.Offset(8 * i) }
		c.Commentf("Round %d", round)
		// θ: C[x] = A[x,0] ⊕ … ⊕ A[x,4]; D[x] = C[x−1] ⊕ ROT(C[x+1], 1).
		// A complemented value is its plain value ⊕ 1⁶⁴, and ROT(1⁶⁴) = 1⁶⁴,
		// so each value's polarity is the parity of its inputs' polarities.
		var pc, pd [5]bool
		for x := 0; x < 5; x++ {
			c.MOVQ(lane(src, x), keccakC[x])
			pc[x] = pin[x]
			for y := 1; y < 5; y++ {
				c.XORQ(lane(src, x+5*y), keccakC[x])
				pc[x] = pc[x] != pin[x+5*y]
			}
		}
		for x := 0; x < 5; x++ {
			c.MOVQ(keccakC[(x+1)%5], keccakD[x])
			c.ROLQ(operand.U8(1), keccakD[x])
			c.XORQ(keccakC[(x+4)%5], keccakD[x])
			pd[x] = pc[(x+1)%5] != pc[(x+4)%5]
		}
		// Row by row: B[X] = ROT(A[x,y] ⊕ D[x], ρ[x,y]) with (X,Y) = π(x,y),
		// i.e. x = X+3Y, y = X; then χ and, for lane 0, ι.
		b := keccakC
		for Y := 0; Y < 5; Y++ {
			var pb [5]bool
			for X := 0; X < 5; X++ {
				x := (X + 3*Y) % 5
				c.MOVQ(lane(src, x+5*X), b[X])
				c.XORQ(keccakD[x], b[X])
				if r := keccakRho[x+5*X]; r != 0 {
					c.ROLQ(operand.U8(r), b[X])
				}
				pb[X] = pin[x+5*X] != pd[x]
			}
			// Complementing some of the row's registers first may spare
			// more NOTs in χ than it costs: take the cheapest choice.
			best, bestCost := 0, 1<<30
			for flip := 0; flip < 32; flip++ {
				cost := bits.OnesCount(uint(flip))
				q := pb
				for X := range q {
					q[X] = q[X] != (flip>>X&1 == 1)
				}
				for X := 0; X < 5; X++ {
					cost += keccakChiCost(q, X, pout[X+5*Y])
				}
				if cost < bestCost {
					best, bestCost = flip, cost
				}
			}
			for X := range pb {
				if best>>X&1 == 1 {
					c.NOTQ(b[X])
					pb[X] = !pb[X]
				}
			}
			for X := 0; X < 5; X++ {
				var iota *operand.Mem
				if X == 0 && Y == 0 {
					m := rc.Offset(8 * round)
					iota = &m
				}
				keccakChi(c, b, pb, X, pout[X+5*Y], iota, lane(dst, X+5*Y))
			}
		}
	}
}

// keccakChi emits output X of χ on a row, E[X] = B[X] ⊕ (¬B[X+1] ∧ B[X+2]),
// and stores it to dst with polarity po (true: complemented). The registers
// b hold the row with polarities pb; outputs are emitted for X = 0, 1, …, 4,
// so a register no later output reads serves as the temporary. With
// A, B, C the registers of B[X], B[X+1], B[X+2] (values ⊕ their polarity):
//
//	B compl., C plain:   ¬b ∧ c = B ∧ C                  (no NOT)
//	B plain, C compl.:   ¬b ∧ c = ¬(B ∨ C)               (no NOT)
//	both plain:          ¬b ∧ c = ¬B ∧ C,  or its complement B ∨ ¬C
//	both complemented:   ¬b ∧ c = B ∧ ¬C,  or its complement ¬B ∨ C
//
// then ⊕ A, and a final NOT only if the polarities still disagree.
func keccakChi(c *build.Context, b [5]reg.GPPhysical, pb [5]bool, X int, po bool, iota *operand.Mem, dst operand.Mem) {
	f := keccakChiPlan(pb, X, po)
	t := keccakT
	if keccakRowDead(f.first, X) {
		t = b[f.first]
	} else {
		c.MOVQ(b[f.first], t)
	}
	if f.notFirst {
		c.NOTQ(t)
	}
	if f.or {
		c.ORQ(b[f.second], t)
	} else {
		c.ANDQ(b[f.second], t)
	}
	c.XORQ(b[X], t)
	if f.finalNot {
		c.NOTQ(t)
	}
	if iota != nil {
		c.XORQ(*iota, t)
	}
	c.MOVQ(t, dst)
}

// keccakChiFormula is how keccakChi computes one output.
type keccakChiFormula struct {
	first, second int  // t = first, then t = t op second
	notFirst, or  bool // t = ¬first; op is ∨ (else ∧)
	finalNot      bool
}

func keccakChiPlan(pb [5]bool, X int, po bool) keccakChiFormula {
	ib, ic := (X+1)%5, (X+2)%5
	pa, pB, pC := pb[X], pb[ib], pb[ic]
	var f keccakChiFormula
	var invert bool // the op computes the complement of ¬b ∧ c
	switch {
	case pB && !pC:
		f = keccakChiFormula{first: ib, second: ic}
	case !pB && pC:
		f, invert = keccakChiFormula{first: ib, second: ic, or: true}, true
	case !pB && !pC && pa == po:
		f = keccakChiFormula{first: ib, second: ic, notFirst: true}
	case !pB && !pC:
		f, invert = keccakChiFormula{first: ic, second: ib, notFirst: true, or: true}, true
	case pa == po: // both complemented
		f = keccakChiFormula{first: ic, second: ib, notFirst: true}
	default:
		f, invert = keccakChiFormula{first: ib, second: ic, notFirst: true, or: true}, true
	}
	// E ⊕ po = A ⊕ pa ⊕ (op ⊕ invert) ⊕ po.
	f.finalNot = (pa != po) != invert
	return f
}

// keccakChiCost is the number of instructions keccakChi emits, but the
// store and ι.
func keccakChiCost(pb [5]bool, X int, po bool) int {
	f := keccakChiPlan(pb, X, po)
	n := 2 // op, ⊕ A
	for _, extra := range []bool{!keccakRowDead(f.first, X), f.notFirst, f.finalNot} {
		if extra {
			n++
		}
	}
	return n
}

// keccakRowDead reports whether no output after X reads B[i]: output j reads
// B[j], B[j+1] and B[j+2].
func keccakRowDead(i, X int) bool {
	for j := X + 1; j < 5; j++ {
		if i == j || i == (j+1)%5 || i == (j+2)%5 {
			return false
		}
	}
	return true
}
