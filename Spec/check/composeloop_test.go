package check

import (
	"strings"
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// TestLoopProof runs the loop proof on the SHAKE256Absorb routines as
// built, and on copies with one instruction changed in place (the labels
// stay where they are), each of which it must refute.
func TestLoopProof(t *testing.T) {
	routine, callees := builtRoutines(t, "SHAKE256AbsorbAMD64", "SHAKE256AbsorbBMI2")
	at := func(r *x86.Routine, text string) int { return insnAt(t, r, text) }
	// changed sets the immediate or the displacement of instruction i.
	changed := func(r *x86.Routine, text string, v int64) *x86.Routine {
		c := *r
		c.Insns = append([]*x86.Insn(nil), r.Insns...)
		i := at(r, text)
		in := *r.Insns[i]
		in.Args = append([]x86.Operand(nil), in.Args...)
		for k := range in.Args {
			switch in.Args[k].Kind {
			case x86.KImm:
				in.Args[k].Imm = v
			case x86.KMem:
				in.Args[k].Mem.Disp = v
			}
		}
		c.Insns[i] = &in
		return &c
	}
	fa, ra := routine("SHAKE256AbsorbAMD64")
	fb, rb := routine("SHAKE256AbsorbBMI2")
	for _, tc := range []struct {
		name string
		f    *x86.File
		r    *x86.Routine
		want string
	}{
		{"as built", fa, ra, ""},
		{"as built", fb, rb, ""},
		{"count bound one short", fa, changed(ra, "CMPQ CX, $0x8", 7), "returns without a call where the count may be"},
		{"pointer not advanced", fb, changed(rb, "ADDQ $0x88, DX", 0), "unit 1: permutation call 1: lane 0 is not"},
		{"pointer advanced by a lane less", fa, changed(ra, "ADDQ $0x88, DX", 128), "unit 1: permutation call 1: lane 0 is not"},
		{"last lane of every block skipped", fa, changed(ra, "XORQ 128(SI), AX", 120), "unit 0: permutation call 0: lane 16 is not"},
		{"loop bound one block short", fb, changed(rb, "CMPQ DX, $0x3b8", 816), "returns after 7 calls where the count may be other than 7"},
	} {
		_, err := proveLoop(tc.f, tc.r, contract.Lookup(tc.r.Name), callees, 1<<20)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %s: %v", tc.r.Name, tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s, %s: %v, want an error with %q", tc.r.Name, tc.name, err, tc.want)
		}
	}
}

// builtRoutines gives the routines of go/asm as built, and the callees of
// syms.
func builtRoutines(t *testing.T, syms ...string) (func(name string) (*x86.File, *x86.Routine), map[string]*x86.Routine) {
	b := buildRepoAsm(t)
	routine := func(name string) (*x86.File, *x86.Routine) { return asmRoutine(t, b, name) }
	callees := map[string]*x86.Routine{}
	for _, sym := range syms {
		for _, name := range contract.Lookup(sym).Calls {
			_, callees[name] = routine(name)
		}
	}
	return routine, callees
}

// insnAt is the index of r's first instruction whose text holds text.
func insnAt(t *testing.T, r *x86.Routine, text string) int {
	for i, in := range r.Insns {
		if strings.Contains(in.Text, text) {
			return i
		}
	}
	t.Fatalf("%s: no instruction %q", r.Name, text)
	return -1
}
