package main

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func init() { register("keygenseed", buildKeyGenSeed) }

// buildKeyGenSeed emits KeyGenSeed<set>AMD64 and KeyGenSeed<set>BMI2:
// H(ξ ‖ k ‖ ℓ, 128) (FIPS 204, Algorithm 6, line 1).
func buildKeyGenSeed(c *build.Context) {
	for _, ps := range paramSets {
		for _, v := range []string{"AMD64", "BMI2"} {
			buildKeyGenSeedVariant(c, "KeyGenSeed"+ps.name+v, ps.p.K, ps.p.L, "KeccakF1600"+v)
		}
	}
}

// buildKeyGenSeedVariant emits one routine: the 34 bytes ξ ‖ k ‖ ℓ, then
// 0x1F, in lanes 0 to 4 of a zero state, 0x80 at byte 135 (FIPS 202,
// §6.2), one call of perm, and the first 128 bytes of the rate copied to
// seed (one block: 128 < 136).
func buildKeyGenSeedVariant(c *build.Context, sym string, k, l int, perm string) {
	callerOnStack(c, sym)
	c.Instruction(&ir.Instruction{Opcode: "NO_LOCAL_POINTERS"})
	args := c.AllocLocal(8) // the permutation's argument
	state := c.AllocLocal(25 * 8)

	c.Comment("S = ξ ‖ k ‖ ℓ ‖ 0x1F ‖ 0 … 0x80 (FIPS 202, Algorithm 8, steps 5 and 6).")
	c.Load(c.Param("xi"), reg.RSI)
	for i := 0; i < 4; i++ {
		c.MOVQ(operand.Mem{Base: reg.RSI, Disp: 8 * i}, reg.RAX)
		c.MOVQ(reg.RAX, state.Offset(8*i))
	}
	// MOVL zero-extends into RAX; a MOVQ of this constant is assembled as
	// MOVL by some toolchains and not by others.
	c.MOVL(operand.U32(uint64(k)|uint64(l)<<8|0x1F<<16), reg.EAX)
	c.MOVQ(reg.RAX, state.Offset(32))
	zeroAndPad(c, state, 5, shake256Rate)
	c.LEAQ(state, reg.RAX)
	c.MOVQ(reg.RAX, args)
	c.CALL(callee(perm))

	c.Comment("seed = the first 128 bytes of the rate (FIPS 202, Algorithm 8, step 8).")
	c.Load(c.Param("seed"), reg.RDI)
	for i := 0; i < 16; i++ {
		c.MOVQ(state.Offset(8*i), reg.RAX)
		c.MOVQ(reg.RAX, operand.Mem{Base: reg.RDI, Disp: 8 * i})
	}
	c.RET()
}
