package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func init() { register("absorb", buildAbsorb) }

// buildAbsorb emits SHAKE256AbsorbBlockAMD64 and SHAKE256AbsorbBlockBMI2,
// which differ only in the permutation they call.
func buildAbsorb(c *build.Context) {
	absorbBlock(c, "SHAKE256AbsorbBlockAMD64", "KeccakF1600AMD64")
	absorbBlock(c, "SHAKE256AbsorbBlockBMI2", "KeccakF1600BMI2")
}

// absorbBlock emits one routine: the 17 words of the block XORed into
// lanes 0 to 16 of the state (FIPS 202, Algorithm 8, step 6, rate 1088
// bits), then a call of perm on the state. Nothing is read after the
// call, so callers' buffers may stay on the stack.
func absorbBlock(c *build.Context, sym, perm string) {
	args := newCallFrame(c, callerOnStack, sym, 8).args // the permutation's argument
	c.Load(c.Param("a"), reg.RDI)
	c.Load(c.Param("block"), reg.RSI)
	xorBlock(c)
	c.Comment("S = f(S).")
	c.MOVQ(reg.RDI, args)
	c.CALL(callee(perm))
	c.RET()
}

// xorBlock emits S ⊕ (P ‖ 0^c) for the state at DI and the block at SI:
// the block's 17 words XORed into lanes 0 to 16 through AX.
func xorBlock(c *build.Context) {
	c.Comment(fmt.Sprintf("S ⊕ (P ‖ 0^c): lanes 0 to %d.", shake256Rate/8-1))
	for i := 0; i < shake256Rate/8; i++ {
		c.MOVQ(operand.Mem{Base: reg.RDI, Disp: 8 * i}, reg.RAX)
		c.XORQ(operand.Mem{Base: reg.RSI, Disp: 8 * i}, reg.RAX)
		c.MOVQ(reg.RAX, operand.Mem{Base: reg.RDI, Disp: 8 * i})
	}
}
