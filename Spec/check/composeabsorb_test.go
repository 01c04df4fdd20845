package check

import (
	"strings"
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// TestAbsorbProof runs the composition proof on the SHAKE256AbsorbBlock
// routines as built (fips202.AbsorbOver, the steps of Spec), and on
// copies with one instruction changed, added or removed, each of which it
// must refute.
func TestAbsorbProof(t *testing.T) {
	routine, callees := builtRoutines(t, "SHAKE256AbsorbBlockAMD64", "SHAKE256AbsorbBlockBMI2")
	at := func(r *x86.Routine, text string) int { return insnAt(t, r, text) }
	removed := func(r *x86.Routine, i int) *x86.Routine {
		c := *r
		c.Insns = append(append([]*x86.Insn(nil), r.Insns[:i]...), r.Insns[i+1:]...)
		return &c
	}
	// repeated repeats instructions i−n+1 … i after i.
	repeated := func(r *x86.Routine, i, n int) *x86.Routine {
		c := *r
		c.Insns = append(append(append([]*x86.Insn(nil), r.Insns[:i+1]...), r.Insns[i+1-n:i+1]...), r.Insns[i+1:]...)
		return &c
	}
	disp := func(r *x86.Routine, i int, d int64) *x86.Routine {
		c := *r
		c.Insns = append([]*x86.Insn(nil), r.Insns...)
		in := *r.Insns[i]
		in.Args = append([]x86.Operand(nil), in.Args...)
		for k := range in.Args {
			if in.Args[k].Kind == x86.KMem {
				in.Args[k].Mem.Disp = d
			}
		}
		c.Insns[i] = &in
		return &c
	}
	// twice calls the permutation again, its argument reloaded.
	twice := func(r *x86.Routine) *x86.Routine {
		c := *r
		i, load := at(r, "CALL"), r.Insns[at(r, "MOVQ 24(SP), DI")]
		c.Insns = append(append(append([]*x86.Insn(nil), r.Insns[:i+1]...), load, r.Insns[i-1], r.Insns[i]), r.Insns[i+1:]...)
		return &c
	}
	// after stores a register the call clobbered into the state after it.
	after := func(r *x86.Routine) *x86.Routine {
		c := *r
		i, load, store := at(r, "CALL"), r.Insns[at(r, "MOVQ 24(SP), DI")], r.Insns[at(r, "MOVQ AX, 64(DI)")]
		c.Insns = append(append(append([]*x86.Insn(nil), r.Insns[:i+1]...), load, store), r.Insns[i+1:]...)
		return &c
	}
	fa, ra := routine("SHAKE256AbsorbBlockAMD64")
	fb, rb := routine("SHAKE256AbsorbBlockBMI2")
	for _, tc := range []struct {
		name string
		f    *x86.File
		r    *x86.Routine
		want string
	}{
		{"as built", fa, ra, ""},
		{"as built", fb, rb, ""},
		{"last word of the rate not XORed", fa, removed(ra, at(ra, "XORQ 128(SI), AX")), "permutation call 0: lane 16 is not"},
		{"word read one byte early", fb, disp(rb, at(rb, "XORQ 128(SI), AX"), 127), "permutation call 0: lane 16 is not"},
		{"word XORed twice", fa, repeated(ra, at(ra, "XORQ 64(SI), AX"), 1), "permutation call 0: lane 8 is not"},
		{"word not stored", fa, removed(ra, at(ra, "MOVQ AX, 64(DI)")), "permutation call 0: lane 8 is not"},
		{"permutation skipped", fa, removed(ra, at(ra, "CALL")), "calls the permutation 0 times"},
		{"permutation twice", fb, twice(rb), "calls the permutation 2 times, the steps of Spec apply f 1 times"},
		{"state written after the permutation", fa, after(ra), "byte 64 of a is not what the steps of Spec give"},
	} {
		_, err := proveCompose(tc.f, tc.r, contract.Lookup(tc.r.Name), callees, 1<<20)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %s: %v", tc.r.Name, tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s, %s: %v, want an error with %q", tc.r.Name, tc.name, err, tc.want)
		}
	}
}
