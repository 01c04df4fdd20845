package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/vg-crypto/vg/Spec/fips204"
)

func init() { register("keygen", buildKeyGen) }

// buildKeyGen emits KeyGen<set>AMD64, KeyGen<set>AVX2 and
// KeyGen<set>AVX512: ML-DSA.KeyGen_internal (FIPS 204, Algorithm 6) by
// calls of the proven routines of each path.
func buildKeyGen(c *build.Context) {
	eachVariant([]string{"AMD64", "AVX2", "AVX512"}, func(name string, p fips204.Params, v string) {
		buildKeyGenVariant(c, name, p, v)
	})
}

// keyGenFourWay is how many of ExpandS's k + ℓ samplers the AVX2 and
// AVX-512 routines run four at a time: all, the last group padded (as
// go/mldsa's fourWayCount with AVX2: two or three samplers, padded to
// four, cost less than one at a time).
func keyGenFourWay(n int) int {
	if n%4 >= 2 {
		return n
	}
	return n - n%4
}

// buildKeyGenVariant emits one routine. The loops are unrolled (k and ℓ
// are fixed): no branch at all. Every buffer is reached through its
// argument after every call (the stack may move), and every sampler's
// result is ANDed into the one returned. The buffers escape (the
// routine is not marked noescape): ExpandA and the four-way sampler get
// pointers that a moved stack would leave stale.
func buildKeyGenVariant(c *build.Context, name string, p fips204.Params, variant string) {
	sym := "KeyGen" + name + variant
	k, l := p.K, p.L
	ηBits := 3
	if p.Eta == 4 {
		ηBits = 4
	}
	// H's permutation: the BMI2 one on the AVX2 and AVX-512 paths (their
	// contracts require BMI2 too). The AVX-512 path calls the AVX2
	// routines that have no AVX-512 variant (v).
	perm, v := "KeccakF1600AMD64", variant
	if variant != "AMD64" {
		perm = "KeccakF1600BMI2"
	}
	if variant == "AVX512" {
		v = "AVX2"
	}
	f := newCallFrame(c, function, sym, 32) // the callees' arguments and result
	arg, local, and := f.arg, f.local, f.and
	state := c.AllocLocal(25 * 8)
	t1 := c.AllocLocal(1024)
	seeds := c.AllocLocal(4 * 66) // [4][66]byte: ρ′ ‖ r
	ptrs := c.AllocLocal(32)      // [4]*[256]uint32
	nonce := c.AllocLocal(8)      // IntegerToBytes(r, 2)
	f.ok = c.AllocLocal(8)
	ok := f.ok

	c.Comment("(ρ, ρ′, K) = H(ξ ‖ k ‖ ℓ, 128) (Algorithm 6, line 1), in the state's first 128 bytes.")
	seedInput(c, state, k, l)
	local(0, state)
	c.CALL(callee(perm))
	c.Comment("pk = ρ ‖ … (Algorithm 22, line 1); sk = ρ ‖ K ‖ … (Algorithm 24, line 1).")
	c.Load(c.Param("pk"), reg.RDI)
	c.Load(c.Param("sk"), reg.RSI)
	for i := 0; i < 4; i++ {
		c.MOVQ(state.Offset(8*i), reg.RAX)
		c.MOVQ(reg.RAX, operand.Mem{Base: reg.RDI, Disp: 8 * i})
		c.MOVQ(reg.RAX, operand.Mem{Base: reg.RSI, Disp: 8 * i})
		c.MOVQ(state.Offset(96+8*i), reg.RAX)
		c.MOVQ(reg.RAX, operand.Mem{Base: reg.RSI, Disp: 32 + 8*i})
	}
	c.MOVQ(operand.U32(1), ok)

	c.Comment("Â = ExpandA(ρ), ρ read from pk (Algorithm 6, line 3).")
	arg(0, "aHat", 0)
	arg(1, "pk", 0)
	c.CALL(callee("ExpandA" + name + variant))
	and(2)

	// poly is where ExpandS's polynomial r goes (Algorithm 33): s1[r]
	// into s1Hat, s2[r − ℓ] into s2; a padding lane's into t0, which
	// Power2Round writes later.
	poly := func(r int) (string, int) {
		switch {
		case r < l:
			return "s1Hat", 1024 * r
		case r < k+l:
			return "s2", 1024 * (r - l)
		}
		return "t0", 1024 * (r - k - l)
	}
	fours := 0
	if variant != "AMD64" {
		fours = keyGenFourWay(k + l)
		c.Comment("(s1, s2) = ExpandS(ρ′) (Algorithm 6, line 4), four polynomials a call.")
		c.VMOVDQU(state.Offset(32), reg.Y0)
		c.VMOVDQU(state.Offset(64), reg.Y1)
		for j := 0; j < 4; j++ {
			c.VMOVDQU(reg.Y0, seeds.Offset(66*j))
			c.VMOVDQU(reg.Y1, seeds.Offset(66*j+32))
		}
		c.VZEROUPPER()
		for g := 0; g < fours; g += 4 {
			for j := 0; j < 4; j++ {
				// ρ′ ‖ IntegerToBytes(r, 2) (Algorithm 33, lines 2 and 5); a
				// padding lane repeats the group's first seed.
				r := g + j
				if r >= k+l {
					r = g
				}
				c.MOVB(operand.U8(r&0xff), seeds.Offset(66*j+64))
				c.MOVB(operand.U8(r>>8), seeds.Offset(66*j+65))
				buf, disp := poly(g + j)
				paramAddr(c, buf, disp)
				c.MOVQ(reg.RAX, ptrs.Offset(8*j))
			}
			local(0, ptrs)
			local(1, seeds)
			c.CALL(callee(fmt.Sprintf("RejBoundedPolyx4Eta%d%s", p.Eta, variant)))
			and(2)
		}
	} else {
		c.Comment("(s1, s2) = ExpandS(ρ′) (Algorithm 6, line 4), ρ′ read from the state.")
	}
	for r := fours; r < k+l; r++ {
		c.MOVB(operand.U8(r&0xff), nonce)
		c.MOVB(operand.U8(r>>8), nonce.Offset(1))
		buf, disp := poly(r)
		arg(0, buf, disp)
		local(1, state.Offset(32))
		local(2, nonce)
		c.CALL(callee(fmt.Sprintf("RejBoundedPolyEta%dAMD64", p.Eta)))
		and(3)
	}

	c.Comment("sk = … ‖ BitPack(s1[i], η, η) … ‖ BitPack(s2[i], η, η) … (Algorithm 24, lines 3 and 6).")
	for r := 0; r < k+l; r++ {
		buf, disp := poly(r)
		arg(0, "sk", 128+32*ηBits*r)
		arg(1, buf, disp)
		c.CALL(callee(fmt.Sprintf("BitPack%d%s", ηBits, v)))
	}

	for j := 0; j < l; j++ {
		c.Comment("ŝ1[j] = NTT(s1[j]) · 2³² mod q (Algorithm 6, line 5).")
		arg(0, "s1Hat", 1024*j)
		c.CALL(callee("NTT" + variant))
		arg(0, "s1Hat", 1024*j)
		c.CALL(callee("ToMontgomeryPoly" + v))
	}
	t0At := 128 + 32*ηBits*(k+l)
	for i := 0; i < k; i++ {
		c.Comment("t[i] = NTT⁻¹(Σⱼ Â[i][j] ∘ NTT(s1[j])) + s2[i] (Algorithm 6, line 5).")
		arg(0, "t", 1024*i)
		arg(1, "aHat", 1024*l*i)
		arg(2, "s1Hat", 0)
		c.CALL(callee(fmt.Sprintf("MultiplyAccNTT%d%s", l, variant)))
		arg(0, "t", 1024*i)
		c.CALL(callee("NTTInverse" + variant))
		arg(0, "t", 1024*i)
		arg(1, "s2", 1024*i)
		c.CALL(callee("PolyAdd" + v))
		c.Comment("(t1, t0[i]) = Power2Round(t[i]) (Algorithm 6, line 6).")
		local(0, t1)
		arg(1, "t0", 1024*i)
		arg(2, "t", 1024*i)
		c.CALL(callee("Power2RoundPoly" + v))
		c.Comment("pk = … ‖ SimpleBitPack(t1, 2^10 − 1) (Algorithm 22, line 3).")
		arg(0, "pk", 32+320*i)
		local(1, t1)
		c.CALL(callee("SimpleBitPack10" + v))
		c.Comment("sk = … ‖ BitPack(t0[i], 2^12 − 1, 2^12) (Algorithm 24, line 9).")
		arg(0, "sk", t0At+416*i)
		arg(1, "t0", 1024*i)
		c.CALL(callee("BitPack13" + v))
	}

	c.Comment("sk = ρ ‖ K ‖ tr ‖ …, tr = H(pk, 64) (Algorithm 6, line 9).")
	emitTr(c, f.args, state, p.PublicKeySize, perm, "sk", 64)
	c.MOVQ(ok, reg.RAX)
	c.MOVB(reg.AL, result(c))
	c.RET()
}
