package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/tools/checks/internal/scratch"
)

var clean = map[string]string{
	tablePath: `
op KeyGen GenerateKey
op Verify Verify PublicKey.Check
params ML-DSA-44 params44
params ML-DSA-65 params65
remainder one
`,
	"README.md": "# x\n\n<!-- algorithms:begin -->\n<!-- algorithms:end -->\n\nmore\n",
	"go/asm/a_amd64.s": `
//go:build amd64 && gc && !purego

// func FAMD64(a *[4]uint32)
TEXT ·FAMD64(SB), 4, $0-8
	RET

// func FourAVX2(a *[4]uint32)
// Requires: AVX, AVX2
TEXT ·FourAVX2(SB), 4, $0-8
	RET
`,
	"go/asm/a_amd64.go": `
//go:build amd64 && gc && !purego

package asm

func FAMD64(a *[4]uint32)

func FourAVX2(a *[4]uint32)
`,
	"go/mldsa/m.go": `
package mldsa

type params struct{ k, l int }

var (
	params44 = params{k: 4, l: 4}
	params65 = params{k: 6, l: 5}
)

type PublicKey struct{}

func GenerateKey() { expand(); ntt() }

func Verify() { expand() }

func (pk *PublicKey) Check() { f(nil) }

func expand() {
	four(nil)
	one(nil)
}

func fGeneric(a *[4]uint32)    {}
func fourGeneric(a *[4]uint32) { f(a) }
func oneGeneric(a *[4]uint32)  { f(a) }

var ntt = nttGeneric

func nttGeneric() {}
`,
	"go/mldsa/m_amd64.go": `
//go:build amd64 && !purego

package mldsa

import "github.com/vg-crypto/vg/go/asm"

var useAVX2 = false

func f(a *[4]uint32) { asm.FAMD64(a) }

func four(a *[4]uint32) {
	if useAVX2 {
		fourAVX2(a)
		return
	}
	fourAMD64(a)
}

func fourAVX2(a *[4]uint32) { asm.FourAVX2(a) }

func fourAMD64(a *[4]uint32) { asm.FAMD64(a) }

func one(a *[4]uint32) { oneGeneric(a) }
`,
}

const report = `[
 {"routine":"F","variant":"AMD64","obligation":"memory","status":"proven","seconds":1},
 {"routine":"F","variant":"AMD64","obligation":"correct","status":"proven","seconds":1},
 {"routine":"Four","variant":"AVX2","obligation":"memory","status":"proven","seconds":1},
 {"routine":"Four","variant":"AVX2","obligation":"correct","status":"tested","seconds":1}
]`

var syms = map[string]string{"F/AMD64": "FAMD64", "Four/AVX2": "FourAVX2"}

const want = "# x\n\n" + `<!-- algorithms:begin -->
<!-- Written by ` + "`go run ./tools/checks/algorithms_table`" + `; do not edit. -->

| Routine | ML-DSA-44 | ML-DSA-65 | With AVX2 | Baseline x86-64 | Pure Go (other platforms, ` + "`-tags purego`" + `) |
|---|---|---|---|---|---|
| ` + "`f`" + ` | KeyGen, Verify | KeyGen, Verify | assembly ` + "`FAMD64`" + ` (proven) | assembly ` + "`FAMD64`" + ` (proven) | Go ` + "`fGeneric`" + ` |
| ` + "`four`" + ` | KeyGen, Verify | KeyGen, Verify | assembly ` + "`FourAVX2`" + ` (tested (1 of 2 obligations proven)) via ` + "`fourAVX2`" + ` | assembly ` + "`FAMD64`" + ` (proven) via ` + "`fourAMD64`" + ` | Go ` + "`fourGeneric`" + ` |
| ` + "`ntt`" + ` | KeyGen | KeyGen | Go ` + "`nttGeneric`" + ` | Go ` + "`nttGeneric`" + ` | Go ` + "`nttGeneric`" + ` |
| ` + "`one`" + ` | — | KeyGen, Verify | Go ` + "`oneGeneric`" + ` | Go ` + "`oneGeneric`" + ` | Go ` + "`oneGeneric`" + ` |

A parameter set's column lists the operations that run the routine; each column of features shows the variant that runs there (— when none does), and for assembly the status of its proof in ` + "`vg prove`" + `.
<!-- algorithms:end -->

more
`

