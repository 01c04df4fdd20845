package main

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func init() { register("ntt", buildNTT) }

// buildNTT emits NTTAMD64 (nttsse2.go), NTTAVX2 and NTTAVX512
// (nttavx512.go).
func buildNTT(c *build.Context) {
	sseNTT(c)
	// Inside, values are signed: each layer adds less than ¾q to their
	// absolute value, so they stay below 7q, and one reduction ends it.
	g := nttRoutine(c, "NTTAVX2", "nttTwiddles")

	c.Comment("Layers len = 128, 64, 32: eight coefficients 32 apart per register, four passes.")
	cols := g.passLoop("columns", "nttColumnTwiddles", []int{0, 8, 16, 24}, 32, func(c0 int) {
		g.load(columns(c0))
		for β := 7; β >= 5; β-- {
			g.ctButterflies(β)
		}
		g.store()
	})

	c.Comment("Layers len = 16 to 1 on 64 consecutive coefficients a pass.")
	blocks := g.passLoop("blocks", "nttBlockTwiddles", []int{0, 64, 128, 192}, 256, func(base int) {
		g.load(block(base))
		g.ctButterflies(4)
		g.ctButterflies(3)
		for p := 2; p >= 0; p-- {
			g.swap(p, p) // index bit p into a register
			g.ctButterflies(p)
		}
		for r := range g.data {
			g.reduce(g.data[r])
		}
		for p := 0; p < 3; p++ {
			g.swap(p, p)
		}
		g.store()
	})
	c.VZEROUPPER()
	c.RET()
	g.emitTable()
	for _, t := range []*constTable{cols, blocks} {
		if t != nil {
			t.emitTable()
		}
	}
	nttAVX512(c)
}

// reduce maps each lane of x from (−2³¹ + 2²², 2³¹ − 2²²), here below 7q in
// absolute value, to [0, q): x − ⌊(x + 2²²)/2²³⌋·q lies in (−q, q) when the
// quotient has absolute value at most 8.
func (g *nttGen) reduce(x reg.VecPhysical) {
	t := g.temp()
	g.c.VPADDD(g.broadcast(1<<22), x, t)
	g.c.VPSRAD(operand.U8(23), t, t)
	g.c.VPMULLD(nttQ, t, t)
	g.c.VPSUBD(t, x, x)
	g.release(t)
	g.caddq(x)
}
