package main

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The sum of two polynomials, coefficient-wise mod q (AddNTT, FIPS 204,
// Algorithm 44; the sum in R_q is the same), in place: w ← w + b. With
// both in [0, q), w + b − q lies in [−q, q − 2], and adding q where it is
// negative (caddq) gives [0, q). polysub.go shares the body.

func init() { register("polyadd", buildPolyAdd) }

// buildPolyAdd emits PolyAddAMD64 and PolyAddAVX2.
func buildPolyAdd(c *build.Context) {
	sseAddSub(c, "PolyAddAMD64", "polyAddConstsSSE2", false)
	avx2AddSub(c, "PolyAddAVX2", "polyAddConsts", false)
}

// avx2AddSub emits w ← w + b mod q, or w − b mod q with sub, eight
// coefficients per ymm register, two register sets in turn so that
// consecutive groups are independent.
func avx2AddSub(c *build.Context, sym, table string, sub bool) {
	function(c, sym)
	c.Load(c.Param("w"), reg.RDI)
	c.Load(c.Param("b"), reg.RSI)
	g := newNTTGen(c, table)
	c.VMOVDQU(g.broadcast(mldsaQ), nttQ)
	sets := [2][2]reg.VecPhysical{{reg.Y0, reg.Y1}, {reg.Y2, reg.Y3}}
	// Four registers an iteration: a little code beside its callers'.
	coeffLoop(c, "add", 8, 128, []reg.GPPhysical{reg.RDI, reg.RSI}, func() {
		for i := 0; i < 4; i++ {
			x, t := sets[i%2][0], sets[i%2][1]
			w, b := operand.Mem{Base: reg.RDI, Disp: 32 * i}, operand.Mem{Base: reg.RSI, Disp: 32 * i}
			c.VMOVDQU(w, x)
			g.free = []reg.VecPhysical{t}
			if sub {
				c.VPSUBD(b, x, x) // (−q, q)
				g.caddq(x)
			} else {
				c.VPADDD(b, x, x) // [0, 2q − 2]
				g.csubq(x)
			}
			c.VMOVDQU(x, w)
		}
	})
	c.VZEROUPPER()
	c.RET()
	g.emitTable()
}

// sseAddSub is avx2AddSub in SSE2, four coefficients per xmm register. It
// multiplies nothing, so it needs no MXCSR bracket and no frame.
func sseAddSub(c *build.Context, sym, table string, sub bool) {
	function(c, sym)
	c.Load(c.Param("w"), reg.RDI)
	c.Load(c.Param("b"), reg.RSI)
	g := &sseGen{constTable: newConstTable(c, table, 4), c: c}
	c.MOVOU(g.broadcast(mldsaQ), sseQ)
	sets := [2][3]reg.VecPhysical{{reg.X0, reg.X1, reg.X2}, {reg.X3, reg.X4, reg.X5}}
	coeffLoop(c, "add", 8, 128, []reg.GPPhysical{reg.RDI, reg.RSI}, func() {
		for i := 0; i < 8; i++ {
			x, y, t := sets[i%2][0], sets[i%2][1], sets[i%2][2]
			w := operand.Mem{Base: reg.RDI, Disp: 16 * i}
			c.MOVOU(w, x)
			c.MOVOU(operand.Mem{Base: reg.RSI, Disp: 16 * i}, y)
			if sub {
				c.PSUBL(y, x) // (−q, q)
			} else {
				c.PADDL(y, x)
				c.PSUBL(sseQ, x) // [−q, q − 2]
			}
			g.free = []reg.VecPhysical{t}
			g.caddq(x)
			c.MOVOU(x, w)
		}
	})
	c.RET()
	g.emitTable()
}
