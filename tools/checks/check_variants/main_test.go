package main

import (
	"strings"
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/tools/checks/internal/scratch"
)

var clean = map[string]string{
	routinesPath: `
# test routines
f Generic AMD64
g Generic AMD64
`,
	"go/asm/f_amd64.s": `
//go:build amd64 && gc && !purego

// func FAMD64(a *[4]uint32)
TEXT ·FAMD64(SB), 4, $0-8
	RET

// func FAVX2(a *[4]uint32)
// Requires: AVX, AVX2
TEXT ·FAVX2(SB), 4, $0-8
	RET
`,
	"go/asm/f_amd64.go": `
//go:build amd64 && gc && !purego

package asm

func FAMD64(a *[4]uint32)

func FAVX2(a *[4]uint32)
`,
	"go/mldsa/f.go": `
package mldsa

type elem [4]uint32

func fGeneric(a *[4]uint32) {}

func gGeneric(a *elem) { f((*[4]uint32)(a)) }

func h(a *[4]uint32) { f(a) }
`,
	"go/mldsa/f_amd64.go": `
//go:build amd64 && !purego

package mldsa

import "github.com/vg-crypto/vg/go/asm"

var useAVX2 = false

func f(a *[4]uint32) {
	if useAVX2 {
		fAVX2(a)
		return
	}
	asm.FAMD64(a)
}

func fAVX2(a *[4]uint32) { asm.FAVX2(a) }

func gAMD64(a *elem) { asm.FAMD64((*[4]uint32)(a)) }

func init() {
	g = gAMD64
}
`,
	"go/mldsa/f_noasm.go": `
//go:build !amd64 || purego

package mldsa

func f(a *[4]uint32) { fGeneric(a) }
`,
	"go/mldsa/g.go": `
package mldsa

var g = gGeneric
`,
	"go/mldsa/variants.go": `
package mldsa

var variants = map[string][]any{
	"f": {fGeneric},
	"g": {gGeneric},
}
`,
	"go/mldsa/variants_amd64.go": `
//go:build amd64 && !purego

package mldsa

import "github.com/vg-crypto/vg/go/asm"

func init() {
	variants["f"] = append(variants["f"], asm.FAMD64, fAVX2)
	variants["g"] = append(variants["g"], gAMD64)
}
`,
}

func check(t *testing.T, files map[string]string) []string {
	t.Helper()
	l, _, err := run(scratch.Tree(t, files), nil)
	if err != nil {
		t.Fatal(err)
	}
	return l.Strings()
}

func TestClean(t *testing.T) {
	scratch.Expect(t, check(t, clean))
	_, summary, _ := run(scratch.Tree(t, clean), nil)
	if want := "2 routines with 5 variants, all dispatched and registered; 2 routines listed"; summary != want {
		t.Errorf("summary %q, want %q", summary, want)
	}
}

const rt = routinesPath + ":"

func TestMissing(t *testing.T) {
	files := scratch.Replace(t, clean, routinesPath, "g Generic AMD64\n", "g Generic AMD64 AVX2\nntt Generic AMD64\n")
	scratch.Expect(t, check(t, files),
		rt+"3: g: no AVX2 variant (gAVX2 in go/mldsa or GAVX2 in go/asm)",
		rt+"4: ntt: no such routine in go/mldsa")
	// A Generic variant that is not there.
	files = scratch.Replace(t, clean, "go/mldsa/f.go", "func gGeneric(a *elem) { f((*[4]uint32)(a)) }\n", "")
	files = scratch.Replace(t, files, "go/mldsa/g.go", "var g = gGeneric", "var g = gAMD64")
	files = scratch.Replace(t, files, "go/mldsa/variants.go", `	"g": {gGeneric},`+"\n", "")
	scratch.Expect(t, check(t, files), rt+"3: g: no Generic variant (gGeneric in go/mldsa)")
}

