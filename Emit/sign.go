package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
)

func init() { register("sign", buildSign) }

// buildSign emits Sign<set><variant>: ML-DSA.Sign_internal (FIPS 204,
// Algorithm 7) from line 7, by calls of the proven stage routines.
func buildSign(c *build.Context) {
	eachVariant([]string{"AMD64", "AVX2", "AVX512"}, func(name string, p fips204.Params, v string) {
		buildSignVariant(c, name, p, v)
	})
}

// vgMakeMemDefined is memcheck's client request VALGRIND_MAKE_MEM_DEFINED
// (valgrind/memcheck.h: VG_USERREQ_TOOL_BASE('M', 'C') + 2), as go/mldsa's
// ct_valgrind.go makes it.
const vgMakeMemDefined = 'M'<<24 | 'C'<<16 + 2

// signFrame is a Sign routine's frame: the callees' argument slots (eight
// pointers and a result at most) and a valgrind client request's block.
type signFrame struct {
	*callFrame
	block operand.Mem
}

// define makes n bytes at the address in RAX defined for memcheck: the
// constant-time check (tools/checks/check_ct) runs the routine under
// valgrind, whose memcheck would flag a branch on them; each is an
// outcome the contract's leak declares. RAX is clobbered.
func (f *signFrame) define(n int) {
	c := f.c
	c.MOVQ(reg.RAX, f.block.Offset(8))
	c.MOVL(operand.U32(vgMakeMemDefined), reg.EAX)
	c.MOVQ(reg.RAX, f.block)
	c.MOVQ(operand.U32(uint64(n)), f.block.Offset(16))
	c.XORL(reg.EAX, reg.EAX)
	for i := 3; i < 6; i++ {
		c.MOVQ(reg.RAX, f.block.Offset(8*i))
	}
	f.local(0, f.block)
	c.CALL(callee("ValgrindClientRequestAMD64"))
}

// stage calls a stage routine of n arguments and branches to reject
// where its result is false, made defined for memcheck first.
func (f *signFrame) stage(target string, n int, reject string) {
	c := f.c
	c.CALL(callee(target))
	c.LEAQ(f.args.Offset(8*n), reg.RAX)
	f.define(1)
	c.MOVBQZX(f.args.Offset(8*n), reg.RAX)
	c.TESTQ(reg.RAX, reg.RAX)
	c.JEQ(operand.LabelRef(reject))
}

// span is &param[disp], an argument of a callee.
type span struct {
	param string
	disp  int
}

// ptrs puts the spans in the argument slots, in order. RAX is clobbered.
func (f *signFrame) ptrs(spans ...span) {
	for i, a := range spans {
		f.arg(i, a.param, a.disp)
	}
}

