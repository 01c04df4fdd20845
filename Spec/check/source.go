package check

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/vg-crypto/vg/Spec/contract"
)

// The checker proves go/asm as built for linux/amd64 at every GOAMD64
// level. So that this is what every program that has the routines runs
// (any GOOS, any build tags, a test build or not), go/asm may hold only
// what assembles the same everywhere:
//
//   - doc.go, without declarations or a build constraint, and the pairs
//     <stem>_amd64.go and <stem>_amd64.s, each constrained by exactly
//     asmConstraint (valgrindConstraint for the valgrind client request)
//     and selected for every amd64 GOOS (no GOOS in the name, no other
//     tag); nothing else: no _test.go file (a test build
//     gives go_asm.h its constants), no header (#include "textflag.h"
//     would find a local textflag.h first), no .syso or other file;
//   - in the .s files, no preprocessor line but #include "textflag.h" and
//     #include "funcdata.h" (no #ifdef GOOS_…, #define, go_asm.h);
//   - in the .go files, only function declarations without a body (the
//     routines), no import, and no //go: directive but //go:noescape
//     (no //go:linkname binding a Go name to another symbol).
//
// Violations are per file: a routine fails when its own files (those of
// its stem) break a rule, and every routine fails when a file that
// belongs to no stem does.
const asmConstraint = "//go:build amd64 && gc && !purego"

// valgrindConstraint is the valgrind client request's (contract.Valgrind):
// go/mldsa's constant-time build calls it on the pure-Go path too.
const valgrindConstraint = "//go:build amd64 && gc"

// constraintOf is the one build constraint a stem's files carry.
func constraintOf(st string) string {
	for _, c := range contract.All() {
		if c.Stem == st && c.Valgrind {
			return valgrindConstraint
		}
	}
	return asmConstraint
}

// amd64GOOS are the operating systems the Go toolchain builds for amd64
// (go tool dist list).
var amd64GOOS = []string{"android", "darwin", "dragonfly", "freebsd", "illumos", "ios", "linux",
	"netbsd", "openbsd", "plan9", "solaris", "windows"}

// allowedIncludes are the toolchain headers a .s file may include.
var allowedIncludes = map[string]bool{`#include "textflag.h"`: true, `#include "funcdata.h"`: true}

var stemFile = regexp.MustCompile(`^([a-z0-9]+)_amd64\.(go|s)$`)

// globlStatic matches a file-local table's declaration, GLOBL name<>(SB).
var globlStatic = regexp.MustCompile(`^\s*GLOBL\s+([A-Za-z_][A-Za-z0-9_]*)<>\(SB\)`)

// asmSources is what the source rules found: the violations, by file
// (a file of dir's, by base name), and the file-local data symbols the
// .s files declare.
type asmSources struct {
	violations map[string][]string
	statics    map[string]bool
}

// stem is the routine stem of a file, or "" for one that belongs to no
// routine's files.
func stem(file string) string {
	if m := stemFile.FindStringSubmatch(file); m != nil {
		return m[1]
	}
	return ""
}

// AsmStatics returns the file-local data symbols (name<>) that the .s files
// of the go/asm directory dir declare: what x86.Binary.Statics needs to let
// a routine read its own tables in a binary the checker did not build.
func AsmStatics(dir string) (map[string]bool, error) {
	s, err := checkAsmSources(dir, nil)
	if err != nil {
		return nil, err
	}
	return s.statics, nil
}

