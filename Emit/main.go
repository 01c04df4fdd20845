// Command Emit generates vg's x86-64 assembly (go/asm) with avo.
//
//	go run ./Emit          rewrites go/asm/*.s and their Go declarations
//	go run ./Emit -check   regenerates in memory; fails, naming the file, on drift
//
// Every routine's contract (Spec/contract) names its file stem: its source
// here is <stem>.go, its output in go/asm <stem>_amd64.s and the
// declarations <stem>_amd64.go, whose signature and doc comment are the
// contract's. The checker
// (Spec/check) reads the .s text, so the output stays plain avo output.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/pass"
	"github.com/mmcloughlin/avo/printer"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
	"github.com/vg-crypto/vg/internal/modroot"
)

// builders maps a file stem to the function that emits its routines;
// each file registers its stem from init. Which symbols exist, and the
// file each goes to, is the contracts' (Spec/contract, Stem): Emit fails
// unless a stem's builder emits exactly the symbols whose contracts name
// that stem.
var builders = map[string]func(c *build.Context){}

// register adds the builder of a stem.
func register(stem string, build func(c *build.Context)) {
	if builders[stem] != nil {
		panic("Emit: " + stem + " registered twice")
	}
	builders[stem] = build
}

// paramSets are the parameter sets of Table 1 with the suffix that names
// their routines.
var paramSets = []struct {
	name string
	p    fips204.Params
}{{"44", fips204.MLDSA44}, {"65", fips204.MLDSA65}, {"87", fips204.MLDSA87}}

// function starts the TEXT symbol of a contract: its Go signature and doc
// comment come from the contract. The routines keep no pointer, so that
// callers' buffers may stay on the stack (go:noescape), except those that
// call others: a callee may grow the goroutine's stack, which moves it,
// and the pointers the caller keeps in its frame would not follow, so
// their buffers must be on the heap (no go:noescape: they escape).
func function(c *build.Context, symbol string) {
	ct := contract.Lookup(symbol) // generate checked that it exists
	c.Function(symbol)
	c.SignatureExpr("func" + strings.TrimPrefix(ct.GoSig, "func "+symbol))
	c.Doc(ct.Doc...)
	if len(ct.Calls) == 0 {
		c.Pragma("noescape")
	}
}

// callerOnStack is function for a routine that calls others but reaches
// its buffers after each call only through its arguments, which the
// runtime adjusts when the stack moves: its callers' buffers may stay on
// the stack (go:noescape), and the checker moves them with the stack after
// every call (Spec/check, call.go), so a pointer kept across a call fails.
func callerOnStack(c *build.Context, symbol string) {
	function(c, symbol)
	c.Pragma("noescape")
}

// constraint keeps the assembly out of purego builds and gccgo;
// valgrindConstraint keeps valgrind's client request in purego builds,
// whose Go code the constant-time check runs under valgrind too.
const (
	constraint         = "amd64,gc,!purego"
	valgrindConstraint = "amd64,gc"
)

// command is the generator's command line as recorded in every header. It is
// fixed, so that -check reproduces the files byte for byte.
var command = []string{"go", "run", "./Emit"}

func main() {
	check := flag.Bool("check", false, "regenerate in memory and fail if the files on disk differ")
	dir := flag.String("dir", "", "output directory (default: go/asm in the module root)")
	flag.Parse()
	if *dir == "" {
		root, err := modroot.Find()
		if err != nil {
			fmt.Fprintln(os.Stderr, "Emit:", err)
			os.Exit(1)
		}
		*dir = filepath.Join(root, "go", "asm")
	}

	files, err := generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "Emit:", err)
		os.Exit(1)
	}
	if *check {
		if bad := checkFiles(*dir, files); len(bad) > 0 {
			for _, msg := range bad {
				fmt.Fprintln(os.Stderr, "Emit -check:", msg)
			}
			fmt.Fprintln(os.Stderr, "Emit -check: run `go run ./Emit` to regenerate")
			os.Exit(1)
		}
		return
	}
	for _, name := range sortedNames(files) {
		if err := os.WriteFile(filepath.Join(*dir, name), files[name], 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "Emit:", err)
			os.Exit(1)
		}
	}
}

