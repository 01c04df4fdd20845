package check

import (
	"maps"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// signHead is the loop head Proofs gives the Sign routines (this package
// may not import Proofs).
type signHead struct{}

func (signHead) Invariants(string) []Invariant {
	return []Invariant{{Label: "attempt", PublicBuffer: map[string][][2]int{"scratch": {{128, 2}}}}}
}

// The attempts proof holds for Sign44AVX2 as built and refutes it with one
// instruction changed: a stage's result not the one branched on (its check
// skipped), the accepted attempt returning false, κ advanced by ℓ + 1, the
// bound of attempts one attempt late, SignHint given w[1] for w[0], ρ″
// read one word off, κ not set to 0 before the first attempt.
func TestAttemptsProof(t *testing.T) {
	b := buildRepoAsm(t)
	name := "Sign44AVX2"
	f, r := asmRoutine(t, b, name)
	c := contract.Lookup(name)
	callees := map[string]*x86.Routine{}
	for _, n := range c.Calls {
		_, callees[n] = asmRoutine(t, b, n)
	}
	edit := func(i int, e func(*x86.Insn)) *x86.Routine {
		x := *r
		x.Insns = append([]*x86.Insn(nil), r.Insns...)
		in := *r.Insns[i]
		in.Args = append([]x86.Operand(nil), in.Args...)
		e(&in)
		x.Insns[i] = &in
		return &x
	}
	// find is the index of the n-th instruction (from 1) after from that
	// op and ok accept.
	find := func(from int, op string, n int, ok func(*x86.Insn) bool) int {
		for i := from; i < len(r.Insns); i++ {
			if in := r.Insns[i]; in.Op == op && ok(in) {
				if n--; n == 0 {
					return i
				}
			}
		}
		t.Fatalf("no %s after %d", op, from)
		return -1
	}
	imm := func(v int64) func(*x86.Insn) bool {
		return func(in *x86.Insn) bool {
			for _, a := range in.Args {
				if a.Kind == x86.KImm && a.Imm == v {
					return true
				}
			}
			return false
		}
	}
	disp := func(v int64) func(*x86.Insn) bool {
		return func(in *x86.Insn) bool {
			for _, a := range in.Args {
				if a.Kind == x86.KMem && a.Mem.Disp == v {
					return true
				}
			}
			return false
		}
	}
	setImm := func(v int64) func(*x86.Insn) {
		return func(in *x86.Insn) {
			for k := range in.Args {
				if in.Args[k].Kind == x86.KImm {
					in.Args[k].Imm = v
				}
			}
		}
	}
	setDisp := func(from, to int64) func(*x86.Insn) {
		return func(in *x86.Insn) {
			for k := range in.Args {
				if in.Args[k].Kind == x86.KMem && in.Args[k].Mem.Disp == from {
					in.Args[k].Mem.Disp = to
				}
			}
		}
	}
	// The loop head: after κ = 0 is stored (the decoded bytes have no
	// labels; vg prove takes them from the text).
	x := *r
	x.Labels = maps.Clone(r.Labels)
	x.Labels["attempt"] = find(0, "MOVB", 1, disp(129)) + 1
	r = &x
	// Calls (from 1): the permutation, SignZ, its client request, SignR0,
	// its request, SignHint, its request, three requests, SigEncode.
	zResult := nthCall(t, r, 3) + 1
	bound := int64(3256)
	for _, tc := range []struct {
		name string
		r    *x86.Routine
		want string
	}{
		{"as built", r, ""},
		{"SignZ's result not the one branched on", edit(zResult, setDisp(64, 0)), "does not decide it"},
		{"the accepted attempt returns false", edit(find(nthCall(t, r, 11), "MOVL", 1, imm(1)), setImm(0)), "the result is not 1"},
		{"κ + ℓ + 1", edit(find(0, "ADDL", 1, imm(4)), setImm(5)), "κ + 4"},
		{"one attempt more than the bound", edit(find(0, "CMPL", 1, imm(bound)), setImm(bound+4)), "may be 3256 or more"},
		{"SignHint given w[1]", edit(find(nthCall(t, r, 5), "LEAQ", 1, disp(1280)), setDisp(1280, 2304)), "is not the polynomial Spec's attempt passes"},
		{"ρ″ one word off", edit(find(nthCall(t, r, 1), "MOVQ", 1, disp(19712)), setDisp(19712, 19720)), "is not what Spec's attempt passes"},
		{"κ not 0 at the first attempt", edit(find(nthCall(t, r, 1), "MOVB", 1, disp(128)), setDisp(128, 130)), "is not 0 at the first attempt"},
	} {
		_, err := proveAttempts(f, tc.r, c, callees, signHead{}, 1<<20)
		t.Logf("%s: %v", tc.name, err)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}
