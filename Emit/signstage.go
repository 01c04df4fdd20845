package main

import (
	"fmt"
	"strings"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
)

func init() { register("signstage", buildSignStages) }

// buildSignStages emits SignZ, SignR0 and SignHint of each parameter set
// and path: the three stages of an attempt of ML-DSA.Sign_internal (FIPS
// 204, Algorithm 7, lines 11 to 28), by calls of the proven routines of
// each path. The caller branches between them, as Algorithm 7 does.
func buildSignStages(c *build.Context) {
	for _, ps := range paramSets {
		for _, v := range []string{"AMD64", "AVX2", "AVX512"} {
			buildSignZ(c, ps.name, ps.p, v)
			buildSignR0(c, ps.name, ps.p, v)
			buildSignHint(c, ps.name, ps.p, v)
		}
	}
}

// stageFrame is a stage routine's frame and its helpers: a routine's
// callFrame (the callees' arguments and the running result) and the
// bound and flag of a norm check. Every buffer is reached through its
// argument after every call (the stack may move).
type stageFrame struct {
	*callFrame
	bound, flag operand.Mem
	i           operand.Mem         // the loop's count of passes left
	off         map[int]operand.Mem // the loop's i·stride, by stride
}

func newStageFrame(c *build.Context) *stageFrame {
	c.Instruction(&ir.Instruction{Opcode: "NO_LOCAL_POINTERS"})
	f := &stageFrame{callFrame: &callFrame{c: c, args: c.AllocLocal(32)}}
	f.bound, f.flag, f.ok, f.i = c.AllocLocal(8), c.AllocLocal(8), c.AllocLocal(8), c.AllocLocal(8)
	c.MOVQ(operand.U32(1), f.ok)
	return f
}

// loop emits body as a loop over i = 0 … n − 1 (a polynomial of k or ℓ
// each): a count of passes left and i·stride for each of strides live in
// the frame, since every register is the callees' between calls. n is a
// constant, so control flow is the same for every input and the proofs
// follow the loop pass by pass; the code of one pass, not of n, sits in
// the instruction cache beside the callees.
func (f *stageFrame) loop(label string, n int, strides []int, body func()) {
	c := f.c
	if f.off == nil {
		f.off = map[int]operand.Mem{}
	}
	for _, s := range strides {
		if _, ok := f.off[s]; !ok {
			f.off[s] = c.AllocLocal(8)
		}
		c.MOVQ(operand.U32(0), f.off[s])
	}
	c.MOVQ(operand.U32(uint64(n)), f.i)
	c.Label(label)
	body()
	for _, s := range strides {
		c.MOVQ(f.off[s], reg.RAX)
		c.ADDQ(operand.U32(uint64(s)), reg.RAX)
		c.MOVQ(reg.RAX, f.off[s])
	}
	c.MOVQ(f.i, reg.RAX)
	c.DECQ(reg.RAX)
	c.MOVQ(reg.RAX, f.i)
	c.JNE(operand.LabelRef(label))
}

// offset puts i·stride in RCX, i the loop's.
func (f *stageFrame) offset(stride int) {
	o, ok := f.off[stride]
	if !ok {
		panic(fmt.Sprintf("Emit: no loop offset of stride %d", stride))
	}
	f.c.MOVQ(o, reg.RCX)
}

// argAt puts &param[i·stride] in argument slot, i the loop's. RAX and
// RCX are clobbered.
func (f *stageFrame) argAt(slot int, param string, stride int) {
	paramAddr(f.c, param, 0)
	f.offset(stride)
	f.c.LEAQ(operand.Mem{Base: reg.RAX, Index: reg.RCX, Scale: 1}, reg.RAX)
	f.c.MOVQ(reg.RAX, f.args.Offset(8*slot))
}

// localAt puts the address of m + i·stride, a frame buffer, in argument
// slot, i the loop's. RAX and RCX are clobbered.
func (f *stageFrame) localAt(slot int, m operand.Mem, stride int) {
	f.offset(stride)
	m.Index, m.Scale = reg.RCX, 1
	f.c.LEAQ(m, reg.RAX)
	f.c.MOVQ(reg.RAX, f.args.Offset(8*slot))
}

// productInverse calls mul on NTT(c) and polynomial i of param (i the
// loop's) into work's polynomial at out, then nttInv on it: NTT⁻¹(NTT(c)
// ∘ ŝ), the cs1, cs2 and ct0 of Algorithm 7, lines 18, 19 and 25.
func (f *stageFrame) productInverse(param string, out int, mul, nttInv string) {
	f.arg(0, "work", out)
	f.argAt(1, param, 1024)
	f.arg(2, "cHat", 0)
	f.c.CALL(callee(mul))
	f.arg(0, "work", out)
	f.c.CALL(callee(nttInv))
}

