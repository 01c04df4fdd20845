package main

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
)

func init() { register("sigencode", buildSigEncode) }

// buildSigEncode emits SigEncode<set>AMD64 and SigEncode<set>AVX2:
// ML-DSA.Sign_internal, lines 33 and 34 (FIPS 204, Algorithm 7), σ =
// sigEncode(c̃, z mod± q, h), by calls of the proven routines of each
// path.
func buildSigEncode(c *build.Context) {
	eachVariant([]string{"AMD64", "AVX2"}, func(name string, p fips204.Params, v string) {
		buildSigEncodeVariant(c, "SigEncode"+name+v, p, contract.SigEncodeCallees(name, p, v))
	})
}

// buildSigEncodeVariant emits one routine: σ starts with c̃ (Algorithm
// 26, line 1); BitPack of z[i] gives its bytes λ/4 + 32·W·i on (line 3;
// the callee reads z's words mod± q); HintBitPack of h its last ω + k
// bytes (line 5). The loop over i is unrolled (ℓ is fixed): no branch.
// Every buffer is reached through its argument after every call (the
// stack may move).
func buildSigEncodeVariant(c *build.Context, sym string, p fips204.Params, calls []string) {
	f := newCallFrame(c, callerOnStack, sym, 16) // the callees' arguments
	cTildeSize := p.Lambda / 4
	zSize := 32 * (1 + bitLen(p.Gamma1-1))

	c.Comment("σ = c̃ ‖ … (Algorithm 26, line 1).")
	c.Load(c.Param("cTilde"), reg.RSI)
	c.Load(c.Param("sigma"), reg.RDI)
	copyQwords(c, operand.Mem{Base: reg.RSI}, operand.Mem{Base: reg.RDI}, cTildeSize/8)
	for i := 0; i < p.L; i++ {
		c.Comment("σ ‖= BitPack(z[i] mod± q, γ1 − 1, γ1) (Algorithm 26, line 3).")
		f.arg(0, "sigma", cTildeSize+zSize*i)
		f.arg(1, "z", 1024*i)
		c.CALL(callee(calls[0]))
	}
	c.Comment("σ ‖= HintBitPack(h) (Algorithm 26, line 5).")
	f.arg(0, "sigma", cTildeSize+zSize*p.L)
	f.arg(1, "h", 0)
	c.CALL(callee(calls[1]))
	c.RET()
}
