// Command check_variants checks the variants of go/mldsa's routines:
//
//   - every routine of routines.txt (DESIGN.md's list) has the variants
//     listed there, and an AVX2 variant wherever one exists: a function
//     xGeneric / xAMD64 / xAVX2 of go/mldsa, or go/asm's XAMD64 / XAVX2 used
//     as it is, all with the signature of the dispatching x;
//   - every variant is dispatched (a declaration of x, or an assignment to
//     a dispatch variable x, refers to it) and registered in the variant
//     registry (go/mldsa/variants*.go) so the variant tests run it, and every
//     go/asm routine is used by go/mldsa;
//   - a caller with a faster variant of a callee uses it: outside the
//     callee's dispatch, the registry and tests, code calls the dispatching
//     y, not yGeneric or yAMD64; a variant may call a variant of another
//     routine only when that is the fastest one its own level allows
//     (Generic < AMD64 < AVX2).
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

	"github.com/vg-crypto/vg/tools/checks/internal/asmfile"
	"github.com/vg-crypto/vg/tools/checks/internal/diag"
	"github.com/vg-crypto/vg/tools/checks/internal/gosrc"
	"github.com/vg-crypto/vg/tools/checks/internal/repo"
)

const (
	routinesPath = "tools/checks/check_variants/routines.txt"
	pkgDir       = "go/mldsa"
	asmDir       = "go/asm"
)

// suffixes are the variant suffixes, slowest first.
var suffixes = []string{"Generic", "AMD64", "AVX2"}

func rank(v string) int {
	for i, s := range suffixes {
		if s == v {
			return i
		}
	}
	return -1
}

func main() {
	root := flag.String("root", ".", "repository root")
	flag.Parse()
	l, summary, err := run(*root)
	diag.Exit("check_variants", l, summary, err)
}

type wanted struct {
	name     string
	variants []string
	line     int
}

func readRoutines(path string) ([]wanted, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []wanted
	for i, line := range strings.Split(string(data), "\n") {
		line, _, _ = strings.Cut(line, "#")
		w := strings.Fields(line)
		if len(w) == 0 {
			continue
		}
		for _, v := range w[1:] {
			if rank(v) < 0 {
				return nil, fmt.Errorf("%s:%d: unknown variant %q", routinesPath, i+1, v)
			}
		}
		out = append(out, wanted{w[0], w[1:], i + 1})
	}
	return out, nil
}

// variant is one implementation of a routine.
type variant struct {
	routine, suffix string
	name            string // how go/mldsa refers to it: "xAVX2" or "asm.XAVX2"
	sig             string
	file            string
	line            int
}

// splitVariant splits "rejNTTPolyx4AVX2" into ("rejNTTPolyx4", "AVX2").
func splitVariant(name string) (string, string) {
	for _, s := range suffixes {
		if base, ok := strings.CutSuffix(name, s); ok && base != "" {
			return base, s
		}
	}
	return "", ""
}

