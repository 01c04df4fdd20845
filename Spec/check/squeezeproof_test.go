package check

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// squeezeBug plants one bug in squeezeAsm's routine.
type squeezeBug struct {
	seedWord    int  // the seed word read one byte on (0: none)
	suffix      int  // the domain byte (0x1F when right)
	capacity    bool // lane 17 left uncleared
	twice       int  // the block squeezed twice (−1: none)
	skip        int  // the block not squeezed (−1: none)
	stateWrite  bool // a state lane written between blocks 1 and 2
	vOffset     int  // added to the unpacker's input pointer
	strayY      bool // a word of y written after the unpacking
	noUnpack    bool
	swapLanes   bool // lanes 0 and 1 of block 3 swapped in the stream
	unpackEarly bool // the unpacker called before the last block
}

// squeezeAsm is a routine of ExpandMask17AMD64's shape (SHAKE256 of a
// 66-byte seed, five blocks, BitUnpack18AMD64 on the first 576 bytes),
// with the callees' stubs: frame 0(SP) the arguments, 16(SP) the state,
// 216(SP) the stream (and 8 bytes to spare).
func squeezeAsm(b squeezeBug) string {
	var w strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&w, "\t"+format+"\n", a...) }
	w.WriteString("#include \"textflag.h\"\n\nTEXT ·KeccakF1600AMD64(SB), $0-8\n\tRET\n\nTEXT ·BitUnpack18AMD64(SB), $0-16\n\tRET\n\n")
	w.WriteString("TEXT ·Squeeze(SB), $800-16\n")
	p("NO_LOCAL_POINTERS")
	p("MOVQ seed+8(FP), SI")
	for i := 0; i < 8; i++ {
		off := 8 * i
		if b.seedWord == i && i > 0 {
			off++
		}
		p("MOVQ %d(SI), AX", off)
		p("MOVQ AX, %d(SP)", 16+8*i)
	}
	p("MOVWLZX 64(SI), AX")
	p("ORL $0x%x, AX", b.suffix<<16)
	p("MOVQ AX, 80(SP)")
	p("XORL AX, AX")
	for i := 9; i < 25; i++ {
		if i != 16 && !(b.capacity && i == 17) {
			p("MOVQ AX, %d(SP)", 16+8*i)
		}
	}
	p("MOVQ $0x8000000000000000, AX")
	p("MOVQ AX, 144(SP)")
	unpack := func() {
		if b.noUnpack {
			return
		}
		p("MOVQ y+0(FP), AX")
		p("MOVQ AX, (SP)")
		p("LEAQ %d(SP), AX", 216+b.vOffset)
		p("MOVQ AX, 8(SP)")
		p("CALL ·BitUnpack18AMD64(SB)")
	}
	for blk := 0; blk < 5; blk++ {
		calls := 1
		if blk == b.twice {
			calls = 2
		}
		if blk == b.skip {
			calls = 0
		}
		if blk == 4 && b.unpackEarly {
			unpack()
		}
		for k := 0; k < calls; k++ {
			p("LEAQ 16(SP), AX")
			p("MOVQ AX, (SP)")
			p("CALL ·KeccakF1600AMD64(SB)")
		}
		for l := 0; l < 17; l++ {
			src := l
			if b.swapLanes && blk == 3 && l < 2 {
				src = 1 - l
			}
			p("MOVQ %d(SP), AX", 16+8*src)
			if 136*blk+8*l+8 <= 576 {
				p("MOVQ AX, %d(SP)", 216+136*blk+8*l)
			}
		}
		if blk == 1 && b.stateWrite {
			p("MOVQ AX, 24(SP)")
		}
	}
	if !b.unpackEarly {
		unpack()
	}
	if b.strayY {
		p("MOVQ y+0(FP), AX")
		p("MOVL $0, 12(AX)")
	}
	p("RET")
	return w.String()
}

