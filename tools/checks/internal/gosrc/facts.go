package gosrc

import (
	"go/ast"
	"go/token"
	"strings"
)

// Conjuncts splits a condition at && into the source forms of its parts.
func Conjuncts(e ast.Expr) []string {
	e = ast.Unparen(e)
	if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.LAND {
		return append(Conjuncts(b.X), Conjuncts(b.Y)...)
	}
	return []string{Str(e)}
}

// NegConjuncts is what holds when e is false, as far as conjuncts go:
// !x gives x, a || b gives what !a and !b give.
func NegConjuncts(e ast.Expr) []string {
	e = ast.Unparen(e)
	switch x := e.(type) {
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return Conjuncts(x.X)
		}
	case *ast.BinaryExpr:
		if x.Op == token.LOR {
			return append(NegConjuncts(x.X), NegConjuncts(x.Y)...)
		}
	}
	return nil
}

// noReturn reports whether a call never returns to its caller: panic,
// os.Exit, log.Fatal*, and a test's Fatal*, FailNow, Skip*.
func noReturn(call *ast.CallExpr) bool {
	switch f := call.Fun.(type) {
	case *ast.Ident:
		return f.Name == "panic"
	case *ast.SelectorExpr:
		n := f.Sel.Name
		if id, ok := f.X.(*ast.Ident); ok && (id.Name == "os" && n == "Exit" || id.Name == "log" && strings.HasPrefix(n, "Fatal")) {
			return true
		}
		return strings.HasPrefix(n, "Fatal") || strings.HasPrefix(n, "Skip") || n == "FailNow"
	}
	return false
}

// exits reports whether a statement list never falls through to what
// follows it: it ends in return, a jump, or a call that does not return.
// With local false, only calls that leave the whole goroutine count
// (what a helper needs to establish a fact for its caller).
func exits(list []ast.Stmt, local bool) bool {
	if len(list) == 0 {
		return false
	}
	switch s := list[len(list)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return local
	case *ast.ExprStmt:
		if c, ok := s.X.(*ast.CallExpr); ok {
			return noReturn(c)
		}
	case *ast.BlockStmt:
		return exits(s.List, local)
	}
	return false
}

// Establishers maps each top-level function of the package that checks a
// condition and leaves the goroutine (t.Skip, t.Fatal, panic, os.Exit) when
// it fails, to the facts that hold once a call of it returns.
func Establishers(p *Package) map[string][]string {
	out := map[string][]string{}
	for name, fs := range p.Funcs {
		for _, f := range fs {
			if f.Decl.Body == nil {
				continue
			}
			var facts []string
			for _, s := range f.Decl.Body.List {
				if is, ok := s.(*ast.IfStmt); ok && is.Else == nil && is.Init == nil && exits(is.Body.List, false) {
					facts = append(facts, NegConjuncts(is.Cond)...)
				}
			}
			if len(facts) > 0 {
				out[name] = facts
			}
		}
	}
	return out
}

// Facts returns the conditions known to hold when node runs, given its
// ancestors (outermost first): conditions of enclosing if statements and
// && / || operands, tagless switch cases, and, in every enclosing statement
// list, earlier `if cond { ... exit }` statements and calls of
// establishers. It stops at the enclosing function declaration; a function
// literal counts as run where it is written.
func Facts(stack []ast.Node, node ast.Node, est map[string][]string) map[string]bool {
	out := map[string]bool{}
	add := func(ss []string) {
		for _, s := range ss {
			out[s] = true
		}
	}
	before := func(list []ast.Stmt, child ast.Node) {
		for _, s := range list {
			if s == child {
				return
			}
			switch x := s.(type) {
			case *ast.IfStmt:
				if x.Else == nil && exits(x.Body.List, true) {
					add(NegConjuncts(x.Cond))
				}
			case *ast.ExprStmt:
				if c, ok := x.X.(*ast.CallExpr); ok {
					if id, ok := c.Fun.(*ast.Ident); ok {
						add(est[id.Name])
					}
				}
			}
		}
	}
	child := node
	for i := len(stack) - 1; i >= 0; i-- {
		switch p := stack[i].(type) {
		case *ast.FuncDecl:
			return out
		case *ast.IfStmt:
			if child == p.Body {
				add(Conjuncts(p.Cond))
			} else if child == p.Else {
				add(NegConjuncts(p.Cond))
			}
		case *ast.BinaryExpr:
			if child == p.Y && p.Op == token.LAND {
				add(Conjuncts(p.X))
			} else if child == p.Y && p.Op == token.LOR {
				add(NegConjuncts(p.X))
			}
		case *ast.CaseClause:
			if len(p.List) == 1 && i > 1 {
				if sw, ok := stack[i-2].(*ast.SwitchStmt); ok && sw.Tag == nil {
					add(Conjuncts(p.List[0]))
				}
			}
			before(p.Body, child)
		case *ast.BlockStmt:
			before(p.List, child)
		case *ast.CommClause:
			before(p.Body, child)
		}
		child = stack[i]
	}
	return out
}
