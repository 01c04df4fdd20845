package main

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/vg-crypto/vg/Spec/fips204"
)

func init() { register("keygenpk", buildKeyGenPk) }

// buildKeyGenPk emits KeyGenPk<set>AMD64 and KeyGenPk<set>AVX2:
// ML-DSA.KeyGen_internal, lines 6 and 8 (FIPS 204, Algorithm 6), by calls
// of the proven routines of each path.
func buildKeyGenPk(c *build.Context) {
	eachVariant([]string{"AMD64", "AVX2"}, func(name string, p fips204.Params, v string) {
		buildKeyGenPkVariant(c, "KeyGenPk"+name+v, p.K, v)
	})
}

// buildKeyGenPkVariant emits one routine: pk starts with ρ (Algorithm 22,
// line 1); for each i, Power2Round of t[i] gives t1 in the frame and t0[i]
// (Algorithm 6, line 6), and SimpleBitPack of t1 gives pk's bytes
// 32 + 320i on (Algorithm 22, line 3). The loop over i is unrolled (k is
// fixed): no branch at all. Every buffer is reached through its argument
// after every call (the stack may move).
func buildKeyGenPkVariant(c *build.Context, sym string, k int, variant string) {
	f := newCallFrame(c, callerOnStack, sym, 24) // the callees' arguments
	t1 := c.AllocLocal(1024)

	c.Comment("pk = ρ ‖ … (Algorithm 22, line 1).")
	c.Load(c.Param("rho"), reg.RSI)
	c.Load(c.Param("pk"), reg.RDI)
	copyQwords(c, operand.Mem{Base: reg.RSI}, operand.Mem{Base: reg.RDI}, 4)
	for i := 0; i < k; i++ {
		c.Comment("(t1, t0[i]) = Power2Round(t[i]) (Algorithm 6, line 6).")
		f.local(0, t1)
		f.arg(1, "t0", 1024*i)
		f.arg(2, "t", 1024*i)
		c.CALL(callee("Power2RoundPoly" + variant))
		c.Comment("pk[32+320i:] = SimpleBitPack(t1, 2^10 − 1) (Algorithm 22, line 3).")
		f.arg(0, "pk", 32+320*i)
		f.local(1, t1)
		c.CALL(callee("SimpleBitPack10" + variant))
	}
	c.RET()
}
