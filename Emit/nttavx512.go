package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// NTTAVX512 (FIPS 204, Algorithm 41) holds the whole polynomial in sixteen
// zmm registers of sixteen 32-bit lanes: four index bits select the lane,
// four the register, so every layer runs in registers between one load and
// one store. As in nttavx2.go, a butterfly on a register bit is vector
// arithmetic, and a lane bit is first moved into a register bit by a
// shuffle; the twiddle of each lane follows from the layout.

// zGen emits the AVX-512 transform: the data registers, a pool of
// temporaries, and the twiddle table.
type zGen struct {
	*constTable
	pool
	c    *build.Context
	w    reg.GPPhysical
	data [16]reg.VecPhysical
	lay  layout
	// left counts the reads of each table entry (by its assembly) that the
	// layer's montMuls have still to make; held is the register of each
	// one read into a register and read again (layer, montMul).
	left map[string]int
	held map[string]reg.VecPhysical
}

func newZGen(c *build.Context, table string) *zGen {
	return &zGen{constTable: newConstTable(c, table, 16), c: c}
}

// Constant registers: q in every lane, and the VPERMT2D indices that
// interleave two registers' dwords: zEven takes dword 2i of the first
// table and of the second (lanes 2i, 2i+1), zOddIdx dword 2i+1 of each.
var (
	zQ      = reg.Z31
	zEven   = reg.Z30
	zOddIdx = reg.Z29
)

// zOddIndices returns zOddIdx's table entry.
func zOddIndices() []uint32 {
	odd := make([]uint32, 16)
	for j := range odd {
		odd[j] = uint32(j | 1 + 16*(j&1))
	}
	return odd
}

// ternAnd is the VPTERNLOGQ immediate of dst ← src ∧ mask.
const ternAnd = 0x88

// swap moves lane bit pl into register bit pr. For pl = 3, 1 and 0 it
// exchanges the two (in each pair (A, B), A receives the lanes whose lane
// bit is 0); for pl = 2 (the 128-bit blocks within each half) one
// VSHUFI64X2 per register rotates three bits: lane bit 2 takes lane bit
// 3's index bit, lane bit 3 register bit pr's, and register bit pr lane
// bit 2's.
func (g *zGen) swap(pl, pr int) {
	c := g.c
	pairs(len(g.data), pr, func(lo, hi int) {
		a, b := g.data[lo], g.data[hi]
		t := g.temp()
		switch pl {
		case 3: // 256-bit halves: A0 A1 B0 B1 and A2 A3 B2 B3
			c.VSHUFI64X2(operand.U8(0x44), b, a, t)
			c.VSHUFI64X2(operand.U8(0xEE), b, a, b)
		case 2: // A0 A2 B0 B2 and A1 A3 B1 B3
			c.VSHUFI64X2(operand.U8(0x88), b, a, t)
			c.VSHUFI64X2(operand.U8(0xDD), b, a, b)
		case 1: // 64-bit words within each 128-bit block
			c.VPUNPCKLQDQ(b, a, t)
			c.VPUNPCKHQDQ(b, a, b)
		case 0: // 32-bit words within each 64-bit word
			c.VMOVDQU64(a, t)
			c.VPERMT2D(b, zEven, a)   // a's even lanes, b's even ones
			c.VPERMT2D(b, zOddIdx, t) // a's odd lanes, b's odd ones
			g.data[hi] = t
			g.release(b)
			return
		}
		g.data[lo] = t
		g.release(a)
	})
	if pl == 2 {
		g.lay.lanes[2], g.lay.lanes[3], g.lay.regs[pr] = g.lay.lanes[3], g.lay.regs[pr], g.lay.lanes[2]
		return
	}
	g.lay.lanes[pl], g.lay.regs[pr] = g.lay.regs[pr], g.lay.lanes[pl]
}

