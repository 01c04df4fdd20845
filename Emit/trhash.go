package main

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/vg-crypto/vg/Spec/fips204"
)

func init() { register("trhash", buildTrHash) }

// buildTrHash emits TrHash<set>AMD64: tr = H(pk, 64) (FIPS 204,
// Algorithm 6, line 9) for the public key size of each parameter set.
func buildTrHash(c *build.Context) {
	eachVariant([]string{"AMD64", "BMI2"}, func(name string, p fips204.Params, v string) {
		buildTrHashAMD64(c, "TrHash"+name+v, p.PublicKeySize, "KeccakF1600"+v)
	})
}

// buildTrHashAMD64 emits one routine, calling perm (KeccakF1600AMD64 or
// KeccakF1600BMI2).
func buildTrHashAMD64(c *build.Context, sym string, n int, perm string) {
	if n%8 != 0 {
		panic("Emit: TrHash needs whole lanes")
	}
	f := newCallFrame(c, callerOnStack, sym, 8) // the permutation's argument
	state := c.AllocLocal(25 * 8)
	emitTr(c, f.args, state, n, perm, "tr", 0)
	c.RET()
}

// emitTr emits tr = H(pk, 64) for the n-byte pk of the routine's
// arguments, tr at byte disp of argument dst, with the SHAKE256 state and
// the permutation's argument in
// the frame: each 136-byte block of pk XORed into the state lane by lane
// and permuted by a call of perm, then the tail with its padding, then the
// first 64 bytes of the rate copied to tr. pk's size is fixed, so the
// blocks are unrolled: no branch at all. pk and tr are reached through
// their arguments after every call (the stack may move).
func emitTr(c *build.Context, args, state operand.Mem, n int, perm, dst string, disp int) {
	absorb(c, args, state, n, perm, func(blk int) operand.Mem {
		c.Load(c.Param("pk"), reg.RSI)
		return operand.Mem{Base: reg.RSI, Disp: shake256Rate * blk}
	}, true, false)

	c.Comment("tr = the first 64 bytes of the rate (FIPS 202, Algorithm 8, step 8).")
	c.Load(c.Param(dst), reg.RDI)
	copyQwords(c, state, operand.Mem{Base: reg.RDI, Disp: disp}, 8)
}
