// Command algorithms_table writes the README's table of algorithms from the
// code: for each routine that ML-DSA's operations reach in go/mldsa, which
// parameter sets and operations use it, what runs on a CPU with AVX2, on
// baseline x86-64 and in pure Go (other platforms, -tags purego), and the
// proof status `vg prove -json` reports for each assembly routine. With
// -check it fails when the README's table differs.
//
// Usage, from the repository root:
//
//	go run ./tools/checks/algorithms_table [-check] [-json saved.json]
//
// Without -json it runs `go run ./cmd/vg prove -json` (at most 10 minutes).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/tools/checks/internal/asmfile"
	"github.com/vg-crypto/vg/tools/checks/internal/diag"
	"github.com/vg-crypto/vg/tools/checks/internal/gosrc"
	"github.com/vg-crypto/vg/tools/checks/internal/prove"
	"github.com/vg-crypto/vg/tools/checks/internal/repo"
	"github.com/vg-crypto/vg/tools/checks/internal/variants"
)

const (
	tablePath = "tools/checks/algorithms_table/table.txt"
	readme    = "README.md"
	begin     = "<!-- algorithms:begin -->"
	end       = "<!-- algorithms:end -->"
)

func main() {
	root := flag.String("root", ".", "repository root")
	check := flag.Bool("check", false, "fail if README.md's table differs instead of writing it")
	saved := flag.String("json", "", "read this saved `vg prove -json` output instead of running vg prove")
	flag.Parse()
	l, summary, err := run(*root, *check, *saved, symbols())
	diag.Exit("algorithms_table", l, summary, err)
}

// symbols maps each contract's routine and variant ("KeccakF1600/AMD64",
// as vg prove names them) to its TEXT symbol.
func symbols() map[string]string {
	out := map[string]string{}
	for _, c := range contract.All() {
		out[c.Routine+"/"+c.Variant] = c.Symbol
	}
	return out
}

type config struct {
	ops       []op
	params    []paramSet
	remainder map[string]bool
}

type op struct {
	name    string
	entries []string
	line    int
}

type paramSet struct {
	name, variable string
	k, l           int
	line           int
}

func readConfig(r *repo.Repo) (*config, error) {
	data, err := os.ReadFile(r.Abs(tablePath))
	if err != nil {
		return nil, err
	}
	c := &config{remainder: map[string]bool{}}
	for i, line := range strings.Split(string(data), "\n") {
		line, _, _ = strings.Cut(line, "#")
		w := strings.Fields(line)
		if len(w) == 0 {
			continue
		}
		switch {
		case w[0] == "op" && len(w) >= 3:
			c.ops = append(c.ops, op{w[1], w[2:], i + 1})
		case w[0] == "params" && len(w) == 3:
			c.params = append(c.params, paramSet{name: w[1], variable: w[2], line: i + 1})
		case w[0] == "remainder" && len(w) == 2:
			c.remainder[w[1]] = true
		default:
			return nil, fmt.Errorf("%s:%d: cannot read %q", tablePath, i+1, line)
		}
	}
	return c, nil
}

// graph is go/mldsa's static reference graph: top-level functions,
// methods ("T.M") and package variables, non-test files only. A call x.M()
// goes to every method named M.
type graph struct {
	edges   map[string]map[string]bool
	methods map[string][]string // M -> "T.M"...
	asm     map[string]map[string]bool
}