// check calls norm check target on argument slot 0 against bound b, and
// ANDs the negation of its flag into ok.
func (f *stageFrame) check(b int, target operand.Op) {
	c := f.c
	c.MOVL(operand.U32(uint64(b)), f.bound)
	f.local(1, f.bound)
	f.local(2, f.flag)
	c.CALL(target)
	c.MOVL(f.flag, reg.EAX)
	c.XORL(operand.U32(1), reg.EAX)
	c.ANDQ(reg.RAX, f.ok)
}

// ret returns ok.
func (f *stageFrame) ret() {
	f.c.MOVQ(f.ok, reg.RAX)
	f.c.MOVB(reg.AL, result(f.c))
	f.c.RET()
}

// buildSignZ emits SignZ<set><variant>: lines 11 to 18 and 20 of
// Algorithm 7 and the ‖z‖∞ check of line 23. The loops over k and ℓ
// have constant counts: no branch depends on the input.
func buildSignZ(c *build.Context, name string, p fips204.Params, variant string) {
	sym := "SignZ" + name + variant
	k, l := p.K, p.L
	calls := contract.SignZCallees(name, p, variant)
	expandMask, ntt, toMont, rowMul, nttInv := calls[0], calls[1], calls[2], calls[3], calls[4]
	highBits, packW1, perm, ball, mul := calls[5], calls[6], calls[7], calls[8], calls[9]
	add, norm := calls[10], calls[11]
	// On the AVX2 path, the third callee is the NTT⁻¹ of w, which scales
	// by 2³² (NTTInverseMont): NTT(y) then needs no ToMontgomeryPoly.
	wInv := nttInv
	if strings.HasPrefix(toMont, "NTTInverseMont") {
		wInv, toMont = toMont, ""
	}
	cTildeSize := p.Lambda / 4
	w1Size := 32 * bitLen((fips204.Q-1)/(2*p.Gamma2)-1)
	msgSize := 64 + k*w1Size

	function(c, sym)
	f := newStageFrame(c)
	state := c.AllocLocal(25 * 8)
	msg := c.AllocLocal(msgSize) // μ ‖ w1Encode(w1)
	ways := contract.SignZWays(p, variant)
	seeds := c.AllocLocal(max(4, ways) * 66) // [ways][66]byte: ρ″ ‖ IntegerToBytes(κ + r, 2)
	ptrs := c.AllocLocal(max(4, ways) * 8)   // [ways]*[256]uint32
	// The polynomials of work: NTT(y), cs1, w1, then the padding lanes of
	// ExpandMask's last call.
	yHat, cs, w1, pad := 0, 1024*l, 1024*l+1024, 1024*l+2048
	poly := func(slot, off int) { f.arg(slot, "work", off) }

	if ways == 1 {
		c.Comment("y = ExpandMask(ρ″, κ) (Algorithm 7, line 11; Algorithm 34), into z, one polynomial a call: seed r is ρ″ ‖ IntegerToBytes(κ + r, 2).")
	} else {
		c.Comment(fmt.Sprintf("y = ExpandMask(ρ″, κ) (Algorithm 7, line 11; Algorithm 34), into z, %d polynomials a call: seed r is ρ″ ‖ IntegerToBytes(κ + r, 2); a padding lane repeats its call's first seed into work.", ways))
	}
	// The one-way calls: all of y's with the baseline routine, else the
	// last SignZSingles polynomials after the groups, by the last callee.
	singles, single := contract.SignZSingles(p, variant), expandMask
	first := l - singles
	if ways == 1 {
		first = 0
	} else if singles > 0 {
		single = calls[len(calls)-1]
	}
	for g := 0; g < first && ways > 1; g += ways {
		c.Load(c.Param("in"), reg.RSI)
		c.MOVWLZX(operand.Mem{Base: reg.RSI, Disp: 128}, reg.EDX)
		for j := 0; j < ways; j++ {
			r := g + j
			if r >= l {
				r = g
			}
			for i := 0; i < 8; i++ {
				c.MOVQ(operand.Mem{Base: reg.RSI, Disp: 64 + 8*i}, reg.RAX)
				c.MOVQ(reg.RAX, seeds.Offset(66*j+8*i))
			}
			c.MOVL(reg.EDX, reg.EAX)
			c.ADDL(operand.U32(uint64(r)), reg.EAX)
			c.MOVB(reg.AL, seeds.Offset(66*j+64))
			c.SHRL(operand.U8(8), reg.EAX)
			c.MOVB(reg.AL, seeds.Offset(66*j+65))
			if g+j < l {
				paramAddr(c, "z", 1024*(g+j))
			} else {
				paramAddr(c, "work", pad+1024*(g+j-l))
			}
			c.MOVQ(reg.RAX, ptrs.Offset(8*j))
		}
		f.local(0, ptrs)
		f.local(1, seeds)
		c.CALL(callee(expandMask))
	}
	for g := first; g < l; g++ {
		c.Load(c.Param("in"), reg.RSI)
		c.MOVWLZX(operand.Mem{Base: reg.RSI, Disp: 128}, reg.EDX)
		for i := 0; i < 8; i++ {
			c.MOVQ(operand.Mem{Base: reg.RSI, Disp: 64 + 8*i}, reg.RAX)
			c.MOVQ(reg.RAX, seeds.Offset(8*i))
		}
		c.MOVL(reg.EDX, reg.EAX)
		c.ADDL(operand.U32(uint64(g)), reg.EAX)
		c.MOVB(reg.AL, seeds.Offset(64))
		c.SHRL(operand.U8(8), reg.EAX)
		c.MOVB(reg.AL, seeds.Offset(65))
		f.arg(0, "z", 1024*g)
		f.local(1, seeds)
		c.CALL(callee(single))
	}

	c.Comment("NTT(y) · 2³² mod q (Algorithm 7, line 12), from a copy of y.")
	c.Load(c.Param("z"), reg.RSI)
	c.Load(c.Param("work"), reg.RDI)
	// A loop of 256 bytes an iteration: the code of one, not of all of
	// them, sits in the instruction cache beside the callees.
	coeffLoop(c, "ycopy", 4*l, 256, []reg.GPPhysical{reg.RSI, reg.RDI}, func() {
		if variant == "AMD64" {
			for i := 0; i < 256; i += 8 {
				c.MOVQ(operand.Mem{Base: reg.RSI, Disp: i}, reg.RAX)
				c.MOVQ(reg.RAX, operand.Mem{Base: reg.RDI, Disp: yHat + i})
			}
			return
		}
		for i := 0; i < 256; i += 32 {
			c.VMOVDQU(operand.Mem{Base: reg.RSI, Disp: i}, reg.Y0)
			c.VMOVDQU(reg.Y0, operand.Mem{Base: reg.RDI, Disp: yHat + i})
		}
	})
	if variant != "AMD64" {
		c.VZEROUPPER()
	}
	for j := 0; j < l; j++ {
		poly(0, yHat+1024*j)
		c.CALL(callee(ntt))
		if toMont != "" {
			poly(0, yHat+1024*j)
			c.CALL(callee(toMont))
		}
	}

	c.Comment("μ ‖ … (Algorithm 7, line 15).")
	c.Load(c.Param("in"), reg.RSI)
	for i := 0; i < 8; i++ {
		c.MOVQ(operand.Mem{Base: reg.RSI, Disp: 8 * i}, reg.RAX)
		c.MOVQ(reg.RAX, msg.Offset(8*i))
	}
	c.Comment("For i < k: w[i] = NTT⁻¹(Σⱼ Â[i][j] ∘ NTT(y[j])) (line 12); w1[i] = HighBits(w[i]) (line 13), into w1Encode (Algorithm 28).")
	f.loop("rows", k, []int{1024, 1024 * l, w1Size}, func() {
		f.argAt(0, "w", 1024)
		f.argAt(1, "aHat", 1024*l)
		poly(2, yHat)
		c.CALL(callee(rowMul))
		f.argAt(0, "w", 1024)
		c.CALL(callee(wInv))
		poly(0, w1)
		f.argAt(1, "w", 1024)
		c.CALL(callee(highBits))
		f.localAt(0, msg.Offset(64), w1Size)
		poly(1, w1)
		c.CALL(callee(packW1))
	})

	c.Comment("c̃ = H(μ ‖ w1Encode(w1), λ/4) (line 15).")
	absorbLocal(c, f.args, state, msg, msgSize, perm, true)
	c.Load(c.Param("cTilde"), reg.RDI)
	for i := 0; i < cTildeSize/8; i++ {
		c.MOVQ(state.Offset(8*i), reg.RAX)
		c.MOVQ(reg.RAX, operand.Mem{Base: reg.RDI, Disp: 8 * i})
	}
	c.Comment("c = SampleInBall(c̃) (line 16), into cHat; NTT(c) (line 17) in place. cHat is cleared first: SampleInBall's contract takes its old bytes as public.")
	c.Load(c.Param("cHat"), reg.RDI)
	c.MOVL(operand.U32(0), reg.EAX)
	coeffLoop(c, "clear", 16, 64, []reg.GPPhysical{reg.RDI}, func() {
		for i := 0; i < 64; i += 8 {
			c.MOVQ(reg.RAX, operand.Mem{Base: reg.RDI, Disp: i})
		}
	})
	f.arg(0, "cHat", 0)
	f.arg(1, "cTilde", 0)
	c.CALL(callee(ball))
	c.MOVBQZX(f.args.Offset(16), reg.RAX)
	c.ANDQ(reg.RAX, f.ok)
	f.arg(0, "cHat", 0)
	c.CALL(callee(ntt))

	c.Comment("For j < ℓ: z[j] = y[j] + NTT⁻¹(NTT(c) ∘ NTT(s1[j])) (lines 18 and 20); ‖z[j]‖∞ < γ1 − β (line 23).")
	f.loop("columns", l, []int{1024}, func() {
		f.productInverse("s1Hat", cs, mul, nttInv)
		f.argAt(0, "z", 1024)
		poly(1, cs)
		c.CALL(callee(add))
		f.argAt(0, "z", 1024)
		f.check(p.Gamma1-p.Beta, callee(norm))
	})
	f.ret()
}