func setup(t *testing.T, files map[string]string) (root, saved string) {
	root = scratch.Tree(t, files)
	saved = filepath.Join(t.TempDir(), "prove.json")
	if err := os.WriteFile(saved, []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, saved
}

func TestWriteThenCheck(t *testing.T) {
	root, saved := setup(t, clean)
	l, _, err := run(root, true, saved, syms)
	if err != nil {
		t.Fatal(err)
	}
	// The README has no table yet.
	scratch.Expect(t, l.Strings(), "README.md:3: the table of algorithms differs from the code; run go run ./tools/checks/algorithms_table")
	if l, _, err = run(root, false, saved, syms); err != nil || len(l) > 0 {
		t.Fatal(err, l)
	}
	got, _ := os.ReadFile(filepath.Join(root, "README.md"))
	if string(got) != want {
		t.Errorf("README.md:\n%s\nwant:\n%s", got, want)
	}
	l, summary, err := run(root, true, saved, syms)
	if err != nil || len(l) > 0 {
		t.Fatal(err, l)
	}
	if summary != "4 routines, 2 parameter sets, 2 operations; README.md is up to date" {
		t.Errorf("summary %q", summary)
	}
}

func TestDrift(t *testing.T) {
	// An edited table fails the check.
	root, saved := setup(t, scratch.With(clean, map[string]string{"README.md": strings.Replace(want, "(proven) via", "(proven!) via", 1)}))
	l, _, err := run(root, true, saved, syms)
	if err != nil {
		t.Fatal(err)
	}
	scratch.Expect(t, l.Strings(), "README.md:3: the table of algorithms differs from the code; run go run ./tools/checks/algorithms_table")
	// So does a change of the code under an unchanged table: the AVX2
	// variant no longer dispatched.
	files := scratch.Replace(t, clean, "go/mldsa/m_amd64.go", "	if useAVX2 {\n		fourAVX2(a)\n		return\n	}\n", "")
	files = scratch.Replace(t, files, "go/mldsa/m_amd64.go", "func fourAVX2(a *[4]uint32) { asm.FourAVX2(a) }\n", "")
	files["README.md"] = want
	root, saved = setup(t, files)
	l, _, err = run(root, true, saved, syms)
	if err != nil {
		t.Fatal(err)
	}
	scratch.Expect(t, l.Strings(), "README.md:3: the table of algorithms differs from the code; run go run ./tools/checks/algorithms_table")
	// And a change of proof status.
	root, saved = setup(t, scratch.With(clean, map[string]string{"README.md": want}))
	os.WriteFile(saved, []byte(strings.Replace(report, `"tested"`, `"proven"`, 1)), 0o644)
	l, _, _ = run(root, true, saved, syms)
	scratch.Expect(t, l.Strings(), "README.md:3: the table of algorithms differs from the code; run go run ./tools/checks/algorithms_table")
}

func TestConfigErrors(t *testing.T) {
	files := scratch.Replace(t, clean, tablePath, "op Verify Verify PublicKey.Check", "op Verify Verify PublicKey.Gone")
	files = scratch.Replace(t, files, tablePath, "params ML-DSA-65 params65", "params ML-DSA-65 params99")
	root, saved := setup(t, files)
	l, _, err := run(root, true, saved, syms)
	if err != nil {
		t.Fatal(err)
	}
	scratch.Expect(t, l.Strings(),
		tablePath+":2: Verify: go/mldsa has no PublicKey.Gone",
		tablePath+":4: ML-DSA-65: go/mldsa has no variable params99 holding a composite literal")
}
