package main

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The products of the NTT domain in AVX2: MultiplyNTT (FIPS 204, Algorithm
// 45) and the rows of MatrixVectorNTT (Algorithm 48), one factor of each
// product in Montgomery form. Both factors lie in [0, q), so a product is
// below q² < 2⁴⁶ and a sum of at most seven below 2⁴⁹: VPMULDQ and VPADDQ
// keep them exact in 64-bit lanes, even lanes and odd lanes apart, and one
// Montgomery reduction per lane ends it.

func init() { register("nttmul", buildMultiplyNTT) }

// buildMultiplyNTT emits MultiplyNTTAMD64 (nttsse2.go), MultiplyNTTAVX2 and
// MultiplyNTTAVX512 (nttavx512.go).
func buildMultiplyNTT(c *build.Context) {
	sseMulAcc(c, "MultiplyNTTAMD64", "mulConstsSSE2", 1, func(j, i int) (a, b operand.Mem) {
		return operand.Mem{Base: reg.RSI, Disp: 16 * i}, operand.Mem{Base: reg.RDX, Disp: 16 * i}
	})
	function(c, "MultiplyNTTAVX2")
	mulAccRoutine(c, "mulConsts", 1, func(j, i int) (a, b operand.Mem) {
		return operand.Mem{Base: reg.RSI, Disp: 32 * i}, operand.Mem{Base: reg.RDX, Disp: 32 * i}
	})
	zMulAccRoutine(c, "MultiplyNTTAVX512", "mulConstsAVX512", 1, func(j, i int) (a, b operand.Mem) {
		return operand.Mem{Base: reg.RSI, Disp: 64 * i}, operand.Mem{Base: reg.RDX, Disp: 64 * i}
	})
}

// mulAccRoutine emits the body: for each group of eight coefficients i, the
// sum over j < terms of the products of the words at src(j, i), reduced.
// out, a and b are loaded into DI, SI and DX; the constants go to the
// table named table.
func mulAccRoutine(c *build.Context, table string, terms int, src func(j, i int) (a, b operand.Mem)) {
	c.Load(c.Param("out"), reg.RDI)
	c.Load(c.Param("a"), reg.RSI)
	c.Load(c.Param("b"), reg.RDX)
	g := newNTTGen(c, table)
	qinv := reg.Y14
	c.VMOVDQU(g.broadcast(mldsaQ), nttQ)
	c.VMOVDQU(g.broadcast(nttQInv), qinv)
	// Two register sets in turn, so that consecutive groups are independent.
	sets := [2][6]reg.VecPhysical{
		{reg.Y0, reg.Y1, reg.Y2, reg.Y3, reg.Y4, reg.Y5},
		{reg.Y6, reg.Y7, reg.Y8, reg.Y9, reg.Y10, reg.Y11},
	}
	for i := 0; i < 32; i++ {
		s := sets[i%2]
		even, odd, x, y := s[0], s[1], s[2], s[3]
		for j := 0; j < terms; j++ {
			a, b := src(j, i)
			pe, po := even, odd
			if j > 0 {
				pe, po = s[4], s[5]
			}
			if terms == 1 && i < 31 {
				// The odd words come down by loads 4 bytes further on,
				// which take no vector ALU port, the bottleneck of a
				// single product. (The last group's would read past
				// the end; in sums of products the loads become the
				// bottleneck.)
				c.VMOVDQU(a, x)
				c.VPMULDQ(b, x, pe)
				c.VMOVDQU(a.Offset(4), x)
				c.VPMULDQ(b.Offset(4), x, po)
			} else {
				// Each factor is read once, and its odd words move down
				// by a shift for a and a shuffle for b, which run on
				// different ports.
				c.VMOVDQU(a, x)
				c.VMOVDQU(b, y)
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
			c.VPMULDQ(nttQ, x, x)
			c.VPSUBD(x, t, t)
		}
		c.VPSRLQ(operand.U8(32), even, even)
		c.VPBLENDD(operand.U8(0xAA), odd, even, even)
		g.free = []reg.VecPhysical{x}
		g.caddq(even)
		c.VMOVDQU(even, operand.Mem{Base: reg.RDI, Disp: 32 * i})
	}
	c.VZEROUPPER()
	c.RET()
	g.emitTable()
}