// montMul returns a register holding x·z (from tw) in (−¾q, ¾q), for |x| <
// 2³¹ (signed Montgomery multiplication as in nttavx2.go); x is unchanged.
//
// A table entry that the layer reads again (a twiddle vector whose lanes
// are all equal is its own odd-lane copy, and butterflies may share one)
// is read into a register once, kept until its last use, while the pool
// has room. A 64-byte read from the table splits a cache line whenever
// the linker places the table 32 bytes off a 64-byte boundary, which Go's
// linker (data aligned to at most 32 bytes) may do; fewer reads make the
// transforms' time depend less on where the table lands.
func (g *zGen) montMul(x reg.VecPhysical, tw twiddle) reg.VecPhysical {
	c := g.c
	t0, t1, t2, t3 := g.temp(), g.temp(), g.temp(), g.temp()
	var done []reg.VecPhysical
	ops := map[string]operand.Op{}
	for _, m := range []operand.Mem{tw.z, tw.zq, tw.zOdd, tw.zqOdd} {
		k := m.Asm()
		if _, ok := ops[k]; ok {
			continue
		}
		local := 0
		for _, n := range []operand.Mem{tw.z, tw.zq, tw.zOdd, tw.zqOdd} {
			if n.Asm() == k {
				local++
			}
		}
		left := g.left[k] - local
		g.left[k] = left
		r, held := g.held[k]
		switch {
		case held:
		case local+left >= 2 && len(g.free) >= 4:
			r = g.temp()
			c.VMOVDQU64(m, r)
			g.held[k] = r
		default:
			ops[k] = m
			continue
		}
		ops[k] = r
		if left == 0 {
			delete(g.held, k)
			done = append(done, r)
		}
	}
	c.VPMULDQ(ops[tw.z.Asm()], x, t0)
	c.VPMULDQ(ops[tw.zq.Asm()], x, t1)
	c.VPSHUFD(operand.U8(0xF5), x, t2)
	c.VPMULDQ(ops[tw.zqOdd.Asm()], t2, t3)
	c.VPMULDQ(ops[tw.zOdd.Asm()], t2, t2)
	c.VPMULDQ(zQ, t1, t1)
	c.VPMULDQ(zQ, t3, t3)
	c.VPSUBD(t1, t0, t0)
	c.VPSUBD(t3, t2, t2)
	c.VPERMT2D(t2, zOddIdx, t0) // the high dwords: even lanes' from t0, odd ones' from t2
	g.release(t1, t2, t3)
	g.release(done...)
	return t0
}

// layer counts the reads of each table entry by the montMuls of twiddle
// vectors tws, the layer about to be emitted, for montMul to keep those
// read again.
func (g *zGen) layer(tws []twiddle) {
	g.left = map[string]int{}
	g.held = map[string]reg.VecPhysical{}
	for _, tw := range tws {
		for _, m := range []operand.Mem{tw.z, tw.zq, tw.zOdd, tw.zqOdd} {
			g.left[m.Asm()]++
		}
	}
}

// ctButterflies emits the layer of NTT (Algorithm 41, lines 11 to 14) on
// index bit β.
func (g *zGen) ctButterflies(β int) {
	p := g.lay.regBit(β)
	var tws []twiddle
	pairs(len(g.data), p, func(lo, hi int) {
		tws = append(tws, g.signedTwiddles(g.lay.ctZetas(lo, β)))
	})
	g.layer(tws)
	pairs(len(g.data), p, func(lo, hi int) {
		t := g.montMul(g.data[hi], tws[0])
		tws = tws[1:]
		g.c.VPSUBD(t, g.data[lo], g.data[hi])
		g.c.VPADDD(t, g.data[lo], g.data[lo])
		g.release(t)
	})
}

// reduce maps each lane of x from below 7q in absolute value to [0, q), as
// nttGen.reduce does.
func (g *zGen) reduce(x reg.VecPhysical) {
	c := g.c
	t := g.temp()
	c.VPADDD(g.broadcast(1<<22), x, t)
	c.VPSRAD(operand.U8(23), t, t)
	c.VPMULLD(zQ, t, t)
	c.VPSUBD(t, x, x)
	c.VPSRAD(operand.U8(31), x, t)
	c.VPTERNLOGQ(operand.U8(ternAnd), zQ, t, t)
	c.VPADDD(t, x, x)
	g.release(t)
}

// zRoutine starts an in-place transform of the natural layout: it loads
// the argument, the constants and all 256 coefficients.
func zRoutine(c *build.Context, name, table string) *zGen {
	function(c, name)
	g := newZGen(c, table)
	g.w = reg.RDI
	for r := range g.data {
		g.data[r] = keccak8Regs[r]
	}
	for r := 16; r < 29; r++ {
		g.free = append(g.free, keccak8Regs[r])
	}
	c.Load(c.Param("w"), g.w)
	c.VMOVDQU64(g.broadcast(mldsaQ), zQ)
	even := make([]uint32, 16)
	for j := range even {
		even[j] = uint32(j&^1 + 16*(j&1))
	}
	c.VMOVDQU64(g.vector(even), zEven)
	c.VMOVDQU64(g.vector(zOddIndices()), zOddIdx)
	g.lay = newLayout(4, 0, 4, 5, 6, 7)
	c.Comment("All 256 coefficients: register r holds 16r to 16r + 15.")
	for r := range g.data {
		c.VMOVDQU64(operand.Mem{Base: g.w, Disp: 64 * r}, g.data[r])
	}
	return g
}

