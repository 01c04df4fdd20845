package main

import (
	"fmt"
	"strings"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
)

func init() { register("verify", buildVerify) }

// buildVerify emits Verify<set>AMD64, Verify<set>AVX2 and
// Verify<set>AVX512: ML-DSA.Verify_internal (FIPS 204, Algorithm 8) by
// calls of the proven routines of each path.
func buildVerify(c *build.Context) {
	eachVariant([]string{"AMD64", "AVX2", "AVX512"}, func(name string, p fips204.Params, v string) {
		buildVerifyVariant(c, name, p, v)
	})
}

// buildVerifyVariant emits one routine. The loops are unrolled (k and ℓ
// are fixed): no branch at all. Every check is computed whatever the
// others give, and its result ANDed into the one returned: a malformed
// hint or a norm beyond γ1 − β costs the whole verification, which
// handles public data only. Every buffer is reached through its argument
// after every call (the stack may move).
func buildVerifyVariant(c *build.Context, name string, p fips204.Params, variant string) {
	sym := "Verify" + name + variant
	k, l := p.K, p.L
	calls := contract.VerifyCallees(name, p, variant)
	unpackZ, hintUnpack, norm, ball := calls[0], calls[1], calls[2], calls[3]
	ntt, toMont, rowMul, mul := calls[4], calls[5], calls[6], calls[7]
	sub, nttInv, useHint, packW1, perm := calls[8], calls[9], calls[10], calls[11], calls[12]
	cTildeSize := p.Lambda / 4
	zSize := 32 * (1 + bitLen(p.Gamma1-1))
	w1Size := 32 * bitLen((fips204.Q-1)/(2*p.Gamma2)-1)
	msgSize := 64 + k*w1Size

	f := newCallFrame(c, function, sym, 32) // the callees' arguments and result
	arg, local, and := f.arg, f.local, f.and
	state := c.AllocLocal(25 * 8)
	msg := c.AllocLocal(msgSize) // μ ‖ w1Encode(w1′)
	// The polynomials are in work (too large for a frame under the
	// stack check's small-frame form): z, h, c, w, ct1 and w1.
	z, h, cPoly := 0, 1024*l, 1024*(l+k)
	w, ct1, w1 := cPoly+1024, cPoly+2048, cPoly+3072
	bound := c.AllocLocal(8)
	flag := c.AllocLocal(8)
	f.ok = c.AllocLocal(8)
	ok := f.ok
	poly := func(slot, off int) { arg(slot, "work", off) }
	c.MOVQ(operand.U32(1), ok)

	for j := 0; j < l; j++ {
		c.Comment(fmt.Sprintf("z[%d] = BitUnpack(x%d, γ1 − 1, γ1) (Algorithm 27, line 3; Algorithm 8, line 2).", j, j))
		poly(0, z+1024*j)
		arg(1, "sig", cTildeSize+zSize*j)
		c.CALL(callee(unpackZ))
	}
	c.Comment("h = HintBitUnpack(y) (Algorithm 27, line 5); h = ⊥ returns false (Algorithm 8, lines 3 and 4).")
	poly(0, h)
	arg(1, "sig", cTildeSize+zSize*l)
	c.CALL(callee(hintUnpack))
	and(2)

	c.Comment("‖z‖∞ < γ1 − β (Algorithm 8, line 13), one polynomial at a time.")
	c.MOVL(operand.U32(uint64(p.Gamma1-p.Beta)), bound)
	for j := 0; j < l; j++ {
		poly(0, z+1024*j)
		local(1, bound)
		local(2, flag)
		c.CALL(callee(norm))
		c.MOVL(flag, reg.EAX)
		c.XORL(operand.U32(1), reg.EAX)
		c.ANDQ(reg.RAX, ok)
	}

	c.Comment("c = SampleInBall(c̃) (Algorithm 8, line 8); NTT(c) (line 9).")
	poly(0, cPoly)
	arg(1, "sig", 0)
	c.CALL(callee(ball))
	and(2)
	poly(0, cPoly)
	c.CALL(callee(ntt))
	// On the AVX2 path NTT(z) stays plain and NTT(c) is scaled by 2⁻³²
	// (FromMontgomeryPoly), the NTT⁻¹ scaling by 2³².
	fromMont := strings.HasPrefix(toMont, "FromMontgomery")
	if fromMont {
		c.Comment("NTT(c) · 2⁻³² mod q: scaled as the products Â ∘ NTT(z) are (line 9).")
		poly(0, cPoly)
		c.CALL(callee(toMont))
	}
	for j := 0; j < l; j++ {
		if fromMont {
			c.Comment(fmt.Sprintf("NTT(z[%d]) (Algorithm 8, line 9).", j))
		} else {
			c.Comment(fmt.Sprintf("NTT(z[%d]) · 2³² mod q (Algorithm 8, line 9).", j))
		}
		poly(0, z+1024*j)
		c.CALL(callee(ntt))
		if !fromMont {
			poly(0, z+1024*j)
			c.CALL(callee(toMont))
		}
	}

	c.Comment("μ ‖ … (Algorithm 8, line 12).")
	c.Load(c.Param("mu"), reg.RSI)
	copyQwords(c, operand.Mem{Base: reg.RSI}, msg, 8)
	for i := 0; i < k; i++ {
		c.Comment(fmt.Sprintf("w′Approx[%d] = NTT⁻¹(Σⱼ Â[%d][j] ∘ NTT(z[j]) − NTT(c) ∘ NTT(t1[%d]·2^d)) (Algorithm 8, line 9).", i, i, i))
		poly(0, w)
		arg(1, "aHat", 1024*l*i)
		poly(2, z)
		c.CALL(callee(rowMul))
		poly(0, ct1)
		arg(1, "t1Hat", 1024*i)
		poly(2, cPoly)
		c.CALL(callee(mul))
		poly(0, w)
		poly(1, ct1)
		c.CALL(callee(sub))
		poly(0, w)
		c.CALL(callee(nttInv))
		c.Comment(fmt.Sprintf("w1′[%d] = UseHint(h[%d], w′Approx[%d]) (line 10), into w1Encode (Algorithm 28, line 3).", i, i, i))
		poly(0, w1)
		poly(1, h+1024*i)
		poly(2, w)
		c.CALL(callee(useHint))
		local(0, msg.Offset(64+w1Size*i))
		poly(1, w1)
		c.CALL(callee(packW1))
	}

	c.Comment("c̃′ = H(μ ‖ w1Encode(w1′), λ/4) (Algorithm 8, line 12).")
	absorbLocal(c, f.args, state, msg, msgSize, perm, false)
	c.Comment("c̃ = c̃′ (Algorithm 8, line 13): the OR of the lanes' differences is 0.")
	c.Load(c.Param("sig"), reg.RSI)
	c.XORL(reg.ECX, reg.ECX)
	for i := 0; i < cTildeSize/8; i++ {
		c.MOVQ(state.Offset(8*i), reg.RAX)
		c.XORQ(operand.Mem{Base: reg.RSI, Disp: 8 * i}, reg.RAX)
		c.ORQ(reg.RAX, reg.RCX)
	}
	// (x − 1) ∧ ¬x has its top bit set exactly for x = 0.
	c.MOVQ(reg.RCX, reg.RDX)
	c.DECQ(reg.RDX)
	c.NOTQ(reg.RCX)
	c.ANDQ(reg.RCX, reg.RDX)
	c.SHRQ(operand.U8(63), reg.RDX)
	c.ANDQ(reg.RDX, ok)
	c.MOVQ(ok, reg.RAX)
	c.MOVB(reg.AL, result(c))
	c.RET()
}

// bitLen is the bit length of a (FIPS 204, §2.3).
func bitLen(a int) int {
	n := 0
	for ; a > 0; a >>= 1 {
		n++
	}
	return n
}

// absorbLocal sets state to SHAKE256 of the n bytes (whole lanes) of the
// frame buffer msg, up to its first squeeze: state's first bytes are then
// the output's (FIPS 202, Algorithm 8, steps 5 to 8).
func absorbLocal(c *build.Context, args, state, msg operand.Mem, n int, perm string, looped bool) {
	absorb(c, args, state, n, perm, func(blk int) operand.Mem { return msg.Offset(shake256Rate * blk) }, false, looped)
}
