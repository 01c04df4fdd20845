package main

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func init() { register("keygenpk", buildKeyGenPk) }

// buildKeyGenPk emits KeyGenPk<set>AMD64 and KeyGenPk<set>AVX2:
// ML-DSA.KeyGen_internal, lines 6 and 8 (FIPS 204, Algorithm 6), by calls
// of the proven routines of each path.
func buildKeyGenPk(c *build.Context) {
	for _, ps := range paramSets {
		for _, v := range []string{"AMD64", "AVX2"} {
			buildKeyGenPkVariant(c, "KeyGenPk"+ps.name+v, ps.p.K, v)
		}
	}
}

// buildKeyGenPkVariant emits one routine: pk starts with ρ (Algorithm 22,
// line 1); for each i, Power2Round of t[i] gives t1 in the frame and t0[i]
// (Algorithm 6, line 6), and SimpleBitPack of t1 gives pk's bytes
// 32 + 320i on (Algorithm 22, line 3). The loop over i is unrolled (k is
// fixed): no branch at all. Every buffer is reached through its argument
// after every call (the stack may move).
func buildKeyGenPkVariant(c *build.Context, sym string, k int, variant string) {
	callerOnStack(c, sym)
	c.Instruction(&ir.Instruction{Opcode: "NO_LOCAL_POINTERS"})
	args := c.AllocLocal(24) // the callees' arguments
	t1 := c.AllocLocal(1024)

	c.Comment("pk = ρ ‖ … (Algorithm 22, line 1).")
	c.Load(c.Param("rho"), reg.RSI)
	c.Load(c.Param("pk"), reg.RDI)
	for i := 0; i < 4; i++ {
		c.MOVQ(operand.Mem{Base: reg.RSI, Disp: 8 * i}, reg.RAX)
		c.MOVQ(reg.RAX, operand.Mem{Base: reg.RDI, Disp: 8 * i})
	}
	for i := 0; i < k; i++ {
		c.Comment("(t1, t0[i]) = Power2Round(t[i]) (Algorithm 6, line 6).")
		c.LEAQ(t1, reg.RAX)
		c.MOVQ(reg.RAX, args)
		c.Load(c.Param("t0"), reg.RAX)
		c.LEAQ(operand.Mem{Base: reg.RAX, Disp: 1024 * i}, reg.RAX)
		c.MOVQ(reg.RAX, args.Offset(8))
		c.Load(c.Param("t"), reg.RAX)
		c.LEAQ(operand.Mem{Base: reg.RAX, Disp: 1024 * i}, reg.RAX)
		c.MOVQ(reg.RAX, args.Offset(16))
		c.CALL(callee("Power2RoundPoly" + variant))
		c.Comment("pk[32+320i:] = SimpleBitPack(t1, 2^10 − 1) (Algorithm 22, line 3).")
		c.Load(c.Param("pk"), reg.RAX)
		c.LEAQ(operand.Mem{Base: reg.RAX, Disp: 32 + 320*i}, reg.RAX)
		c.MOVQ(reg.RAX, args)
		c.LEAQ(t1, reg.RAX)
		c.MOVQ(reg.RAX, args.Offset(8))
		c.CALL(callee("SimpleBitPack10" + variant))
	}
	c.RET()
}
