package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The tree as generated meets the source rules.
func TestAsmSourcesClean(t *testing.T) {
	s, err := checkAsmSources(absAsmDir(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.violations) != 0 {
		t.Errorf("violations in go/asm as generated: %v", s.violations)
	}
	if !s.statics["keccakRC"] {
		t.Errorf("file-local tables found: %v, want keccakRC among them", s.statics)
	}
}

func absAsmDir(t *testing.T) string {
	dir, err := filepath.Abs("../../go/asm")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// Each way of making one build of go/asm differ from another, or a Go
// name reach other code, breaks a source rule of the file it is in.
func TestAsmSourcesPlanted(t *testing.T) {
	dir := absAsmDir(t)
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	keccakS, keccakGo := read("keccak_amd64.s"), read("keccak_amd64.go")
	cases := []struct {
		name  string
		file  string // the file the violation must name
		files map[string]string
	}{
		{"test-build constant", "zz_amd64_test.go", map[string]string{
			"zz_amd64_test.go": "package asm\n\nconst flipLane = 1\n"}},
		{"local header", "textflag.h", map[string]string{"textflag.h": "#define NOSPLIT 4\n"}},
		{"conditional on GOOS", "keccak_amd64.s", map[string]string{
			"keccak_amd64.s": strings.Replace(keccakS, "\tRET", "#ifdef GOOS_windows\n\tXORQ $1, (DI)\n#endif\n\tRET", 1)}},
		{"indented directive", "keccak_amd64.s", map[string]string{
			"keccak_amd64.s": strings.Replace(keccakS, "\tRET", "\t#ifndef const_flipLane\n\tRET", 1)}},
		{"go_asm.h", "keccak_amd64.s", map[string]string{
			"keccak_amd64.s": strings.Replace(keccakS, `#include "textflag.h"`, "#include \"textflag.h\"\n#include \"go_asm.h\"", 1)}},
		{"linkname", "keccak_amd64.go", map[string]string{
			"keccak_amd64.go": strings.Replace(keccakGo, "//go:noescape\nfunc KeccakF1600BMI2",
				"//go:noescape\n//go:linkname KeccakF1600BMI2 github.com/vg-crypto/vg/go/asm.keccakEvil\nfunc KeccakF1600BMI2", 1)}},
		{"import", "keccak_amd64.go", map[string]string{
			"keccak_amd64.go": strings.Replace(keccakGo, "package asm\n", "package asm\n\nimport _ \"unsafe\"\n", 1)}},
		{"Go body", "keccak_amd64.go", map[string]string{
			"keccak_amd64.go": keccakGo + "\nfunc helper() {}\n"}},
		{"constant", "keccak_amd64.go", map[string]string{
			"keccak_amd64.go": keccakGo + "\nconst flipLane = 1\n"}},
		{"GOOS in the name", "keccak_windows_amd64.s", map[string]string{
			"keccak_windows_amd64.s": keccakS}},
		{"another constraint", "keccak_amd64.s", map[string]string{
			"keccak_amd64.s": strings.Replace(keccakS, asmConstraint, "//go:build amd64 && gc && !purego && !windows", 1)}},
		{"go1.27 only", "keccak_amd64.go", map[string]string{
			"keccak_amd64.go": strings.Replace(keccakGo, asmConstraint, "//go:build amd64 && gc && !purego && go1.27", 1)}},
		{"syso", "evil_amd64.syso", map[string]string{"evil_amd64.syso": "\x7fELF"}},
		{"line continuation", "keccak_amd64.s", map[string]string{
			"keccak_amd64.s": strings.Replace(keccakS, "\tRET", "\tXORQ $1, \\\n\t(DI)\n\tRET", 1)}},
	}
	for _, tc := range cases {
		overlay := map[string][]byte{}
		for name, src := range tc.files {
			overlay[filepath.Join(dir, name)] = []byte(src)
		}
		s, err := checkAsmSources(dir, overlay)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.violations[tc.file]) == 0 {
			t.Errorf("%s: no violation in %s (violations: %v)", tc.name, tc.file, s.violations)
		}
		for f := range s.violations {
			if f != tc.file {
				t.Errorf("%s: violation in %s too: %v", tc.name, f, s.violations[f])
			}
		}
	}
}

// A file that belongs to no routine fails every routine; a violation in
// one stem's files fails that stem's routines only.
func TestLinkedProgramAttribution(t *testing.T) {
	b := &Built{
		Routines: []string{"KeccakF1600AMD64", "NTTAVX2"},
		DeclFile: map[string]string{"KeccakF1600AMD64": "keccak_amd64.go", "NTTAVX2": "ntt_amd64.go"},
		Sources:  &asmSources{violations: map[string][]string{"keccak_amd64.s": {"#ifdef"}}},
	}
	files := routineFiles(b, nil, "KeccakF1600AMD64")
	if strings.Join(files, ",") != "keccak_amd64.go,keccak_amd64.s" {
		t.Errorf("routineFiles = %v", files)
	}
	if !stemHasRoutine(b, nil, "keccak") || stemHasRoutine(b, nil, "evil") {
		t.Error("stemHasRoutine")
	}
}

// Built with a //go:linkname that binds KeccakF1600BMI2's Go name to other
// code (which flips a bit and jumps to the proven permutation), the
// linked program itself shows it, whatever the source rules say: a Go
// call reaches keccakEvil, a symbol that is no declared routine.
func TestLinkedProgramLinkname(t *testing.T) {
	if testing.Short() {
		t.Skip("builds go/asm")
	}
	dir := absAsmDir(t)
	goSrc, err := os.ReadFile(filepath.Join(dir, "keccak_amd64.go"))
	if err != nil {
		t.Fatal(err)
	}
	sSrc, err := os.ReadFile(filepath.Join(dir, "keccak_amd64.s"))
	if err != nil {
		t.Fatal(err)
	}
	g := strings.Replace(string(goSrc), "package asm\n", "package asm\n\nimport _ \"unsafe\"\n", 1)
	g = strings.Replace(g, "//go:noescape\nfunc KeccakF1600BMI2",
		"//go:noescape\n//go:linkname KeccakF1600BMI2 github.com/vg-crypto/vg/go/asm.keccakEvil\nfunc KeccakF1600BMI2", 1)
	s := string(sSrc) + "\n// func keccakEvil(a *[25]uint64)\nTEXT ·keccakEvil(SB), NOSPLIT, $0-8\n\tMOVQ a+0(FP), AX\n\tXORQ $1, (AX)\n\tJMP ·KeccakF1600AMD64(SB)\n"
	overlay := map[string][]byte{filepath.Join(dir, "keccak_amd64.go"): []byte(g), filepath.Join(dir, "keccak_amd64.s"): []byte(s)}
	b, err := BuildAsm("../..", overlay)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	b.Sources.violations = map[string][]string{} // the linked program alone
	errs := linkedProgram(b, nil)
	e := errs["KeccakF1600BMI2"]
	if e == nil || !strings.Contains(e.Error(), "a Go call reaches github.com/vg-crypto/vg/go/asm.keccakEvil") {
		t.Errorf("KeccakF1600BMI2: %v", e)
	}
	if e == nil || !strings.Contains(e.Error(), "keccakEvil, which is no declared routine") {
		t.Errorf("KeccakF1600BMI2: the extra symbol not reported: %v", e)
	}
}

// The wrappers of the program as built pass GoEntry; a wrapper changed in
// any way the toolchain does not make fails it.
func TestGoEntryWrappers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds go/asm")
	}
	b, err := BuildAsm("../..", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	errs := linkedProgram(b, nil)
	for _, n := range b.Routines {
		if errs[n] != nil {
			t.Errorf("%s: %v", n, errs[n])
		}
	}
	// A program not run takes its entries from the symbol table: for the
	// program that ran they are the addresses it printed.
	syms, err := b.Bin.SymbolEntries(AsmPackage, b.Routines)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range b.Routines {
		if syms[n] != b.Entries[n] {
			t.Errorf("%s: the symbol is at %#x, the Go function value at %#x", n, syms[n], b.Entries[n])
		}
	}
}