// squeezeTestContract is ExpandMask17AMD64's contract for the routine
// Squeeze.
func squeezeTestContract() *contract.Contract {
	return &contract.Contract{
		Symbol: "Squeeze", Routine: "Squeeze", Variant: "test",
		GoSig: "func Squeeze(y *[256]uint32, seed *[66]byte)",
		Args: []contract.Arg{
			{Name: "y", Bytes: 1024, Secret: true, Write: true},
			{Name: "seed", Bytes: 66, Secret: true, Read: true},
		},
		MaxFrame: 1024, NoAlias: true,
		Calls: []string{"KeccakF1600AMD64", "BitUnpack18AMD64"},
		Squeeze: &contract.Squeeze{Seed: "seed", Rate: 136, Permutation: "KeccakF1600AMD64",
			Unpack: "BitUnpack18AMD64", Out: "y"},
		Gen: func(r *rand.Rand) contract.Buffers {
			return contract.Buffers{"y": randTestBytes(r, 1024), "seed": randTestBytes(r, 66)}
		},
		Check: func(in, out contract.Buffers, _ byte) error { return nil },
	}
}

// The squeeze proof holds for a routine that composes its calls right,
// and fails for each bug planted in it.
func TestSqueezeProof(t *testing.T) {
	prove := func(b squeezeBug) (string, error) {
		f, err := x86.ParseFile("squeeze.s", squeezeAsm(b))
		if err != nil {
			t.Fatal(err)
		}
		callees := map[string]*x86.Routine{}
		for _, name := range []string{"KeccakF1600AMD64", "BitUnpack18AMD64"} {
			r := *f.Routine(name)
			r.StackCheck = true
			callees[name] = &r
		}
		return proveSqueeze(f, f.Routine("Squeeze"), squeezeTestContract(), callees, 1<<20)
	}
	good := squeezeBug{suffix: 0x1F, twice: -1, skip: -1}
	if d, err := prove(good); err != nil || !strings.Contains(d, "proven for every seed") {
		t.Fatalf("right routine: %q, %v", d, err)
	}
	for _, tc := range []struct {
		name string
		edit func(*squeezeBug)
		want string
	}{
		{"seed word misread", func(b *squeezeBug) { b.seedWord = 3 }, "call 0: byte 24 of state 0 is not PadBlock"},
		{"domain byte", func(b *squeezeBug) { b.suffix = 0x1E }, "call 0: byte 66 of state 0 is not PadBlock"},
		{"capacity lane", func(b *squeezeBug) { b.capacity = true }, "call 0: byte 136 of state 0"},
		{"squeezed twice", func(b *squeezeBug) { b.twice = 2 }, "byte 272 is not byte 0 of block 2"},
		{"block skipped", func(b *squeezeBug) { b.skip = 3 }, "byte 408 is not byte 0 of block 3"},
		{"state written", func(b *squeezeBug) { b.stateWrite = true }, "call 2: byte 8 of state 0 is not what the call before returned"},
		{"input offset", func(b *squeezeBug) { b.vOffset = 8 }, "byte 0 is not byte 0 of block 0"},
		{"stray write to y", func(b *squeezeBug) { b.strayY = true }, "byte 12 of y is not what the last unpacker call"},
		{"no unpacking", func(b *squeezeBug) { b.noUnpack = true }, "no unpacker call writes y"},
		{"lanes swapped", func(b *squeezeBug) { b.swapLanes = true }, "byte 408 is not byte 0 of block 3"},
		{"unpacked too early", func(b *squeezeBug) { b.unpackEarly = true }, "only 4 permutation calls come before it"},
	} {
		b := good
		tc.edit(&b)
		if _, err := prove(b); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}

// The proof refuses a contract whose Squeeze does not fit its callees.
func TestSqueezeShape(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*contract.Contract)
		want string
	}{
		{"rate", func(c *contract.Contract) { c.Squeeze.Rate = 128 }, "rate"},
		{"calls", func(c *contract.Contract) { c.Calls = c.Calls[:1] }, "Calls"},
		{"permutation", func(c *contract.Contract) {
			c.Squeeze.Permutation = "NTTAVX2"
			c.Calls = append(c.Calls, "NTTAVX2")
		}, "not Keccak"},
		{"unpacker", func(c *contract.Contract) {
			c.Squeeze.Unpack = "KeccakF1600BMI2"
			c.Calls = append(c.Calls, "KeccakF1600BMI2")
		}, "does not write its first buffer"},
		{"seed", func(c *contract.Contract) { c.Args[1].Bytes = 136 }, "seed"},
		{"other output", func(c *contract.Contract) { c.Args[1].Write = true }, "seed is writable"},
		{"result", func(c *contract.Contract) { c.Result = "bool" }, "result"},
	} {
		c := squeezeTestContract()
		tc.edit(c)
		if _, err := squeezeShapeOf(c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
	if _, err := squeezeShapeOf(squeezeTestContract()); err != nil {
		t.Errorf("the test contract: %v", err)
	}
}

// The squeeze proof itself, not the random tests a rare bug escapes,
// holds for ExpandMask's routines as built and refutes each with one
// instruction changed, inserted or removed (their code is straight-line).
func TestSqueezeProofExpandMask(t *testing.T) {
	b := buildRepoAsm(t)
	routine := func(name string) (*x86.File, *x86.Routine) { return asmRoutine(t, b, name) }
	callees := map[string]*x86.Routine{}
	for _, sym := range []string{"ExpandMask19AMD64", "ExpandMask17x4AVX2"} {
		for _, name := range contract.Lookup(sym).Calls {
			_, callees[name] = routine(name)
		}
	}
	// at finds the k-th instruction (from 1) whose text holds text.
	at := func(r *x86.Routine, text string, k int) int {
		for i, in := range r.Insns {
			if strings.Contains(in.Text, text) {
				if k--; k == 0 {
					return i
				}
			}
		}
		t.Fatalf("%s: no instruction %q", r.Name, text)
		return -1
	}
	// changed returns r with instruction i changed by edit (nil:
	// removed); repeated, with instructions i−n+1 … i repeated after i.
	changed := func(r *x86.Routine, i int, edit func(*x86.Insn)) *x86.Routine {
		c := *r
		c.Insns = append([]*x86.Insn(nil), r.Insns...)
		if edit == nil {
			c.Insns = append(c.Insns[:i:i], c.Insns[i+1:]...)
			return &c
		}
		in := *r.Insns[i]
		in.Args = append([]x86.Operand(nil), in.Args...)
		edit(&in)
		c.Insns[i] = &in
		return &c
	}
	repeated := func(r *x86.Routine, i, n int) *x86.Routine {
		c := *r
		c.Insns = append(append(append([]*x86.Insn(nil), r.Insns[:i+1]...), r.Insns[i+1-n:i+1]...), r.Insns[i+1:]...)
		return &c
	}
	disp := func(d int64) func(*x86.Insn) {
		return func(in *x86.Insn) {
			for k := range in.Args {
				if in.Args[k].Kind == x86.KMem {
					in.Args[k].Mem.Disp = d
				}
			}
		}
	}
	f1, r1 := routine("ExpandMask19AMD64")
	f4, r4 := routine("ExpandMask17x4AVX2")
	for _, tc := range []struct {
		name string
		f    *x86.File
		r    *x86.Routine
		want string
	}{
		{"as built", f1, r1, ""},
		{"as built", f4, r4, ""},
		{"seed word misread", f1, changed(r1, at(r1, "MOVQ 24(SI), AX", 1), disp(25)), "call 0: byte 24 of state 0 is not PadBlock"},
		{"pad misplaced", f1, changed(r1, at(r1, "MOVQ AX, 144(SP)", 1), disp(136)), "call 0: byte 127 of state 0 is not PadBlock"},
		{"block squeezed twice", f1, repeated(r1, at(r1, "CALL", 3), 3), "byte 272 is not byte 0 of block 2"},
		{"block skipped", f1, changed(r1, at(r1, "CALL", 4), nil), "byte 408 is not byte 0 of block 3"},
		{"unpacker input offset", f1, changed(r1, at(r1, "LEAQ 216(SP), AX", 1), disp(208)), "byte 0 is not byte 0 of block 0"},
		{"lanes of two states swapped", f4, changed(r4, at(r4, "VPERM2I128 $0x20, Y7, Y5, Y1", 1), func(in *x86.Insn) { in.Args[0].Imm = 0x31 }), "(y[1]): byte 0 is not byte 0 of block 0 of stream 1"},
		{"another stream unpacked", f4, changed(r4, at(r4, "LEAQ 1392(SP), AX", 1), disp(1968)), "(y[1]): byte 0 is not byte 0 of block 0 of stream 1"},
	} {
		_, err := proveSqueeze(tc.f, tc.r, contract.Lookup(tc.r.Name), callees, 1<<20)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %s: %v", tc.r.Name, tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s, %s: %v, want an error with %q", tc.r.Name, tc.name, err, tc.want)
		}
	}
}
