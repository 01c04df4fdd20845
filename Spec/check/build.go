package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/vg-crypto/vg/Spec/x86"
)

// AsmPackage is the import path of the generated assembly.
const AsmPackage = "github.com/vg-crypto/vg/go/asm"

// Built is go/asm as the Go toolchain builds it: an executable holding
// every routine declared in the package, ready to be decoded.
type Built struct {
	Bin      *x86.Binary
	Routines []string // routines declared (Go functions without a body), sorted
	// Decls maps each routine to its Go declaration as go/printer prints
	// it: the signature every Go caller is compiled against.
	Decls map[string]string
	// NoEscape holds the routines declared //go:noescape.
	NoEscape map[string]bool
	// DeclFile maps each routine to the base name of the file declaring it.
	DeclFile map[string]string
	// Entries maps each routine to the code pointer of its Go function
	// value in the program as it ran: where a Go call reaches.
	Entries map[string]uint64
	// NotRun names the linux build ("GOAMD64=v4") whose program this CPU
	// cannot run; its Entries are then the addresses of the routines' Go
	// symbols in its symbol table.
	NotRun string
	// Sources is what the source rules (source.go) found in go/asm.
	Sources *asmSources
	dir     string
}

// Close removes the executable.
func (b *Built) Close() {
	if b.Bin != nil {
		b.Bin.Close()
	}
	os.RemoveAll(b.dir)
}

// BuildAsm builds an ordinary program that imports root/go/asm, with the
// Go command on PATH (the same toolchain, flags and include path as any
// build of it), runs it to learn where each routine's Go function value
// points, and opens the executable. The program, added through -overlay
// so the tree is not touched, takes every declared routine as a Go
// function value: the linker then keeps each one, with the bytes any
// program calling it would run, and what a Go call reaches is what the
// program prints. overlay adds or replaces files (absolute path →
// content), e.g. to check a modified tree.
func BuildAsm(root string, overlay map[string][]byte) (*Built, error) {
	return buildAsm(root, overlay, config{"linux", "v1", ""})
}

// config is one build of the program: GOOS, GOAMD64 and, if not "", the
// GOTOOLCHAIN to build with (the Go command on PATH otherwise).
type config struct{ goos, goamd64, toolchain string }

// goamd64Levels are the GOAMD64 settings a program may be built with; the
// assembler defines GOAMD64_v1 … GOAMD64_vN for level N, so a routine's
// bytes may differ between them.
var goamd64Levels = []string{"v1", "v2", "v3", "v4"}

// elfGOOS are the other operating systems whose amd64 programs are ELF
// files built without cgo (android/amd64 links only through cgo): the
// routines built for each must be the instructions and data decoded for
// linux. (darwin, ios, plan9 and windows: see Spec/SOUNDNESS.md.)
var elfGOOS = []string{"dragonfly", "freebsd", "illumos", "netbsd", "openbsd", "solaris"}

// mainDir is where the program is placed (through the overlay only).
const mainDir = "internal/vgprovemain"

