package main

import (
	"fmt"
	"strings"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/mmcloughlin/avo/x86"

	"github.com/vg-crypto/vg/Spec/contract"
)

func init() { register("expanda", buildExpandA) }

// expandAParams are the parameter sets (FIPS 204, Table 1): k × ℓ.
var expandAParams = []struct {
	name string
	k, l int
}{{"44", 4, 4}, {"65", 6, 5}, {"87", 8, 7}}

// buildExpandA emits ExpandA (Algorithm 32) for every parameter set, AVX2,
// AVX-512 and baseline.
func buildExpandA(c *build.Context) {
	for _, v := range []string{"AMD64", "AVX2", "AVX512"} {
		for _, p := range expandAParams {
			emitExpandA(c, p.name, p.k, p.l, v)
		}
	}
}

// emitExpandA emits one ExpandA routine. The code is straight-line: entry
// e = ℓr + s (Algorithm 32, lines 3 to 5) goes to the many-way samplers in
// groups of eight (AVX-512) or four (AVX2), the last group the last
// entries, or singly (baseline; contract.ExpandAWidths). The frame holds the callee's arguments at
// 0(SP) (Go ABI0), the pointer array and the seeds ρ ‖ s ‖ r of the widest
// group, and the running AND of the results, kept in memory since a call
// clobbers every register.
func emitExpandA(c *build.Context, name string, k, l int, variant string) {
	sym := "ExpandA" + name + variant
	function(c, sym)
	// funcdata.h's NO_LOCAL_POINTERS: the frame holds no pointer the
	// garbage collector must see (a and rho are the caller's, and live).
	c.Instruction(&ir.Instruction{Opcode: "NO_LOCAL_POINTERS"})
	ways := 4 // the baseline routine uses one seed of four
	if variant == "AVX512" {
		ways = 8
	}
	args := c.AllocLocal(24) // callee: two pointers, then its bool result
	ptrs := c.AllocLocal(8 * ways)
	seeds := c.AllocLocal(34 * ways)
	mask := c.AllocLocal(8)

	c.Comment("Every seed starts with ρ (Algorithm 32, line 4).")
	c.Load(c.Param("rho"), reg.RSI)
	if variant != "AMD64" {
		c.VMOVDQU(operand.Mem{Base: reg.RSI}, reg.Y0)
		for j := 0; j < ways; j++ {
			c.VMOVDQU(reg.Y0, seeds.Offset(34*j))
		}
		c.VZEROUPPER()
	} else {
		copyQwords(c, operand.Mem{Base: reg.RSI}, seeds, 4)
	}
	c.MOVQ(operand.U32(1), mask)

	and := func() {
		c.MOVBQZX(args.Offset(16), reg.RAX)
		c.ANDQ(reg.RAX, mask)
	}
	suffix := func(j, e int) {
		// ρ ‖ IntegerToBytes(s, 1) ‖ IntegerToBytes(r, 1), s = e mod ℓ,
		// r = e div ℓ (Algorithm 32, lines 3 and 4).
		c.MOVB(operand.U8(e%l), seeds.Offset(34*j+32))
		c.MOVB(operand.U8(e/l), seeds.Offset(34*j+33))
	}
	e, g := 0, 0
	for _, w := range contract.ExpandAWidths(k, l, variant) {
		e = contract.ExpandAFirst(e, w, k, l) // a last group: the last w entries
		if w == 1 {
			c.Comment(fmt.Sprintf("Entry %d (r = %d, s = %d).", e, e/l, e%l))
			suffix(0, e)
			c.Load(c.Param("a"), reg.RDI)
			c.LEAQ(operand.Mem{Base: reg.RDI, Disp: 1024 * e}, reg.RAX)
			c.MOVQ(reg.RAX, args.Offset(0))
			c.LEAQ(seeds, reg.RAX)
			c.MOVQ(reg.RAX, args.Offset(8))
			c.CALL(callee(contract.ExpandASampler(variant, 1)))
			and()
			e++
			continue
		}
		c.Comment(fmt.Sprintf("Group %d: entries %d to %d.", g, e, e+w-1))
		c.Load(c.Param("a"), reg.RDI)
		for j := 0; j < w; j++ {
			suffix(j, e+j)
			c.LEAQ(operand.Mem{Base: reg.RDI, Disp: 1024 * (e + j)}, reg.RAX)
			c.MOVQ(reg.RAX, ptrs.Offset(8*j))
		}
		c.LEAQ(ptrs, reg.RAX)
		c.MOVQ(reg.RAX, args.Offset(0))
		c.LEAQ(seeds, reg.RAX)
		c.MOVQ(reg.RAX, args.Offset(8))
		callVariant(c, fmt.Sprintf("RejNTTPolyx%d", w), variant)
		and()
		e += w
		g++
	}
	c.MOVQ(mask, reg.RAX)
	c.MOVB(reg.AL, result(c))
	c.RET()
}

// callVariant emits CALL ·<routine><variant>(SB). A call of an AVX-512
// routine carries its features, so that the caller's "// Requires:" line
// names what it needs to run: the callee's AVX-512 features.
func callVariant(c *build.Context, routine, variant string) {
	if variant != "AVX512" {
		c.CALL(callee(routine + variant))
		return
	}
	i, err := x86.CALL(callee(routine + variant))
	if err != nil {
		panic(err) // the operand is always a label
	}
	// The callee's AVX-512 features, from its contract.
	for _, f := range contract.Lookup(routine + variant).Features {
		if strings.HasPrefix(f, "AVX512") {
			i.ISA = append(i.ISA, f)
		}
	}
	c.Instruction(i)
}

// callee is the operand of CALL ·name(SB) (avo takes a rel32 operand as
// a label reference, which it prints as written).
func callee(name string) operand.LabelRef {
	return operand.LabelRef("·" + name + "(SB)")
}
