package check

import (
	"strings"
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// TestFinishProof runs the composition proof over a public count on the
// SHAKE256Finish routine as built (fips202.FinishOver once for each n ≤
// 135), and on copies with one address changed, each of
// which it must refute.
func TestFinishProof(t *testing.T) {
	if testing.Short() {
		t.Skip("136 symbolic runs")
	}
	routine, callees := builtRoutines(t, "SHAKE256FinishAMD64")
	at := func(r *x86.Routine, text string) int { return insnAt(t, r, text) }
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
	f, r := routine("SHAKE256FinishAMD64")
	for _, tc := range []struct {
		name string
		r    *x86.Routine
		want string
	}{
		{"as built", r, ""},
		{"0x80 one byte early", disp(r, at(r, "MOVB AL, 135(DI)"), 134), "n = 0: permutation call 0: lane 16 is not"},
		{"the last word (tail end and 0x1F) one byte late", disp(r, at(r, "MOVQ AX, (DI)(DX*8)"), 1), "n = 0: permutation call 0: lane 0 is not"},
		{"output from the wrong lane", disp(r, at(r, "MOVQ 56(DI), AX"), 64), "n = 0: byte 56 of out is not"},
		{"tail word 8 stored at byte 72", disp(r, at(r, "MOVQ AX, 64(DI)"), 72), "n = 72: permutation call 0: lane 8 is not"},
	} {
		_, err := proveCompose(f, tc.r, contract.Lookup(r.Name), callees, 1<<20)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %s: %v", r.Name, tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s, %s: %v, want an error with %q", r.Name, tc.name, err, tc.want)
		}
	}
}
