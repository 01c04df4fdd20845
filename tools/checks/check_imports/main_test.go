package main

import (
	"testing"

	"github.com/vg-crypto/vg/tools/checks/internal/scratch"
)

// clean is a tree that keeps every rule.
var clean = map[string]string{
	"Spec/fips202/f.go": `
package fips202

import "math/bits"

var _ = bits.Len
`,
	"Spec/fips204/f.go": `
package fips204

import (
	"fmt"

	"github.com/vg-crypto/vg/Spec/fips202"
)

var _, _ = fmt.Sprint, fips202.X
`,
	"Spec/fips204/f_test.go": `
package fips204

import "testing"

func TestX(t *testing.T) {}
`,
	"go/asm/a_amd64.go": `
//go:build amd64 && !purego

package asm

func F()
`,
	"go/mldsa/r_amd64.go": `
//go:build amd64 && !purego

package mldsa

import (
	"github.com/vg-crypto/vg/go/asm"
	"golang.org/x/sys/cpu"
)

var _, _ = asm.F, cpu.X86
`,
	"go/mldsa/example_test.go": `
package mldsa_test

import "github.com/vg-crypto/vg/go/mldsa"

var _ = mldsa.X
`,
	"go/mldsa/r_test.go": `
package mldsa

import (
	"testing"

	"github.com/vg-crypto/vg/internal/vectors"
)

func TestV(t *testing.T) { _ = vectors.Dir }
`,
	"Emit/main.go": `
package main

import "github.com/vg-crypto/vg/go/asm"

var _ = asm.F
`,
}

func check(t *testing.T, files map[string]string) []string {
	t.Helper()
	l, _, err := run(scratch.Tree(t, files))
	if err != nil {
		t.Fatal(err)
	}
	return l.Strings()
}

func TestClean(t *testing.T) {
	scratch.Expect(t, check(t, clean))
}

func TestSpecImportsOutside(t *testing.T) {
	files := scratch.Replace(t, clean, "Spec/fips202/f.go", `import "math/bits"`, `import "github.com/vg-crypto/vg/internal/vectors"`)
	scratch.Expect(t, check(t, files),
		`Spec/fips202/f.go:3: imports "github.com/vg-crypto/vg/internal/vectors": Spec/ may import only the standard library and Spec/`)
	// Test files count too.
	files = scratch.Replace(t, clean, "Spec/fips204/f_test.go", `import "testing"`, `import ("testing"; _ "golang.org/x/sys/cpu")`)
	scratch.Expect(t, check(t, files),
		`Spec/fips204/f_test.go:3: imports "golang.org/x/sys/cpu": Spec/ may import only the standard library and Spec/`)
}

func TestImportsEmitOrProofs(t *testing.T) {
	files := scratch.With(clean, map[string]string{
		"go/mldsa/hint.go": "package mldsa\n\nimport _ \"github.com/vg-crypto/vg/Proofs/keccak\"\n",
		"Spec/check/c.go":  "package check\n\n// x\nimport _ \"github.com/vg-crypto/vg/Emit\"\n",
	})
	scratch.Expect(t, check(t, files),
		`Spec/check/c.go:4: imports "github.com/vg-crypto/vg/Emit": Spec/ may import only the standard library and Spec/`,
		`Spec/check/c.go:4: imports "github.com/vg-crypto/vg/Emit": nothing under Spec/ or go/ may import Emit/ or Proofs/`,
		`go/mldsa/hint.go:3: imports "github.com/vg-crypto/vg/Proofs/keccak": nothing under Spec/ or go/ may import Emit/ or Proofs/`,
		`go/mldsa/hint.go:3: imports "github.com/vg-crypto/vg/Proofs/keccak": the library (go/) may use only the standard library and golang.org/x/sys`)
}

func TestLibraryDependency(t *testing.T) {
	files := scratch.With(clean, map[string]string{
		"go/mldsa/dep.go": "package mldsa\n\nimport _ \"github.com/mmcloughlin/avo/build\"\n",
	})
	scratch.Expect(t, check(t, files),
		`go/mldsa/dep.go:3: imports "github.com/mmcloughlin/avo/build": the library (go/) may use only the standard library and golang.org/x/sys`)
}

func TestAsmFromPortableFile(t *testing.T) {
	// No constraint at all.
	files := scratch.With(clean, map[string]string{
		"go/mldsa/x.go": "package mldsa\n\nimport _ \"github.com/vg-crypto/vg/go/asm\"\n",
	})
	scratch.Expect(t, check(t, files),
		`go/mldsa/x.go:3: reaches github.com/vg-crypto/vg/go/asm but is built for 386, amd64, arm, arm64 and 10 more: only files built for amd64 alone may`)
	// A constraint that lets arm64 in.
	files = scratch.Replace(t, clean, "go/mldsa/r_amd64.go", "//go:build amd64 && !purego", "//go:build (amd64 || arm64) && !purego")
	files["go/mldsa/r.go"] = files["go/mldsa/r_amd64.go"]
	delete(files, "go/mldsa/r_amd64.go")
	scratch.Expect(t, check(t, files),
		`go/mldsa/r.go:6: reaches github.com/vg-crypto/vg/go/asm but is built for amd64, arm64: only files built for amd64 alone may`)
	// Through another package of the module.
	files = scratch.With(clean, map[string]string{
		"go/internal/wrap/w.go": "package wrap\n\nimport _ \"github.com/vg-crypto/vg/go/asm\"\n",
		"go/mldsa/y_test.go":    "package mldsa\n\nimport _ \"github.com/vg-crypto/vg/go/internal/wrap\"\n",
	})
	scratch.Expect(t, check(t, files),
		`go/mldsa/y_test.go:3: reaches github.com/vg-crypto/vg/go/asm (through github.com/vg-crypto/vg/go/internal/wrap) but is built for 386, amd64, arm, arm64 and 10 more: only files built for amd64 alone may`)
}
