package main

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Products of a polynomial with a constant F mod q, in place: w ← w·F.
// The Montgomery product with the constant F·2³² mod q (nttavx2.go,
// nttsse2.go: the NTT's twiddle products) gives w·F in (−q, q) for w in
// [0, q), and adding q where it is negative (caddq) gives [0, q).
// ToMontgomeryPoly takes F = 2³² mod q: the Montgomery form of one factor of
// the products of T_q. ToMontgomeryT1Poly takes F = 2ᵈ·2³² mod q: from
// NTT(t1), the Montgomery form of NTT(t1·2ᵈ) (Algorithm 8, line 9).
// FromMontgomeryPoly takes F = 2⁻³² mod q: NTT(c) scaled as the
// Montgomery products Â ∘ NTT(z) are (Algorithm 8, line 9).

func init() { register("tomontgomery", buildToMontgomery) }

// buildToMontgomery emits ToMontgomeryPolyAMD64, ToMontgomeryPolyAVX2,
// ToMontgomeryT1PolyAMD64, ToMontgomeryT1PolyAVX2, FromMontgomeryPolyAMD64
// and FromMontgomeryPolyAVX2.
func buildToMontgomery(c *build.Context) {
	// ToMontgomeryPoly runs in every signing attempt, between NTTs: a loop
	// of eight iterations, whose code of one sits in the instruction cache
	// beside theirs. ToMontgomeryT1Poly runs once for a public key, outside
	// any signing attempt: unrolled, without the loop's instructions.
	sseScale(c, "ToMontgomeryPolyAMD64", "toMontgomeryConstsSSE2", 1<<32%mldsaQ, 8)
	avx2Scale(c, "ToMontgomeryPolyAVX2", "toMontgomeryConsts", 1<<32%mldsaQ, 8)
	const d = 13 // dropped bits of t (FIPS 204, Table 1)
	sseScale(c, "ToMontgomeryT1PolyAMD64", "toMontgomeryT1ConstsSSE2", 1<<(d+32)%mldsaQ, 1)
	avx2Scale(c, "ToMontgomeryT1PolyAVX2", "toMontgomeryT1Consts", 1<<(d+32)%mldsaQ, 1)
	// FromMontgomeryPoly runs once a verification, on NTT(c): unrolled.
	const rInv = 8265825 // 2⁻³² mod q
	sseScale(c, "FromMontgomeryPolyAMD64", "fromMontgomeryConstsSSE2", rInv, 1)
	avx2Scale(c, "FromMontgomeryPolyAVX2", "fromMontgomeryConsts", rInv, 1)
}

// scaleLoop emits body(n), which scales n registers of coefficients from
// g.w on, for all 1024 bytes: once, or as a loop of iters iterations.
func scaleLoop(c *build.Context, w reg.GPPhysical, regs, iters int, body func(n int)) {
	if iters == 1 {
		body(regs)
		return
	}
	coeffLoop(c, "scale", iters, 1024/iters, []reg.GPPhysical{w}, func() { body(regs / iters) })
}

// avx2Scale emits w ← w·f mod q, eight coefficients per ymm register, two
// registers in turn so that consecutive groups are independent.
func avx2Scale(c *build.Context, sym, table string, f uint32, iters int) {
	g := nttRoutine(c, sym, table)
	tw := g.signedTwiddles(splat(8, f))
	scaleLoop(c, g.w, 32, iters, func(n int) {
		for i := 0; i < n; i++ {
			x := []reg.VecPhysical{reg.Y0, reg.Y1}[i%2]
			w := operand.Mem{Base: g.w, Disp: 32 * i}
			c.VMOVDQU(w, x)
			g.montMul(x, tw, x)
			g.caddq(x)
			c.VMOVDQU(x, w)
		}
	})
	c.VZEROUPPER()
	c.RET()
	g.emitTable()
}

// sseScale is avx2Scale in SSE2, four coefficients per xmm register,
// inside the MXCSR bracket, the constants kept in registers.
func sseScale(c *build.Context, sym, table string, f uint32, iters int) {
	g := sseTransform(c, sym, table)
	z, zq, _ := g.twiddles(splat(4, f))
	tz, tq := g.constant(z), g.constant(zq)
	scaleLoop(c, g.w, 64, iters, func(n int) {
		for i := 0; i < n; i++ {
			w := operand.Mem{Base: g.w, Disp: 16 * i}
			c.MOVOU(w, reg.X0)
			x, even, m := g.montMulBy(reg.X0, tz, tq, true)
			g.release(even, m)
			g.caddq(x)
			c.MOVOU(x, w)
			g.release(x)
		}
	})
	g.end()
}
