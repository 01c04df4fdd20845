// Package gosrc reads the Go packages of a vg tree file by file, in every
// build configuration at once: each file keeps its build set, so a check
// can ask where a function or call is compiled. It resolves names the way
// the checks need (top-level functions of the package, and the exported
// functions of go/asm through its import name) without type-checking, so a
// tree that does not build can still be checked.
package gosrc

import (
	"go/ast"
	"go/types"
	"strconv"
	"strings"

	"github.com/vg-crypto/vg/tools/checks/internal/repo"
)

// File is one parsed .go file.
type File struct {
	Rel     string
	AST     *ast.File
	Set     repo.BuildSet
	Test    bool
	AsmName string // local name of the go/asm import, "" if none
}

// Func is one top-level function declaration (methods are not kept).
type Func struct {
	Name string
	File *File
	Decl *ast.FuncDecl
}

// Package is the .go files of one directory.
type Package struct {
	Dir   string // relative to the root
	Path  string // import path
	Files []*File
	Funcs map[string][]*Func // a name may be declared in several files (per build)
}

// AsmPath is the import path of the generated assembly's package.
func AsmPath(r *repo.Repo) string { return r.Module + "/go/asm" }

// Load parses every .go file of dir.
func Load(r *repo.Repo, dir string) (*Package, error) {
	names, err := r.Files(dir, ".go")
	if err != nil {
		return nil, err
	}
	p := &Package{Dir: dir, Path: r.ImportPath(dir), Funcs: map[string][]*Func{}}
	for _, rel := range names {
		f, err := r.Parse(rel)
		if err != nil {
			return nil, err
		}
		set, err := r.BuildSetOf(rel)
		if err != nil {
			return nil, err
		}
		file := &File{Rel: rel, AST: f, Set: set, Test: strings.HasSuffix(rel, "_test.go")}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == AsmPath(r) {
				file.AsmName = "asm"
				if imp.Name != nil {
					file.AsmName = imp.Name.Name
				}
			}
		}
		p.Files = append(p.Files, file)
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				p.Funcs[fd.Name.Name] = append(p.Funcs[fd.Name.Name], &Func{fd.Name.Name, file, fd})
			}
		}
	}
	return p, nil
}

// LoadAll loads every package under rel.
func LoadAll(r *repo.Repo, rel string) ([]*Package, error) {
	dirs, err := r.Dirs(rel)
	if err != nil {
		return nil, err
	}
	var out []*Package
	for _, d := range dirs {
		p, err := Load(r, d)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// Ref is a use of a function name inside a file.
type Ref struct {
	Name  string // top-level function of the package, or "asm.X" for go/asm
	Node  ast.Expr
	Call  bool       // the callee of a call expression
	Stack []ast.Node // ancestors, outermost first, ending with Node's parent
	Func  *ast.FuncDecl
}

// Refs lists the references in f to the package's top-level functions
// (names in funcs) and to go/asm's functions. Shadowing by locals is not
// tracked: a local of the same name as a top-level function counts as it.
func Refs(f *File, funcs map[string][]*Func, asmPkg bool) []Ref {
	var out []Ref
	var stack []ast.Node
	ast.Inspect(f.AST, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		var name string
		switch x := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok && f.AsmName != "" && id.Name == f.AsmName {
				name = "asm." + x.Sel.Name
			}
		case *ast.Ident:
			if _, ok := funcs[x.Name]; ok && !isDeclName(stack, x) && !isSelectorSel(stack, x) {
				name = x.Name
				if asmPkg {
					name = "asm." + x.Name
				}
			}
		}
		if name != "" {
			call := false
			if len(stack) > 0 {
				if c, ok := stack[len(stack)-1].(*ast.CallExpr); ok && c.Fun == n {
					call = true
				}
			}
			var decl *ast.FuncDecl
			if len(stack) > 1 {
				decl, _ = stack[1].(*ast.FuncDecl) // stack[0] is the file
			}
			out = append(out, Ref{name, n.(ast.Expr), call, append([]ast.Node(nil), stack...), decl})
			if _, ok := n.(*ast.SelectorExpr); ok {
				return false
			}
		}
		stack = append(stack, n)
		return true
	})
	return out
}

func isDeclName(stack []ast.Node, id *ast.Ident) bool {
	if len(stack) == 0 {
		return false
	}
	switch p := stack[len(stack)-1].(type) {
	case *ast.FuncDecl:
		return p.Name == id
	case *ast.KeyValueExpr:
		return p.Key == id // a struct field name in a literal
	case *ast.Field:
		for _, n := range p.Names {
			if n == id {
				return true
			}
		}
	}
	return false
}

func isSelectorSel(stack []ast.Node, id *ast.Ident) bool {
	if len(stack) == 0 {
		return false
	}
	s, ok := stack[len(stack)-1].(*ast.SelectorExpr)
	return ok && s.Sel == id
}

// Str is the source form of an expression.
func Str(e ast.Expr) string { return types.ExprString(e) }

// Signature is the source form of a function's parameter and result types,
// without names: "(*[25]uint64)" or "(*ringElement, *[34]byte) bool".
func Signature(ft *ast.FuncType) string {
	list := func(fl *ast.FieldList) []string {
		var out []string
		if fl == nil {
			return out
		}
		for _, f := range fl.List {
			n := max(len(f.Names), 1)
			for i := 0; i < n; i++ {
				out = append(out, Str(f.Type))
			}
		}
		return out
	}
	s := "(" + strings.Join(list(ft.Params), ", ") + ")"
	res := list(ft.Results)
	switch len(res) {
	case 0:
	case 1:
		s += " " + res[0]
	default:
		s += " (" + strings.Join(res, ", ") + ")"
	}
	return s
}
