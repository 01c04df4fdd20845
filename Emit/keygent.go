package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"

	"github.com/vg-crypto/vg/Spec/fips204"
)

func init() { register("keygent", buildKeyGenT) }

// buildKeyGenT emits KeyGenT<set>AMD64 and KeyGenT<set>AVX2:
// ML-DSA.KeyGen_internal, line 5 (FIPS 204, Algorithm 6), by calls of the
// proven routines of each path.
func buildKeyGenT(c *build.Context) {
	eachVariant([]string{"AMD64", "AVX2"}, func(name string, p fips204.Params, v string) {
		buildKeyGenTVariant(c, "KeyGenT"+name+v, p.K, p.L, v)
	})
}

// buildKeyGenTVariant emits one routine: each s1[j] in place becomes
// NTT(s1[j]) times 2³² (the Montgomery form of the products' second
// factor); then for each i, t[i] = 2⁻³² · Σⱼ Â[i][j] ∘ ŝ1[j] (a row of
// MatrixVectorNTT, Algorithm 48), NTT⁻¹ of it, plus s2[i] (Algorithm 6,
// line 5). The loops are unrolled (k and ℓ are fixed): no branch at all.
// Every buffer is reached through its argument after every call (the
// stack may move).
func buildKeyGenTVariant(c *build.Context, sym string, k, l int, variant string) {
	f := newCallFrame(c, callerOnStack, sym, 24) // the callees' arguments
	arg := f.arg
	for j := 0; j < l; j++ {
		c.Comment("ŝ1[j] = NTT(s1[j]) · 2³² mod q (Algorithm 6, line 5).")
		arg(0, "s1Hat", 1024*j)
		c.CALL(callee("NTT" + variant))
		arg(0, "s1Hat", 1024*j)
		c.CALL(callee("ToMontgomeryPoly" + variant))
	}
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
		c.CALL(callee("PolyAdd" + variant))
	}
	c.RET()
}
