package check

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// Package decides coverage: a TEXT symbol without a contract fails, a
// contract without a routine fails.
func TestPackageCoverage(t *testing.T) {
	src, err := os.ReadFile("../../go/asm/keccak_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	// The routine under its own name, and a copy under a name no contract
	// has.
	renamed := strings.ReplaceAll(string(src), "KeccakF1600AMD64", "PlantedAMD64")
	renamed = strings.ReplaceAll(renamed, "keccakRC<>", "plantedRC<>")
	var in Input
	for name, text := range map[string]string{"keccak_amd64.s": string(src), "planted_amd64.s": renamed} {
		f, err := x86.ParseFile(name, text)
		if err != nil {
			t.Fatal(err)
		}
		in.Units = append(in.Units, Unit{f, f.Routines[0]})
	}
	// Only the planted symbol and one contract without its routine are
	// selected, so no routine runs.
	for _, tc := range []struct{ only, obligation, detail string }{
		{"PlantedAMD64", "contract", "no contract"},
		{"NTTAVX2", "routine", "contract without a routine"},
	} {
		res, err := Package(in, PackageOptions{Runs: 1, Only: tc.only})
		if err != nil {
			t.Fatal(err)
		}
		if len(res) != 1 || res[0].Obligation != tc.obligation || res[0].Status != Failing || !strings.Contains(res[0].Detail, tc.detail) {
			t.Errorf("Package(-only %s) = %+v, want one failing %q row", tc.only, res, tc.obligation)
		}
		if len(BelowLevel(res)) != 1 {
			t.Errorf("BelowLevel does not report the failing %s row", tc.obligation)
		}
	}
	if _, err := Package(in, PackageOptions{Runs: 1, Only: "NoSuchRoutine"}); err == nil {
		t.Error("Package accepted a routine that is neither assembled nor contracted")
	}
}

// BelowLevel reports a tested obligation that the contract declares
// proven, and accepts one it declares tested. Every routine's contract
// declares every obligation proven, so the test lowers one contract's
// declared functional level to tested while it runs.
func TestBelowLevel(t *testing.T) {
	c := contract.Lookup("KeccakF1600AMD64")
	saved := c.Level
	c.Level = map[string]string{Functional: Tested, MemorySafety: Proven}
	defer func() { c.Level = saved }()
	ok := []Result{{Routine: c.Routine, Variant: "AMD64", Obligation: Functional, Status: Tested},
		{Routine: c.Routine, Variant: "AMD64", Obligation: MemorySafety, Status: Proven}}
	if b := BelowLevel(ok); len(b) != 0 {
		t.Errorf("BelowLevel(at the declared levels) = %v", b)
	}
	low := []Result{{Routine: c.Routine, Variant: "AMD64", Obligation: MemorySafety, Status: Tested}}
	if b := BelowLevel(low); len(b) != 1 || !strings.Contains(b[0], "declares it proven") {
		t.Errorf("BelowLevel(memory safety tested) = %v", b)
	}
}

// ProgramsInput turns a routine that could not be decoded, or whose text
// differs from its machine code, into a failing result.
func TestProgramsInput(t *testing.T) {
	f := parseGoAsm(t, "keccak_amd64.s")
	decl, err := GoSigDecl(contract.Lookup("KeccakF1600AMD64").GoSig)
	if err != nil {
		t.Fatal(err)
	}
	in := ProgramsInput([]Program{
		{Name: "KeccakF1600AMD64", File: f, Routine: f.Routines[0], Decl: decl, TextErr: errors.New("planted")},
		{Name: "NTTAVX2", Err: errors.New("planted")},
	})
	if len(in.Units) != 1 || len(in.Failures) != 2 || in.Failures[0].Obligation != "text = bytes" || in.Failures[1].Obligation != "decode" {
		t.Fatalf("ProgramsInput = %+v", in)
	}
	res, err := Package(in, PackageOptions{Runs: 1, Only: "NTTAVX2"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || res[0].Obligation != "decode" || res[1].Obligation != "routine" {
		t.Errorf("Package(-only NTTAVX2) = %+v, want the decode failure and the contract without a routine", res)
	}
}

// A Go declaration in go/asm that differs from the contract's signature
// fails: callers are compiled against it, so a smaller array type there
// lets them pass a buffer the routine overruns.
func TestProgramsInputDeclaration(t *testing.T) {
	f := parseGoAsm(t, "keccak_amd64.s")
	for _, tc := range []struct {
		decl string
		ok   bool
	}{
		{"// KeccakF1600AMD64 permutes a.\n//\n//go:noescape\nfunc KeccakF1600AMD64(a *[25]uint64)", true},
		{"func KeccakF1600AMD64(a *[24]uint64)", false},
		{"func KeccakF1600AMD64(a *[200]byte)", false},
		{"func KeccakF1600AMD64(a *[25]uint64) bool", false},
	} {
		fset := token.NewFileSet()
		af, err := parser.ParseFile(fset, "", "package asm\n\n"+tc.decl+"\n", parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		decl, err := printDecl(fset, af.Decls[0].(*ast.FuncDecl))
		if err != nil {
			t.Fatal(err)
		}
		in := ProgramsInput([]Program{{Name: "KeccakF1600AMD64", File: f, Routine: f.Routines[0], Decl: decl}})
		failed := len(in.Failures) == 1 && in.Failures[0].Obligation == "declaration" && in.Failures[0].Status == Failing
		if tc.ok && len(in.Failures) != 0 || !tc.ok && !failed {
			t.Errorf("declaration %q: failures %+v", tc.decl, in.Failures)
		}
	}
}

// Every routine go/asm declares has the Go declaration its contract gives
// (vg prove fails the routine otherwise; this finds it without a build).
func TestDeclarationsMatchContracts(t *testing.T) {
	names, decls, noescape, _, err := declaredRoutines("../../go/asm", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		c := contract.Lookup(n)
		if c == nil {
			t.Errorf("%s: no contract", n)
			continue
		}
		want, err := GoSigDecl(c.GoSig)
		if err != nil {
			t.Errorf("%s: %v", n, err)
		} else if decls[n] != want {
			t.Errorf("%s: go/asm declares %q, the contract %q", n, decls[n], want)
		}
		if len(c.Calls) == 0 && !noescape[n] {
			t.Errorf("%s calls nothing, but its declaration reads as without //go:noescape", n)
		}
	}
	if len(names) < len(contract.All()) {
		t.Errorf("go/asm declares %d routines, the contracts name %d", len(names), len(contract.All()))
	}
}

// The pragma //go:noescape belongs to the declaration after it, also
// across a blank line, as the compiler reads it.
func TestDeclaredNoEscape(t *testing.T) {
	dir := t.TempDir()
	src := "package asm\n\n//go:noescape\n\nfunc F(a *byte)\n\nfunc G(a *byte)\n\n// H does.\n//go:noescape\nfunc H(a *byte)\n"
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, noescape, _, err := declaredRoutines(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !noescape["F"] || noescape["G"] || !noescape["H"] {
		t.Errorf("noescape = %v, want F and H", noescape)
	}
}

// parseGoAsm parses one file of go/asm, as the text of the tree.
func parseGoAsm(t *testing.T, name string) *x86.File {
	t.Helper()
	src, err := os.ReadFile("../../go/asm/" + name)
	if err != nil {
		t.Fatal(err)
	}
	f, err := x86.ParseFile(name, string(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// A caller of a caller is lowered too: ExpandA44AMD64 calls
// RejNTTPolyAMD64, which calls KeccakF1600AMD64; a tested or failing
// permutation leaves neither proven, in either order of the results.
func TestLowerByCalleesTransitive(t *testing.T) {
	for _, kst := range []string{Tested, Failing} {
		for _, rev := range []bool{false, true} {
			rs := []Result{
				{Routine: "ExpandA44", Variant: "AMD64", Obligation: Functional, Status: Proven},
				{Routine: "RejNTTPoly", Variant: "AMD64", Obligation: Functional, Status: Proven},
				{Routine: "KeccakF1600", Variant: "AMD64", Obligation: Functional, Status: kst},
			}
			if rev {
				rs[0], rs[2] = rs[2], rs[0]
			}
			lowerByCallees(rs)
			for _, r := range rs {
				if r.Status != kst {
					t.Errorf("permutation %s, reversed %v: %s%s is %s", kst, rev, r.Routine, r.Variant, r.Status)
				}
			}
		}
	}
}

// A check of one routine covers its callees unless NoCallees, and never
// routines it does not call.
func TestPackageSelectsCallees(t *testing.T) {
	caller := contract.Lookup("ExpandA44AMD64")
	if caller == nil || len(caller.Calls) == 0 {
		t.Fatal("ExpandA44AMD64 has no contract with calls")
	}
	callee := contract.Lookup(caller.Calls[0])
	other := contract.Lookup("NTTAVX2")
	for _, tc := range []struct {
		noCallees           bool
		caller, callee, oth bool
	}{{false, true, true, false}, {true, true, false, false}} {
		opt := PackageOptions{Only: caller.Symbol, NoCallees: tc.noCallees}
		if got := [3]bool{opt.selects(caller), opt.selects(callee), opt.selects(other)}; got != [3]bool{tc.caller, tc.callee, tc.oth} {
			t.Errorf("NoCallees=%v: selects caller, callee, other = %v, want %v", tc.noCallees, got, [3]bool{tc.caller, tc.callee, tc.oth})
		}
	}
	if !(PackageOptions{NoCallees: true}).selects(callee) {
		t.Error("without Only, every routine is checked")
	}
	// Several routines, separated by commas.
	opt := PackageOptions{Only: "NTTAVX2," + caller.Symbol, NoCallees: true}
	if !opt.selects(caller) || !opt.selects(other) || opt.selects(callee) {
		t.Errorf("Only %q selects caller, other, callee = %v, %v, %v", opt.Only, opt.selects(caller), opt.selects(other), opt.selects(callee))
	}
}

// Done is called once per routine checked, one call at a time, with a
// count that rises to the number of routines and each routine's own
// results, which are Package's when nothing lowers them.
func TestPackageDone(t *testing.T) {
	src, err := os.ReadFile("../../go/asm/polyadd_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	f, err := x86.ParseFile("polyadd_amd64.s", string(src))
	if err != nil {
		t.Fatal(err)
	}
	var in Input
	for _, r := range f.Routines {
		in.Units = append(in.Units, Unit{f, r})
	}
	var calls []int
	var streamed []Result
	res, err := Package(in, PackageOptions{Runs: 1, Only: "PolyAdd", Done: func(done, total int, rs []Result) {
		if total != len(f.Routines) {
			t.Errorf("Done: total %d, want %d", total, len(f.Routines))
		}
		calls = append(calls, done)
		streamed = append(streamed, rs...)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Routines) < 2 || len(calls) != len(f.Routines) {
		t.Fatalf("Done called %d times (%v) for %d routines", len(calls), calls, len(f.Routines))
	}
	for i, d := range calls {
		if d != i+1 {
			t.Errorf("Done's counts %v, want 1 to %d", calls, len(f.Routines))
		}
	}
	key := func(r Result) string { return r.Routine + "/" + r.Variant + " " + r.Obligation + " " + r.Status }
	got := map[string]bool{}
	for _, r := range streamed {
		got[key(r)] = true
	}
	if len(streamed) != len(res) {
		t.Errorf("Done saw %d results, Package returned %d", len(streamed), len(res))
	}
	for _, r := range res {
		if !got[key(r)] {
			t.Errorf("Package's %s was not passed to Done", key(r))
		}
	}
}
