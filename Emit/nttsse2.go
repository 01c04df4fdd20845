package main

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Shared machinery of the baseline routines of the NTT domain (FIPS 204,
// Algorithms 41, 42, 45 and 48) in SSE2, which every x86-64 CPU has.
//
// An xmm register holds four 32-bit coefficients; eight of them hold 32
// coefficients of a block, two index bits selecting the lane and three the
// register, as in nttavx2.go. A lane bit becomes a register bit by a 4×4
// transposition of four registers (sseGen.transpose).
//
// SSE2's only 32-bit multiplication is PMULUDQ (Go: PMULULQ), unsigned, on
// the even lanes. Values therefore stay non-negative wherever they are
// multiplied, and the Montgomery product with R = 2³² is unsigned: for
// 0 ≤ x < 2³² and a twiddle z = ζ·2³² mod q in [0, q), with m = x·z·q⁻¹ mod
// 2³² in [0, 2³²), (x·z − m·q)/2³² is exact, congruent to x·ζ and lies in
// (−q, x·z/2³²]: the difference of the high halves of x·z and m·q (the low
// halves are equal). The odd lanes are moved down by PSHUFD first.
//
// PMULUDQ's timing may depend on its operands unless MXCSR holds 0x1FBF
// (Intel's MCDT guidance), so each routine runs inside Intel's bracket:
// STMXCSR, LDMXCSR of 0x1FBF, LFENCE before; LFENCE, LDMXCSR of the saved
// value after.

// sseGen emits one baseline routine: eight data registers, a pool of
// temporaries, q in every lane of sseQ and a table of 16-byte constants.
type sseGen struct {
	*constTable
	pool
	c     *build.Context
	w     reg.GPPhysical // address of the polynomial
	data  [8]reg.VecPhysical
	lay   layout
	saved operand.Mem // the caller's MXCSR
	doit  operand.Mem // 0x1FBF
}

var sseQ = reg.X15

// newSSEGen starts the routine sym with a frame of 8 bytes (the MXCSR
// words), loads q into sseQ and opens the MXCSR bracket.
func newSSEGen(c *build.Context, sym, table string) *sseGen {
	function(c, sym)
	g := &sseGen{constTable: newConstTable(c, table, 4), c: c, w: reg.RDI}
	frame := c.AllocLocal(8)
	g.saved, g.doit = frame, frame.Offset(4)
	c.Comment("Intel's MCDT prologue: PMULUDQ sees secrets below.")
	c.MOVL(operand.U32(0x1FBF), g.doit)
	c.STMXCSR(g.saved)
	c.LDMXCSR(g.doit)
	c.LFENCE()
	c.MOVOU(g.broadcast(mldsaQ), sseQ)
	return g
}

// end closes the MXCSR bracket, returns and lays the table down.
func (g *sseGen) end() {
	g.c.Comment("Intel's MCDT epilogue.")
	g.c.LFENCE()
	g.c.LDMXCSR(g.saved)
	g.c.RET()
	g.emitTable()
}

// constant loads a table entry into a temporary.
func (g *sseGen) constant(m operand.Mem) reg.VecPhysical {
	t := g.temp()
	g.c.MOVOU(m, t)
	return t
}

func (g *sseGen) load(lay layout) {
	g.lay = lay.clone()
	for r := range g.data {
		g.c.MOVOU(operand.Mem{Base: g.w, Disp: 4 * lay.index(r, 0)}, g.data[r])
	}
}

func (g *sseGen) store() {
	if !g.lay.natural() {
		panic("store from a transposed layout")
	}
	for r := range g.data {
		g.c.MOVOU(g.data[r], operand.Mem{Base: g.w, Disp: 4 * g.lay.index(r, 0)})
	}
}

// transpose exchanges the lane bits with register bits 0 and 1: in each
// group of four registers (register bit 2 fixed), register j receives lane
// j of the four. It is its own inverse.
func (g *sseGen) transpose() {
	c := g.c
	for base := 0; base < 8; base += 4 {
		r0, r1, r2, r3 := g.data[base], g.data[base+1], g.data[base+2], g.data[base+3]
		t0, t1 := g.temp(), g.temp()
		c.MOVO(r0, t0)
		c.PUNPCKLLQ(r1, t0) // r0[0] r1[0] r0[1] r1[1]
		c.PUNPCKHLQ(r1, r0) // r0[2] r1[2] r0[3] r1[3]
		c.MOVO(r2, t1)
		c.PUNPCKLLQ(r3, t1) // r2[0] r3[0] r2[1] r3[1]
		c.PUNPCKHLQ(r3, r2) // r2[2] r3[2] r2[3] r3[3]
		c.MOVO(t0, r1)
		c.PUNPCKLQDQ(t1, r1) // lane 0 of each
		c.PUNPCKHQDQ(t1, t0) // lane 1
		c.MOVO(r0, r3)
		c.PUNPCKLQDQ(r2, r3) // lane 2
		c.PUNPCKHQDQ(r2, r0) // lane 3
		g.data[base], g.data[base+1], g.data[base+2], g.data[base+3] = r1, t0, r3, r0
		g.release(r2, t1)
	}
	g.lay.lanes[0], g.lay.lanes[1], g.lay.regs[0], g.lay.regs[1] = g.lay.regs[0], g.lay.regs[1], g.lay.lanes[0], g.lay.lanes[1]
}

// twiddles returns the table entries of a twiddle vector: z[l] =
// plain[l]·2³² mod q in [0, q) and z[l]·q⁻¹ mod 2³², and whether the
// lanes are all equal.
func (g *sseGen) twiddles(plain []uint32) (z, zq operand.Mem, uniform bool) {
	zv, zqv := make([]uint32, len(plain)), make([]uint32, len(plain))
	uniform = true
	for l, x := range plain {
		zv[l] = uint32(uint64(x) << 32 % mldsaQ)
		zqv[l] = zv[l] * nttQInv
		uniform = uniform && x == plain[0]
	}
	return g.vector(zv), g.vector(zqv), uniform
}

// montMul returns a new temporary holding x·ζ (z, zq from twiddles) in
// (−q, x·z/2³²], for 0 ≤ x < 2³². x is left unchanged.
func (g *sseGen) montMul(x reg.VecPhysical, z, zq operand.Mem, uniform bool) reg.VecPhysical {
	tz, tq := g.constant(z), g.constant(zq)
	odd, even, m := g.montMulBy(x, tz, tq, uniform)
	g.release(tz, tq, even, m)
	return odd
}

// montMulBy is montMul with the table entries z and zq already in tz and
// tq, which it shuffles unless uniform. It returns the result and the
// temporaries even and m, for the caller to release.
func (g *sseGen) montMulBy(x, tz, tq reg.VecPhysical, uniform bool) (odd, even, m reg.VecPhysical) {
	c := g.c
	odd, even, m = g.temp(), g.temp(), g.temp()
	c.PSHUFL(operand.U8(0xF5), x, odd) // odd lanes down
	c.MOVO(x, even)
	c.PMULULQ(tz, even) // even lanes: x·z
	c.MOVO(x, m)
	c.PMULULQ(tq, m)   // low words: m = x·z·q⁻¹ mod 2³²
	c.PMULULQ(sseQ, m) // m·q
	// x·z − m·q has low word 0: its high word is the difference of the
	// high words.
	c.PSUBL(m, even)
	c.PSRLQ(operand.U8(32), even)
	if !uniform {
		c.PSHUFL(operand.U8(0xF5), tz, tz)
		c.PSHUFL(operand.U8(0xF5), tq, tq)
	}
	c.MOVO(odd, m)
	c.PMULULQ(tq, m)
	c.PMULULQ(sseQ, m)
	c.PMULULQ(tz, odd)
	c.PSUBL(m, odd) // the odd results in the odd lanes, 0 in the even ones
	c.POR(even, odd)
	return odd, even, m
}

// ctButterflies emits the layer of NTT (Algorithm 41, lines 11 to 14) on
// index bit β: with t = ζ·w[j+len] in (−q, q), w[j+len] = w[j] + q − t and
// w[j] = w[j] + q + t, both non-negative and congruent to lines 13 and 14;
// each layer adds less than 2q to the bound.
func (g *sseGen) ctButterflies(β int) {
	p := g.lay.regBit(β)
	pairs(len(g.data), p, func(lo, hi int) {
		z, zq, u := g.twiddles(g.lay.ctZetas(lo, β))
		t := g.montMul(g.data[hi], z, zq, u)
		a, b := g.data[lo], g.data[hi]
		g.c.PADDL(sseQ, a)
		g.c.MOVO(a, b)
		g.c.PSUBL(t, b)
		g.c.PADDL(t, a)
		g.release(t)
	})
}

// gsButterflies emits the layer of NTT⁻¹ (Algorithm 42, lines 11 to 15) on
// index bit β, for inputs below k·q: w[j] = w[j] + w[j+len] and w[j+len] =
// ζ·(w[j+len] + k·q − w[j]) + q, non-negative and congruent to line 15's
// −ζ·(w[j] − w[j+len]). scale multiplies both outputs by a further
// constant (the last layer's 256⁻¹, lines 21 to 24), leaving them in (−q,
// q) without the + q; scale = 1 leaves the sum unreduced.
func (g *sseGen) gsButterflies(β int, k uint32, scale uint32) {
	p := g.lay.regBit(β)
	kq := g.constant(g.broadcast(k * mldsaQ))
	pairs(len(g.data), p, func(lo, hi int) {
		zeta := g.lay.gsZetas(lo, β, scale)
		a, b := g.data[lo], g.data[hi]
		s := g.temp()
		g.c.MOVO(a, s)
		g.c.PADDL(b, s)
		g.c.PADDL(kq, b)
		g.c.PSUBL(a, b)
		g.release(a)
		z, zq, u := g.twiddles(zeta)
		r := g.montMul(b, z, zq, u)
		g.release(b)
		if scale == 1 {
			g.c.PADDL(sseQ, r)
		} else {
			z, zq, u := g.twiddles(splat(4, scale))
			s2 := g.montMul(s, z, zq, u)
			g.release(s)
			s = s2
		}
		g.data[lo], g.data[hi] = s, r
	})
	g.release(kq)
}

// caddq maps each lane of x from (−q, q) to [0, q).
func (g *sseGen) caddq(x reg.VecPhysical) {
	t := g.temp()
	g.c.MOVO(x, t)
	g.c.PSRAL(operand.U8(31), t)
	g.c.PAND(sseQ, t)
	g.c.PADDL(t, x)
	g.release(t)
}

// reduce maps each lane of x from [0, 2³¹ − 2²²) to [0, q): with k =
// ⌊(x + 2²²)/2²³⌋, x − k·q = x − k·2²³ + k·2¹³ − k lies in (−q, q) for k ≤
// 2⁸, then caddq. c22 holds 2²² in every lane.
func (g *sseGen) reduce(x, c22 reg.VecPhysical) {
	c := g.c
	k, u := g.temp(), g.temp()
	c.MOVO(x, k)
	c.PADDL(c22, k)
	c.PSRAL(operand.U8(23), k)
	c.MOVO(k, u)
	c.PSLLL(operand.U8(23), u)
	c.PSUBL(u, x)
	c.MOVO(k, u)
	c.PSLLL(operand.U8(13), u)
	c.PADDL(u, x)
	c.PSUBL(k, x)
	g.release(k, u)
	g.caddq(x)
}

// sseTransform starts an in-place transform func(w *[256]uint32) with X0 to
// X7 as data and X8 to X14 as temporaries.
func sseTransform(c *build.Context, sym, table string) *sseGen {
	g := newSSEGen(c, sym, table)
	c.Load(c.Param("w"), g.w)
	g.data = [8]reg.VecPhysical{reg.X0, reg.X1, reg.X2, reg.X3, reg.X4, reg.X5, reg.X6, reg.X7}
	g.free = []reg.VecPhysical{reg.X8, reg.X9, reg.X10, reg.X11, reg.X12, reg.X13, reg.X14}
	return g
}

// Two layouts of loaded data: columns (coefficients c0 + 32r, lanes
// c0 … c0 + 3, for the layers len = 128, 64, 32) and blocks (32
// consecutive coefficients from base, for the layers len = 16 to 1).
func sseColumns(c0 int) layout { return newLayout(2, c0, 5, 6, 7) }
func sseBlock(base int) layout { return newLayout(2, base, 2, 3, 4) }

// sseNTT emits NTTAMD64.
func sseNTT(c *build.Context) {
	// Inside, values are non-negative: each layer adds less than 2q, so
	// they stay below 17q, and one reduction ends it.
	g := sseTransform(c, "NTTAMD64", "nttTwiddlesSSE2")
	c.Comment("Layers len = 128, 64, 32: four coefficients 32 apart per register.")
	for c0 := 0; c0 < 32; c0 += 4 {
		g.load(sseColumns(c0))
		for β := 7; β >= 5; β-- {
			g.ctButterflies(β)
		}
		g.store()
	}
	c.Comment("Layers len = 16 to 1 on 32 consecutive coefficients at a time.")
	for base := 0; base < 256; base += 32 {
		g.load(sseBlock(base))
		for β := 4; β >= 2; β-- {
			g.ctButterflies(β)
		}
		g.transpose() // index bits 0 and 1 into registers
		g.ctButterflies(1)
		g.ctButterflies(0)
		c22 := g.constant(g.broadcast(1 << 22))
		for r := range g.data {
			g.reduce(g.data[r], c22)
		}
		g.release(c22)
		g.transpose()
		g.store()
	}
	g.end()
}

// sseNTTInverse emits NTTInverseAMD64.
func sseNTTInverse(c *build.Context) {
	// Inside, values are non-negative: after the layer with len = 2^ℓ they
	// lie below 2^(ℓ+1)·q, so the last layer's inputs stay below 256q.
	g := sseTransform(c, "NTTInverseAMD64", "nttInverseTwiddlesSSE2")
	c.Comment("Layers len = 1 to 16 on 32 consecutive coefficients at a time.")
	for base := 0; base < 256; base += 32 {
		g.load(sseBlock(base))
		g.transpose() // index bits 0 and 1 into registers
		g.gsButterflies(0, 1, 1)
		g.gsButterflies(1, 2, 1)
		g.transpose()
		for β := 2; β <= 4; β++ {
			g.gsButterflies(β, 1<<β, 1)
		}
		g.store()
	}
	c.Comment("Layers len = 32, 64, 128: four coefficients 32 apart per register;")
	c.Comment("the last one scales by 256⁻¹ (Algorithm 42, lines 21 to 24).")
	for c0 := 0; c0 < 32; c0 += 4 {
		g.load(sseColumns(c0))
		g.gsButterflies(5, 32, 1)
		g.gsButterflies(6, 64, 1)
		g.gsButterflies(7, 128, nttInv256)
		for r := range g.data {
			g.caddq(g.data[r])
		}
		g.store()
	}
	g.end()
}

// sseMulAcc emits the baseline product routine: for each group of four
// coefficients i, the sum over j < terms of the products of a[j][i] and
// b[j][i] (polynomials 1024 bytes apart), reduced. Both factors lie in [0, q), so a sum of at most seven
// products is below 7q² < 2⁵⁰: PMULUDQ and PADDQ keep it exact in 64-bit
// lanes, even and odd lanes apart, and one unsigned Montgomery reduction
// per lane leaves (−q, q).
func sseMulAcc(c *build.Context, sym, table string, terms int) {
	g := newSSEGen(c, sym, table)
	c.Load(c.Param("out"), reg.RDI)
	c.Load(c.Param("a"), reg.RSI)
	c.Load(c.Param("b"), reg.RDX)
	qinv := reg.X14
	c.MOVOU(g.broadcast(nttQInv), qinv)
	sets := [2][7]reg.VecPhysical{
		{reg.X0, reg.X1, reg.X2, reg.X3, reg.X4, reg.X5, reg.X6},
		{reg.X7, reg.X8, reg.X9, reg.X10, reg.X11, reg.X12, reg.X13},
	}
	for i := 0; i < 64; i++ {
		s := sets[i%2]
		even, odd, x, xo, y, yo, m := s[0], s[1], s[2], s[3], s[4], s[5], s[6]
		for j := 0; j < terms; j++ {
			a := operand.Mem{Base: reg.RSI, Disp: 1024*j + 16*i}
			b := operand.Mem{Base: reg.RDX, Disp: 1024*j + 16*i}
			pe, po := x, xo
			if j == 0 {
				pe, po = even, odd
			}
			c.MOVOU(a, pe)
			c.MOVOU(b, y)
			c.PSHUFL(operand.U8(0xF5), pe, po) // odd words down
			c.PSHUFL(operand.U8(0xF5), y, yo)
			c.PMULULQ(y, pe)
			c.PMULULQ(yo, po)
			if j > 0 {
				c.PADDQ(pe, even)
				c.PADDQ(po, odd)
			}
		}
		// Montgomery reduction of each 64-bit sum t: m = t·q⁻¹ mod 2³²;
		// t − m·q has low word 0 and high word in (−q, t/2³²].
		for _, t := range []reg.VecPhysical{even, odd} {
			c.MOVO(t, m)
			c.PMULULQ(qinv, m)
			c.PMULULQ(sseQ, m)
			c.PSUBL(m, t)
		}
		c.PSRLQ(operand.U8(32), even)
		c.POR(odd, even)
		g.free = []reg.VecPhysical{m}
		g.caddq(even)
		c.MOVOU(even, operand.Mem{Base: reg.RDI, Disp: 16 * i})
	}
	g.end()
}