// goEntries accepts a program that does not run only when the Go runtime
// refused the CPU for the level it was built for (not v1), in its own
// words; any other failure fails.
func TestGoEntriesRefused(t *testing.T) {
	refusal := func(level string) string {
		return "This program can only be run on AMD64 processors with " + level + " microarchitecture support."
	}
	script := func(body string) string {
		p := filepath.Join(t.TempDir(), "prog")
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		body, level string
		notRun      bool
	}{
		{"echo '" + refusal("v4") + "' >&2; exit 1", "v4", true},
		{"echo '" + refusal("v3") + "' >&2; exit 1", "v3", true},
		{"echo '" + refusal("v1") + "' >&2; exit 1", "v1", false}, // v1 must run
		{"echo '" + refusal("v3") + "' >&2; exit 1", "v4", false}, // another level's words
		{"echo '" + refusal("v4") + "' >&2; exit 2", "v4", false},
		{"echo '" + refusal("v4") + " ' >&2; exit 1", "v4", false},
		{"echo 'NTTAVX2 0x1'; echo '" + refusal("v4") + "' >&2; exit 1", "v4", false},
		{"echo 'fatal error: unexpected signal' >&2; exit 2", "v4", false},
	} {
		e, err := goEntries(script(c.body), []string{"NTTAVX2"}, c.level)
		switch {
		case c.notRun && (err != nil || e != nil):
			t.Errorf("%q at %s: %v, %v; want not run", c.body, c.level, e, err)
		case !c.notRun && err == nil:
			t.Errorf("%q at %s: accepted (%v)", c.body, c.level, e)
		}
	}
	e, err := goEntries(script("echo 'NTTAVX2 0x4a2ec0'"), []string{"NTTAVX2"}, "v4")
	if err != nil || e["NTTAVX2"] != 0x4a2ec0 {
		t.Errorf("a program that runs: %v, %v", e, err)
	}
}
