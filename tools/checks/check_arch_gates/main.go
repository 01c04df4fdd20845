// Command check_arch_gates checks that assembly runs only where it can:
//
//   - every Go use of a go/asm routine is in a file built only for amd64
//     and not purego, and only where the routine itself is compiled;
//   - every use is reached only when the CPU features of the routine's
//     contract (Spec/contract; and of its "// Requires:" line, beyond the
//     x86-64 baseline) are present: under a guard of
//     features.txt (if useAVX2 { ... }, an earlier if !useAVX2 { return },
//     a helper that skips or stops when they are absent), or inside an
//     unexported variant function whose suffix names them (xxxAVX2), whose
//     own uses are then checked the same way; guard variables are assigned
//     only from the CPU flags features.txt names;
//   - every test and benchmark that runs an assembly routine (directly or
//     through amd64-only functions) is in a file built for exactly the
//     configurations where the routine exists (GOOS x GOARCH x the -tags of
//     tools/test.sh's three paths), so it neither breaks other builds nor
//     silently stops running on one of them.
//
// Usage, from the repository root: go run ./tools/checks/check_arch_gates [-root dir]
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
)

const featuresPath = "tools/checks/check_arch_gates/features.txt"

func main() {
	root := flag.String("root", ".", "repository root")
	flag.Parse()
	l, summary, err := run(*root, contractFeatures())
	diag.Exit("check_arch_gates", l, summary, err)
}

// Features is features.txt.
type Features struct {
	Baseline map[string]bool
	Implies  map[string][]string
	Guards   map[string][]string // expression -> features
	Sources  map[string][]string // guard variable -> expressions its value must mention
	Suffixes map[string][]string // function-name suffix -> features
}

func readFeatures(path string) (*Features, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f := &Features{map[string]bool{}, map[string][]string{}, map[string][]string{}, map[string][]string{}, map[string][]string{}}
	for i, line := range strings.Split(string(data), "\n") {
		line, _, _ = strings.Cut(line, "#")
		w := strings.Fields(line)
		if len(w) == 0 {
			continue
		}
		if len(w) < 2 {
			return nil, fmt.Errorf("%s:%d: %q needs arguments", featuresPath, i+1, w[0])
		}
		switch w[0] {
		case "baseline":
			for _, x := range w[1:] {
				f.Baseline[x] = true
			}
		case "implies":
			f.Implies[w[1]] = append(f.Implies[w[1]], w[2:]...)
		case "guard":
			f.Guards[w[1]] = w[2:]
		case "source":
			if len(w) < 3 {
				return nil, fmt.Errorf("%s:%d: source <variable> <expressions>", featuresPath, i+1)
			}
			f.Sources[w[1]] = w[2:]
		case "suffix":
			f.Suffixes[w[1]] = w[2:]
		default:
			return nil, fmt.Errorf("%s:%d: unknown statement %q", featuresPath, i+1, w[0])
		}
	}
	return f, nil
}

// closure adds what the features imply.
func (f *Features) closure(fs []string) map[string]bool {
	out := map[string]bool{}
	var add func(string)
	add = func(x string) {
		if out[x] {
			return
		}
		out[x] = true
		for _, y := range f.Implies[x] {
			add(y)
		}
	}
	for _, x := range fs {
		add(x)
	}
	return out
}

// provided are the features the facts establish.
func (f *Features) provided(facts map[string]bool) map[string]bool {
	var fs []string
	for g, feats := range f.Guards {
		if facts[g] {
			fs = append(fs, feats...)
		}
	}
	return f.closure(fs)
}

// suffixOf returns the features an unexported non-test function may
// assume by its name.
func (f *Features) suffixOf(name string) map[string]bool {
	if name == "" || ast.IsExported(name) || name == "init" || name == "main" {
		return nil
	}
	var fs []string
	for s, feats := range f.Suffixes {
		if strings.HasSuffix(name, s) {
			fs = append(fs, feats...)
		}
	}
	return f.closure(fs)
}