func buildGraph(p *gosrc.Package) *graph {
	g := &graph{edges: map[string]map[string]bool{}, methods: map[string][]string{}, asm: map[string]map[string]bool{}}
	top := map[string]bool{}
	for _, f := range p.Files {
		if f.Test {
			continue
		}
		for _, d := range f.AST.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					top[d.Name.Name] = true
				} else {
					key := recvName(d) + "." + d.Name.Name
					g.methods[d.Name.Name] = append(g.methods[d.Name.Name], key)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if vs, ok := s.(*ast.ValueSpec); ok {
						for _, id := range vs.Names {
							top[id.Name] = true
						}
					}
				}
			}
		}
	}
	link := func(from string, body ast.Node, asmName string) {
		if g.edges[from] == nil {
			g.edges[from] = map[string]bool{}
			g.asm[from] = map[string]bool{}
		}
		var visit func(n ast.Node) bool
		visit = func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectorExpr:
				if id, ok := x.X.(*ast.Ident); ok && asmName != "" && id.Name == asmName {
					g.asm[from][x.Sel.Name] = true
					return false
				}
				for _, m := range g.methods[x.Sel.Name] {
					g.edges[from][m] = true
				}
				// x.Sel names a method or field, never a top-level
				// name: kp.init is not the package's init.
				ast.Inspect(x.X, visit)
				return false
			case *ast.Ident:
				if top[x.Name] {
					g.edges[from][x.Name] = true
				}
			}
			return true
		}
		ast.Inspect(body, visit)
	}
	for _, f := range p.Files {
		if f.Test {
			continue
		}
		for _, d := range f.AST.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				name := d.Name.Name
				if d.Recv != nil {
					name = recvName(d) + "." + name
				}
				if d.Body != nil {
					link(name, d.Body, f.AsmName)
				}
				if d.Recv == nil && d.Name.Name == "init" {
					// Assignments in init dispatch variables: x = xAVX2.
					ast.Inspect(d.Body, func(n ast.Node) bool {
						if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
							for i, lhs := range as.Lhs {
								if id, ok := lhs.(*ast.Ident); ok && top[id.Name] {
									link(id.Name, as.Rhs[i], f.AsmName)
								}
							}
						}
						return true
					})
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if vs, ok := s.(*ast.ValueSpec); ok {
						for i, id := range vs.Names {
							if i < len(vs.Values) {
								link(id.Name, vs.Values[i], f.AsmName)
							}
						}
					}
				}
			}
		}
	}
	return g
}

func recvName(d *ast.FuncDecl) string {
	t := d.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok {
		t = ix.X
	}
	return gosrc.Str(t)
}

// reach walks from the entries at a feature level: at a routine with
// variants it follows only the variant that level dispatches to. It
// returns the routines reached and the assembly each routine's chosen
// variant runs itself (not through another routine).
func reach(g *graph, set *variants.Set, entries []string, level string, skip map[string]bool) (map[string]bool, map[string]map[string]bool) {
	routines := map[string]bool{}
	own := map[string]map[string]bool{}
	seen := map[string]bool{}
	var walk func(node, owner string)
	walk = func(node, owner string) {
		if skip[node] {
			return
		}
		if len(set.ByRoutine[node]) > 0 {
			if routines[node] {
				return
			}
			routines[node] = true
			own[node] = map[string]bool{}
			v := set.Best(node, level)
			if v == nil {
				return
			}
			if v.Asm != "" {
				own[node][v.Asm] = true
				return
			}
			walk(v.Name, node)
			return
		}
		key := node + "\x00" + owner
		if seen[key] {
			return
		}
		seen[key] = true
		if owner != "" {
			for a := range g.asm[node] {
				own[owner][a] = true
			}
		}
		for next := range g.edges[node] {
			walk(next, owner)
		}
	}
	for _, e := range entries {
		walk(e, "")
	}
	return routines, own
}

