package main

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/vg-crypto/vg/Spec/fips204"
)

func init() { register("keygenseed", buildKeyGenSeed) }

// buildKeyGenSeed emits KeyGenSeed<set>AMD64 and KeyGenSeed<set>BMI2:
// H(ξ ‖ k ‖ ℓ, 128) (FIPS 204, Algorithm 6, line 1).
func buildKeyGenSeed(c *build.Context) {
	eachVariant([]string{"AMD64", "BMI2"}, func(name string, p fips204.Params, v string) {
		buildKeyGenSeedVariant(c, "KeyGenSeed"+name+v, p.K, p.L, "KeccakF1600"+v)
	})
}

// buildKeyGenSeedVariant emits one routine: the 34 bytes ξ ‖ k ‖ ℓ, then
// 0x1F, in lanes 0 to 4 of a zero state, 0x80 at byte 135 (FIPS 202,
// §6.2), one call of perm, and the first 128 bytes of the rate copied to
// seed (one block: 128 < 136).
func buildKeyGenSeedVariant(c *build.Context, sym string, k, l int, perm string) {
	f := newCallFrame(c, callerOnStack, sym, 8) // the permutation's argument
	state := c.AllocLocal(25 * 8)

	c.Comment("S = ξ ‖ k ‖ ℓ ‖ 0x1F ‖ 0 … 0x80 (FIPS 202, Algorithm 8, steps 5 and 6).")
	seedInput(c, state, k, l)
	f.local(0, state)
	c.CALL(callee(perm))

	c.Comment("seed = the first 128 bytes of the rate (FIPS 202, Algorithm 8, step 8).")
	c.Load(c.Param("seed"), reg.RDI)
	copyQwords(c, state, operand.Mem{Base: reg.RDI}, 16)
	c.RET()
}
