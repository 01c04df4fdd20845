package main

import (
	"os"
	"testing"

	"github.com/vg-crypto/vg/tools/checks/internal/scratch"
)

// clean is a small tree laid out as vg's: go/asm with a baseline and an
// AVX2 routine, go/mldsa dispatching to them.
var clean = map[string]string{
	"go/asm/f_amd64.s": `
//go:build amd64 && gc && !purego

#include "textflag.h"

// func FAMD64(a *[4]uint32)
// Requires: SSE2
TEXT ·FAMD64(SB), NOSPLIT, $0-8
	RET

// func FAVX2(a *[4]uint32)
// Requires: AVX, AVX2
TEXT ·FAVX2(SB), NOSPLIT, $0-8
	VZEROUPPER
	RET
`,
	"go/asm/f_amd64.go": `
//go:build amd64 && gc && !purego

package asm

func FAMD64(a *[4]uint32)

func FAVX2(a *[4]uint32)
`,
	"go/mldsa/cpu_amd64.go": `
//go:build amd64 && !purego

package mldsa

import "golang.org/x/sys/cpu"

var useAVX2 = cpu.X86.HasAVX2
`,
	"go/mldsa/f.go": `
package mldsa

func fGeneric(a *[4]uint32) {}
`,
	"go/mldsa/f_amd64.go": `
//go:build amd64 && !purego

package mldsa

import (
	"github.com/vg-crypto/vg/go/asm"
	"golang.org/x/sys/cpu"
)

func f(a *[4]uint32) {
	if useAVX2 {
		fAVX2(a)
		return
	}
	asm.FAMD64(a)
}

func g(a *[4]uint32) {
	if !useAVX2 {
		fGeneric(a)
		return
	}
	fAVX2(a)
}

func fAVX2(a *[4]uint32) { asm.FAVX2(a) }

var variants = []struct {
	name string
	fn   func(*[4]uint32)
	ok   bool
}{
	{"AMD64", asm.FAMD64, true},
	{"AVX2", fAVX2, useAVX2},
}

func register(name string, fn any, usable bool) {}

func init() {
	register("AVX2", fAVX2, cpu.X86.HasAVX2)
}
`,
	"go/mldsa/f_noasm.go": `
//go:build !amd64 || purego

package mldsa

func f(a *[4]uint32) { fGeneric(a) }
`,
	"go/mldsa/f_amd64_test.go": `
//go:build amd64 && !purego

package mldsa

import (
	"testing"

	"golang.org/x/sys/cpu"
)

func needAVX2(t *testing.T) {
	if !cpu.X86.HasAVX2 {
		t.Skip("no AVX2")
	}
}

func TestFAVX2(t *testing.T) {
	needAVX2(t)
	var a [4]uint32
	fAVX2(&a)
}

func TestFAMD64(t *testing.T) {
	var a [4]uint32
	f(&a)
}
`,
	"go/mldsa/f_test.go": `
package mldsa

import "testing"

func TestF(t *testing.T) {
	var a [4]uint32
	f(&a)
}
`,
}

// contracts are the scratch routines' contract features.
var contracts = map[string][]string{"FAMD64": nil, "FAVX2": {"AVX", "AVX2"}}

// tree is a scratch tree with files and the real features.txt.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	data, err := os.ReadFile("features.txt")
	if err != nil {
		t.Fatal(err)
	}
	return scratch.Tree(t, scratch.With(files, map[string]string{featuresPath: string(data)}))
}

func check(t *testing.T, files map[string]string) []string {
	t.Helper()
	l, _, err := run(tree(t, files), contracts)
	if err != nil {
		t.Fatal(err)
	}
	return l.Strings()
}

func TestClean(t *testing.T) {
	scratch.Expect(t, check(t, clean))
	_, summary, _ := run(tree(t, clean), contracts)
	if want := "3 uses of 2 assembly routines gated, 1 tests and benchmarks built where their routines exist"; summary != want {
		t.Errorf("summary %q, want %q", summary, want)
	}
}

