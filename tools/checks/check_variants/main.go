// Command check_variants checks the variants of go/mldsa's routines:
//
//   - every routine of routines.txt (DESIGN.md's list) has the variants
//     listed there, the variant of every contract in Spec/contract (its
//     GoName and Variant: the assembly variants are the contracts', not
//     routines.txt's), and is checked wherever an AVX2 variant exists: a function
//     xGeneric / xAMD64 / xAVX2 of go/mldsa, or go/asm's XAMD64 / XAVX2 used
//     as it is, all with the signature of the dispatching x; an AMD64 or
//     AVX2 variant written in Go runs assembly (itself, or through
//     helpers and variants, not through a dispatcher or generic code);
//   - a contract's routine x keeps one file stem (the contract's Stem):
//     xGeneric is declared in go/mldsa/<stem>.go, x in <stem>_amd64.go and
//     <stem>_noasm.go;
//   - every variant is dispatched (a declaration of x, or an assignment to
//     a dispatch variable x, refers to it) and registered in the variant
//     registry (in go/mldsa/variants*.go, or passed to a function declared
//     there, like registerVariant) so the variant tests run it, and every
//     go/asm routine is used by go/mldsa;
//   - a caller with a faster variant of a callee uses it: outside the
//     callee's dispatch, the registry and tests, code calls the dispatching
//     y, not yGeneric or yAMD64; a variant may call a variant of another
//     routine only when that is the fastest one its own level allows
//     (Generic < AMD64 < AVX2); and code that runs a routine with a
//     four-way form (routines.txt "wide") also uses that form.
//
// Usage, from the repository root: go run ./tools/checks/check_variants [-root dir]
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"os"
	"sort"
	"strings"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/tools/checks/internal/asmfile"
	"github.com/vg-crypto/vg/tools/checks/internal/diag"
	"github.com/vg-crypto/vg/tools/checks/internal/gosrc"
	"github.com/vg-crypto/vg/tools/checks/internal/repo"
	"github.com/vg-crypto/vg/tools/checks/internal/variants"
)

const (
	routinesPath = "tools/checks/check_variants/routines.txt"
	pkgDir       = "go/mldsa"
	asmDir       = "go/asm"
)

func main() {
	root := flag.String("root", ".", "repository root")
	flag.Parse()
	l, summary, err := run(*root, contract.All())
	diag.Exit("check_variants", l, summary, err)
}

type wanted struct {
	Name     string
	Variants []string
	// Pending are variants DESIGN.md asks for that have not landed yet,
	// written ~AMD64 in routines.txt: not required, but named in the
	// summary, and an error once they exist, so the list stays true.
	Pending []string
	line    int
	symbol  string // for a variant a contract requires: its TEXT symbol
}

// widePair is a routine and its four-way form: code that runs the first
// must also use the second (the rest is the remainder, run singly).
type widePair struct {
	narrow, wide string
	line         int
}

func readRoutines(path string) ([]wanted, []widePair, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var out []wanted
	var wides []widePair
	for i, line := range strings.Split(string(data), "\n") {
		line, _, _ = strings.Cut(line, "#")
		w := strings.Fields(line)
		if len(w) == 0 {
			continue
		}
		if w[0] == "wide" {
			if len(w) != 3 {
				return nil, nil, fmt.Errorf("%s:%d: wide <routine> <four-way routine>", routinesPath, i+1)
			}
			wides = append(wides, widePair{w[1], w[2], i + 1})
			continue
		}
		wt := wanted{Name: w[0], line: i + 1}
		for _, v := range w[1:] {
			pending := strings.HasPrefix(v, "~")
			v = strings.TrimPrefix(v, "~")
			if variants.Rank(v) < 0 {
				return nil, nil, fmt.Errorf("%s:%d: unknown variant %q", routinesPath, i+1, v)
			}
			if pending {
				wt.Pending = append(wt.Pending, v)
			} else {
				wt.Variants = append(wt.Variants, v)
			}
		}
		out = append(out, wt)
	}
	return out, wides, nil
}

