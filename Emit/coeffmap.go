package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Shared machinery of the coefficient maps of FIPS 204, §7.4 (Power2Round,
// Decompose, HighBits, LowBits, MakeHint, UseHint) and the norm checks,
// each applied to all 256 coefficients of a polynomial. The AVX2 variants
// take eight coefficients per ymm register, the baseline variants one per
// general register; both loop a fixed number of times, so no branch and no
// address depends on a coefficient.
//
// Decompose (Algorithm 36) without a division, for r ∈ [0, q): with
// f = ⌊(r + 127)/2⁷⌋ < 2¹⁶,
//
//	γ2 = (q−1)/32: r1 = ⌊(1025·f + 2²¹)/2²²⌋ mod 16,
//	γ2 = (q−1)/88: r1 = ⌊(11275·f + 2²³)/2²⁴⌋, then 44 becomes 0,
//
// and r0 = r − 2γ2·r1, less q when above (q−1)/2. The wrap of r1 to 0 is
// line 3's case r − r0 = q − 1 (r0 then comes out as r − q). Products stay
// below 2³⁰. The tests of go/mldsa and the contracts' checks compare the
// result with Spec on every r ∈ [0, q).

// γ2 of the parameter sets (Table 1), by the divisor of q − 1.
const (
	gamma2by32 = (mldsaQ - 1) / 32
	gamma2by88 = (mldsaQ - 1) / 88
)

// gamma2 returns γ2 = (q−1)/div for div 32 or 88.
func gamma2(div int) uint32 {
	switch div {
	case 32:
		return gamma2by32
	case 88:
		return gamma2by88
	}
	panic(fmt.Sprintf("no γ2 = (q−1)/%d in FIPS 204", div))
}

// vconsts is a table of 32-byte entries, each one constant in every lane.
type vconsts struct {
	c      *build.Context
	sym    operand.Symbol
	values []uint32
	offset map[uint32]int
}

func newVconsts(c *build.Context, name string) *vconsts {
	return &vconsts{c: c, sym: operand.NewStaticSymbol(name), offset: map[uint32]int{}}
}

// of returns the entry holding x in every lane.
func (k *vconsts) of(x uint32) operand.Mem {
	off, ok := k.offset[x]
	if !ok {
		off = 32 * len(k.values)
		k.values = append(k.values, x)
		k.offset[x] = off
	}
	return operand.NewDataAddr(k.sym, off)
}

func (k *vconsts) emit() {
	k.c.StaticGlobal(k.sym.Name)
	k.c.DataAttributes(attr.RODATA | attr.NOPTR)
	for _, x := range k.values {
		for i := 0; i < 8; i++ {
			k.c.AppendDatum(operand.U32(x))
		}
	}
}

// avx2HighBits sets r1 to HighBits(r) in each lane (t is a temporary).
// Every intermediate value is below 2³⁰, so the arithmetic shift VPSRAD
// shifts as a logical one would.
func avx2HighBits(c *build.Context, k *vconsts, div int, r, r1, t reg.VecPhysical) {
	c.VPADDD(k.of(127), r, r1)
	c.VPSRAD(operand.U8(7), r1, r1)
	if div == 32 {
		c.VPMULLD(k.of(1025), r1, r1)
		c.VPADDD(k.of(1<<21), r1, r1)
		c.VPSRAD(operand.U8(22), r1, r1)
		c.VPAND(k.of(15), r1, r1)
		return
	}
	c.VPMULLD(k.of(11275), r1, r1)
	c.VPADDD(k.of(1<<23), r1, r1)
	c.VPSRAD(operand.U8(24), r1, r1)
	c.VPCMPGTD(k.of(43), r1, t) // r1 = 44 → 0
	c.VPANDN(r1, t, r1)
}

// avx2LowBits sets r0 to LowBits(r) (a signed word) from r and r1 =
// HighBits(r); t is a temporary.
func avx2LowBits(c *build.Context, k *vconsts, div int, r, r1, r0, t reg.VecPhysical) {
	c.VPMULLD(k.of(2*gamma2(div)), r1, r0)
	c.VPSUBD(r0, r, r0)
	c.VPCMPGTD(k.of((mldsaQ-1)/2), r0, t)
	c.VPAND(k.of(mldsaQ), t, t)
	c.VPSUBD(t, r0, r0)
}

// gprHighBits sets r1 to HighBits(r), 32-bit registers; t is a temporary.
// Products by constants are shifts, additions and LEAQ (values stay below
// 2³⁰).
func gprHighBits(c *build.Context, div int, r, r1, t reg.GPPhysical) {
	c.MOVL(r, r1)
	c.ADDL(operand.U32(127), r1)
	c.SHRL(operand.U8(7), r1)
	// r1 · 1025 = r1 + r1·2¹⁰.
	c.MOVL(r1, t)
	c.SHLL(operand.U8(10), t)
	c.ADDL(t, r1)
	if div == 32 {
		c.ADDL(operand.U32(1<<21), r1)
		c.SHRL(operand.U8(22), r1)
		c.ANDL(operand.U32(15), r1)
		return
	}
	// · 11 (11275 = 11 · 1025): 3x, then 3x + 8x.
	c.LEAQ(operand.Mem{Base: r1.As64(), Index: r1.As64(), Scale: 2}, t.As64())
	c.LEAQ(operand.Mem{Base: t.As64(), Index: r1.As64(), Scale: 8}, r1.As64())
	c.ADDL(operand.U32(1<<23), r1)
	c.SHRL(operand.U8(24), r1)
	// r1 = 44 → 0: r1 ^= r1 & ((43 − r1) >> 31, arithmetic).
	c.MOVL(operand.U32(43), t)
	c.SUBL(r1, t)
	c.SARL(operand.U8(31), t)
	c.ANDL(r1, t)
	c.XORL(t, r1)
}

// gprLowBits sets r0 to LowBits(r) from r and r1 = HighBits(r); t is a
// temporary.
func gprLowBits(c *build.Context, div int, r, r1, r0, t reg.GPPhysical) {
	c.MOVL(r1, t)
	if div == 32 {
		// 2γ2 = 1023 · 2⁹.
		c.SHLL(operand.U8(10), t)
		c.SUBL(r1, t)
		c.SHLL(operand.U8(9), t)
	} else {
		// 2γ2 = 93 · 2¹¹ = 3 · 31 · 2¹¹.
		c.SHLL(operand.U8(5), t)
		c.SUBL(r1, t)
		c.LEAQ(operand.Mem{Base: t.As64(), Index: t.As64(), Scale: 2}, t.As64())
		c.SHLL(operand.U8(11), t)
	}
	c.MOVL(r, r0)
	c.SUBL(t, r0)
	// Less q when r0 > (q−1)/2: ((q−1)/2 − r0) >> 31 is the mask.
	c.MOVL(operand.U32((mldsaQ-1)/2), t)
	c.SUBL(r0, t)
	c.SARL(operand.U8(31), t)
	c.ANDL(operand.U32(mldsaQ), t)
	c.SUBL(t, r0)
}

// coeffLoop emits a loop of n iterations that advances each pointer
// register by step bytes after every iteration; body emits one
// iteration. CX counts.
func coeffLoop(c *build.Context, label string, n int, step int, ptrs []reg.GPPhysical, body func()) {
	steps := make([]loopStep, len(ptrs))
	for i, p := range ptrs {
		steps[i] = loopStep{p, step}
	}
	countedLoop(c, label, n, steps, body)
}

// loopStep is a pointer a counted loop moves on after each iteration.
type loopStep struct {
	p     reg.Register
	bytes int
}

// countedLoop emits body as a loop of n iterations that ECX counts down,
// moving each step's pointer on by its bytes after every iteration, in
// order. The count is a constant, so the proofs follow the loop pass by
// pass.
func countedLoop(c *build.Context, label string, n int, steps []loopStep, body func()) {
	if n < 1 {
		// DECL would take a count of 0 round 2³² times.
		panic(fmt.Sprintf("Emit: loop %s of %d iterations", label, n))
	}
	c.MOVL(operand.U32(n), reg.ECX)
	c.Label(label)
	body()
	for _, s := range steps {
		c.ADDQ(operand.U32(s.bytes), s.p)
	}
	c.DECL(reg.ECX)
	c.JNE(operand.LabelRef(label))
}

// avx2Unroll is how many groups of eight coefficients one iteration of an
// AVX2 loop takes; gprUnroll how many coefficients a baseline iteration.
const (
	avx2Unroll = 4
	gprUnroll  = 4
)

// coeffRoutine emits the frame of one coefficient-map routine: its
// declaration and doc, the pointer parameters loaded into regs (in the
// order of params), setup, a loop over the 256 coefficients that calls
// body(u) for each of the unrolled steps u (a group of eight for AVX2, one
// coefficient for the baseline), and finish. The pointer registers advance
// after every iteration.
func coeffRoutine(c *build.Context, name, sig string, doc []string, avx2 bool,
	params []string, regs []reg.GPPhysical, setup func(), body func(u int), finish func()) {
	c.Function(name)
	c.SignatureExpr(sig)
	c.Doc(doc...)
	c.Pragma("noescape")
	for i, p := range params {
		c.Load(c.Param(p), regs[i])
	}
	if setup != nil {
		setup()
	}
	n, step, unroll := 256/gprUnroll, 4*gprUnroll, gprUnroll
	if avx2 {
		n, step, unroll = 32/avx2Unroll, 32*avx2Unroll, avx2Unroll
	}
	var ptrs []reg.GPPhysical
	for i, p := range params {
		if p != "bound" && p != "count" && p != "exceeds" {
			ptrs = append(ptrs, regs[i])
		}
	}
	coeffLoop(c, "loop", n, step, ptrs, func() {
		for u := 0; u < unroll; u++ {
			body(u)
		}
	})
	if finish != nil {
		finish()
	}
	if avx2 {
		c.VZEROUPPER()
	}
	c.RET()
}

// ymm returns the u-th group of eight words at base; word the u-th word.
func ymm(base reg.GPPhysical, u int) operand.Mem  { return operand.Mem{Base: base, Disp: 32 * u} }
func word(base reg.GPPhysical, u int) operand.Mem { return operand.Mem{Base: base, Disp: 4 * u} }

// variantDoc is the last line of an AVX2 or baseline routine's doc.
func variantDoc(avx2 bool) string {
	if avx2 {
		return "No branch or address depends on the coefficients. Needs AVX2."
	}
	return "No branch or address depends on the coefficients. Baseline x86-64."
}

// suffix is the variant's suffix of a symbol.
func suffix(avx2 bool) string {
	if avx2 {
		return "AVX2"
	}
	return "AMD64"
}

// exceedsRoutine emits one variant of a check that sets *exceeds to 1 if
// |x| ≥ *bound for the value x of some coefficient, else to 0 (the norm
// checks of Algorithm 7, lines 23 and 28, and Algorithm 8, line 13). With
// k (AVX2), the bound is broadcast in Y8, setup (if any) adds constants,
// and avxBody leaves in Y2 the lanes of its eight coefficients below the
// bound; Y9 keeps the lanes below it so far. Without k (baseline), gprAbs
// returns the register holding |x| of coefficient u and R9 holds bound − 1.
func exceedsRoutine(c *build.Context, name string, doc []string, k *vconsts, setup func(),
	avxBody func(u int), gprAbs func(u int) operand.Op) {
	sig := "func(w *[256]uint32, bound *uint32, exceeds *uint32)"
	params := []string{"w", "bound", "exceeds"}
	regs := []reg.GPPhysical{reg.RSI, reg.R8, reg.R13}
	if k != nil {
		var frame operand.Mem
		coeffRoutine(c, name, sig, doc, true, params, regs,
			func() {
				frame = c.AllocLocal(32)
				c.VPBROADCASTD(operand.Mem{Base: reg.R8}, reg.Y8)
				c.VMOVDQU(k.of(0xFFFFFFFF), reg.Y9) // all inside so far
				if setup != nil {
					setup()
				}
			},
			func(u int) {
				avxBody(u)
				c.VPAND(reg.Y2, reg.Y9, reg.Y9)
			},
			func() { flagResult(c, reg.Y9, frame, reg.R13) })
		return
	}
	coeffRoutine(c, name, sig, doc, false, params, regs,
		func() {
			c.MOVL(operand.Mem{Base: reg.R8}, reg.R9L)
			c.DECL(reg.R9L)
			c.XORL(reg.R10L, reg.R10L)
		},
		func(u int) {
			abs := gprAbs(u)
			// |x| ≥ bound exactly when bound − 1 − |x| is negative.
			c.MOVL(reg.R9L, reg.EBX)
			c.SUBL(abs, reg.EBX)
			c.SHRL(operand.U8(31), reg.EBX)
			c.ORL(reg.EBX, reg.R10L)
		},
		func() { gprFlag(c, reg.R10, reg.RCX, reg.R13) })
}

// flagResult stores at out the word 1 if the lanes of inside (kept at
// frame, 32 bytes) are not all ones (some coefficient was outside), else
// 0. Uses AX and CX.
func flagResult(c *build.Context, inside reg.VecPhysical, frame operand.Mem, out reg.GPPhysical) {
	c.VMOVDQU(inside, frame)
	c.MOVQ(frame, reg.RAX)
	for off := 8; off < 32; off += 8 {
		c.ANDQ(frame.Offset(off), reg.RAX)
	}
	c.NOTQ(reg.RAX) // zero exactly when every lane was all ones
	gprFlag(c, reg.RAX, reg.RCX, out)
}

// gprFlag stores at out the word 1 if x is not zero, else 0: x | −x has
// its top bit set exactly then. t is a temporary.
func gprFlag(c *build.Context, x, t, out reg.GPPhysical) {
	c.XORL(t.As32(), t.As32())
	c.SUBQ(x, t)
	c.ORQ(x, t)
	c.SHRQ(operand.U8(63), t)
	c.MOVL(t.As32(), operand.Mem{Base: out})
}
