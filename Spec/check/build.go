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
	dir      string
}

// Close removes the executable.
func (b *Built) Close() {
	if b.Bin != nil {
		b.Bin.Close()
	}
	os.RemoveAll(b.dir)
}

// BuildAsm builds the package in root/go/asm with the Go command on PATH
// (the same toolchain, flags and include path as any build of it) and
// opens the result. The package's test binary is linked with one extra
// file, given through -overlay so the tree is not touched, that takes the
// address of every declared routine: the linker then keeps each one, with
// the bytes any program calling it would run. overlay adds or replaces
// files (absolute path → content), e.g. to check a modified tree.
func BuildAsm(root string, overlay map[string][]byte) (*Built, error) {
	return buildAsm(root, overlay, "v1")
}

// goamd64Levels are the GOAMD64 settings a program may be built with; the
// assembler defines GOAMD64_v1 … GOAMD64_vN for level N, so a routine's
// bytes may differ between them.
var goamd64Levels = []string{"v1", "v2", "v3", "v4"}

func buildAsm(root string, overlay map[string][]byte, goamd64 string) (*Built, error) {
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
	names, decls, noescape, err := declaredRoutines(pkgDir, overlay)
	if err != nil {
		return fail(err)
	}
	b.Routines, b.Decls, b.NoEscape = names, decls, noescape
	var keep strings.Builder
	keep.WriteString("package asm\n\nvar vgKeepRoutines []any\n\nfunc init() {\n\tvgKeepRoutines = []any{\n")
	for _, n := range names {
		fmt.Fprintf(&keep, "\t\t%s,\n", n)
	}
	keep.WriteString("\t}\n}\n")
	repl := map[string]string{}
	write := func(target string, data []byte) error {
		p := filepath.Join(tmp, fmt.Sprintf("f%d", len(repl)))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
		repl[target] = p
		return nil
	}
	if err := write(filepath.Join(pkgDir, "zz_vgkeep_test.go"), []byte(keep.String())); err != nil {
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
	bin := filepath.Join(tmp, "asm.test")
	cmd := exec.Command("go", "test", "-c", "-overlay", ovPath, "-o", bin, "./go/asm")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH=amd64", "CGO_ENABLED=0", "GOFLAGS=", "GOAMD64="+goamd64)
	cmd.WaitDelay = time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fail(fmt.Errorf("building go/asm: %v\n%s", err, out))
	}
	if b.Bin, err = x86.OpenBinary(bin); err != nil {
		return fail(err)
	}
	return b, nil
}

// declaredRoutines lists the functions declared without a body in the
// package's Go files (their bodies are TEXT symbols), the declaration of
// each, and those with the pragma //go:noescape.
func declaredRoutines(dir string, overlay map[string][]byte) ([]string, map[string]string, map[string]bool, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, nil, nil, err
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
			return nil, nil, nil, err
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body == nil && fd.Recv == nil {
				names = append(names, fd.Name.Name)
				if decls[fd.Name.Name], err = printDecl(fset, fd); err != nil {
					return nil, nil, nil, err
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
		return nil, nil, nil, fmt.Errorf("%s declares no assembly routine", dir)
	}
	return names, decls, noescape, nil
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
	// difference between its text and its machine code.
	Err, TextErr error
}

// Programs builds root/go/asm (with overlay, see BuildAsm) and decodes
// every routine it declares.
func Programs(root string, overlay map[string][]byte) ([]Program, error) {
	// The routines are checked as built for GOAMD64=v1; a program built for
	// another level must get the same instructions and data. The builds
	// run side by side.
	builds := make([]*Built, len(goamd64Levels))
	errs := make([]error, len(goamd64Levels))
	var wg sync.WaitGroup
	for i, lv := range goamd64Levels {
		wg.Add(1)
		go func() {
			defer wg.Done()
			builds[i], errs[i] = buildAsm(root, overlay, lv)
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
			return nil, fmt.Errorf("GOAMD64=%s: %v", goamd64Levels[i], err)
		}
	}
	b := builds[0]
	levelErr := map[string]error{}
	for i, lv := range goamd64Levels[1:] {
		o := builds[i+1]
		for _, name := range b.Routines {
			if err := sameRoutine(b.Bin, o.Bin, name); err != nil && levelErr[name] == nil {
				levelErr[name] = fmt.Errorf("%s: built with GOAMD64=%s it differs from GOAMD64=v1: %v", name, lv, err)
			}
		}
	}
	texts, err := parseAsmDirOverlay(filepath.Join(root, "go", "asm"), overlay)
	if err != nil {
		return nil, err
	}
	var out []Program
	for _, name := range b.Routines {
		p := Program{Name: name, Decl: b.Decls[name]}
		f, err := b.Bin.Routine(AsmPackage, name)
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

// sameRoutine compares a routine as decoded from two builds: the same
// instructions (operands with data symbols resolved, branch targets as
// offsets) and the same bytes in every data symbol it references.
func sameRoutine(x, y *x86.Binary, name string) error {
	fx, errx := x.Routine(AsmPackage, name)
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
