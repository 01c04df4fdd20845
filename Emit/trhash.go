package main

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func init() { register("trhash", buildTrHash) }

// buildTrHash emits TrHash<set>AMD64: tr = H(pk, 64) (FIPS 204,
// Algorithm 6, line 9) for the public key size of each parameter set.
func buildTrHash(c *build.Context) {
	for _, ps := range paramSets {
		for _, v := range []string{"AMD64", "BMI2"} {
			buildTrHashAMD64(c, "TrHash"+ps.name+v, ps.p.PublicKeySize, "KeccakF1600"+v)
		}
	}
}

// buildTrHashAMD64 emits one routine, calling perm (KeccakF1600AMD64 or
// KeccakF1600BMI2).
func buildTrHashAMD64(c *build.Context, sym string, n int, perm string) {
	if n%8 != 0 {
		panic("Emit: TrHash needs whole lanes")
	}
	callerOnStack(c, sym)
	c.Instruction(&ir.Instruction{Opcode: "NO_LOCAL_POINTERS"})
	args := c.AllocLocal(8) // the permutation's argument
	state := c.AllocLocal(25 * 8)
	emitTr(c, args, state, n, perm, "tr", 0)
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
	if n%8 != 0 {
		panic("Emit: tr needs whole lanes of pk")
	}
	lanes := shake256Rate / 8
	c.Comment("S = 0 (FIPS 202, Algorithm 8, step 5).")
	c.XORL(reg.EAX, reg.EAX)
	for i := 0; i < 25; i++ {
		c.MOVQ(reg.RAX, state.Offset(8*i))
	}
	full := n / shake256Rate
	for blk := 0; blk <= full; blk++ {
		k := lanes
		if blk == full {
			k = (n - full*shake256Rate) / 8
			c.Comment("The tail, then 0x1F after it and 0x80 at byte 135 (FIPS 202, §6.2).")
		} else {
			c.Comment("S = f(S ⊕ block) (FIPS 202, Algorithm 8, step 6).")
		}
		c.Load(c.Param("pk"), reg.RSI)
		for i := 0; i < k; i++ {
			c.MOVQ(state.Offset(8*i), reg.RAX)
			c.XORQ(operand.Mem{Base: reg.RSI, Disp: shake256Rate*blk + 8*i}, reg.RAX)
			c.MOVQ(reg.RAX, state.Offset(8*i))
		}
		if blk == full {
			pad := func(lane int) {
				c.XORQ(state.Offset(8*lane), reg.RAX)
				c.MOVQ(reg.RAX, state.Offset(8*lane))
			}
			// MOVL zero-extends into RAX; a MOVQ of a 32-bit constant
			// is assembled as MOVL by some toolchains and not by others.
			c.MOVL(operand.U32(0x1F), reg.EAX)
			pad(k)
			c.MOVQ(operand.U64(0x80<<56), reg.RAX)
			pad(lanes - 1)
		}
		c.LEAQ(state, reg.RAX)
		c.MOVQ(reg.RAX, args)
		c.CALL(callee(perm))
	}

	c.Comment("tr = the first 64 bytes of the rate (FIPS 202, Algorithm 8, step 8).")
	c.Load(c.Param(dst), reg.RDI)
	for i := 0; i < 8; i++ {
		c.MOVQ(state.Offset(8*i), reg.RAX)
		c.MOVQ(reg.RAX, operand.Mem{Base: reg.RDI, Disp: disp + 8*i})
	}
}