// buildSignVariant emits one routine: ρ″ (line 7) by one permutation,
// then the attempts for κ = 0, ℓ, 2ℓ, … below the bound (Appendix C), each
// three stage calls with a branch after each, as Algorithm 7 branches, and
// sigEncode for the attempt that ends the loop. IntegerToBytes(κ, 2) lives
// in scratch[128:130] (SignZ's in[128:130]), where SignZ reads it, and
// each attempt's end rereads it there. Every buffer is reached through its
// argument after every call (the stack may move); the only branches are
// on the stages' results and on κ.
func buildSignVariant(c *build.Context, name string, p fips204.Params, variant string) {
	sym := "Sign" + name + variant
	calls := contract.SignCallees(name, variant)
	signZ, signR0, signHint, sigEncode, perm := calls[0], calls[1], calls[2], calls[3], calls[4]
	k, l := p.K, p.L
	cTildeSize := p.Lambda / 4
	bound := fips204.SignIterations * l
	cTilde, z, h := span{"acc", 0}, span{"acc", contract.SignAccZ}, span{"acc", contract.SignAccH}
	in, cHat, w, work := span{"scratch", 0}, span{"scratch", contract.SignCHat}, span{"scratch", contract.SignW}, span{"scratch", contract.SignWork}

	function(c, sym)
	c.Instruction(&ir.Instruction{Opcode: "NO_LOCAL_POINTERS"})
	f := &signFrame{callFrame: &callFrame{c: c, args: c.AllocLocal(72)}} // eight pointers and a result
	f.block = c.AllocLocal(48)

	c.Comment("ρ″ = H(K ‖ rnd ‖ μ, 64) (Algorithm 7, line 7): 128 bytes, below SHAKE256's rate of 136, so one block: 0x1F after them and 0x80 at byte 135 (FIPS 202, §6.2).")
	c.Load(c.Param("scratch"), reg.RDI)
	c.Load(c.Param("seed"), reg.RSI)
	state := operand.Mem{Base: reg.RDI, Disp: contract.SignState}
	copyQwords(c, operand.Mem{Base: reg.RSI}, state, 16)
	c.MOVQ(operand.U64(0x80<<56|0x1F), reg.RAX)
	c.MOVQ(reg.RAX, state.Offset(128))
	c.XORL(reg.EAX, reg.EAX)
	for i := 17; i < 25; i++ {
		c.MOVQ(reg.RAX, state.Offset(8*i))
	}
	f.ptrs(span{"scratch", contract.SignState})
	c.CALL(callee(perm))

	c.Comment("in = μ ‖ ρ″ ‖ IntegerToBytes(κ, 2) with κ = 0 (lines 8 and 11).")
	c.Load(c.Param("scratch"), reg.RDI)
	c.Load(c.Param("seed"), reg.RSI)
	copyQwords(c, operand.Mem{Base: reg.RSI, Disp: 64}, operand.Mem{Base: reg.RDI}, 8)
	copyQwords(c, state, operand.Mem{Base: reg.RDI, Disp: 64}, 8)
	c.XORL(reg.EAX, reg.EAX)
	c.MOVB(reg.AL, operand.Mem{Base: reg.RDI, Disp: 128})
	c.MOVB(reg.AL, operand.Mem{Base: reg.RDI, Disp: 129})

	c.Label("attempt")
	c.Comment("Lines 11 to 18 and 20; line 23's ‖z‖∞ check, made public.")
	f.ptrs(cTilde, cHat, w, z, in, span{"aHat", 0}, span{"s1Hat", 0}, work)
	f.stage(signZ, 8, "next")
	c.Comment("Lines 19 and 21; line 23's ‖r0‖∞ check, made public.")
	f.ptrs(w, cHat, span{"s2Hat", 0}, work)
	f.stage(signR0, 4, "next")
	c.Comment("Lines 25 to 28; line 28's checks, made public.")
	f.ptrs(h, w, cHat, span{"t0Hat", 0}, work)
	f.stage(signHint, 5, "next")

	c.Comment("Lines 33 and 34: σ = sigEncode(c̃, z mod± q, h); c̃, z and h are public (σ holds them).")
	for _, b := range []struct {
		at span
		n  int
	}{{cTilde, cTildeSize}, {z, 1024 * l}, {h, 1024 * k}} {
		paramAddr(c, b.at.param, b.at.disp)
		f.define(b.n)
	}
	f.ptrs(span{"sigma", 0}, cTilde, z, h)
	c.CALL(callee(sigEncode))
	c.MOVL(operand.U32(1), reg.EAX)
	c.MOVB(reg.AL, result(c))
	c.RET()

	c.Label("next")
	c.Comment(fmt.Sprintf("κ ← κ + ℓ (line 31), read back from in[128:130]; the loop ends at κ = %d (Appendix C).", bound))
	c.Load(c.Param("scratch"), reg.RDI)
	c.MOVWLZX(operand.Mem{Base: reg.RDI, Disp: 128}, reg.EAX)
	c.ADDL(operand.U32(uint64(l)), reg.EAX)
	c.CMPL(reg.EAX, operand.U32(uint64(bound)))
	c.JCC(operand.LabelRef("fail"))
	c.MOVB(reg.AL, operand.Mem{Base: reg.RDI, Disp: 128})
	c.SHRL(operand.U8(8), reg.EAX)
	c.MOVB(reg.AL, operand.Mem{Base: reg.RDI, Disp: 129})
	c.JMP(operand.LabelRef("attempt"))

	c.Label("fail")
	c.XORL(reg.EAX, reg.EAX)
	c.MOVB(reg.AL, result(c))
	c.RET()
}