func sorted(m map[string]bool) []string {
	var out []string
	for k, v := range m {
		if v {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func isTestFunc(name string) bool {
	for _, p := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// valgrindRoutines are the TEXT symbols of valgrind's client request (a
// contract's Valgrind): built with the purego tag too, and to be used,
// outside tests, only in files built with the tag valgrind, instead of the
// rule for ML-DSA routines.
var valgrindRoutines = func() map[string]bool {
	out := map[string]bool{}
	for _, c := range contract.All() {
		if c.Valgrind {
			out[c.Symbol] = true
		}
	}
	return out
}()

// contractFeatures maps each contract's TEXT symbol to its CPU features.
func contractFeatures() map[string][]string {
	out := map[string][]string{}
	for _, c := range contract.All() {
		out[c.Symbol] = c.Features
	}
	return out
}

func run(root string, contracts map[string][]string) (diag.List, string, error) {
	r, err := repo.Open(root)
	if err != nil {
		return nil, "", err
	}
	feats, err := readFeatures(r.Abs(featuresPath))
	if err != nil {
		return nil, "", err
	}
	routines, err := asmfile.Load(r, "go/asm")
	if err != nil {
		return nil, "", err
	}
	// need[R] are the features of routine R beyond the baseline.
	var l diag.List
	need := map[string]map[string]bool{}
	for name, rt := range routines {
		m := map[string]bool{}
		cf, ok := contracts[name]
		if !ok {
			l.Addf(rt.File, rt.Line, "%s has no contract in Spec/contract, so its CPU features are unknown", name)
		}
		for _, x := range append(cf, rt.Requires...) {
			if !feats.Baseline[x] {
				m[x] = true
			}
		}
		need["asm."+name] = m
	}
	pkgs, err := gosrc.LoadAll(r, ".")
	if err != nil {
		return nil, "", err
	}
	nUses, nTests := 0, 0
	for _, p := range pkgs {
		if strings.HasPrefix(p.Dir, "tools/") {
			continue
		}
		u, t := checkPackage(&l, r, p, feats, routines, need)
		nUses += u
		nTests += t
	}
	return l, fmt.Sprintf("%d uses of %d assembly routines gated, %d tests and benchmarks built where their routines exist", nUses, len(routines), nTests), nil
}

type use struct {
	file *gosrc.File
	ref  gosrc.Ref
}

func checkPackage(l *diag.List, r *repo.Repo, p *gosrc.Package, feats *Features, routines asmfile.Routines, need map[string]map[string]bool) (int, int) {
	asmPkg := p.Path == gosrc.AsmPath(r)
	var uses []use
	for _, f := range p.Files {
		for _, ref := range gosrc.Refs(f, p.Funcs, asmPkg) {
			if strings.HasPrefix(ref.Name, "asm.") && routines[strings.TrimPrefix(ref.Name, "asm.")] == nil {
				continue // not an assembly routine (a Go function of go/asm)
			}
			uses = append(uses, use{f, ref})
		}
	}
	est := gosrc.Establishers(p)
	pos := func(n ast.Node) (string, int) {
		ps := r.Fset.Position(n.Pos())
		return r.Rel(ps.Filename), ps.Line
	}
	name := func(d *ast.FuncDecl) string {
		if d == nil {
			return ""
		}
		return d.Name.Name
	}

	// 1. Files of direct uses.
	nDirect := 0
	for _, u := range uses {
		if !strings.HasPrefix(u.ref.Name, "asm.") {
			continue
		}
		nDirect++
		rt := routines[strings.TrimPrefix(u.ref.Name, "asm.")]
		file, line := pos(u.ref.Node)
		switch {
		case valgrindRoutines[rt.Name]:
			// Tests may call it anywhere it exists (on the CPU it does
			// nothing); the library only in check_ct's builds.
			if !u.file.Test && !u.file.Set.OnlyAMD64Valgrind() {
				l.Addf(file, line, "%s is valgrind's client request, to be used only in files built for amd64 with the tag valgrind", u.ref.Name)
			} else if !subset(u.file.Set, rt.Exists) {
				extra, _ := u.file.Set.Diff(rt.Exists, 3)
				l.Addf(file, line, "%s is used in a file built where the routine is not (%s)", u.ref.Name, strings.Join(extra, ", "))
			}
		case !u.file.Set.OnlyAMD64NoPurego():
			extra, _ := u.file.Set.Diff(amd64NoPurego(u.file.Set), 3)
			l.Addf(file, line, "%s is used in a file built beyond amd64 && !purego (also %s)", u.ref.Name, strings.Join(extra, ", "))
		case !subset(u.file.Set, rt.Exists):
			extra, _ := u.file.Set.Diff(rt.Exists, 3)
			l.Addf(file, line, "%s is used in a file built where the routine is not (%s)", u.ref.Name, strings.Join(extra, ", "))
		}
	}

	// 2. Features. needs[F] are the features function F uses without
	// checking them (allowed by its suffix); grow to a fixpoint, then
	// report every use whose features are neither checked nor allowed.
	needs := map[string]map[string]bool{}
	targetNeed := func(name string) map[string]bool {
		if m, ok := need[name]; ok {
			return m
		}
		return needs[name]
	}
	type miss struct {
		u       use
		missing []string
	}
	var misses []miss
	for changed := true; changed; {
		changed = false
		misses = misses[:0]
		for _, u := range uses {
			req := targetNeed(u.ref.Name)
			if len(req) == 0 {
				continue
			}
			have := feats.provided(gosrc.Facts(u.ref.Stack, u.ref.Node, est))
			var missing []string
			for x := range req {
				if !have[x] {
					missing = append(missing, x)
				}
			}
			if len(missing) == 0 {
				continue
			}
			// A registry entry may carry its guard beside the function.
			if lit := innermostLit(u.ref.Stack, u.ref.Node); lit != nil && !u.ref.Call {
				facts := map[string]bool{}
				ast.Inspect(lit, func(n ast.Node) bool {
					if e, ok := n.(ast.Expr); ok {
						facts[gosrc.Str(e)] = true
					}
					return true
				})
				have = feats.provided(facts)
				missing = missing[:0]
				for x := range req {
					if !have[x] {
						missing = append(missing, x)
					}
				}
				if len(missing) == 0 {
					continue
				}
			}
			sort.Strings(missing)
			fn := name(u.ref.Func)
			// Only top-level functions: callers of methods are not tracked.
			if allowed := feats.suffixOf(fn); allowed != nil && u.ref.Func.Recv == nil {
				ok := true
				for _, x := range missing {
					if !allowed[x] {
						ok = false
					}
				}
				if ok {
					if needs[fn] == nil {
						needs[fn] = map[string]bool{}
					}
					for _, x := range missing {
						if !needs[fn][x] {
							needs[fn][x], changed = true, true
						}
					}
					continue
				}
			}
			misses = append(misses, miss{u, missing})
		}
	}
	for _, m := range misses {
		file, line := pos(m.u.ref.Node)
		what := "calls"
		if !m.u.ref.Call {
			what = "uses"
		}
		l.Addf(file, line, "%s %s %s, which needs %s, without a check that the CPU has it (guard with %s)", orTop(name(m.u.ref.Func)), what, m.u.ref.Name, strings.Join(m.missing, ", "), guardsFor(feats, m.missing))
	}

	// Guard variables get their values from the CPU flags.
	for _, f := range p.Files {
		checkSources(l, r, f, feats)
	}

	// 3. Tests and benchmarks that run assembly. runs[F] are the routines
	// F reaches through functions that exist only where those routines do.
	runs := map[string]map[string]bool{}
	for changed := true; changed; {
		changed = false
		for _, u := range uses {
			fn := name(u.ref.Func)
			if fn == "" {
				continue
			}
			var targets []string
			if strings.HasPrefix(u.ref.Name, "asm.") {
				targets = []string{strings.TrimPrefix(u.ref.Name, "asm.")}
			} else if onlyWhere(p.Funcs[u.ref.Name], runs[u.ref.Name], routines) {
				targets = sorted(runs[u.ref.Name])
			}
			for _, t := range targets {
				if runs[fn] == nil {
					runs[fn] = map[string]bool{}
				}
				if !runs[fn][t] {
					runs[fn][t], changed = true, true
				}
			}
		}
	}
	nTests := 0
	for _, fs := range p.Funcs {
		for _, f := range fs {
			if !f.File.Test || !isTestFunc(f.Name) || len(runs[f.Name]) == 0 {
				continue
			}
			nTests++
			for _, rname := range sorted(runs[f.Name]) {
				rt := routines[rname]
				if f.File.Set.Equal(rt.Exists) {
					continue
				}
				// Valgrind's client request exists in purego builds too,
				// for check_ct; a test of it may be built more narrowly.
				if valgrindRoutines[rname] && subset(f.File.Set, rt.Exists) {
					continue
				}
				extra, missing := f.File.Set.Diff(rt.Exists, 3)
				var why []string
				if len(extra) > 0 {
					why = append(why, "also built for "+strings.Join(extra, ", "))
				}
				if len(missing) > 0 {
					why = append(why, "not built for "+strings.Join(missing, ", "))
				}
				file, line := pos(f.Decl.Name)
				l.Addf(file, line, "%s runs asm.%s but its file is not built exactly where the routine exists: %s", f.Name, rname, strings.Join(why, "; "))
			}
		}
	}
	return nDirect, nTests
}

// onlyWhere reports whether every declaration of a function is in a file
// built only where all the routines it runs exist.
func onlyWhere(decls []*gosrc.Func, rs map[string]bool, routines asmfile.Routines) bool {
	if len(decls) == 0 || len(rs) == 0 {
		return false
	}
	for _, d := range decls {
		for rname := range rs {
			if !subset(d.File.Set, routines[rname].Exists) {
				return false
			}
		}
	}
	return true
}

// innermostLit returns the composite literal, or the call, that holds ref
// as an element or argument: a registry entry, which may carry the guard
// beside the function (registerVariant(xRoutine, "AVX2", xAVX2, useAVX2)).
func innermostLit(stack []ast.Node, ref ast.Node) ast.Node {
	child := ref
	for i := len(stack) - 1; i >= 0; i-- {
		switch x := stack[i].(type) {
		case *ast.CompositeLit:
			return x
		case *ast.CallExpr:
			if x.Fun != child {
				return x
			}
			return nil
		case *ast.FuncDecl, *ast.FuncLit, ast.Stmt:
			return nil
		}
		child = stack[i]
	}
	return nil
}

func guardsFor(f *Features, missing []string) string {
	var out []string
	for g := range f.Guards {
		have := f.closure(f.Guards[g])
		ok := true
		for _, x := range missing {
			ok = ok && have[x]
		}
		if ok {
			out = append(out, g)
		}
	}
	sort.Strings(out)
	if len(out) == 0 {
		return "a guard added to " + featuresPath
	}
	return strings.Join(out, " or ")
}

func orTop(fn string) string {
	if fn == "" {
		return "package-level code"
	}
	return fn
}

func subset(a, b repo.BuildSet) bool {
	for c := range a {
		if !b[c] {
			return false
		}
	}
	return true
}

func amd64NoPurego(s repo.BuildSet) repo.BuildSet {
	out := repo.BuildSet{}
	for c := range s {
		if c.Arch == "amd64" && c.Tags != "purego" {
			out[c] = true
		}
	}
	return out
}

// checkSources reports assignments to guard variables whose value does not
// come from the CPU flag features.txt names for them.
func checkSources(l *diag.List, r *repo.Repo, f *gosrc.File, feats *Features) {
	check := func(lhs ast.Expr, rhs ast.Expr) {
		v := gosrc.Str(lhs)
		srcs, ok := feats.Sources[v]
		if !ok || rhs == nil {
			return
		}
		s := gosrc.Str(rhs)
		if s == "false" {
			return
		}
		for _, src := range srcs {
			if !strings.Contains(s, src) {
				ps := r.Fset.Position(rhs.Pos())
				l.Addf(r.Rel(ps.Filename), ps.Line, "%s is set to %s, which does not come from %s", v, s, src)
			}
		}
	}
	ast.Inspect(f.AST, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.ValueSpec:
			for i, id := range x.Names {
				if i < len(x.Values) {
					check(id, x.Values[i])
				}
			}
		case *ast.AssignStmt:
			if len(x.Lhs) == len(x.Rhs) {
				for i := range x.Lhs {
					check(x.Lhs[i], x.Rhs[i])
				}
			}
		}
		return true
	})
}
