package main

import (
	"slices"

	"github.com/mmcloughlin/avo/build"
)

func init() { register("nttinverse", buildNTTInverse) }

// buildNTTInverse emits NTTInverseAMD64 (nttsse2.go), NTTInverseAVX2,
// NTTInverseAVX512 (nttavx512.go) and NTTInverseMontAVX2.
func buildNTTInverse(c *build.Context) {
	sseNTTInverse(c)
	blocks := nttInverseAVX2(c, "NTTInverseAVX2", "nttInverse", nttInv256, nil)
	nttInverseAVX512(c)
	nttInverseAVX2(c, "NTTInverseMontAVX2", "nttInverseMont", nttInv256*(1<<32%mldsaQ)%mldsaQ, blocks)
}

// nttInverseAVX2 emits an AVX2 NTT⁻¹ whose last layer scales by scale:
// 256⁻¹ (Algorithm 42, lines 21 to 24), or 256⁻¹·2³² for the NTT⁻¹ in
// Montgomery form; its tables' names start with prefix. The first loop
// does not depend on scale: given the table of another NTT⁻¹'s first loop
// (shared), it reads that one, which must hold the same entries, and
// emits none of its own. It returns its first loop's table.
func nttInverseAVX2(c *build.Context, name, prefix string, scale uint32, shared *constTable) *constTable {
	// Inside, values are signed: after the layer with len = 2^ℓ they lie
	// below 2^(ℓ+1)·q in absolute value, so the last layer's sums stay
	// below 256q < 2³¹.
	g := nttRoutine(c, name, prefix+"Twiddles")

	c.Comment("Layers len = 1 to 16 on 64 consecutive coefficients a pass.")
	blockTable := prefix + "BlockTwiddles"
	if shared != nil {
		blockTable = shared.sym.Name
	}
	blocks := g.passLoop("blocks", blockTable, []int{0, 64, 128, 192}, 256, func(base int) {
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
	if scale == nttInv256 {
		c.Comment("passes; the last layer scales by 256⁻¹ (Algorithm 42, lines 21 to 24).")
	} else {
		c.Comment("passes; the last layer scales by 256⁻¹ (Algorithm 42, lines 21 to 24) times 2³².")
	}
	cols := g.passLoop("columns", prefix+"ColumnTwiddles", []int{0, 8, 16, 24}, 32, func(c0 int) {
		g.load(columns(c0))
		g.gsButterflies(5, 1)
		g.gsButterflies(6, 1)
		g.gsButterflies(7, scale)
		for r := range g.data {
			g.caddq(g.data[r])
		}
		g.store()
	})
	c.VZEROUPPER()
	c.RET()
	g.emitTable()
	own := blocks
	if shared != nil {
		if blocks == nil || !slices.EqualFunc(blocks.table, shared.table, slices.Equal) || blocks.spare != shared.spare {
			panic(name + ": its first loop's table differs from " + shared.sym.Name)
		}
		own = nil
	}
	for _, t := range []*constTable{own, cols} {
		if t != nil {
			t.emitTable()
		}
	}
	return blocks
}

// nttInv256 is 256⁻¹ mod q.
const nttInv256 = 8347681