func TestSignature(t *testing.T) {
	files := scratch.Replace(t, clean, "go/mldsa/f_amd64.go", "func fAVX2(a *[4]uint32) { asm.FAVX2(a) }", "func fAVX2(a *[4]uint32, n int) { asm.FAVX2(a) }")
	scratch.Expect(t, check(t, files),
		"go/mldsa/f_amd64.go:17: fAVX2 has signature (*[4]uint32, int), but f has (*[4]uint32)")
	// go/asm's routine used as the variant must match too.
	files = scratch.Replace(t, clean, "go/asm/f_amd64.go", "func FAMD64(a *[4]uint32)", "func FAMD64(a *elem)")
	scratch.Expect(t, check(t, files),
		"go/asm/f_amd64.s:4: asm.FAMD64 has signature (*elem), but f has (*[4]uint32)")
}

func TestDeadVariant(t *testing.T) {
	files := scratch.Replace(t, clean, "go/mldsa/f_amd64.go", "	if useAVX2 {\n		fAVX2(a)\n		return\n	}\n", "")
	scratch.Expect(t, check(t, files),
		"go/mldsa/f_amd64.go:13: fAVX2 is not dispatched: no declaration of f, or assignment to it, refers to it")
	files = scratch.Replace(t, clean, "go/mldsa/f_amd64.go", "	g = gAMD64\n", "")
	scratch.Expect(t, check(t, files),
		"go/mldsa/f_amd64.go:19: gAMD64 is not dispatched: no declaration of g, or assignment to it, refers to it")
}

func TestDeadAssembly(t *testing.T) {
	files := scratch.Replace(t, clean, "go/asm/f_amd64.s", "// func FAVX2", "// func GAVX2(a *elem)\nTEXT ·GAVX2(SB), 4, $0-8\n	RET\n\n// func FAVX2")
	scratch.Expect(t, check(t, files), "go/asm/f_amd64.s:8: asm.GAVX2 is not used by go/mldsa: dead assembly")
}

func TestUnregistered(t *testing.T) {
	files := scratch.Replace(t, clean, "go/mldsa/variants_amd64.go", "asm.FAMD64, fAVX2)", "fAVX2)")
	scratch.Expect(t, check(t, files),
		"go/asm/f_amd64.s:4: asm.FAMD64 is not registered in go/mldsa/variants*.go, so the variant tests do not run it")
}

func TestSlowCallee(t *testing.T) {
	files := scratch.Replace(t, clean, "go/mldsa/f.go", "func h(a *[4]uint32) { f(a) }", "func h(a *[4]uint32) { fGeneric(a) }")
	scratch.Expect(t, check(t, files),
		"go/mldsa/f.go:9: h uses fGeneric directly: call f, which dispatches to the fastest variant")
	// A baseline variant of g calling f's generic code while f has
	// baseline assembly.
	files = scratch.Replace(t, clean, "go/mldsa/f_amd64.go", "func gAMD64(a *elem) { asm.FAMD64((*[4]uint32)(a)) }", "func gAMD64(a *elem) { fGeneric((*[4]uint32)(a)) }")
	scratch.Expect(t, check(t, files),
		"go/mldsa/f_amd64.go:19: gAMD64 runs no assembly of go/asm: it is not an AMD64 assembly variant",
		"go/mldsa/f_amd64.go:19: gAMD64 uses fGeneric, but asm.FAMD64 is faster and allowed at its level")
}

func TestWide(t *testing.T) {
	files := scratch.Replace(t, clean, routinesPath, "g Generic AMD64\n", "g Generic AMD64\nwide f g\n")
	// h runs f alone.
	scratch.Expect(t, check(t, files),
		"go/mldsa/f.go:9: h runs f but never g: run four at a time, the rest singly")
	// Running both is right.
	files = scratch.Replace(t, files, "go/mldsa/f.go", "func h(a *[4]uint32) { f(a) }", "func h(a *[4]uint32) { g((*elem)(a)); f(a) }")
	scratch.Expect(t, check(t, files))
}

func TestVariantWithoutAssembly(t *testing.T) {
	files := scratch.Replace(t, clean, "go/mldsa/f_amd64.go", "func gAMD64(a *elem) { asm.FAMD64((*[4]uint32)(a)) }", "func gAMD64(a *elem) { gGeneric(a) }")
	scratch.Expect(t, check(t, files),
		"go/mldsa/f_amd64.go:19: gAMD64 runs no assembly of go/asm: it is not an AMD64 assembly variant")
}

