package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
)

func init() { register("signattempt", buildSignAttempt) }

// buildSignAttempt emits SignAttempt<set>AMD64 and SignAttempt<set>AVX2:
// one attempt of ML-DSA.Sign_internal (FIPS 204, Algorithm 7, lines 11 to
// 30) by calls of the proven routines of each path.
func buildSignAttempt(c *build.Context) {
	for _, ps := range paramSets {
		for _, v := range []string{"AMD64", "AVX2"} {
			buildSignAttemptVariant(c, ps.name, ps.p, v)
		}
	}
}

// buildSignAttemptVariant emits one routine. The loops are unrolled (k
// and ℓ are fixed): no branch at all. Every check is computed whatever the
// others give, and its result ANDed into the one returned, so nothing but
// the returned bit tells which check rejected. Every buffer is reached
// through its argument after every call (the stack may move).
func buildSignAttemptVariant(c *build.Context, name string, p fips204.Params, variant string) {
	sym := "SignAttempt" + name + variant
	k, l := p.K, p.L
	calls := contract.SignAttemptCallees(name, p, variant)
	expandMask, ntt, toMont, rowMul, nttInv := calls[0], calls[1], calls[2], calls[3], calls[4]
	highBits, packW1, perm, ball, mul := calls[5], calls[6], calls[7], calls[8], calls[9]
	add, norm, sub, lowBits, makeHint := calls[10], calls[11], calls[12], calls[13], calls[14]
	cTildeSize := p.Lambda / 4
	w1Size := 32 * bitLen((fips204.Q-1)/(2*p.Gamma2)-1)
	msgSize := 64 + k*w1Size

	function(c, sym)
	c.Instruction(&ir.Instruction{Opcode: "NO_LOCAL_POINTERS"})
	args := c.AllocLocal(32) // the callees' arguments and result
	state := c.AllocLocal(25 * 8)
	msg := c.AllocLocal(msgSize)  // μ ‖ w1Encode(w1)
	seeds := c.AllocLocal(4 * 66) // [4][66]byte: ρ″ ‖ IntegerToBytes(κ + r, 2)
	ptrs := c.AllocLocal(32)      // [4]*[256]uint32
	bound := c.AllocLocal(8)
	flag := c.AllocLocal(8)
	count := c.AllocLocal(8)
	hints := c.AllocLocal(8)
	ok := c.AllocLocal(8)
	// The polynomials of work: NTT(y), w (then w − cs2), c (then NTT(c)),
	// cs1 or cs2, ct0 and w1, then the padding lanes of ExpandMask's last
	// call.
	yHat, w := 0, 1024*l
	cPoly := w + 1024*k
	cs, ct0, w1, pad := cPoly+1024, cPoly+2048, cPoly+3072, cPoly+4096
	arg := func(slot int, param string, disp int) {
		c.Load(c.Param(param), reg.RAX)
		c.LEAQ(operand.Mem{Base: reg.RAX, Disp: disp}, reg.RAX)
		c.MOVQ(reg.RAX, args.Offset(8*slot))
	}
	poly := func(slot, off int) { arg(slot, "work", off) }
	local := func(slot int, m operand.Mem) {
		c.LEAQ(m, reg.RAX)
		c.MOVQ(reg.RAX, args.Offset(8*slot))
	}
	// check ANDs the negation of the norm check's flag into ok.
	check := func(b int, target operand.Op) {
		c.MOVL(operand.U32(uint64(b)), bound)
		local(1, bound)
		local(2, flag)
		c.CALL(target)
		c.MOVL(flag, reg.EAX)
		c.XORL(operand.U32(1), reg.EAX)
		c.ANDQ(reg.RAX, ok)
	}
	c.MOVQ(operand.U32(1), ok)
	c.MOVQ(operand.U32(0), hints)

	ways := 4
	if variant == "AMD64" {
		ways = 1
		c.Comment("y = ExpandMask(ρ″, κ) (Algorithm 7, line 11; Algorithm 34), into z, one polynomial a call: seed r is ρ″ ‖ IntegerToBytes(κ + r, 2).")
	} else {
		c.Comment("y = ExpandMask(ρ″, κ) (Algorithm 7, line 11; Algorithm 34), into z, four polynomials a call: seed r is ρ″ ‖ IntegerToBytes(κ + r, 2); a padding lane repeats its call's first seed into work.")
	}
	for g := 0; g < l && ways == 1; g++ {
		c.Load(c.Param("in"), reg.RSI)
		c.MOVWLZX(operand.Mem{Base: reg.RSI, Disp: 128}, reg.EDX)
		for i := 0; i < 8; i++ {
			c.MOVQ(operand.Mem{Base: reg.RSI, Disp: 64 + 8*i}, reg.RAX)
			c.MOVQ(reg.RAX, seeds.Offset(8*i))
		}
		c.MOVL(reg.EDX, reg.EAX)
		c.ADDL(operand.U32(uint64(g)), reg.EAX)
		c.MOVB(reg.AL, seeds.Offset(64))
		c.SHRL(operand.U8(8), reg.EAX)
		c.MOVB(reg.AL, seeds.Offset(65))
		arg(0, "z", 1024*g)
		local(1, seeds)
		c.CALL(callee(expandMask))
	}
	for g := 0; g < l && ways == 4; g += 4 {
		c.Load(c.Param("in"), reg.RSI)
		c.MOVWLZX(operand.Mem{Base: reg.RSI, Disp: 128}, reg.EDX)
		for j := 0; j < 4; j++ {
			r := g + j
			if r >= l {
				r = g
			}
			for i := 0; i < 8; i++ {
				c.MOVQ(operand.Mem{Base: reg.RSI, Disp: 64 + 8*i}, reg.RAX)
				c.MOVQ(reg.RAX, seeds.Offset(66*j+8*i))
			}
			c.MOVL(reg.EDX, reg.EAX)
			c.ADDL(operand.U32(uint64(r)), reg.EAX)
			c.MOVB(reg.AL, seeds.Offset(66*j+64))
			c.SHRL(operand.U8(8), reg.EAX)
			c.MOVB(reg.AL, seeds.Offset(66*j+65))
			if g+j < l {
				c.Load(c.Param("z"), reg.RAX)
				c.LEAQ(operand.Mem{Base: reg.RAX, Disp: 1024 * (g + j)}, reg.RAX)
			} else {
				c.Load(c.Param("work"), reg.RAX)
				c.LEAQ(operand.Mem{Base: reg.RAX, Disp: pad + 1024*(g+j-l)}, reg.RAX)
			}
			c.MOVQ(reg.RAX, ptrs.Offset(8*j))
		}
		local(0, ptrs)
		local(1, seeds)
		c.CALL(callee(expandMask))
	}

	c.Comment("NTT(y) · 2³² mod q (Algorithm 7, line 12), from a copy of y.")
	c.Load(c.Param("z"), reg.RSI)
	c.Load(c.Param("work"), reg.RDI)
	if variant == "AMD64" {
		for i := 0; i < 1024*l; i += 8 {
			c.MOVQ(operand.Mem{Base: reg.RSI, Disp: i}, reg.RAX)
			c.MOVQ(reg.RAX, operand.Mem{Base: reg.RDI, Disp: yHat + i})
		}
	} else {
		for i := 0; i < 1024*l; i += 32 {
			c.VMOVDQU(operand.Mem{Base: reg.RSI, Disp: i}, reg.Y0)
			c.VMOVDQU(reg.Y0, operand.Mem{Base: reg.RDI, Disp: yHat + i})
		}
		c.VZEROUPPER()
	}
	for j := 0; j < l; j++ {
		poly(0, yHat+1024*j)
		c.CALL(callee(ntt))
		poly(0, yHat+1024*j)
		c.CALL(callee(toMont))
	}

	c.Comment("μ ‖ … (Algorithm 7, line 15).")
	c.Load(c.Param("in"), reg.RSI)
	for i := 0; i < 8; i++ {
		c.MOVQ(operand.Mem{Base: reg.RSI, Disp: 8 * i}, reg.RAX)
		c.MOVQ(reg.RAX, msg.Offset(8*i))
	}
	for i := 0; i < k; i++ {
		c.Comment(fmt.Sprintf("w[%d] = NTT⁻¹(Σⱼ Â[%d][j] ∘ NTT(y[j])) (line 12); w1[%d] = HighBits(w[%d]) (line 13), into w1Encode (Algorithm 28).", i, i, i, i))
		poly(0, w+1024*i)
		arg(1, "aHat", 1024*l*i)
		poly(2, yHat)
		c.CALL(callee(rowMul))
		poly(0, w+1024*i)
		c.CALL(callee(nttInv))
		poly(0, w1)
		poly(1, w+1024*i)
		c.CALL(callee(highBits))
		local(0, msg.Offset(64+w1Size*i))
		poly(1, w1)
		c.CALL(callee(packW1))
	}

	c.Comment("c̃ = H(μ ‖ w1Encode(w1), λ/4) (line 15).")
	absorbLocal(c, args, state, msg, msgSize, perm)
	c.Load(c.Param("cTilde"), reg.RDI)
	for i := 0; i < cTildeSize/8; i++ {
		c.MOVQ(state.Offset(8*i), reg.RAX)
		c.MOVQ(reg.RAX, operand.Mem{Base: reg.RDI, Disp: 8 * i})
	}
	c.Comment("c = SampleInBall(c̃) (line 16); NTT(c) (line 17). c is cleared first: SampleInBall's contract takes its old bytes as public.")
	c.Load(c.Param("work"), reg.RDI)
	c.MOVL(operand.U32(0), reg.EAX)
	for i := 0; i < 1024; i += 8 {
		c.MOVQ(reg.RAX, operand.Mem{Base: reg.RDI, Disp: cPoly + i})
	}
	poly(0, cPoly)
	arg(1, "cTilde", 0)
	c.CALL(callee(ball))
	c.MOVBQZX(args.Offset(16), reg.RAX)
	c.ANDQ(reg.RAX, ok)
	poly(0, cPoly)
	c.CALL(callee(ntt))

	for j := 0; j < l; j++ {
		c.Comment(fmt.Sprintf("z[%d] = y[%d] + NTT⁻¹(NTT(c) ∘ NTT(s1[%d])) (lines 18 and 20); ‖z[%d]‖∞ < γ1 − β (line 23).", j, j, j, j))
		poly(0, cs)
		arg(1, "s1Hat", 1024*j)
		poly(2, cPoly)
		c.CALL(callee(mul))
		poly(0, cs)
		c.CALL(callee(nttInv))
		arg(0, "z", 1024*j)
		poly(1, cs)
		c.CALL(callee(add))
		arg(0, "z", 1024*j)
		check(p.Gamma1-p.Beta, callee(norm))
	}
	for i := 0; i < k; i++ {
		c.Comment(fmt.Sprintf("w[%d] − cs2[%d] (lines 19 and 21); ‖LowBits(w[%d] − cs2[%d])‖∞ < γ2 − β (line 23).", i, i, i, i))
		poly(0, cs)
		arg(1, "s2Hat", 1024*i)
		poly(2, cPoly)
		c.CALL(callee(mul))
		poly(0, cs)
		c.CALL(callee(nttInv))
		poly(0, w+1024*i)
		poly(1, cs)
		c.CALL(callee(sub))
		poly(0, w+1024*i)
		check(p.Gamma2-p.Beta, callee(lowBits))
		c.Comment(fmt.Sprintf("ct0[%d] (line 25); ‖ct0[%d]‖∞ < γ2 (line 28).", i, i))
		poly(0, ct0)
		arg(1, "t0Hat", 1024*i)
		poly(2, cPoly)
		c.CALL(callee(mul))
		poly(0, ct0)
		c.CALL(callee(nttInv))
		poly(0, ct0)
		check(p.Gamma2, callee(norm))
		c.Comment(fmt.Sprintf("h[%d] = MakeHint(−ct0[%d], w[%d] − cs2[%d] + ct0[%d]) (line 26), which is MakeHint(ct0[%d], w[%d] − cs2[%d]) (Algorithm 39).", i, i, i, i, i, i, i, i))
		arg(0, "h", 1024*i)
		poly(1, ct0)
		poly(2, w+1024*i)
		local(3, count)
		c.CALL(callee(makeHint))
		c.MOVL(count, reg.EAX)
		c.ADDL(hints, reg.EAX)
		c.MOVL(reg.EAX, hints)
	}
	c.Comment("At most ω ones in h (line 28): ω − the count is not negative.")
	c.MOVL(hints, reg.ECX)
	c.MOVL(operand.U32(uint64(p.Omega)), reg.EAX)
	c.SUBL(reg.ECX, reg.EAX)
	c.SHRL(operand.U8(31), reg.EAX)
	c.XORL(operand.U32(1), reg.EAX)
	c.ANDQ(reg.RAX, ok)
	c.MOVQ(ok, reg.RAX)
	c.MOVB(reg.AL, result(c))
	c.RET()
}