func TestAsmInPortableFile(t *testing.T) {
	files := scratch.Replace(t, clean, "go/mldsa/f_test.go", "	f(&a)\n", "	f(&a)\n	asm.FAMD64(&a)\n")
	files = scratch.Replace(t, files, "go/mldsa/f_test.go", `import "testing"`, "import (\"testing\"\n\n\t\"github.com/vg-crypto/vg/go/asm\"\n)")
	scratch.Expect(t, check(t, files),
		"go/mldsa/f_test.go:8: TestF runs asm.FAMD64 but its file is not built exactly where the routine exists: also built for 386, 386 -tags cpu_features_env, 386 -tags purego, ...",
		"go/mldsa/f_test.go:11: asm.FAMD64 is used in a file built beyond amd64 && !purego (also 386, 386 -tags cpu_features_env, 386 -tags purego, ...)")
	// purego alone is enough to be wrong.
	files = scratch.Replace(t, clean, "go/mldsa/f_amd64.go", "//go:build amd64 && !purego", "//go:build amd64")
	scratch.Expect(t, check(t, files),
		"go/mldsa/f_amd64.go:15: asm.FAMD64 is used in a file built beyond amd64 && !purego (also amd64 -tags purego)",
		"go/mldsa/f_amd64.go:26: asm.FAVX2 is used in a file built beyond amd64 && !purego (also amd64 -tags purego)",
		"go/mldsa/f_amd64.go:33: asm.FAMD64 is used in a file built beyond amd64 && !purego (also amd64 -tags purego)")
}

func TestUnguardedDispatch(t *testing.T) {
	files := scratch.Replace(t, clean, "go/mldsa/f_amd64.go", "	if useAVX2 {\n		fAVX2(a)", "	if a[0] == 0 {\n		fAVX2(a)")
	scratch.Expect(t, check(t, files),
		"go/mldsa/f_amd64.go:12: f calls fAVX2, which needs AVX, AVX2, without a check that the CPU has it (guard with cpu.X86.HasAVX2 or useAVX2 or useAVX512)")
	// An early return on the wrong condition.
	files = scratch.Replace(t, clean, "go/mldsa/f_amd64.go", "	if !useAVX2 {\n		fGeneric(a)\n		return", "	if !useAVX2 {\n		fGeneric(a)")
	scratch.Expect(t, check(t, files),
		"go/mldsa/f_amd64.go:22: g calls fAVX2, which needs AVX, AVX2, without a check that the CPU has it (guard with cpu.X86.HasAVX2 or useAVX2 or useAVX512)")
}

func TestUnguardedRegistry(t *testing.T) {
	files := scratch.Replace(t, clean, "go/mldsa/f_amd64.go", `{"AVX2", fAVX2, useAVX2}`, `{"AVX2", fAVX2, true}`)
	scratch.Expect(t, check(t, files),
		"go/mldsa/f_amd64.go:34: package-level code uses fAVX2, which needs AVX, AVX2, without a check that the CPU has it (guard with cpu.X86.HasAVX2 or useAVX2 or useAVX512)")
}

func TestMethodSuffix(t *testing.T) {
	// A method's suffix allows nothing: its callers are not tracked.
	files := scratch.Replace(t, clean, "go/mldsa/f_amd64.go", "func fAVX2(a *[4]uint32) { asm.FAVX2(a) }", "func fAVX2(a *[4]uint32) { asm.FAVX2(a) }\n\ntype s struct{}\n\nfunc (s) mAVX2(a *[4]uint32) { asm.FAVX2(a) }")
	scratch.Expect(t, check(t, files),
		"go/mldsa/f_amd64.go:30: mAVX2 calls asm.FAVX2, which needs AVX, AVX2, without a check that the CPU has it (guard with cpu.X86.HasAVX2 or useAVX2 or useAVX512)")
}

func TestUnguardedRegisterCall(t *testing.T) {
	files := scratch.Replace(t, clean, "go/mldsa/f_amd64.go", `register("AVX2", fAVX2, cpu.X86.HasAVX2)`, `register("AVX2", fAVX2, true)`)
	scratch.Expect(t, check(t, files),
		"go/mldsa/f_amd64.go:40: init uses fAVX2, which needs AVX, AVX2, without a check that the CPU has it (guard with cpu.X86.HasAVX2 or useAVX2 or useAVX512)")
}

func TestUnguardedTest(t *testing.T) {
	files := scratch.Replace(t, clean, "go/mldsa/f_amd64_test.go", "	needAVX2(t)\n", "")
	scratch.Expect(t, check(t, files),
		"go/mldsa/f_amd64_test.go:19: TestFAVX2 calls fAVX2, which needs AVX, AVX2, without a check that the CPU has it (guard with cpu.X86.HasAVX2 or useAVX2 or useAVX512)")
	// A helper that returns instead of skipping proves nothing.
	files = scratch.Replace(t, clean, "go/mldsa/f_amd64_test.go", `t.Skip("no AVX2")`, `return`)
	scratch.Expect(t, check(t, files),
		"go/mldsa/f_amd64_test.go:20: TestFAVX2 calls fAVX2, which needs AVX, AVX2, without a check that the CPU has it (guard with cpu.X86.HasAVX2 or useAVX2 or useAVX512)")
}