// contractDir is where a contract's variant is stated.
const contractDir = "Spec/contract"

func run(root string, contracts []*contract.Contract) (diag.List, string, error) {
	r, err := repo.Open(root)
	if err != nil {
		return nil, "", err
	}
	want, wides, err := readRoutines(r.Abs(routinesPath))
	if err != nil {
		return nil, "", err
	}
	var l diag.List
	// The assembly variants come from the contracts: routines.txt may not
	// copy one, and each must be a routine of its list.
	listedAt := map[string]*wanted{}
	for i := range want {
		listedAt[want[i].Name] = &want[i]
	}
	fromContract := map[string]bool{}
	for _, c := range contracts {
		fromContract[c.GoName+" "+c.Variant] = true
	}
	for i := range want {
		for _, v := range want[i].Variants {
			if fromContract[want[i].Name+" "+v] {
				l.Addf(routinesPath, want[i].line, "%s: %s is stated by its contract in %s: do not list it here", want[i].Name, v, contractDir)
			}
		}
	}
	var contractWant []wanted
	for _, c := range contracts {
		if c.Valgrind {
			continue // valgrind's client request: no ML-DSA routine, no variants
		}
		if listedAt[c.GoName] == nil {
			l.Addf(contractDir, 0, "%s: its go/mldsa routine %s is not in %s", c.Symbol, c.GoName, routinesPath)
			continue
		}
		if has := func() bool {
			for _, cw := range contractWant {
				if cw.Name == c.GoName && cw.Variants[0] == c.Variant {
					return true
				}
			}
			return false
		}(); !has {
			contractWant = append(contractWant, wanted{Name: c.GoName, Variants: []string{c.Variant}, line: -1, symbol: c.Symbol})
		}
	}
	p, err := gosrc.Load(r, pkgDir)
	if err != nil {
		return nil, "", err
	}
	routines, err := asmfile.Load(r, asmDir)
	if err != nil {
		return nil, "", err
	}
	pos := func(n ast.Node) (string, int) {
		ps := r.Fset.Position(n.Pos())
		return r.Rel(ps.Filename), ps.Line
	}

	// One file stem per routine: a contract's go/mldsa routine has its
	// generic implementation in <stem>.go and its dispatch in
	// <stem>_amd64.go and <stem>_noasm.go.
	stemDone := map[string]bool{}
	for _, c := range contracts {
		if c.Valgrind || c.Stem == "" || listedAt[c.GoName] == nil || stemDone[c.GoName+" "+c.Stem] {
			continue
		}
		stemDone[c.GoName+" "+c.Stem] = true
		for _, w := range [][2]string{
			{c.GoName + "Generic", c.Stem + ".go"},
			{c.GoName, c.Stem + "_amd64.go"},
			{c.GoName, c.Stem + "_noasm.go"},
		} {
			if !declaredIn(p.Funcs[w[0]], pkgDir+"/"+w[1]) {
				l.Addf(contractDir, 0, "%s: %s is not declared in %s/%s: a routine's files share its stem (%s)", c.Symbol, w[0], pkgDir, w[1], c.Stem)
			}
		}
	}

	set := variants.Find(r, p, routines)
	vars, isDispatcher, dispatchVars, dispatchSig, refs := set.ByRoutine, set.Funcs, set.Vars, set.DispatchSig, set.Refs
	for rn, rt := range routines {
		if !set.AsmUsed[rn] {
			l.Addf(rt.File, rt.Line, "asm.%s is not used by %s: dead assembly", rn, pkgDir)
		}
	}

	// 1. Each routine has its variants, with one signature.
	listed := map[string]bool{}
	var pending []string
	for _, w := range contractWant {
		if !has(vars[w.Name], w.Variants[0]) {
			l.Addf(contractDir, 0, "%s: no %s variant of %s (%s%s in %s)", w.symbol, w.Variants[0], w.Name, w.Name, w.Variants[0], pkgDir)
		}
	}
	for _, w := range want {
		listed[w.Name] = true
		vs := vars[w.Name]
		if !isDispatcher[w.Name] && !dispatchVars[w.Name] && len(vs) == 0 {
			l.Addf(routinesPath, w.line, "%s: no such routine in %s", w.Name, pkgDir)
			continue
		}
		for _, s := range w.Variants {
			if !has(vs, s) {
				l.Addf(routinesPath, w.line, "%s: no %s variant (%s%s in %s%s)", w.Name, s, w.Name, s, pkgDir, asmHint(w.Name, s))
			}
		}
		for _, s := range w.Pending {
			if has(vs, s) {
				l.Addf(routinesPath, w.line, "%s: the %s variant has landed: write %s, not ~%s", w.Name, s, s, s)
			} else {
				pending = append(pending, w.Name+s)
			}
		}
	}
	names := make([]string, 0, len(vars))
	for n := range vars {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		vs := vars[n]
		ref, refName := dispatchSig[n], n
		if ref == "" && len(vs) > 0 {
			ref, refName = vs[0].Sig, vs[0].Name
		}
		for _, v := range vs {
			if v.Sig != ref {
				l.Addf(v.File, v.Line, "%s has signature %s, but %s has %s", v.Name, v.Sig, refName, ref)
			}
		}
	}

	// An AMD64 or AVX2 variant written in Go must run assembly itself or
	// through the helpers and variants it calls.
	calls := map[string]map[string]bool{}
	for _, f := range p.Files {
		if f.Test {
			continue
		}
		for _, ref := range refs[f] {
			if ref.Func == nil || ref.Func.Recv != nil {
				continue
			}
			if calls[ref.Func.Name.Name] == nil {
				calls[ref.Func.Name.Name] = map[string]bool{}
			}
			calls[ref.Func.Name.Name][ref.Name] = true
		}
	}
	var runsAsm func(name string, seen map[string]bool) bool
	runsAsm = func(name string, seen map[string]bool) bool {
		if rn, ok := strings.CutPrefix(name, "asm."); ok {
			return routines[rn] != nil
		}
		// Not through a dispatcher or generic code: that is another
		// routine's choice, not this variant's assembly.
		if v := set.ByName[name]; seen[name] || len(vars[name]) > 0 || v != nil && v.Suffix == "Generic" {
			return false
		}
		seen[name] = true
		for next := range calls[name] {
			if runsAsm(next, seen) {
				return true
			}
		}
		return false
	}
	for _, n := range names {
		for _, v := range vars[n] {
			if v.Suffix != "Generic" && v.Asm == "" && !runsAsm(v.Name, map[string]bool{}) {
				l.Addf(v.File, v.Line, "%s runs no assembly of %s: it is not an %s assembly variant", v.Name, asmDir, v.Suffix)
			}
		}
	}

	// 2. Dispatched and registered.
	// The registry is go/mldsa/variants*.go; a variant is registered there,
	// or passed to a function declared there (registerVariant) elsewhere.
	registerFuncs := map[string]bool{}
	for name, fs := range p.Funcs {
		for _, f := range fs {
			if !f.File.Test && isRegistryFile(f.File.Rel) {
				registerFuncs[name] = true
			}
		}
	}
	dispatched := map[string]bool{}
	registered := map[string]bool{}
	for _, f := range p.Files {
		if f.Test {
			continue
		}
		isRegistry := isRegistryFile(f.Rel)
		for _, ref := range refs[f] {
			if isRegistry || passedTo(ref, registerFuncs) {
				registered[ref.Name] = true
				continue
			}
			if site := variants.DispatchSite(ref); site != "" {
				dispatched[site+" "+ref.Name] = true
			}
		}
	}
	nVariants := 0
	for _, n := range names {
		for _, v := range vars[n] {
			nVariants++
			if !dispatched[n+" "+v.Name] {
				l.Addf(v.File, v.Line, "%s is not dispatched: no declaration of %s, or assignment to it, refers to it", v.Name, n)
			}
			if !registered[v.Name] {
				l.Addf(v.File, v.Line, "%s is not registered in %s/variants*.go, so the variant tests do not run it", v.Name, pkgDir)
			}
		}
	}

	// 3. Callers use the fastest variant.
	byName := set.ByName
	for _, f := range p.Files {
		if f.Test || isRegistryFile(f.Rel) {
			continue
		}
		for _, ref := range refs[f] {
			v := byName[ref.Name]
			if v == nil || variants.DispatchSite(ref) == v.Routine || passedTo(ref, registerFuncs) {
				continue
			}
			caller := ""
			if ref.Func != nil {
				caller = ref.Func.Name.Name
			}
			cbase, csuf := variants.Split(caller)
			if cbase == v.Routine {
				continue // variants of one routine may share code
			}
			if csuf != "" && (isDispatcher[cbase] || dispatchVars[cbase]) {
				best := set.Best(v.Routine, csuf)
				if best == nil || best.Name == v.Name {
					continue
				}
				file, line := pos(ref.Node)
				l.Addf(file, line, "%s uses %s, but %s is faster and allowed at its level", caller, v.Name, best.Name)
				continue
			}
			file, line := pos(ref.Node)
			l.Addf(file, line, "%s uses %s directly: call %s, which dispatches to the fastest variant", orTop(caller), v.Name, v.Routine)
		}
	}
	// 4. Code that runs a routine with a four-way form uses that form too.
	for _, wp := range wides {
		for _, fs := range p.Funcs {
			for _, fn := range fs {
				if fn.File.Test || isRegistryFile(fn.File.Rel) {
					continue
				}
				if base, _ := variants.Split(fn.Name); fn.Name == wp.narrow || fn.Name == wp.wide || base == wp.narrow || base == wp.wide {
					continue
				}
				var narrowRef ast.Node
				usesWide := false
				ast.Inspect(fn.Decl, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok {
						switch id.Name {
						case wp.narrow:
							if narrowRef == nil {
								narrowRef = id
							}
						case wp.wide:
							usesWide = true
						}
					}
					return true
				})
				if narrowRef != nil && !usesWide {
					file, line := pos(narrowRef)
					l.Addf(file, line, "%s runs %s but never %s: run four at a time, the rest singly", fn.Name, wp.narrow, wp.wide)
				}
			}
		}
	}

	summary := fmt.Sprintf("%d routines with %d variants, all dispatched and registered; %d routines listed", len(names), nVariants, len(want))
	if len(pending) > 0 {
		summary += fmt.Sprintf("; %d variants not yet written: %s", len(pending), strings.Join(pending, " "))
	}
	return l, summary, nil
}

// declaredIn reports whether one of fs is declared in the file rel.
func declaredIn(fs []*gosrc.Func, rel string) bool {
	for _, f := range fs {
		if f.File.Rel == rel {
			return true
		}
	}
	return false
}

func has(vs []*variants.Variant, suf string) bool {
	for _, v := range vs {
		if v.Suffix == suf {
			return true
		}
	}
	return false
}

func asmHint(name, suf string) string {
	if suf == "Generic" {
		return ""
	}
	return " or " + strings.ToUpper(name[:1]) + name[1:] + suf + " in " + asmDir
}

func orTop(fn string) string {
	if fn == "" {
		return "package-level code"
	}
	return fn
}

func isRegistryFile(rel string) bool {
	return strings.HasPrefix(rel[strings.LastIndex(rel, "/")+1:], "variants")
}

// passedTo reports whether ref is an argument of a call of one of funcs.
func passedTo(ref gosrc.Ref, funcs map[string]bool) bool {
	for i := len(ref.Stack) - 1; i >= 0; i-- {
		c, ok := ref.Stack[i].(*ast.CallExpr)
		if !ok {
			continue
		}
		if id, ok := c.Fun.(*ast.Ident); ok && funcs[id.Name] {
			return true
		}
	}
	return false
}