// buildAsm builds the program as c says; only a linux one is run (the
// others are opened to compare their routines' bytes).
func buildAsm(root string, overlay map[string][]byte, c config) (*Built, error) {
	goos := c.goos
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	pkgDir := filepath.Join(root, "go", "asm")
	tmp, err := os.MkdirTemp("", "vg-asm-")
	if err != nil {
		return nil, err
	}
	b := &Built{dir: tmp}
	fail := func(err error) (*Built, error) { b.Close(); return nil, err }
	names, decls, noescape, declFile, err := declaredRoutines(pkgDir, overlay)
	if err != nil {
		return fail(err)
	}
	b.Routines, b.Decls, b.NoEscape, b.DeclFile = names, decls, noescape, declFile
	if b.Sources, err = checkAsmSources(pkgDir, overlay); err != nil {
		return fail(err)
	}
	var prog strings.Builder
	prog.WriteString("package main\n\nimport (\n\t\"fmt\"\n\t\"reflect\"\n\n\tasm \"" + AsmPackage + "\"\n)\n\n")
	prog.WriteString("var routines = []struct {\n\tname string\n\tf    any\n}{\n")
	for _, n := range names {
		fmt.Fprintf(&prog, "\t{%q, asm.%s},\n", n, n)
	}
	prog.WriteString("}\n\nfunc main() {\n\tfor _, r := range routines {\n\t\tfmt.Printf(\"%s %#x\\n\", r.name, reflect.ValueOf(r.f).Pointer())\n\t}\n}\n")
	repl := map[string]string{}
	write := func(target string, data []byte) error {
		p := filepath.Join(tmp, fmt.Sprintf("f%d", len(repl)))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
		repl[target] = p
		return nil
	}
	if err := write(filepath.Join(root, mainDir, "main.go"), []byte(prog.String())); err != nil {
		return fail(err)
	}
	for path, data := range overlay {
		if err := write(path, data); err != nil {
			return fail(err)
		}
	}
	ov, err := json.Marshal(map[string]any{"Replace": repl})
	if err != nil {
		return fail(err)
	}
	ovPath := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ovPath, ov, 0o644); err != nil {
		return fail(err)
	}
	bin := filepath.Join(tmp, "vgprove")
	cmd := exec.Command("go", "build", "-overlay", ovPath, "-o", bin, "./"+mainDir)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=0", "GOFLAGS=", "GOAMD64="+c.goamd64)
	if c.toolchain != "" {
		cmd.Env = append(cmd.Env, "GOTOOLCHAIN="+c.toolchain)
	}
	cmd.WaitDelay = time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fail(fmt.Errorf("building a program that imports go/asm: %v\n%s", err, out))
	}
	if goos == "linux" {
		if b.Entries, err = goEntries(bin, names, c.goamd64); err != nil {
			return fail(err)
		}
	}
	if b.Bin, err = x86.OpenBinary(bin); err != nil {
		return fail(err)
	}
	if goos == "linux" && b.Entries == nil {
		// The runtime refused this CPU: a Go call reaches the symbol of the
		// routine's name, which GoEntry checks is the ABI wrapper.
		b.NotRun = "GOAMD64=" + c.goamd64
		if b.Entries, err = b.Bin.SymbolEntries(AsmPackage, names); err != nil {
			return fail(err)
		}
	}
	b.Bin.Statics = b.Sources.statics
	return b, nil
}

// goEntries runs the program and reads the code pointer of each routine's
// Go function value from its output ("name 0xpc" lines). It returns nil
// and no error when the Go runtime refuses to start on this CPU because
// it lacks GOAMD64 level's features (the runtime's own message, exit
// status 1), as a program built for v4 does on a CPU without AVX-512.
func goEntries(bin string, names []string, level string) (map[string]uint64, error) {
	cmd := exec.Command(bin)
	cmd.Env = []string{}
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	if err != nil {
		refused := "This program can only be run on AMD64 processors with " + level + " microarchitecture support.\n"
		if ee, ok := err.(*exec.ExitError); ok && level != "v1" && ee.ExitCode() == 1 && string(ee.Stderr) == refused && len(out) == 0 {
			return nil, nil
		}
		return nil, fmt.Errorf("running the program that imports go/asm (the checker needs linux/amd64): %v", err)
	}
	entries := map[string]uint64{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var name string
		var pc uint64
		if _, err := fmt.Sscanf(line, "%s %v", &name, &pc); err != nil {
			return nil, fmt.Errorf("program output %q: %v", line, err)
		}
		entries[name] = pc
	}
	for _, n := range names {
		if _, ok := entries[n]; !ok {
			return nil, fmt.Errorf("program output: no entry for %s", n)
		}
	}
	return entries, nil
}

// declaredRoutines lists the functions declared without a body in the
// package's Go files (their bodies are TEXT symbols), the declaration of
// each, and those with the pragma //go:noescape.
func declaredRoutines(dir string, overlay map[string][]byte) ([]string, map[string]string, map[string]bool, map[string]string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, nil, nil, nil, err
	}
	for p := range overlay {
		if filepath.Dir(p) == dir && strings.HasSuffix(p, ".go") && !contains(paths, p) {
			paths = append(paths, p)
		}
	}
	fset := token.NewFileSet()
	var names []string
	decls := map[string]string{}
	noescape := map[string]bool{}
	declFile := map[string]string{}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		var src any
		if data, ok := overlay[p]; ok {
			src = data
		}
		f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution|parser.ParseComments)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body == nil && fd.Recv == nil {
				names = append(names, fd.Name.Name)
				declFile[fd.Name.Name] = filepath.Base(p)
				if decls[fd.Name.Name], err = printDecl(fset, fd); err != nil {
					return nil, nil, nil, nil, err
				}
			}
		}
		// The compiler gives a pragma to the declaration after it, blank
		// lines or not; any //go:noescape before a declaration and after
		// the one before counts.
		for _, cg := range f.Comments {
			for _, cm := range cg.List {
				if !strings.HasPrefix(cm.Text, "//go:noescape") {
					continue
				}
				for _, d := range f.Decls {
					if d.Pos() > cm.Pos() {
						if fd, ok := d.(*ast.FuncDecl); ok {
							noescape[fd.Name.Name] = true
						}
						break
					}
				}
			}
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return nil, nil, nil, nil, fmt.Errorf("%s declares no assembly routine", dir)
	}
	return names, decls, noescape, declFile, nil
}

