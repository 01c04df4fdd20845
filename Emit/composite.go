package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/vg-crypto/vg/Spec/fips204"
)

// Scaffolding of the routines that call others: the composite routines
// (keygen*.go, trhash.go, verify.go), which do their work by calls of
// proven routines, one variant per parameter set, and the samplers and
// absorbers, which call the permutation.

// eachVariant calls emit for each parameter set (Table 1) and, within it,
// each of variants: the set's suffix, its parameters and the variant.
func eachVariant(variants []string, emit func(name string, p fips204.Params, variant string)) {
	for _, ps := range paramSets {
		for _, v := range variants {
			emit(ps.name, ps.p, v)
		}
	}
}

// callFrame is a composite routine's frame: the callees' argument slots
// at its start, and ok, where and gathers the callees' results.
type callFrame struct {
	c    *build.Context
	args operand.Mem
	ok   operand.Mem
}

// newCallFrame starts the routine sym, which calls others, with start
// (function or callerOnStack) and allocates argBytes of argument slots,
// first in the frame. It declares funcdata.h's NO_LOCAL_POINTERS: the
// pointers the frame holds are to the caller's buffers, which the caller
// keeps live, so the garbage collector need not see them; a routine whose
// callers' buffers may be on the stack (callerOnStack) reaches them after
// each call through its arguments, which the runtime adjusts.
func newCallFrame(c *build.Context, start func(*build.Context, string), sym string, argBytes int) *callFrame {
	start(c, sym)
	c.Instruction(&ir.Instruction{Opcode: "NO_LOCAL_POINTERS"})
	return &callFrame{c: c, args: c.AllocLocal(argBytes)}
}

// arg puts &param[disp] in argument slot. RAX is clobbered.
func (f *callFrame) arg(slot int, param string, disp int) {
	paramAddr(f.c, param, disp)
	f.c.MOVQ(reg.RAX, f.args.Offset(8*slot))
}

// paramAddr puts &param[disp] in RAX (the pointer itself where disp is 0).
func paramAddr(c *build.Context, param string, disp int) {
	c.Load(c.Param(param), reg.RAX)
	if disp != 0 {
		c.LEAQ(operand.Mem{Base: reg.RAX, Disp: disp}, reg.RAX)
	}
}

// local puts the address of the frame buffer m in argument slot. RAX is
// clobbered.
func (f *callFrame) local(slot int, m operand.Mem) {
	f.c.LEAQ(m, reg.RAX)
	f.c.MOVQ(reg.RAX, f.args.Offset(8*slot))
}

// and ANDs the boolean result of a callee of n arguments into ok. RAX is
// clobbered.
func (f *callFrame) and(n int) {
	f.c.MOVBQZX(f.args.Offset(8*n), reg.RAX)
	f.c.ANDQ(reg.RAX, f.ok)
}

// copyQwords copies n quadwords from src to dst through RAX.
func copyQwords(c *build.Context, src, dst operand.Mem, n int) {
	for i := 0; i < n; i++ {
		c.MOVQ(src.Offset(8*i), reg.RAX)
		c.MOVQ(reg.RAX, dst.Offset(8*i))
	}
}

// seedInput sets state to ξ ‖ k ‖ ℓ (FIPS 204, Algorithm 6, line 1) with
// SHAKE256's padding, ready for one permutation: ξ from the argument xi,
// then 0x1F (FIPS 202, §6.2).
func seedInput(c *build.Context, state operand.Mem, k, l int) {
	c.Load(c.Param("xi"), reg.RSI)
	copyQwords(c, operand.Mem{Base: reg.RSI}, state, 4)
	// MOVL zero-extends into RAX; a MOVQ of this constant is assembled as
	// MOVL by some toolchains and not by others.
	c.MOVL(operand.U32(uint64(k)|uint64(l)<<8|0x1F<<16), reg.EAX)
	c.MOVQ(reg.RAX, state.Offset(32))
	zeroAndPad(c, state, 5, shake256Rate)
}

// absorb sets the frame's state to SHAKE256 of n bytes (whole lanes), up
// to its first squeeze: state's first bytes are then the output's (FIPS
// 202, Algorithm 8, steps 5 to 8). block(b) emits what reaching block b
// needs and returns its first lane's operand. Each permutation is a call
// of perm, its argument in args. With commented, the steps are commented
// in the output; with looped, each block is XORed in by a loop over its
// lanes (RSI, RDI and RCX), a little code for routines whose callees
// share the instruction cache with it, for twice the instructions.
func absorb(c *build.Context, args, state operand.Mem, n int, perm string, block func(b int) operand.Mem, commented, looped bool) {
	if n%8 != 0 {
		panic("Emit: absorb needs whole lanes")
	}
	comment := func(s string) {
		if commented {
			c.Comment(s)
		}
	}
	lanes := shake256Rate / 8
	comment("S = 0 (FIPS 202, Algorithm 8, step 5).")
	c.XORL(reg.EAX, reg.EAX)
	for i := 0; i < 25; i++ {
		c.MOVQ(reg.RAX, state.Offset(8*i))
	}
	full := n / shake256Rate
	for blk := 0; blk <= full; blk++ {
		k := lanes
		if blk == full {
			k = (n - full*shake256Rate) / 8
			comment("The tail, then 0x1F after it and 0x80 at byte 135 (FIPS 202, §6.2).")
		} else {
			comment("S = f(S ⊕ block) (FIPS 202, Algorithm 8, step 6).")
		}
		src := block(blk)
		if looped && k > 0 {
			c.LEAQ(src, reg.RSI)
			c.LEAQ(state, reg.RDI)
			coeffLoop(c, fmt.Sprintf("absorb%d", blk), k, 8, []reg.GPPhysical{reg.RSI, reg.RDI}, func() {
				c.MOVQ(operand.Mem{Base: reg.RDI}, reg.RAX)
				c.XORQ(operand.Mem{Base: reg.RSI}, reg.RAX)
				c.MOVQ(reg.RAX, operand.Mem{Base: reg.RDI})
			})
		} else if !looped {
			for i := 0; i < k; i++ {
				c.MOVQ(state.Offset(8*i), reg.RAX)
				c.XORQ(src.Offset(8*i), reg.RAX)
				c.MOVQ(reg.RAX, state.Offset(8*i))
			}
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
}