func TestPending(t *testing.T) {
	// A pending AVX2 variant of g is not required, and the summary names it.
	files := scratch.Replace(t, clean, routinesPath, "g Generic AMD64\n", "g Generic AMD64 ~AVX2\n")
	scratch.Expect(t, check(t, files))
	_, summary, _ := run(scratch.Tree(t, files), nil)
	if want := "; 1 variants not yet written: gAVX2"; !strings.HasSuffix(summary, want) {
		t.Errorf("summary %q, want it to end in %q", summary, want)
	}
	// Marking a variant that exists as pending is an error.
	files = scratch.Replace(t, clean, routinesPath, "f Generic AMD64\n", "f Generic ~AMD64\n")
	scratch.Expect(t, check(t, files), rt+"2: f: the AMD64 variant has landed: write AMD64, not ~AMD64")
}

// The contracts state the assembly variants: each one's variant must exist
// in go/mldsa, its routine must be listed, and routines.txt may not copy it.
func TestContracts(t *testing.T) {
	fAVX2 := &contract.Contract{Symbol: "FAVX2", GoName: "f", Variant: "AVX2"}
	l, _, err := run(scratch.Tree(t, clean), []*contract.Contract{fAVX2})
	if err != nil {
		t.Fatal(err)
	}
	scratch.Expect(t, l.Strings())
	// Planted disagreements: a contract for a variant go/mldsa lacks, one
	// for a routine routines.txt does not list, and a copy in routines.txt.
	gAVX2 := &contract.Contract{Symbol: "GAVX2", GoName: "g", Variant: "AVX2"}
	hAMD64 := &contract.Contract{Symbol: "HAMD64", GoName: "h", Variant: "AMD64"}
	files := scratch.Replace(t, clean, routinesPath, "f Generic AMD64\n", "f Generic AMD64 AVX2\n")
	l, _, err = run(scratch.Tree(t, files), []*contract.Contract{fAVX2, gAVX2, hAMD64})
	if err != nil {
		t.Fatal(err)
	}
	scratch.Expect(t, l.Strings(),
		"Spec/contract: HAMD64: its go/mldsa routine h is not in "+routinesPath,
		"Spec/contract: GAVX2: no AVX2 variant of g (gAVX2 in go/mldsa)",
		rt+"2: f: AVX2 is stated by its contract in Spec/contract: do not list it here")
}

// A contract's routine keeps its stem: the generic code in <stem>.go, the
// dispatch in <stem>_amd64.go and <stem>_noasm.go.
func TestStemFiles(t *testing.T) {
	cs := []*contract.Contract{{Symbol: "FAMD64", GoName: "f", Variant: "AMD64", Stem: "f"}}
	files := scratch.Replace(t, clean, routinesPath, "f Generic AMD64\n", "f Generic\n")
	l, _, err := run(scratch.Tree(t, files), cs)
	if err != nil {
		t.Fatal(err)
	}
	scratch.Expect(t, l.Strings())
	// The generic code moved to another file, the dispatch of one build
	// to a file of another stem.
	files = scratch.Replace(t, files, "go/mldsa/f.go", "func fGeneric(a *[4]uint32) {}\n", "")
	files = scratch.Replace(t, files, "go/mldsa/g.go", "var g = gGeneric\n", "var g = gGeneric\n\nfunc fGeneric(a *[4]uint32) {}\n")
	files["go/mldsa/h_noasm.go"] = files["go/mldsa/f_noasm.go"]
	delete(files, "go/mldsa/f_noasm.go")
	l, _, err = run(scratch.Tree(t, files), cs)
	if err != nil {
		t.Fatal(err)
	}
	scratch.Expect(t, l.Strings(),
		contractDir+": FAMD64: fGeneric is not declared in go/mldsa/f.go: a routine's files share its stem (f)",
		contractDir+": FAMD64: f is not declared in go/mldsa/f_noasm.go: a routine's files share its stem (f)")
}