// paramsKL reads k and l from the composite literal assigned to each
// parameter set's variable.
func paramsKL(r *repo.Repo, p *gosrc.Package, c *config) diag.List {
	var l diag.List
	lits := map[string]*ast.CompositeLit{}
	for _, f := range p.Files {
		if f.Test {
			continue
		}
		ast.Inspect(f.AST, func(n ast.Node) bool {
			if vs, ok := n.(*ast.ValueSpec); ok {
				for i, id := range vs.Names {
					if i < len(vs.Values) {
						if cl, ok := vs.Values[i].(*ast.CompositeLit); ok {
							lits[id.Name] = cl
						}
					}
				}
			}
			return true
		})
	}
	for i := range c.params {
		ps := &c.params[i]
		cl := lits[ps.variable]
		if cl == nil {
			l.Addf(tablePath, ps.line, "%s: go/mldsa has no variable %s holding a composite literal", ps.name, ps.variable)
			continue
		}
		for _, e := range cl.Elts {
			kv, ok := e.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			key, _ := kv.Key.(*ast.Ident)
			lit, _ := kv.Value.(*ast.BasicLit)
			if key == nil || lit == nil {
				continue
			}
			n, _ := strconv.Atoi(lit.Value)
			switch key.Name {
			case "k":
				ps.k = n
			case "l":
				ps.l = n
			}
		}
		if ps.k == 0 || ps.l == 0 {
			l.Addf(tablePath, ps.line, "%s: cannot read k and l from %s", ps.name, ps.variable)
		}
	}
	return l
}

// status sums up vg prove's obligations for one assembly routine.
func status(rows []prove.Row) string {
	if len(rows) == 0 {
		return "not in vg prove"
	}
	proven, failing := 0, 0
	for _, r := range rows {
		switch r.Status {
		case "proven":
			proven++
		case "failing":
			failing++
		}
	}
	switch {
	case failing > 0:
		return fmt.Sprintf("failing (%d of %d obligations)", failing, len(rows))
	case proven == len(rows):
		return "proven"
	default:
		return fmt.Sprintf("tested (%d of %d obligations proven)", proven, len(rows))
	}
}

// levels are the table's columns of features, fastest first.
var levels = []struct{ suffix, title string }{
	{"AVX2", "With AVX2"},
	{"AMD64", "Baseline x86-64"},
	{"Generic", "Pure Go (other platforms, `-tags purego`)"},
}