func TestGuardSource(t *testing.T) {
	files := scratch.Replace(t, clean, "go/mldsa/cpu_amd64.go", "var useAVX2 = cpu.X86.HasAVX2", "var useAVX2 = cpu.X86.HasAVX")
	scratch.Expect(t, check(t, files),
		"go/mldsa/cpu_amd64.go:7: useAVX2 is set to cpu.X86.HasAVX, which does not come from cpu.X86.HasAVX2")
}

func TestTestBuiltTooNarrowly(t *testing.T) {
	files := scratch.Replace(t, clean, "go/mldsa/f_amd64_test.go", "//go:build amd64 && !purego", "//go:build amd64 && !purego && linux")
	scratch.Expect(t, check(t, files),
		"go/mldsa/f_amd64_test.go:17: TestFAVX2 runs asm.FAVX2 but its file is not built exactly where the routine exists: not built for darwin/amd64, darwin/amd64 -tags cpu_features_env, darwin/amd64 -tags valgrind, ...")
	files = scratch.Replace(t, clean, "go/mldsa/f_amd64_test.go", "//go:build amd64 && !purego", "//go:build amd64 && !purego && !cpu_features_env")
	scratch.Expect(t, check(t, files),
		"go/mldsa/f_amd64_test.go:17: TestFAVX2 runs asm.FAVX2 but its file is not built exactly where the routine exists: not built for amd64 -tags cpu_features_env, amd64 -tags valgrind,cpu_features_env")
}

func TestContract(t *testing.T) {
	// The contract's features count even when // Requires: omits them.
	files := scratch.Replace(t, clean, "go/asm/f_amd64.s", "// Requires: AVX, AVX2\n", "")
	files = scratch.Replace(t, files, "go/mldsa/f_amd64_test.go", "	needAVX2(t)\n", "")
	scratch.Expect(t, check(t, files),
		"go/mldsa/f_amd64_test.go:19: TestFAVX2 calls fAVX2, which needs AVX, AVX2, without a check that the CPU has it (guard with cpu.X86.HasAVX2 or useAVX2 or useAVX512)")
	// A routine without a contract.
	files = scratch.Replace(t, clean, "go/asm/f_amd64.s", "TEXT ·FAMD64(SB)", "TEXT ·GAMD64(SB), 4, $0-8\n	RET\n\nTEXT ·FAMD64(SB)")
	scratch.Expect(t, check(t, files),
		"go/asm/f_amd64.s:7: GAMD64 has no contract in Spec/contract, so its CPU features are unknown")
}

func TestRealContracts(t *testing.T) {
	// Every contract names features the guards of features.txt can prove.
	f, err := readFeatures("features.txt")
	if err != nil {
		t.Fatal(err)
	}
	all := map[string]bool{}
	for _, g := range f.Guards {
		for x := range f.closure(g) {
			all[x] = true
		}
	}
	for sym, fs := range contractFeatures() {
		for _, x := range fs {
			if !f.Baseline[x] && !all[x] {
				t.Errorf("contract %s needs %s, which no guard of features.txt proves", sym, x)
			}
		}
	}
}

// valgrindTree adds valgrind's client request (built with purego too) and
// its one caller, built with the tag valgrind.
var valgrindTree = scratch.With(clean, map[string]string{
	"go/asm/v_amd64.s": `
//go:build amd64 && gc

#include "textflag.h"

// func VAMD64(args *[6]uint64)
TEXT ·VAMD64(SB), NOSPLIT, $0-8
	RET
`,
	"go/asm/v_amd64.go": `
//go:build amd64 && gc

package asm

func VAMD64(args *[6]uint64)
`,
	"go/mldsa/ct_valgrind.go": `
//go:build valgrind && amd64 && gc

package mldsa

import "github.com/vg-crypto/vg/go/asm"

func request() { asm.VAMD64(&[6]uint64{}) }
`,
})

func TestValgrindRequest(t *testing.T) {
	valgrindRoutines["VAMD64"] = true
	defer delete(valgrindRoutines, "VAMD64")
	withV := map[string][]string{"FAMD64": nil, "FAVX2": {"AVX", "AVX2"}, "VAMD64": nil}
	l, _, err := run(tree(t, valgrindTree), withV)
	if err != nil {
		t.Fatal(err)
	}
	scratch.Expect(t, l.Strings())
	files := scratch.Replace(t, valgrindTree, "go/mldsa/ct_valgrind.go", "//go:build valgrind && amd64 && gc", "//go:build amd64 && gc")
	l, _, err = run(tree(t, files), withV)
	if err != nil {
		t.Fatal(err)
	}
	scratch.Expect(t, l.Strings(),
		"go/mldsa/ct_valgrind.go:7: asm.VAMD64 is valgrind's client request, to be used only in files built for amd64 with the tag valgrind")
}
