// Command check_imports keeps the trust boundary of vg's import graph:
//
//   - Spec/ (trusted) imports only the standard library and Spec/ itself;
//   - nothing under Spec/ or go/ imports Emit/ or Proofs/ (untrusted, and
//     not part of the library);
//   - non-test files under go/ import only the standard library,
//     golang.org/x/sys and go/ itself (the library's dependency rule);
//   - go/mldsa reaches go/asm (directly or through another package of the
//     module) only from files built for amd64 alone.
//
// Every .go file counts, in every build configuration, tests included
// (except the go/ dependency rule, which is about what users link).
//
// Usage, from the repository root: go run ./tools/checks/check_imports [-root dir]
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"strconv"
	"strings"

	"github.com/vg-crypto/vg/tools/checks/internal/diag"
	"github.com/vg-crypto/vg/tools/checks/internal/repo"
)

func main() {
	root := flag.String("root", ".", "repository root")
	flag.Parse()
	l, summary, err := run(*root)
	diag.Exit("check_imports", l, summary, err)
}

type fileImports struct {
	rel     string
	test    bool
	imports []*ast.ImportSpec
	file    *ast.File
}

func run(root string) (diag.List, string, error) {
	r, err := repo.Open(root)
	if err != nil {
		return nil, "", err
	}
	var l diag.List
	var files []fileImports
	for _, top := range []string{"Spec", "go"} {
		names, err := r.GoFiles(top)
		if err != nil {
			return nil, "", err
		}
		for _, rel := range names {
			f, err := r.Parse(rel)
			if err != nil {
				return nil, "", err
			}
			files = append(files, fileImports{rel, strings.HasSuffix(rel, "_test.go"), f.Imports, f})
		}
	}
	reach, err := reachesAsm(r)
	if err != nil {
		return nil, "", err
	}
	mod := r.Module + "/"
	asmPath := mod + "go/asm"
	nImports := 0
	for _, f := range files {
		for _, imp := range f.imports {
			nImports++
			path, _ := strconv.Unquote(imp.Path.Value)
			line := r.Fset.Position(imp.Pos()).Line
			under := func(p string) bool { return path == mod+p || strings.HasPrefix(path, mod+p+"/") }
			inSpec := strings.HasPrefix(f.rel, "Spec/")
			if inSpec && !repo.IsStd(path) && !under("Spec") {
				l.Addf(f.rel, line, "imports %q: Spec/ may import only the standard library and Spec/", path)
			}
			if under("Emit") || under("Proofs") {
				l.Addf(f.rel, line, "imports %q: nothing under Spec/ or go/ may import Emit/ or Proofs/", path)
			}
			if !inSpec && !f.test && !repo.IsStd(path) && !under("go") &&
				path != "golang.org/x/sys" && !strings.HasPrefix(path, "golang.org/x/sys/") {
				l.Addf(f.rel, line, "imports %q: the library (go/) may use only the standard library and golang.org/x/sys", path)
			}
			// An external test package importing its own package reaches
			// go/asm only as that package does, which its files answer for.
			self := path == r.ImportPath(f.rel[:strings.LastIndex(f.rel, "/")])
			if strings.HasPrefix(f.rel, "go/mldsa/") && (path == asmPath || reach[path] && !self) {
				set, err := r.BuildSetOf(f.rel)
				if err != nil {
					return nil, "", err
				}
				if arches := set.Arches(); len(arches) != 1 || arches[0] != "amd64" {
					via := ""
					if path != asmPath {
						via = " (through " + path + ")"
					}
					l.Addf(f.rel, line, "reaches %s%s but is built for %s: only files built for amd64 alone may", asmPath, via, describe(arches))
				}
			}
		}
	}
	return l, fmt.Sprintf("%d files, %d imports under Spec/ and go/", len(files), nImports), nil
}

func describe(arches []string) string {
	if len(arches) == 0 {
		return "no architecture"
	}
	if len(arches) > 4 {
		return strings.Join(arches[:4], ", ") + fmt.Sprintf(" and %d more", len(arches)-4)
	}
	return strings.Join(arches, ", ")
}

// reachesAsm returns the module packages (other than go/asm) whose non-test
// files import go/asm directly or through other module packages.
func reachesAsm(r *repo.Repo) (map[string]bool, error) {
	dirs, err := r.Dirs(".")
	if err != nil {
		return nil, err
	}
	edges := map[string][]string{}
	for _, d := range dirs {
		files, err := r.Files(d, ".go")
		if err != nil {
			return nil, err
		}
		for _, rel := range files {
			if strings.HasSuffix(rel, "_test.go") {
				continue
			}
			f, err := r.Parse(rel)
			if err != nil {
				return nil, err
			}
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				edges[r.ImportPath(d)] = append(edges[r.ImportPath(d)], p)
			}
		}
	}
	asmPath := r.Module + "/go/asm"
	memo := map[string]int{} // 0 unknown, 1 visiting, 2 no, 3 yes
	var visit func(p string) bool
	visit = func(p string) bool {
		switch memo[p] {
		case 1, 2:
			return false
		case 3:
			return true
		}
		memo[p] = 1
		for _, q := range edges[p] {
			if q == asmPath || visit(q) {
				memo[p] = 3
				return true
			}
		}
		memo[p] = 2
		return false
	}
	out := map[string]bool{}
	for p := range edges {
		if p != asmPath && visit(p) {
			out[p] = true
		}
	}
	return out, nil
}
