// Command check_vectors keeps the test vectors honest:
//
//   - ../shared/vectors (or $VG_VECTORS) holds exactly the files of
//     manifest.json, each with the SHA-256 and the number of test cases the
//     manifest gives;
//   - the vector tests run every case of every file with test cases: it
//     runs, with `go test -v -run`, every test that calls the runner's Run
//     or RunCounts (VG_VECTORS set, VG_REQUIRE_VECTORS=1 so absent
//     vectors fail), or reads their saved output (-testlog), and reads the lines
//     the runner logs per file, "<path>: ran N, passed P (declared D)",
//     where path is a file or an ACVP mode directory (its prompt.json and
//     expectedResults.json together) relative to the vectors. A file with
//     cases that no line covers, or a line short of the manifest's count (a
//     dropped group or case), fails.
//
// Usage, from the repository root:
//
//	go run ./tools/checks/check_vectors [-root dir] [-vectors dir] [-tests=false] [-testlog file] [-timeout 10m]
//	go run ./tools/checks/check_vectors -write   # rewrite manifest.json from the vectors
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/vg-crypto/vg/tools/checks/internal/diag"
	"github.com/vg-crypto/vg/tools/checks/internal/repo"
)

const (
	manifestPath = "tools/checks/check_vectors/manifest.json"
)

func main() {
	root := flag.String("root", ".", "repository root")
	vectors := flag.String("vectors", "", "vector directory (default $VG_VECTORS, else ../shared/vectors beside the root)")
	tests := flag.Bool("tests", true, "run the vector tests and compare the cases they ran with the manifest")
	write := flag.Bool("write", false, "rewrite the manifest from the vector directory instead of checking")
	testlog := flag.String("testlog", "", "read the runner's lines from this saved `go test -v` (or -json) output instead of running the tests")
	timeout := flag.String("timeout", "10m", "go test -timeout for each package's vector tests")
	flag.Parse()
	if *write {
		if err := writeManifest(*root, *vectors); err != nil {
			fmt.Fprintln(os.Stderr, "check_vectors:", err)
			os.Exit(2)
		}
		return
	}
	l, summary, err := run(*root, *vectors, *tests || *testlog != "", *testlog, *timeout)
	diag.Exit("check_vectors", l, summary, err)
}

// Entry is one file of the manifest.
type Entry struct {
	Name   string `json:"name"` // slash path relative to the vector directory
	SHA256 string `json:"sha256"`
	Cases  int    `json:"cases"` // test cases the file holds; 0 for files without tests
}

// Manifest is manifest.json.
type Manifest struct {
	Comment string  `json:"_comment"`
	Files   []Entry `json:"files"`
}

func vectorDir(r *repo.Repo, flagDir string) string {
	if flagDir != "" {
		return flagDir
	}
	if env := os.Getenv("VG_VECTORS"); env != "" {
		return env
	}
	return filepath.Join(r.Root, "..", "shared", "vectors")
}

// scan hashes and counts every file of dir. dir, and any directory or file
// inside it, may be a symbolic link: the vectors are often linked in rather
// than copied.
func scan(dir string) (map[string]Entry, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("no vector directory at %s (set VG_VECTORS or -vectors)", dir)
	}
	out := map[string]Entry{}
	err := walkFiles(dir, "", 0, func(path, rel string) error {
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		n, err := countCases(data)
		if err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		out[rel] = Entry{rel, hex.EncodeToString(sum[:]), n}
		return nil
	})
	return out, err
}

