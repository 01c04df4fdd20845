package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The products of the NTT domain in AVX2 and AVX-512: MultiplyNTT (FIPS 204, Algorithm
// 45) and the rows of MatrixVectorNTT (Algorithm 48), one factor of each
// product in Montgomery form. Both factors lie in [0, q), so a product is
// below q² < 2⁴⁶ and a sum of at most seven below 2⁴⁹: VPMULDQ and VPADDQ
// keep them exact in 64-bit lanes, even lanes and odd lanes apart, and one
// Montgomery reduction per lane ends it. One body serves both widths
// (mulAccRoutine); the baseline's is sseMulAcc (nttsse2.go).

func init() { register("nttmul", buildMultiplyNTT) }

// buildMultiplyNTT emits MultiplyNTTAMD64 (nttsse2.go), MultiplyNTTAVX2 and
// MultiplyNTTAVX512.
func buildMultiplyNTT(c *build.Context) {
	sseMulAcc(c, "MultiplyNTTAMD64", "mulConstsSSE2", 1)
	mulAccRoutine(c, newNTTGen(c, "mulConsts"), "MultiplyNTTAVX2", 1, 15)
	mulAccRoutine(c, newZGen(c, "mulConstsAVX512"), "MultiplyNTTAVX512", 1, 1)
}

// mulAccGen is what mulAccRoutine needs of the generator of its width:
// nttGen (AVX2, eight lanes) or zGen (AVX-512, sixteen).
type mulAccGen interface {
	width() int // 32-bit lanes
	broadcast(x uint32) operand.Mem
	emitTable()
	reset(temps ...reg.VecPhysical)
	caddq(x reg.VecPhysical)
	// mov copies a whole vector register or memory operand.
	mov(src, dst operand.Op)
	// mulAccStart loads q, q⁻¹ mod 2³² and the constants of joinHigh;
	// it returns the registers of q and q⁻¹ and two sets of six more.
	mulAccStart() (q, qinv reg.VecPhysical, sets [2][6]reg.VecPhysical)
	// oddWordLoads reports whether a single product's odd words come
	// down by loads 4 bytes further on rather than by shifts.
	oddWordLoads() bool
	// joinHigh sets even to the high words of even's 64-bit lanes in the
	// even lanes and those of odd in the odd ones.
	joinHigh(even, odd reg.VecPhysical)
}

// mulAccRoutine emits the product routine name: for each group of
// g.width() coefficients i, the sum over j < terms of the products of
// a[j][i] and b[j][i] (polynomials 1024 bytes apart), reduced. out, a and
// b are loaded into DI, SI and DX. With passes > 1 the groups run as a
// loop of that many passes (CX counts them down), each advancing DI, SI
// and DX past its groups: the code of a pass rather than of every group,
// so that the products stay small beside the NTTs and the permutations in
// the instruction cache of an attempt.
func mulAccRoutine(c *build.Context, g mulAccGen, name string, terms, passes int) {
	function(c, name)
	c.Load(c.Param("out"), reg.RDI)
	c.Load(c.Param("a"), reg.RSI)
	c.Load(c.Param("b"), reg.RDX)
	q, qinv, sets := g.mulAccStart()
	size := 4 * g.width() // bytes of a vector
	groups := 256 / g.width()
	// A single product's last group reads its odd words by a shift, not
	// by loads past the end: with passes, it and the group before it come
	// after the loop.
	looped := groups
	if passes > 1 && terms == 1 && g.oddWordLoads() {
		looped -= 2
	}
	per := looped / passes
	if per*passes != looped || per%2 != 0 {
		// A pass must hold whole pairs of groups: the register sets
		// alternate the same way in each.
		panic(fmt.Sprintf("%s: %d passes of %d groups", name, passes, looped))
	}
	// group emits the group at i vectors from DI, SI and DX, the last of
	// the routine if last.
	group := func(i int, last bool) {
		// Two register sets in turn, so that consecutive groups are
		// independent.
		s := sets[i%2]
		even, odd, x, y := s[0], s[1], s[2], s[3]
		for j := 0; j < terms; j++ {
			a := operand.Mem{Base: reg.RSI, Disp: 1024*j + size*i}
			b := operand.Mem{Base: reg.RDX, Disp: 1024*j + size*i}
			pe, po := even, odd
			if j > 0 {
				pe, po = s[4], s[5]
			}
			if terms == 1 && !last && g.oddWordLoads() {
				// The odd words come down by loads 4 bytes further on,
				// which take no vector ALU port, the bottleneck of a
				// single product. (The last group's would read past
				// the end; in sums of products the loads become the
				// bottleneck.)
				g.mov(a, x)
				c.VPMULDQ(b, x, pe)
				g.mov(a.Offset(4), x)
				c.VPMULDQ(b.Offset(4), x, po)
			} else {
				// Each factor is read once, and its odd words move down
				// by a shift for a and a shuffle for b, which run on
				// different ports.
				g.mov(a, x)
				g.mov(b, y)
				c.VPMULDQ(y, x, pe)
				c.VPSRLQ(operand.U8(32), x, x)
				c.VPSHUFD(operand.U8(0xF5), y, y)
				c.VPMULDQ(y, x, po)
			}
			if j > 0 {
				c.VPADDQ(pe, even, even)
				c.VPADDQ(po, odd, odd)
			}
		}
		// Montgomery reduction of each 64-bit sum t: m = t·q⁻¹ mod 2³²;
		// t − m·q has low word 0 and high word in (−q, q).
		for _, t := range []reg.VecPhysical{even, odd} {
			c.VPMULDQ(qinv, t, x)
			c.VPMULDQ(q, x, x)
			c.VPSUBD(x, t, t)
		}
		g.joinHigh(even, odd)
		g.reset(x)
		g.caddq(even)
		g.mov(even, operand.Mem{Base: reg.RDI, Disp: size * i})
	}
	if passes == 1 {
		for i := 0; i < groups; i++ {
			group(i, i == groups-1)
		}
	} else {
		coeffLoop(c, "pass", passes, per*size, []reg.GPPhysical{reg.RSI, reg.RDX, reg.RDI}, func() {
			for i := 0; i < per; i++ {
				group(i, false)
			}
		})
		for i := 0; i < groups-looped; i++ {
			group(i, i == groups-looped-1)
		}
	}
	c.VZEROUPPER()
	c.RET()
	g.emitTable()
}

func (g *nttGen) width() int              { return 8 }
func (g *nttGen) oddWordLoads() bool      { return true }
func (g *nttGen) mov(src, dst operand.Op) { g.c.VMOVDQU(src, dst) }

func (g *nttGen) mulAccStart() (q, qinv reg.VecPhysical, sets [2][6]reg.VecPhysical) {
	qinv = reg.Y14
	g.mov(g.broadcast(mldsaQ), nttQ)
	g.mov(g.broadcast(nttQInv), qinv)
	return nttQ, qinv, [2][6]reg.VecPhysical{
		{reg.Y0, reg.Y1, reg.Y2, reg.Y3, reg.Y4, reg.Y5},
		{reg.Y6, reg.Y7, reg.Y8, reg.Y9, reg.Y10, reg.Y11},
	}
}

func (g *nttGen) joinHigh(even, odd reg.VecPhysical) {
	g.c.VPSRLQ(operand.U8(32), even, even)
	g.c.VPBLENDD(operand.U8(0xAA), odd, even, even)
}

func (g *zGen) width() int              { return 16 }
func (g *zGen) oddWordLoads() bool      { return false }
func (g *zGen) mov(src, dst operand.Op) { g.c.VMOVDQU64(src, dst) }

func (g *zGen) mulAccStart() (q, qinv reg.VecPhysical, sets [2][6]reg.VecPhysical) {
	qinv = reg.Z28
	g.mov(g.broadcast(mldsaQ), zQ)
	g.mov(g.broadcast(nttQInv), qinv)
	g.mov(g.vector(zOddIndices()), zOddIdx)
	return zQ, qinv, [2][6]reg.VecPhysical{
		{reg.Z0, reg.Z1, reg.Z2, reg.Z3, reg.Z4, reg.Z5},
		{reg.Z6, reg.Z7, reg.Z8, reg.Z9, reg.Z10, reg.Z11},
	}
}

// joinHigh takes the high words by one VPERMT2D: even lanes' from even,
// odd ones' from odd.
func (g *zGen) joinHigh(even, odd reg.VecPhysical) { g.c.VPERMT2D(odd, zOddIdx, even) }