// checkAsmSources applies the rules above to dir with overlay.
func checkAsmSources(dir string, overlay map[string][]byte) (*asmSources, error) {
	files := map[string][]byte{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() {
			continue // another package; an #include of it is refused below
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		files[e.Name()] = data
	}
	for p, data := range overlay {
		if filepath.Dir(p) == dir {
			files[filepath.Base(p)] = data
		}
	}
	s := &asmSources{violations: map[string][]string{}, statics: map[string]bool{}}
	bad := func(file, format string, args ...any) {
		s.violations[file] = append(s.violations[file], fmt.Sprintf(format, args...))
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		src := files[n]
		switch {
		case n == "doc.go":
			checkGoFile(n, src, "", bad)
		case stem(n) != "" && strings.HasSuffix(n, ".go"):
			checkGoFile(n, src, constraintOf(stem(n)), bad)
		case stem(n) != "":
			checkAsmFile(n, src, constraintOf(stem(n)), s.statics, bad)
		default:
			bad(n, "go/asm may hold only doc.go and <stem>_amd64.go/.s files, not %s", n)
			continue
		}
		// Selection: the same files on every amd64 GOOS, none with purego.
		for _, goos := range amd64GOOS {
			ctx := buildContext(dir, files, goos, nil)
			if ok, err := ctx.MatchFile(dir, n); err != nil || !ok {
				bad(n, "not built for %s/amd64 (%v)", goos, err)
			}
		}
		ctx := buildContext(dir, files, "linux", []string{"purego"})
		if ok, _ := ctx.MatchFile(dir, n); ok && n != "doc.go" && constraintOf(stem(n)) == asmConstraint {
			bad(n, "built with -tags purego")
		}
	}
	return s, nil
}

// buildContext is go/build's view of a gc amd64 build for goos with tags,
// reading dir's files from files.
func buildContext(dir string, files map[string][]byte, goos string, tags []string) build.Context {
	ctx := build.Default
	ctx.GOOS, ctx.GOARCH, ctx.Compiler, ctx.CgoEnabled, ctx.BuildTags = goos, "amd64", "gc", false, tags
	ctx.OpenFile = func(path string) (io.ReadCloser, error) {
		if data, ok := files[filepath.Base(path)]; ok && filepath.Dir(path) == dir {
			return io.NopCloser(strings.NewReader(string(data))), nil
		}
		return nil, os.ErrNotExist
	}
	return ctx
}

// checkGoFile: a routine declaration file (with its constraint) or doc.go
// (constraint "").
func checkGoFile(name string, src []byte, constraint string, bad func(string, string, ...any)) {
	constrained := constraint != ""
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		bad(name, "%v", err)
		return
	}
	if len(f.Imports) > 0 {
		bad(name, "imports a package")
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !constrained || !ok || fd.Body != nil || fd.Recv != nil {
			bad(name, "%s: only function declarations without a body may stand here", fset.Position(d.Pos()))
		}
	}
	sawConstraint := false
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if !strings.HasPrefix(c.Text, "//go:") && !strings.HasPrefix(c.Text, "// +build") && !strings.HasPrefix(c.Text, "//line") {
				continue
			}
			switch {
			case c.Text == constraint && constrained && !sawConstraint:
				sawConstraint = true
			case c.Text == "//go:noescape" && constrained:
			case strings.HasPrefix(c.Text, "//go:generate ") && !constrained:
			default:
				bad(name, "%s: %s is not allowed here", fset.Position(c.Pos()), firstField(c.Text))
			}
		}
	}
	if constrained && !sawConstraint {
		bad(name, "no %q line", constraint)
	}
}

// checkAsmFile: a .s file's constraint and preprocessor lines.
func checkAsmFile(name string, src []byte, constraint string, statics map[string]bool, bad func(string, string, ...any)) {
	sawConstraint := false
	for i, line := range strings.Split(string(src), "\n") {
		t := strings.TrimSpace(line)
		code, _, _ := strings.Cut(line, "//")
		switch {
		case strings.Contains(code, "#") && !allowedIncludes[t]:
			bad(name, "line %d: %q: no preprocessor line but #include \"textflag.h\" and \"funcdata.h\" may stand here", i+1, t)
		case strings.HasPrefix(t, "//go:") || strings.HasPrefix(t, "// +build"):
			if t != constraint || sawConstraint {
				bad(name, "line %d: %s is not allowed here", i+1, firstField(t))
			}
			sawConstraint = true
		case strings.Contains(code, "\\"):
			bad(name, "line %d: a backslash (line continuation) is not allowed", i+1)
		}
		if m := globlStatic.FindStringSubmatch(line); m != nil {
			statics[m[1]] = true
		}
	}
	if !sawConstraint {
		bad(name, "no %q line", constraint)
	}
}

func firstField(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return s
}