// walkFiles calls f for every regular file under dir (its path and its slash
// path relative to the top), following symbolic links. depth bounds link
// cycles.
func walkFiles(dir, rel string, depth int, f func(path, rel string) error) error {
	if depth > 32 {
		return fmt.Errorf("%s: directories nested too deep (a symbolic link cycle?)", dir)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		p, r := filepath.Join(dir, e.Name()), path.Join(rel, e.Name())
		st, err := os.Stat(p) // follows links
		if err != nil {
			return err
		}
		if st.IsDir() {
			err = walkFiles(p, r, depth+1, f)
		} else if st.Mode().IsRegular() {
			err = f(p, r)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// countCases counts the tests of every test group of an ACVP or Wycheproof
// file; other files hold none. A Wycheproof numberOfTests that disagrees
// with the tests present is an error.
func countCases(data []byte) (int, error) {
	var v struct {
		NumberOfTests *int `json:"numberOfTests"`
		TestGroups    []struct {
			Tests []json.RawMessage `json:"tests"`
		} `json:"testGroups"`
	}
	if json.Unmarshal(data, &v) != nil {
		return 0, nil
	}
	n := 0
	for _, g := range v.TestGroups {
		n += len(g.Tests)
	}
	if v.NumberOfTests != nil && *v.NumberOfTests != n {
		return 0, fmt.Errorf("numberOfTests is %d but the groups hold %d tests", *v.NumberOfTests, n)
	}
	return n, nil
}

func writeManifest(root, flagDir string) error {
	r, err := repo.Open(root)
	if err != nil {
		return err
	}
	files, err := scan(vectorDir(r, flagDir))
	if err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var b bytes.Buffer
	b.WriteString("{\n\t\"_comment\": \"Every file of ../shared/vectors: SHA-256 and number of test cases (tests in testGroups). Written by go run ./tools/checks/check_vectors -write; check_vectors fails when the vectors or the tests' runs differ.\",\n\t\"files\": [\n")
	for i, n := range names {
		e, _ := json.Marshal(files[n])
		b.WriteString("\t\t")
		b.Write(e)
		if i < len(names)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("\t]\n}\n")
	return os.WriteFile(r.Abs(manifestPath), b.Bytes(), 0o644)
}

func run(root, flagDir string, tests bool, testlog, timeout string) (diag.List, string, error) {
	r, err := repo.Open(root)
	if err != nil {
		return nil, "", err
	}
	data, err := os.ReadFile(r.Abs(manifestPath))
	if err != nil {
		return nil, "", err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, "", fmt.Errorf("%s: %v", manifestPath, err)
	}
	dir := vectorDir(r, flagDir)
	shown := dir
	if rel, err := filepath.Rel(r.Root, dir); err == nil {
		shown = filepath.ToSlash(rel)
	}
	have, err := scan(dir)
	if err != nil {
		return nil, "", err
	}
	var l diag.List
	line := func(name string) int { return r.LineOf(manifestPath, `"name":"`+name+`"`) }
	listed := map[string]Entry{}
	for _, e := range m.Files {
		listed[e.Name] = e
		h, ok := have[e.Name]
		switch {
		case !ok:
			l.Addf(manifestPath, line(e.Name), "%s: missing from %s", e.Name, shown)
		case h.SHA256 != e.SHA256:
			l.Addf(manifestPath, line(e.Name), "%s: SHA-256 is %s, the manifest says %s", e.Name, h.SHA256, e.SHA256)
		case h.Cases != e.Cases:
			l.Addf(manifestPath, line(e.Name), "%s: holds %d test cases, the manifest says %d", e.Name, h.Cases, e.Cases)
		}
	}
	for name := range have {
		if _, ok := listed[name]; !ok {
			l.Addf(manifestPath, r.LineOf(manifestPath, `"files"`), "%s/%s is not in the manifest", shown, name)
		}
	}
	total := 0
	for _, e := range m.Files {
		total += e.Cases
	}
	summary := fmt.Sprintf("%d files, %d test cases, as the manifest says", len(m.Files), total)
	if !tests {
		return l, summary + " (tests not run)", nil
	}
	var reports map[string][]int
	ran0 := "the tests"
	if testlog != "" {
		data, err := os.ReadFile(testlog)
		if err != nil {
			return nil, "", err
		}
		reports, ran0 = parseLog(data), testlog
	} else {
		tests, err := vectorTests(r)
		if err != nil {
			return nil, "", err
		}
		if len(tests) == 0 {
			l.Addf(manifestPath, 0, "no test calls %s/internal/vectors.Run: no test runs the vectors", r.Module)
			return l, summary, nil
		}
		var names []string
		for _, d := range sortedKeys(tests) {
			for _, t := range tests[d] {
				names = append(names, d+"."+t)
			}
		}
		ran0 = strings.Join(names, ", ")
		if reports, err = runTests(r, dir, tests, timeout); err != nil {
			return nil, "", err
		}
	}
	ran := 0
	for _, e := range m.Files {
		if e.Cases == 0 {
			continue
		}
		// A report for an ACVP mode directory covers its files.
		got := append(reports[e.Name], reports[path.Dir(e.Name)]...)
		if len(got) == 0 {
			l.Addf(manifestPath, line(e.Name), "%s: no vector test ran it (%d cases)", e.Name, e.Cases)
			continue
		}
		for _, n := range got {
			if n != e.Cases {
				l.Addf(manifestPath, line(e.Name), "%s: a vector test ran %d of its %d cases", e.Name, n, e.Cases)
			}
		}
		ran += e.Cases
	}
	dirs := map[string]bool{}
	for name := range listed {
		dirs[path.Dir(name)] = true
	}
	for name := range reports {
		if _, ok := listed[name]; !ok && !dirs[name] {
			l.Addf(manifestPath, r.LineOf(manifestPath, `"files"`), "a vector test ran %s, which is not in the manifest", name)
		}
	}
	return l, fmt.Sprintf("%s; %s ran all %d cases of the files with cases", summary, ran0, ran), nil
}

// runFuncs are the runner's functions that run every vector file.
var runFuncs = map[string]bool{"Run": true, "RunCounts": true}

// vectorTests finds, per package directory, the tests that call the
// runner's Run or RunCounts (directly or through functions of their test
// files).
func vectorTests(r *repo.Repo) (map[string][]string, error) {
	dirs, err := r.Dirs(".")
	if err != nil {
		return nil, err
	}
	runner := r.Module + "/internal/vectors"
	out := map[string][]string{}
	for _, d := range dirs {
		files, err := r.Files(d, "_test.go")
		if err != nil {
			return nil, err
		}
		inRunner := r.ImportPath(d) == runner
		calls := map[string]map[string]bool{} // test-file function -> functions it names
		runs := map[string]bool{}             // functions that call the runner directly
		for _, rel := range files {
			f, err := r.Parse(rel)
			if err != nil {
				return nil, err
			}
			local := ""
			for _, imp := range f.Imports {
				if p, _ := strconv.Unquote(imp.Path.Value); p == runner {
					local = "vectors"
					if imp.Name != nil {
						local = imp.Name.Name
					}
				}
			}
			if local == "" && !inRunner {
				continue
			}
			for _, decl := range f.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok || fd.Body == nil || fd.Recv != nil {
					continue
				}
				name := fd.Name.Name
				calls[name] = map[string]bool{}
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					switch x := n.(type) {
					case *ast.SelectorExpr:
						if id, ok := x.X.(*ast.Ident); ok && local != "" && id.Name == local && runFuncs[x.Sel.Name] {
							runs[name] = true
						}
					case *ast.Ident:
						if inRunner && runFuncs[x.Name] {
							runs[name] = true
						}
						calls[name][x.Name] = true
					}
					return true
				})
			}
		}
		for changed := true; changed; {
			changed = false
			for fn, names := range calls {
				for callee := range names {
					if runs[callee] && !runs[fn] {
						runs[fn], changed = true, true
					}
				}
			}
		}
		for fn := range runs {
			if strings.HasPrefix(fn, "Test") {
				out[d] = append(out[d], fn)
			}
		}
		sort.Strings(out[d])
	}
	return out, nil
}

// ranLine is the runner's log line for one file or ACVP mode.
var ranLine = regexp.MustCompile(`([\w./-]+): ran (\d+), passed (\d+) \(declared (\d+)\)`)

// runTests runs the vector tests with the vectors required
// (VG_REQUIRE_VECTORS=1) and
// returns, per vector file or ACVP mode directory, the case counts the
// runner reported.
func runTests(r *repo.Repo, dir string, tests map[string][]string, timeout string) (map[string][]int, error) {
	abs, _ := filepath.Abs(dir)
	var out []byte
	for _, d := range sortedKeys(tests) {
		args := []string{"test", "-count=1", "-v", "-timeout", timeout, "-run", "^(" + strings.Join(tests[d], "|") + ")$", "./" + d}
		cmd := exec.Command("go", args...)
		cmd.Dir = r.Root
		cmd.Env = append(os.Environ(), "VG_VECTORS="+abs, "VG_REQUIRE_VECTORS=1")
		o, err := cmd.CombinedOutput()
		if err != nil {
			tail := o
			if len(tail) > 4000 {
				tail = tail[len(tail)-4000:]
			}
			return nil, fmt.Errorf("go %s failed, so the cases run cannot be counted: %v\n%s", strings.Join(args, " "), err, tail)
		}
		out = append(out, o...)
	}
	return parseLog(out), nil
}

// parseLog reads the runner's lines from go test -v (or -json) output.
func parseLog(out []byte) map[string][]int {
	reports := map[string][]int{}
	for _, m := range ranLine.FindAllSubmatch(out, -1) {
		n, _ := strconv.Atoi(string(m[2]))
		reports[string(m[1])] = append(reports[string(m[1])], n)
	}
	return reports
}

func sortedKeys(m map[string][]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
