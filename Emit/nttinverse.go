package main

import (
	"github.com/mmcloughlin/avo/build"
)

func init() { register("nttinverse", buildNTTInverse) }

// buildNTTInverse emits NTTInverseAMD64 (nttsse2.go), NTTInverseAVX2 and
// NTTInverseAVX512 (nttavx512.go).
func buildNTTInverse(c *build.Context) {
	sseNTTInverse(c)
	// Inside, values are signed: after the layer with len = 2^ℓ they lie
	// below 2^(ℓ+1)·q in absolute value, so the last layer's sums stay
	// below 256q < 2³¹.
	g := nttRoutine(c, "NTTInverseAVX2", "nttInverseTwiddles")

	c.Comment("Layers len = 1 to 16 on 64 consecutive coefficients a pass.")
	blocks := g.passLoop("blocks", "nttInverseBlockTwiddles", []int{0, 64, 128, 192}, 256, func(base int) {
		g.load(block(base))
		for p := 0; p < 3; p++ {
			g.swap(p, p) // index bit p into a register
			g.gsButterflies(p, 1)
		}
		for p := 0; p < 2; p++ {
			g.swap(p, p) // index bit 3 + p back into a register
			g.gsButterflies(3+p, 1)
		}
		g.swap(2, 2)
		g.store()
	})

	c.Comment("Layers len = 32, 64, 128: eight coefficients 32 apart per register, four")
	c.Comment("passes; the last layer scales by 256⁻¹ (Algorithm 42, lines 21 to 24).")
	cols := g.passLoop("columns", "nttInverseColumnTwiddles", []int{0, 8, 16, 24}, 32, func(c0 int) {
		g.load(columns(c0))
		g.gsButterflies(5, 1)
		g.gsButterflies(6, 1)
		g.gsButterflies(7, nttInv256)
		for r := range g.data {
			g.caddq(g.data[r])
		}
		g.store()
	})
	c.VZEROUPPER()
	c.RET()
	g.emitTable()
	for _, t := range []*constTable{blocks, cols} {
		if t != nil {
			t.emitTable()
		}
	}
	nttInverseAVX512(c)
}

// nttInv256 is 256⁻¹ mod q.
const nttInv256 = 8347681