// buildSignR0 emits SignR0<set><variant>: lines 19 and 21 of Algorithm 7
// and the ‖r0‖∞ check of line 23, w − cs2 in place of w.
func buildSignR0(c *build.Context, name string, p fips204.Params, variant string) {
	sym := "SignR0" + name + variant
	calls := contract.SignR0Callees(p, variant)
	mul, nttInv, sub, lowBits := calls[0], calls[1], calls[2], calls[3]

	function(c, sym)
	f := newStageFrame(c)
	c.Comment("For i < k: w[i] − cs2[i] (lines 19 and 21); ‖LowBits(w[i] − cs2[i])‖∞ < γ2 − β (line 23).")
	f.loop("rows", p.K, []int{1024}, func() {
		f.productInverse("s2Hat", 0, mul, nttInv)
		f.argAt(0, "w", 1024)
		f.arg(1, "work", 0)
		c.CALL(callee(sub))
		f.argAt(0, "w", 1024)
		f.check(p.Gamma2-p.Beta, callee(lowBits))
	})
	f.ret()
}

// buildSignHint emits SignHint<set><variant>: lines 25 to 28 of
// Algorithm 7.
func buildSignHint(c *build.Context, name string, p fips204.Params, variant string) {
	sym := "SignHint" + name + variant
	calls := contract.SignHintCallees(p, variant)
	mul, nttInv, norm, makeHint := calls[0], calls[1], calls[2], calls[3]

	function(c, sym)
	f := newStageFrame(c)
	count := c.AllocLocal(8)
	hints := c.AllocLocal(8)
	c.MOVQ(operand.U32(0), hints)
	f.loop("rows", p.K, []int{1024}, func() {
		c.Comment("For i < k: ct0[i] (line 25); ‖ct0[i]‖∞ < γ2 (line 28).")
		f.productInverse("t0Hat", 0, mul, nttInv)
		f.arg(0, "work", 0)
		f.check(p.Gamma2, callee(norm))
		c.Comment("h[i] = MakeHint(−ct0[i], w[i] − cs2[i] + ct0[i]) (line 26), which is MakeHint(ct0[i], w[i] − cs2[i]) (Algorithm 39).")
		f.argAt(0, "h", 1024)
		f.arg(1, "work", 0)
		f.argAt(2, "wcs2", 1024)
		f.local(3, count)
		c.CALL(callee(makeHint))
		c.MOVL(count, reg.EAX)
		c.ADDL(hints, reg.EAX)
		c.MOVL(reg.EAX, hints)
	})
	c.Comment("At most ω ones in h (line 28): ω − the count is not negative.")
	c.MOVL(hints, reg.ECX)
	c.MOVL(operand.U32(uint64(p.Omega)), reg.EAX)
	c.SUBL(reg.ECX, reg.EAX)
	c.SHRL(operand.U8(31), reg.EAX)
	c.XORL(operand.U32(1), reg.EAX)
	c.ANDQ(reg.RAX, f.ok)
	f.ret()
}