func run(root string) (diag.List, string, error) {
	r, err := repo.Open(root)
	if err != nil {
		return nil, "", err
	}
	want, err := readRoutines(r.Abs(routinesPath))
	if err != nil {
		return nil, "", err
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
	var l diag.List

	// Dispatchers: functions and package variables of go/mldsa that are
	// not themselves variants.
	dispatchSig := map[string]string{} // routine -> signature of its declaration(s)
	isDispatcher := map[string]bool{}
	for name, fs := range p.Funcs {
		if base, _ := splitVariant(name); base == "" {
			isDispatcher[name] = true
			for _, f := range fs {
				if !f.File.Test {
					dispatchSig[name] = gosrc.Signature(f.Decl.Type)
				}
			}
		}
	}
	dispatchVars := map[string]bool{}
	for _, f := range p.Files {
		for _, d := range f.AST.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && !f.Test {
				for _, s := range gd.Specs {
					if vs, ok := s.(*ast.ValueSpec); ok {
						for _, id := range vs.Names {
							dispatchVars[id.Name] = true
						}
					}
				}
			}
		}
	}

	// Variants: go/mldsa functions with a suffix whose base is dispatched,
	// and go/asm routines used directly.
	vars := map[string][]*variant{}
	for name, fs := range p.Funcs {
		base, suf := splitVariant(name)
		if base == "" || !(isDispatcher[base] || dispatchVars[base]) {
			continue
		}
		for _, f := range fs {
			if f.File.Test {
				continue
			}
			file, line := pos(f.Decl.Name)
			vars[base] = append(vars[base], &variant{base, suf, name, gosrc.Signature(f.Decl.Type), file, line})
			break
		}
	}
	asmUsed := map[string]bool{}
	refs := map[*gosrc.File][]gosrc.Ref{}
	for _, f := range p.Files {
		refs[f] = gosrc.Refs(f, p.Funcs, false)
		for _, ref := range refs[f] {
			if rn, ok := strings.CutPrefix(ref.Name, "asm."); ok && routines[rn] != nil && !f.Test {
				asmUsed[rn] = true
			}
		}
	}
	for rn, rt := range routines {
		base, suf := splitVariant(rn)
		if base == "" || !asmUsed[rn] {
			continue // dead assembly is reported below
		}
		lower := strings.ToLower(base[:1]) + base[1:]
		// go/asm's XAMD64 stands for go/mldsa's xAMD64 when go/mldsa has
		// no function of that name (it then dispatches to asm directly).
		for cand := range isDispatcher {
			if strings.EqualFold(cand, base) {
				lower = cand
			}
		}
		if !isDispatcher[lower] && !dispatchVars[lower] {
			continue
		}
		if has(vars[lower], suf) {
			continue
		}
		sig := ""
		if rt.Decl != nil {
			sig = gosrc.Signature(rt.Decl.Type)
		}
		vars[lower] = append(vars[lower], &variant{lower, suf, "asm." + rn, sig, rt.File, rt.Line})
	}
	for rn, rt := range routines {
		if !asmUsed[rn] {
			l.Addf(rt.File, rt.Line, "asm.%s is not used by %s: dead assembly", rn, pkgDir)
		}
	}

	// 1. Each routine has its variants, with one signature.
	listed := map[string]bool{}
	for _, w := range want {
		listed[w.name] = true
		vs := vars[w.name]
		if !isDispatcher[w.name] && !dispatchVars[w.name] && len(vs) == 0 {
			l.Addf(routinesPath, w.line, "%s: no such routine in %s", w.name, pkgDir)
			continue
		}
		for _, s := range w.variants {
			if !has(vs, s) {
				l.Addf(routinesPath, w.line, "%s: no %s variant (%s%s in %s%s)", w.name, s, w.name, s, pkgDir, asmHint(w.name, s))
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
		sort.Slice(vs, func(i, j int) bool { return rank(vs[i].suffix) < rank(vs[j].suffix) })
		ref, refName := dispatchSig[n], n
		if ref == "" && len(vs) > 0 {
			ref, refName = vs[0].sig, vs[0].name
		}
		for _, v := range vs {
			if v.sig != ref {
				l.Addf(v.file, v.line, "%s has signature %s, but %s has %s", v.name, v.sig, refName, ref)
			}
		}
	}

	// 2. Dispatched and registered.
	dispatched := map[string]bool{}
	registered := map[string]bool{}
	for _, f := range p.Files {
		if f.Test {
			continue
		}
		base := f.Rel[strings.LastIndex(f.Rel, "/")+1:]
		isRegistry := strings.HasPrefix(base, "variants")
		for _, ref := range refs[f] {
			if isRegistry {
				registered[ref.Name] = true
				continue
			}
			if site := dispatchSite(ref); site != "" {
				dispatched[site+" "+ref.Name] = true
			}
		}
	}
	nVariants := 0
	for _, n := range names {
		for _, v := range vars[n] {
			nVariants++
			if !dispatched[n+" "+v.name] {
				l.Addf(v.file, v.line, "%s is not dispatched: no declaration of %s, or assignment to it, refers to it", v.name, n)
			}
			if !registered[v.name] {
				l.Addf(v.file, v.line, "%s is not registered in %s/variants*.go, so the variant tests do not run it", v.name, pkgDir)
			}
		}
	}

	// 3. Callers use the fastest variant.
	byName := map[string]*variant{}
	for _, n := range names {
		for _, v := range vars[n] {
			byName[v.name] = v
		}
	}
	for _, f := range p.Files {
		base := f.Rel[strings.LastIndex(f.Rel, "/")+1:]
		if f.Test || strings.HasPrefix(base, "variants") {
			continue
		}
		for _, ref := range refs[f] {
			v := byName[ref.Name]
			if v == nil || dispatchSite(ref) == v.routine {
				continue
			}
			caller := ""
			if ref.Func != nil {
				caller = ref.Func.Name.Name
			}
			cbase, csuf := splitVariant(caller)
			if cbase == v.routine {
				continue // variants of one routine may share code
			}
			if csuf != "" && (isDispatcher[cbase] || dispatchVars[cbase]) {
				best := ""
				for _, w := range vars[v.routine] {
					if rank(w.suffix) <= rank(csuf) && (best == "" || rank(w.suffix) > rank(byName[best].suffix)) {
						best = w.name
					}
				}
				if best == v.name {
					continue
				}
				file, line := pos(ref.Node)
				l.Addf(file, line, "%s uses %s, but %s is faster and allowed at its level", caller, v.name, best)
				continue
			}
			file, line := pos(ref.Node)
			l.Addf(file, line, "%s uses %s directly: call %s, which dispatches to the fastest variant", orTop(caller), v.name, v.routine)
		}
	}
	return l, fmt.Sprintf("%d routines with %d variants, all dispatched and registered; %d routines listed", len(names), nVariants, len(want)), nil
}

func has(vs []*variant, suf string) bool {
	for _, v := range vs {
		if v.suffix == suf {
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

// dispatchSite returns the routine whose dispatch contains ref: the
// function declaration it is in when that is not a variant, or the
// variable assigned (var x = ..., x = ...) around it.
func dispatchSite(ref gosrc.Ref) string {
	for i := len(ref.Stack) - 1; i >= 0; i-- {
		switch x := ref.Stack[i].(type) {
		case *ast.ValueSpec:
			if len(x.Names) == 1 {
				return x.Names[0].Name
			}
		case *ast.AssignStmt:
			if len(x.Lhs) == 1 {
				if id, ok := x.Lhs[0].(*ast.Ident); ok {
					return id.Name
				}
			}
		case *ast.FuncDecl:
			if base, _ := splitVariant(x.Name.Name); base == "" {
				return x.Name.Name
			}
			return ""
		}
	}
	return ""
}