// end stores the coefficients from the natural layout and returns.
func (g *zGen) end() {
	if !g.lay.natural() {
		panic(fmt.Sprintf("layout %v at the store", g.lay))
	}
	for r := range g.data {
		g.c.VMOVDQU64(g.data[r], operand.Mem{Base: g.w, Disp: 4 * g.lay.index(r, 0)})
	}
	g.c.VZEROUPPER()
	g.c.RET()
	g.emitTable()
}

// nttAVX512 emits NTTAVX512. Inside, values are signed: each layer adds
// less than ¾q to their absolute value, so they stay below 7q, and one
// reduction ends it.
func nttAVX512(c *build.Context) {
	g := zRoutine(c, "NTTAVX512", "nttTwiddlesAVX512")
	c.Comment("Layers len = 128 to 16: register bits.")
	for β := 7; β >= 4; β-- {
		g.ctButterflies(β)
	}
	c.Comment("Layers len = 8 to 1: each lane bit moved into a register bit first.")
	g.swap(3, g.lay.regBit(4))
	g.ctButterflies(3)
	g.swap(2, g.lay.regBit(5))
	g.ctButterflies(2)
	g.swap(1, g.lay.regBit(6))
	g.ctButterflies(1)
	g.swap(0, g.lay.regBit(7))
	g.ctButterflies(0)
	for r := range g.data {
		g.reduce(g.data[r])
	}
	c.Comment("Back to the natural layout.")
	g.swap(0, g.lay.regBit(0))
	g.swap(1, g.lay.regBit(1))
	g.swap(3, g.lay.regBit(2))
	g.swap(2, g.lay.regBit(3))
	g.end()
}

// gsButterflies emits the layer of NTT⁻¹ (Algorithm 42, lines 11 to 15) on
// index bit β, as nttGen.gsButterflies does.
func (g *zGen) gsButterflies(β int, scale uint32) {
	p := g.lay.regBit(β)
	var tws []twiddle
	pairs(len(g.data), p, func(lo, hi int) {
		tws = append(tws, g.signedTwiddles(g.lay.gsZetas(lo, β, scale)))
		if scale != 1 {
			tws = append(tws, g.signedTwiddles(splat(16, scale)))
		}
	})
	g.layer(tws)
	pairs(len(g.data), p, func(lo, hi int) {
		a, b := g.data[lo], g.data[hi]
		s := g.temp()
		g.c.VPADDD(b, a, s)
		g.c.VPSUBD(a, b, b)
		g.release(a)
		g.data[hi] = g.montMul(b, tws[0])
		tws = tws[1:]
		g.release(b)
		g.data[lo] = s
		if scale != 1 {
			g.data[lo] = g.montMul(s, tws[0])
			tws = tws[1:]
			g.release(s)
		}
	})
}

// caddq maps each lane of x from (−q, q) to [0, q).
func (g *zGen) caddq(x reg.VecPhysical) {
	t := g.temp()
	g.c.VPSRAD(operand.U8(31), x, t)
	g.c.VPTERNLOGQ(operand.U8(ternAnd), zQ, t, t)
	g.c.VPADDD(t, x, x)
	g.release(t)
}

// nttInverseAVX512 emits NTTInverseAVX512. Inside, values are signed:
// after the layer with len = 2^ℓ they lie below 2^(ℓ+1)·q in absolute
// value, so the last layer's sums stay below 256q < 2³¹.
func nttInverseAVX512(c *build.Context) {
	g := zRoutine(c, "NTTInverseAVX512", "nttInverseTwiddlesAVX512")
	c.Comment("Layers len = 1 to 8: each lane bit moved into a register bit first.")
	g.swap(0, g.lay.regBit(4))
	g.gsButterflies(0, 1)
	g.swap(1, g.lay.regBit(5))
	g.gsButterflies(1, 1)
	g.swap(2, g.lay.regBit(6))
	g.gsButterflies(2, 1)
	g.swap(2, g.lay.regBit(7))
	g.gsButterflies(3, 1)
	c.Comment("Layers len = 16 to 128, each index bit moved back into a register")
	c.Comment("bit; the last one scales by 256⁻¹ (Algorithm 42, lines 21 to 24).")
	g.swap(0, g.lay.regBit(0))
	g.gsButterflies(4, 1)
	g.swap(1, g.lay.regBit(1))
	g.gsButterflies(5, 1)
	g.swap(2, g.lay.regBit(2))
	g.gsButterflies(6, 1)
	g.swap(2, g.lay.regBit(3))
	g.gsButterflies(7, nttInv256)
	for r := range g.data {
		g.caddq(g.data[r])
	}
	g.end()
}