func run(root string, check bool, saved string, syms map[string]string) (diag.List, string, error) {
	r, err := repo.Open(root)
	if err != nil {
		return nil, "", err
	}
	c, err := readConfig(r)
	if err != nil {
		return nil, "", err
	}
	p, err := gosrc.Load(r, "go/mldsa")
	if err != nil {
		return nil, "", err
	}
	routines, err := asmfile.Load(r, "go/asm")
	if err != nil {
		return nil, "", err
	}
	set := variants.Find(r, p, routines)
	l := paramsKL(r, p, c)
	g := buildGraph(p)
	// Valgrind's client request runs only in check_ct's builds (the tag
	// valgrind): it is no routine of an operation.
	for _, ct := range contract.All() {
		if ct.Valgrind {
			for _, calls := range g.asm {
				delete(calls, ct.Symbol)
			}
		}
	}
	for _, o := range c.ops {
		for _, e := range o.entries {
			if _, ok := g.edges[e]; !ok {
				l.Addf(tablePath, o.line, "%s: go/mldsa has no %s", o.name, e)
			}
		}
	}
	if len(l) > 0 {
		return l, "", nil
	}
	var rows []prove.Row
	if saved != "" {
		rows, err = prove.ReadFile(saved)
	} else {
		rows, _, err = prove.Run(r.Root, 10*time.Minute)
	}
	if err != nil {
		return nil, "", err
	}
	bySym := map[string][]prove.Row{}
	for _, row := range rows {
		sym := syms[row.Routine+"/"+row.Variant]
		if sym == "" {
			sym = row.Routine + row.Variant
		}
		bySym[sym] = append(bySym[sym], row)
	}

	// used[routine][paramset] lists operations; cell[routine][level].
	used := map[string]map[string][]string{}
	cell := map[string]map[string]string{}
	for _, ps := range c.params {
		skip := map[string]bool{}
		if ps.k*ps.l%4 == 0 {
			for rt := range c.remainder {
				skip[rt] = true
			}
		}
		for _, o := range c.ops {
			for _, lv := range levels {
				reached, own := reach(g, set, o.entries, lv.suffix, skip)
				for rt := range reached {
					if used[rt] == nil {
						used[rt] = map[string][]string{}
						cell[rt] = map[string]string{}
					}
					if !contains(used[rt][ps.name], o.name) {
						used[rt][ps.name] = append(used[rt][ps.name], o.name)
					}
					cell[rt][lv.suffix] = describe(set, rt, lv.suffix, own[rt], bySym)
				}
			}
		}
	}
	names := make([]string, 0, len(used))
	for n := range used {
		names = append(names, n)
	}
	sort.Strings(names)

	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\n<!-- Written by `go run ./tools/checks/algorithms_table`; do not edit. -->\n\n", begin)
	fmt.Fprintf(&b, "| Routine |")
	for _, ps := range c.params {
		fmt.Fprintf(&b, " %s |", ps.name)
	}
	for _, lv := range levels {
		fmt.Fprintf(&b, " %s |", lv.title)
	}
	b.WriteString("\n|---|")
	b.WriteString(strings.Repeat("---|", len(c.params)+len(levels)))
	b.WriteString("\n")
	for _, n := range names {
		fmt.Fprintf(&b, "| `%s` |", n)
		for _, ps := range c.params {
			ops := used[n][ps.name]
			if len(ops) == 0 {
				b.WriteString(" — |")
			} else {
				fmt.Fprintf(&b, " %s |", strings.Join(ops, ", "))
			}
		}
		for _, lv := range levels {
			s := cell[n][lv.suffix]
			if s == "" {
				s = "—"
			}
			fmt.Fprintf(&b, " %s |", s)
		}
		b.WriteString("\n")
	}
	b.WriteString("\nA parameter set's column lists the operations that run the routine; each column of features shows the variant that runs there (— when none does), and for assembly the status of its proof in `vg prove`.\n")
	b.WriteString(end)
	table := b.String()

	data, err := os.ReadFile(r.Abs(readme))
	if err != nil {
		return nil, "", err
	}
	text := string(data)
	i, j := strings.Index(text, begin), strings.Index(text, end)
	if i < 0 || j < i {
		l.Addf(readme, 0, "no %s ... %s markers", begin, end)
		return l, "", nil
	}
	updated := text[:i] + table + text[j+len(end):]
	summary := fmt.Sprintf("%d routines, %d parameter sets, %d operations", len(names), len(c.params), len(c.ops))
	if check {
		if updated != text {
			l.Addf(readme, strings.Count(text[:i], "\n")+1, "the table of algorithms differs from the code; run go run ./tools/checks/algorithms_table")
		}
		return l, summary + "; README.md is up to date", nil
	}
	if updated != text {
		if err := os.WriteFile(r.Abs(readme), []byte(updated), 0o644); err != nil {
			return nil, "", err
		}
		return l, summary + "; README.md written", nil
	}
	return l, summary + "; README.md already up to date", nil
}

func describe(set *variants.Set, routine, level string, own map[string]bool, bySym map[string][]prove.Row) string {
	v := set.Best(routine, level)
	if v == nil {
		return "—"
	}
	var asm []string
	for a := range own {
		d := fmt.Sprintf("assembly `%s` (%s)", a, status(bySym[a]))
		// A routine that calls others (its contract's Calls) names them:
		// the operations reach them through it.
		if c := contract.Lookup(a); c != nil && len(c.Calls) > 0 {
			var cs []string
			for _, callee := range c.Calls {
				cs = append(cs, fmt.Sprintf("`%s` (%s)", callee, status(bySym[callee])))
			}
			d += " calling " + strings.Join(cs, " and ")
		}
		asm = append(asm, d)
	}
	sort.Strings(asm)
	switch {
	case v.Asm != "":
		return strings.Join(asm, ", ")
	case len(asm) == 0:
		return fmt.Sprintf("Go `%s`", v.Name)
	default:
		return fmt.Sprintf("%s via `%s`", strings.Join(asm, ", "), v.Name)
	}
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}
