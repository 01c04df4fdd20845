package main

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Shared machinery of NTTAVX2 and NTTInverseAVX2 (FIPS 204, Algorithms 41
// and 42).
//
// A coefficient index has eight bits b7…b0; the butterflies of the layer
// with len = 2^β pair the indices that differ in bit β. Eight ymm registers
// hold 64 coefficients, eight 32-bit lanes each: three index bits select the
// lane, three the register, the rest are fixed for the block. A butterfly
// on a register bit is plain vector arithmetic; a lane bit is first
// exchanged with a register bit by a shuffle (nttSwap). The twiddle of each
// lane follows from the layout, so the generator computes every twiddle
// vector from ζ = 1753 and lays them down in one DATA table.
//
// Arithmetic is signed Montgomery multiplication with R = 2³² on the even
// and odd 32-bit lanes separately (VPMULDQ reads the even ones): for |x| <
// 2³¹ and a twiddle z·2³² mod q taken in (−q/2, q/2), the product is
// (x·z − m·q)/2³² with m = x·z·q⁻¹ mod 2³² as a signed word, which is
// congruent to x·z and lies in (−¾q, ¾q).

const (
	nttζ    = 1753
	nttQInv = 58728449 // q⁻¹ mod 2³²
)

// nttGen emits one NTT routine: eight data registers, their layout, a pool
// of temporaries, q in every lane of nttQ, and the twiddle table (eight
// lanes, with eight bytes to spare at the end: the routines that share
// this generator read none of them now; their layout stays as proven).
type nttGen struct {
	*constTable
	pool
	c    *build.Context
	w    reg.GPPhysical // address of the polynomial
	data [8]reg.VecPhysical
	lay  layout
}

// nttQ holds q in every lane.
var nttQ = reg.Y15

func newNTTGen(c *build.Context, table string, temps ...reg.VecPhysical) *nttGen {
	g := &nttGen{
		constTable: newConstTable(c, table, 8),
		pool:       pool{free: temps},
		c:          c,
		w:          reg.RDI,
		data:       [8]reg.VecPhysical{reg.Y0, reg.Y1, reg.Y2, reg.Y3, reg.Y4, reg.Y5, reg.Y6, reg.Y7},
	}
	g.spare = 8
	return g
}

// load fills the data registers in the natural layout (lanes = index bits
// 0, 1, 2): register r from the eight coefficients at index(r, 0).
func (g *nttGen) load(lay layout) {
	g.lay = lay.clone()
	for r := range g.data {
		g.c.VMOVDQU(operand.Mem{Base: g.w, Disp: 4 * lay.index(r, 0)}, g.data[r])
	}
}

func (g *nttGen) store() {
	if !g.lay.natural() {
		panic("store from a shuffled layout")
	}
	for r := range g.data {
		g.c.VMOVDQU(g.data[r], operand.Mem{Base: g.w, Disp: 4 * g.lay.index(r, 0)})
	}
}

// swap exchanges lane bit pl with register bit pr: in each pair (A, B) of
// registers differing in bit pr, A receives the lanes of A and B whose lane
// bit pl is 0, B those whose bit is 1, each in its own half of the lane
// bit. It is its own inverse.
func (g *nttGen) swap(pl, pr int) {
	c := g.c
	pairs(len(g.data), pr, func(lo, hi int) {
		a, b := g.data[lo], g.data[hi]
		switch pl {
		case 2: // 128-bit halves
			t := g.temp()
			c.VPERM2I128(operand.U8(0x20), b, a, t)
			c.VPERM2I128(operand.U8(0x31), b, a, b)
			g.data[lo] = t
			g.release(a)
		case 1: // 64-bit words within each half
			t := g.temp()
			c.VPUNPCKLQDQ(b, a, t)
			c.VPUNPCKHQDQ(b, a, b)
			g.data[lo] = t
			g.release(a)
		case 0: // 32-bit words within each 64-bit word
			t1, t2 := g.temp(), g.temp()
			c.VPSLLQ(operand.U8(32), b, t1)
			c.VPSRLQ(operand.U8(32), a, t2)
			c.VPBLENDD(operand.U8(0xAA), t1, a, a)
			c.VPBLENDD(operand.U8(0xAA), b, t2, b)
			g.release(t1, t2)
		}
	})
	g.lay.lanes[pl], g.lay.regs[pr] = g.lay.regs[pr], g.lay.lanes[pl]
}

// montMul sets dst to x·z (from signedTwiddles) in (−¾q, ¾q), for |x| < 2³¹.
// x is left unchanged unless dst is x. The even lanes multiply directly; the
// odd ones are shifted down and multiplied by the moved twiddles.
func (g *nttGen) montMul(x reg.VecPhysical, tw twiddle, dst reg.VecPhysical) {
	c := g.c
	t0, t1, t2, t3 := g.temp(), g.temp(), g.temp(), g.temp()
	c.VPMULDQ(tw.z, x, t0)  // even lanes: x·z
	c.VPMULDQ(tw.zq, x, t1) // low words: m = x·z·q⁻¹ mod 2³²
	// VPSHUFD, not VPSRLQ, moves the odd lanes down: it runs on the
	// shuffle port, VPSRLQ on the two ports the multiplications need.
	c.VPSHUFD(operand.U8(0xF5), x, t2)
	c.VPMULDQ(tw.zqOdd, t2, t3)
	c.VPMULDQ(tw.zOdd, t2, t2)
	c.VPMULDQ(nttQ, t1, t1) // m·q
	c.VPMULDQ(nttQ, t3, t3)
	// x·z − m·q has low word 0: its high word is the difference of the
	// high words.
	c.VPSUBD(t1, t0, t0)
	c.VPSUBD(t3, t2, t2)
	c.VPSHUFD(operand.U8(0xF5), t0, t0)
	c.VPBLENDD(operand.U8(0xAA), t2, t0, dst)
	g.release(t0, t1, t2, t3)
}

// ctButterflies emits the layer of NTT (Algorithm 41, lines 11 to 14) on
// index bit β: w[j+len] = w[j] − ζ·w[j+len], w[j] = w[j] + ζ·w[j+len].
// Each output's absolute value grows by less than ¾q.
func (g *nttGen) ctButterflies(β int) {
	p := g.lay.regBit(β)
	pairs(len(g.data), p, func(lo, hi int) {
		tw := g.signedTwiddles(g.lay.ctZetas(lo, β))
		t := g.temp()
		g.montMul(g.data[hi], tw, t)
		g.c.VPSUBD(t, g.data[lo], g.data[hi])
		g.c.VPADDD(t, g.data[lo], g.data[lo])
		g.release(t)
	})
}

// gsButterflies emits the layer of NTT⁻¹ (Algorithm 42, lines 11 to 15) on
// index bit β: w[j] = w[j] + w[j+len], w[j+len] = −ζ·(w[j] − w[j+len]),
// written as ζ·(w[j+len] − w[j]). scale multiplies both outputs by a
// further constant (the last layer's 256⁻¹, lines 21 to 24); scale = 1 leaves the
// sum unreduced.
func (g *nttGen) gsButterflies(β int, scale uint32) {
	p := g.lay.regBit(β)
	pairs(len(g.data), p, func(lo, hi int) {
		zeta := g.lay.gsZetas(lo, β, scale)
		a, b := g.data[lo], g.data[hi]
		s := g.temp()
		g.c.VPADDD(b, a, s)
		g.c.VPSUBD(a, b, b)
		g.data[lo] = s
		g.release(a)
		g.montMul(b, g.signedTwiddles(zeta), b)
		if scale != 1 {
			g.montMul(s, g.signedTwiddles(splat(8, scale)), s)
		}
	})
}

// caddq maps each lane of x from [−q, q) to [0, q): the unsigned minimum
// of x and x + q, since a negative x reads as 2³² + x ≥ 2³¹ unsigned and
// x + q then lies in [0, q).
func (g *nttGen) caddq(x reg.VecPhysical) {
	t := g.temp()
	g.c.VPADDD(nttQ, x, t)
	g.c.VPMINUD(t, x, x)
	g.release(t)
}

// csubq maps each lane of x from [0, 2q) to [0, q): the unsigned minimum
// of x and x − q, since x − q reads as 2³² + x − q ≥ 2³¹ unsigned when
// x < q.
func (g *nttGen) csubq(x reg.VecPhysical) {
	t := g.temp()
	g.c.VPSUBD(nttQ, x, t)
	g.c.VPMINUD(t, x, x)
	g.release(t)
}

// nttZetaPow returns ζ^k mod q.
func nttZetaPow(k int) uint32 {
	x := uint64(1)
	for i := 0; i < k; i++ {
		x = x * nttζ % mldsaQ
	}
	return uint32(x)
}

// bitRev8 is BitRev₈ (FIPS 204, §7.5).
func bitRev8(m int) int {
	r := 0
	for b := 0; b < 8; b++ {
		r |= (m >> b & 1) << (7 - b)
	}
	return r
}

// nttRoutine starts an in-place transform func(w *[256]uint32): it loads
// the argument and q, and leaves Y8 to Y14 as temporaries.
func nttRoutine(c *build.Context, name, table string) *nttGen {
	function(c, name)
	g := newNTTGen(c, table, reg.Y8, reg.Y9, reg.Y10, reg.Y11, reg.Y12, reg.Y13, reg.Y14)
	c.Load(c.Param("w"), g.w)
	c.VMOVDQU(g.broadcast(mldsaQ), nttQ)
	return g
}

// Two layouts of loaded data: columns (coefficients c0 + 32r, lanes
// c0 … c0 + 7, for the layers len = 128, 64, 32) and blocks (64
// consecutive coefficients from base, for the layers len = 16 to 1).
func columns(c0 int) layout { return newLayout(3, c0, 5, 6, 7) }
func block(base int) layout { return newLayout(3, base, 3, 4, 5) }
