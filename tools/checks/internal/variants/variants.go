// Package variants finds go/mldsa's routines and their variants as
// DESIGN.md names them: a dispatching x (a function, or a package variable
// assigned its variants) and its variants xGeneric, xAMD64, xAVX2 (Go
// functions of go/mldsa, or go/asm's XAMD64 / XAVX2 used directly).
package variants

import (
	"go/ast"
	"sort"
	"strings"

	"github.com/vg-crypto/vg/tools/checks/internal/asmfile"
	"github.com/vg-crypto/vg/tools/checks/internal/gosrc"
	"github.com/vg-crypto/vg/tools/checks/internal/repo"
)

// Suffixes are the variant suffixes, slowest first.
var Suffixes = []string{"Generic", "AMD64", "AVX2", "BMI2", "AVX512"}

// Rank orders suffixes: Generic 0, AMD64 1, AVX2 2, BMI2 3, AVX512 4,
// unknown -1.
func Rank(v string) int {
	for i, s := range Suffixes {
		if s == v {
			return i
		}
	}
	return -1
}

// Split splits "rejNTTPolyx4AVX2" into ("rejNTTPolyx4", "AVX2").
func Split(name string) (string, string) {
	for _, s := range Suffixes {
		if base, ok := strings.CutSuffix(name, s); ok && base != "" {
			return base, s
		}
	}
	return "", ""
}

// Variant is one implementation of a routine.
type Variant struct {
	Routine, Suffix string
	Name            string // how go/mldsa refers to it: "xAVX2" or "asm.XAVX2"
	Asm             string // the go/asm routine when used directly, else ""
	Sig             string
	File            string
	Line            int
}

// Set is what Find found.
type Set struct {
	Pkg         *gosrc.Package
	Funcs       map[string]bool       // non-variant top-level functions (possible dispatchers)
	DispatchSig map[string]string     // their signatures (non-test declarations)
	Vars        map[string]bool       // package variables (possible dispatchers)
	ByRoutine   map[string][]*Variant // routine -> variants, slowest first
	ByName      map[string]*Variant
	AsmUsed     map[string]bool // go/asm routines used by non-test files
	Refs        map[*gosrc.File][]gosrc.Ref
}

// IsDispatcher reports whether name is a function or variable that could
// dispatch.
func (s *Set) IsDispatcher(name string) bool { return s.Funcs[name] || s.Vars[name] }

// Routines lists the routines with variants, sorted.
func (s *Set) Routines() []string {
	var out []string
	for n := range s.ByRoutine {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Best returns the fastest variant of routine at most at level suffix.
func (s *Set) Best(routine, suffix string) *Variant {
	var best *Variant
	for _, v := range s.ByRoutine[routine] {
		if Rank(v.Suffix) <= Rank(suffix) && (best == nil || Rank(v.Suffix) > Rank(best.Suffix)) {
			best = v
		}
	}
	return best
}

// Find reads the variants of package p (go/mldsa) given go/asm's routines.
func Find(r *repo.Repo, p *gosrc.Package, routines asmfile.Routines) *Set {
	s := &Set{Pkg: p, Funcs: map[string]bool{}, DispatchSig: map[string]string{}, Vars: map[string]bool{},
		ByRoutine: map[string][]*Variant{}, ByName: map[string]*Variant{}, AsmUsed: map[string]bool{}, Refs: map[*gosrc.File][]gosrc.Ref{}}
	pos := func(n ast.Node) (string, int) {
		ps := r.Fset.Position(n.Pos())
		return r.Rel(ps.Filename), ps.Line
	}
	for name, fs := range p.Funcs {
		if base, _ := Split(name); base == "" {
			s.Funcs[name] = true
			for _, f := range fs {
				if !f.File.Test {
					s.DispatchSig[name] = gosrc.Signature(f.Decl.Type)
				}
			}
		}
	}
	for _, f := range p.Files {
		if f.Test {
			continue
		}
		for _, d := range f.AST.Decls {
			if gd, ok := d.(*ast.GenDecl); ok {
				for _, sp := range gd.Specs {
					if vs, ok := sp.(*ast.ValueSpec); ok {
						for _, id := range vs.Names {
							s.Vars[id.Name] = true
						}
					}
				}
			}
		}
	}
	add := func(v *Variant) {
		s.ByRoutine[v.Routine] = append(s.ByRoutine[v.Routine], v)
		s.ByName[v.Name] = v
	}
	for name, fs := range p.Funcs {
		base, suf := Split(name)
		if base == "" || !s.IsDispatcher(base) {
			continue
		}
		for _, f := range fs {
			if f.File.Test {
				continue
			}
			file, line := pos(f.Decl.Name)
			add(&Variant{base, suf, name, "", gosrc.Signature(f.Decl.Type), file, line})
			break
		}
	}
	for _, f := range p.Files {
		s.Refs[f] = gosrc.Refs(f, p.Funcs, false)
		for _, ref := range s.Refs[f] {
			if rn, ok := strings.CutPrefix(ref.Name, "asm."); ok && routines[rn] != nil && !f.Test {
				s.AsmUsed[rn] = true
			}
		}
	}
	for rn, rt := range routines {
		base, suf := Split(rn)
		if base == "" || !s.AsmUsed[rn] {
			continue
		}
		// go/asm's XAMD64 stands for go/mldsa's xAMD64 when go/mldsa has
		// no function of that name (it then dispatches to asm directly).
		lower := ""
		for cand := range s.Funcs {
			if strings.EqualFold(cand, base) {
				lower = cand
			}
		}
		for cand := range s.Vars {
			if strings.EqualFold(cand, base) {
				lower = cand
			}
		}
		if lower == "" || s.ByName[lower+suf] != nil {
			continue
		}
		sig := ""
		if rt.Decl != nil {
			sig = gosrc.Signature(rt.Decl.Type)
		}
		add(&Variant{lower, suf, "asm." + rn, rn, sig, rt.File, rt.Line})
	}
	for _, vs := range s.ByRoutine {
		sort.Slice(vs, func(i, j int) bool { return Rank(vs[i].Suffix) < Rank(vs[j].Suffix) })
	}
	return s
}

// DispatchSite returns the routine whose dispatch contains ref: the
// function declaration it is in when that is not a variant, or the
// variable assigned (var x = ..., x = ...) around it.
func DispatchSite(ref gosrc.Ref) string {
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
			if base, _ := Split(x.Name.Name); base == "" {
				return x.Name.Name
			}
			return ""
		}
	}
	return ""
}