// generate builds every routine and returns the output files by base name:
// one pair per contract stem, holding the stem's symbols in name order.
func generate() (map[string][]byte, error) {
	stems := map[string][]string{}
	for _, ct := range contract.All() {
		if builders[ct.Stem] == nil {
			return nil, fmt.Errorf("%s: contract without a builder in Emit (stem %s)", ct.Symbol, ct.Stem)
		}
		stems[ct.Stem] = append(stems[ct.Stem], ct.Symbol)
	}
	for stem := range builders {
		if stems[stem] == nil {
			return nil, fmt.Errorf("%s: builder without a contract in Spec/contract", stem)
		}
	}
	cfg := printer.Config{Argv: command, Pkg: "asm"}
	files := map[string][]byte{}
	for _, stem := range sortedKeys(stems) {
		c := build.NewContext()
		if contract.Lookup(stems[stem][0]).Valgrind {
			c.ConstraintExpr(valgrindConstraint)
		} else {
			c.ConstraintExpr(constraint)
		}
		builders[stem](c)
		f, err := c.Result()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", stem, err)
		}
		if err := pass.Compile.Execute(f); err != nil {
			return nil, fmt.Errorf("%s: %w", stem, err)
		}
		// The instruction set extensions avo finds must be the ones the
		// contract allows (Spec/check proves the same of the output).
		var emitted []string
		calls := false
		for _, fn := range f.Functions() {
			emitted = append(emitted, fn.Name)
			ct := contract.Lookup(fn.Name)
			if ct == nil || ct.Stem != stem {
				return nil, fmt.Errorf("%s: builder without a contract in Spec/contract (stem %s)", fn.Name, stem)
			}
			if len(ct.Calls) > 0 {
				// A caller requires its callees' features too: its own
				// instructions may use fewer.
				calls = true
				for _, x := range fn.ISA {
					if !contains(ct.Features, x) {
						return nil, fmt.Errorf("%s uses %s, its contract allows {%s}", fn.Name, x, strings.Join(ct.Features, ","))
					}
				}
				fn.ISA = append([]string(nil), ct.Features...)
			}
			if got, want := strings.Join(fn.ISA, ","), strings.Join(ct.Features, ","); got != want {
				return nil, fmt.Errorf("%s uses {%s}, its contract allows {%s}", fn.Name, got, want)
			}
		}
		if calls {
			f.Includes = append(f.Includes, "funcdata.h") // NO_LOCAL_POINTERS
		}
		sort.Strings(emitted)
		if want := stems[stem]; strings.Join(emitted, " ") != strings.Join(want, " ") {
			return nil, fmt.Errorf("%s: emits %v, its contracts name %v (contract without a builder?)", stem, emitted, want)
		}
		for _, out := range []struct {
			name string
			p    printer.Printer
		}{
			{stem + "_amd64.s", printer.NewGoAsm(cfg)},
			{stem + "_amd64.go", printer.NewStubs(cfg)},
		} {
			b, err := out.p.Print(f)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", out.name, err)
			}
			files[out.name] = b
		}
	}
	return files, nil
}

// checkFiles compares the generated files with dir and also reports generated
// files in dir that the emitter no longer produces.
func checkFiles(dir string, files map[string][]byte) []string {
	var bad []string
	for _, name := range sortedNames(files) {
		path := filepath.Join(dir, name)
		have, err := os.ReadFile(path)
		switch {
		case err != nil:
			bad = append(bad, fmt.Sprintf("%s: %v", path, err))
		case !bytes.Equal(have, files[name]):
			bad = append(bad, fmt.Sprintf("%s differs from the generated text", path))
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return append(bad, err.Error())
	}
	for _, e := range entries {
		if _, ok := files[e.Name()]; ok || e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err == nil && bytes.Contains(b, []byte("Code generated by command: "+strings.Join(command, " "))) {
			bad = append(bad, fmt.Sprintf("%s is generated but no longer emitted", filepath.Join(dir, e.Name())))
		}
	}
	return bad
}

func sortedNames(files map[string][]byte) []string { return sortedKeys(files) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