// printDecl prints a body-less function declaration without its comments,
// one parameter per name ("a, b T" as "a T, b T") and results in
// parentheses, so that two declarations compare equal exactly when they
// declare the same name, parameters and results.
func printDecl(fset *token.FileSet, fd *ast.FuncDecl) (string, error) {
	var b strings.Builder
	b.WriteString("func " + fd.Name.Name)
	list := func(fl *ast.FieldList) error {
		b.WriteString("(")
		n := 0
		for _, f := range fl.List {
			var t bytes.Buffer
			if err := printer.Fprint(&t, fset, f.Type); err != nil {
				return err
			}
			names := []string{""}
			if len(f.Names) > 0 {
				names = names[:0]
				for _, id := range f.Names {
					names = append(names, id.Name+" ")
				}
			}
			for _, name := range names {
				if n > 0 {
					b.WriteString(", ")
				}
				b.WriteString(name + t.String())
				n++
			}
		}
		b.WriteString(")")
		return nil
	}
	if err := list(fd.Type.Params); err != nil {
		return "", err
	}
	if r := fd.Type.Results; r != nil && len(r.List) > 0 {
		b.WriteString(" ")
		if err := list(r); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// GoSigDecl prints a contract's GoSig as printDecl prints a declaration.
func GoSigDecl(goSig string) (string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", "package p\n\n"+goSig+"\n", 0)
	if err != nil {
		return "", fmt.Errorf("GoSig %q: %v", goSig, err)
	}
	if len(f.Decls) != 1 {
		return "", fmt.Errorf("GoSig %q: not one declaration", goSig)
	}
	fd, ok := f.Decls[0].(*ast.FuncDecl)
	if !ok || fd.Body != nil || fd.Recv != nil {
		return "", fmt.Errorf("GoSig %q: not a function declaration without a body", goSig)
	}
	return printDecl(fset, fd)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ParseAsmDir parses every .s file of dir and maps each TEXT symbol to
// the file holding it.
func ParseAsmDir(dir string) (map[string]*x86.File, error) {
	return parseAsmDirOverlay(dir, nil)
}

// Program is one routine as the checker runs it: decoded from the built
// package, with its parsed text kept for diagnostics (Requires line,
// labels the hints name, the comparison of text with machine code).
type Program struct {
	Name    string
	File    *x86.File    // the decoded routine and the data it references
	Routine *x86.Routine // decoded; nil when Err is set
	Text    *x86.Routine // parsed from go/asm; nil if no .s file holds it
	Decl    string       // its Go declaration in go/asm, as printDecl prints it
	// Err is why the routine could not be decoded; TextErr is a
	// difference between its text and its machine code; LinkErr is why
	// what a Go program runs for it may not be the bytes decoded (the
	// source rules of source.go, or the linked program: see linkedProgram).
	Err, TextErr, LinkErr error
	// OneBuild: the other builds were not made (ProgramsLinuxOnly), so
	// nothing says they run these bytes; ProgramsInput marks the input
	// partial.
	OneBuild bool
	// NotRun names the linux builds whose programs this CPU could not run
	// (Built.NotRun): their routines are compared byte for byte, their Go
	// entries read from the symbol table.
	NotRun []string
}

// linkedProgram checks, for each routine, that the program built is what
// every build runs and that a Go call reaches the decoded bytes: its own
// files meet the source rules (and every file that belongs to no
// routine's stem does), its Go function value points at the toolchain's
// wrapper around its ABI0 body (Binary.GoEntry), the package defines no
// function or data symbol but the routines' (no other TEXT a
// //go:linkname could bind a Go name to), and each file-local table it
// declares is the only symbol of its name.
func linkedProgram(b *Built, texts map[string]*x86.File) map[string]error {
	var global []string
	for file, vs := range b.Sources.violations {
		if stem(file) == "" || !stemHasRoutine(b, texts, stem(file)) {
			global = append(global, file+": "+strings.Join(vs, "; "))
		}
	}
	allowed := map[string]bool{}
	for _, n := range b.Routines {
		allowed[AsmPackage+"."+n] = true
		allowed[AsmPackage+"."+n+".abi0"] = true
	}
	for _, s := range b.Bin.PackageSymbols(AsmPackage) {
		if !allowed[s] {
			global = append(global, "the linked program holds "+s+", which is no declared routine")
		}
	}
	for n := range b.Sources.statics {
		if c := b.Bin.Count(n); c != 1 {
			global = append(global, fmt.Sprintf("the file-local table %s<> is %d symbols of the linked program, not one", n, c))
		}
	}
	sort.Strings(global)
	out := map[string]error{}
	for _, name := range b.Routines {
		var why []string
		for _, file := range routineFiles(b, texts, name) {
			for _, v := range b.Sources.violations[file] {
				why = append(why, file+": "+v)
			}
		}
		if err := b.Bin.GoEntry(AsmPackage, name, b.Entries[name]); err != nil {
			why = append(why, err.Error())
		}
		why = append(why, global...)
		if len(why) > 0 {
			out[name] = fmt.Errorf("%s", strings.Join(why, "; "))
		}
	}
	return out
}

// routineFiles are the files of go/asm a routine's build depends on: the
// one declaring it, the .s file holding its TEXT, and its stem's pair.
func routineFiles(b *Built, texts map[string]*x86.File, name string) []string {
	set := map[string]bool{b.DeclFile[name]: true}
	if t := texts[name]; t != nil {
		set[filepath.Base(t.Name)] = true
	}
	for f := range set {
		if st := stem(f); st != "" {
			set[st+"_amd64.go"], set[st+"_amd64.s"] = true, true
		}
	}
	var out []string
	for f := range set {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// stemHasRoutine reports whether some routine's files include stem's.
func stemHasRoutine(b *Built, texts map[string]*x86.File, st string) bool {
	for _, n := range b.Routines {
		for _, f := range routineFiles(b, texts, n) {
			if stem(f) == st {
				return true
			}
		}
	}
	return false
}

// Programs builds root/go/asm (with overlay, see BuildAsm) and decodes
// every routine it declares.
func Programs(root string, overlay map[string][]byte) ([]Program, error) {
	return ProgramsWith(root, overlay, nil)
}

// ProgramsWith is Programs that also builds the linux program with each
// of toolchains (GOTOOLCHAIN values, e.g. go1.27.3), whose routines and
// wrappers must then be the same too.
func ProgramsWith(root string, overlay map[string][]byte, toolchains []string) ([]Program, error) {
	// The routines are checked as built for linux at GOAMD64=v1; a
	// program built for another level or another ELF GOOS must get the
	// same instructions and data. The builds run side by side.
	configs := []config{}
	for _, lv := range goamd64Levels {
		configs = append(configs, config{"linux", lv, ""})
	}
	for _, goos := range elfGOOS {
		configs = append(configs, config{goos, "v1", ""})
	}
	for _, tc := range toolchains {
		configs = append(configs, config{"linux", "v1", tc})
	}
	return programs(root, overlay, configs)
}

// ProgramsLinuxOnly is Programs from the linux, GOAMD64=v1 build alone:
// the other builds are not made, so nothing compares them, and every
// program is marked OneBuild (its obligations at most tested). It serves
// to find failures fast (vg prove -one-build, e.g. for mutants).
func ProgramsLinuxOnly(root string, overlay map[string][]byte) ([]Program, error) {
	ps, err := programs(root, overlay, []config{{"linux", "v1", ""}})
	for i := range ps {
		ps[i].OneBuild = true
	}
	return ps, err
}

// programs builds the program for each of configs (the first is the one
// checked) and decodes every routine of the first.
func programs(root string, overlay map[string][]byte, configs []config) ([]Program, error) {
	builds := make([]*Built, len(configs))
	errs := make([]error, len(configs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i, c := range configs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			builds[i], errs[i] = buildAsm(root, overlay, c)
		}()
	}
	wg.Wait()
	for i := range builds {
		if builds[i] != nil {
			defer builds[i].Close()
		}
	}
	for i, err := range errs {
		if err != nil {
			c := configs[i]
			return nil, fmt.Errorf("GOOS=%s GOAMD64=%s GOTOOLCHAIN=%s: %v", c.goos, c.goamd64, c.toolchain, err)
		}
	}
	b := builds[0]
	// v1's routines, decoded once: each other build is compared with them.
	type decoded struct {
		f   *x86.File
		err error
	}
	v1 := map[string]decoded{}
	for _, name := range b.Routines {
		f, err := b.Bin.Routine(AsmPackage, name)
		v1[name] = decoded{f, err}
	}
	levelErr := map[string]error{}
	for i, c := range configs[1:] {
		o := builds[i+1]
		what := fmt.Sprintf("GOOS=%s GOAMD64=%s", c.goos, c.goamd64)
		if c.toolchain != "" {
			what += " GOTOOLCHAIN=" + c.toolchain
		}
		for _, name := range b.Routines {
			err := sameRoutine(v1[name].f, v1[name].err, o.Bin, name)
			if err == nil && o.Entries != nil {
				err = o.Bin.GoEntry(AsmPackage, name, o.Entries[name])
			}
			if err != nil && levelErr[name] == nil {
				levelErr[name] = fmt.Errorf("%s: built with %s it differs from linux, GOAMD64=v1: %v", name, what, err)
			}
		}
	}
	texts, err := parseAsmDirOverlay(filepath.Join(root, "go", "asm"), overlay)
	if err != nil {
		return nil, err
	}
	linkErr := linkedProgram(b, texts)
	var notRun []string
	for _, o := range builds {
		if o.NotRun != "" {
			notRun = append(notRun, o.NotRun)
		}
	}
	var out []Program
	for _, name := range b.Routines {
		p := Program{Name: name, Decl: b.Decls[name], LinkErr: linkErr[name], NotRun: notRun}
		f, err := v1[name].f, v1[name].err
		if err == nil {
			err = levelErr[name]
		}
		if err != nil {
			p.Err = err
			out = append(out, p)
			continue
		}
		p.File, p.Routine = f, f.Routines[0]
		p.Routine.NoEscape = b.NoEscape[name]
		if tf := texts[name]; tf != nil {
			p.Text = tf.Routine(name)
			p.Routine.Requires = p.Text.Requires
			p.Routine.ArgSize = p.Text.ArgSize
			p.Routine.Flags = p.Text.Flags
			p.Routine.NoLocalPointers = p.Text.NoLocalPointers
			p.TextErr = x86.MatchText(p.Text, p.Routine)
		} else {
			p.TextErr = fmt.Errorf("%s: no TEXT for it in go/asm's .s files", name)
		}
		out = append(out, p)
	}
	return out, nil
}

// parseAsmDirOverlay is ParseAsmDir seeing the overlay's .s files.
func parseAsmDirOverlay(dir string, overlay map[string][]byte) (map[string]*x86.File, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.s"))
	if err != nil {
		return nil, err
	}
	for p := range overlay {
		if filepath.Dir(p) == dir && strings.HasSuffix(p, ".s") && !contains(paths, p) {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	out := map[string]*x86.File{}
	for _, p := range paths {
		src, ok := overlay[p]
		if !ok {
			if src, err = os.ReadFile(p); err != nil {
				return nil, err
			}
		}
		f, err := x86.ParseFile(filepath.Join("go", "asm", filepath.Base(p)), string(src))
		if err != nil {
			// The text is a diagnostic: a file the parser cannot read
			// leaves its routines without text (reported by the caller).
			continue
		}
		for _, r := range f.Routines {
			out[r.Name] = f
		}
	}
	return out, nil
}

// sameRoutine compares a routine as decoded from two builds (fx, errx:
// the first's) and y: the same instructions (operands with data symbols
// resolved, branch targets as offsets) and the same bytes in every data
// symbol it references.
func sameRoutine(fx *x86.File, errx error, y *x86.Binary, name string) error {
	fy, erry := y.Routine(AsmPackage, name)
	if errx != nil || erry != nil {
		if (errx == nil) != (erry == nil) {
			return fmt.Errorf("decodes in one build only (%v / %v)", errx, erry)
		}
		return nil // both fail: reported by the v1 build
	}
	rx, ry := fx.Routines[0], fy.Routines[0]
	if len(rx.Insns) != len(ry.Insns) {
		return fmt.Errorf("%d instructions, not %d", len(ry.Insns), len(rx.Insns))
	}
	for i := range rx.Insns {
		if rx.Insns[i].Text != ry.Insns[i].Text || rx.Insns[i].Off != ry.Insns[i].Off {
			return fmt.Errorf("+%#x: %s, not %s", ry.Insns[i].Off, ry.Insns[i].Text, rx.Insns[i].Text)
		}
	}
	for n, dx := range fx.Data {
		dy := fy.Data[n]
		if dy == nil || string(dx.Bytes) != string(dy.Bytes) {
			return fmt.Errorf("data %s differs", n)
		}
	}
	return nil
}
