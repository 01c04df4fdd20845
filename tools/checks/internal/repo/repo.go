// Package repo loads what the checks in tools/checks need from a vg tree:
// the module, its packages and files, the build configurations each file is
// compiled in, the generated assembly, and diagnostics in file:line form.
//
// It reads the tree with go/parser and go/build rather than type-checking
// it, so a check still runs when some package of the tree does not build.
package repo

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Repo is a checked-out module.
type Repo struct {
	Root   string // absolute path of the directory holding go.mod
	Module string // module path from go.mod
	Fset   *token.FileSet
}

// Open reads root/go.mod.
func Open(root string) (*Repo, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(abs, "go.mod"))
	if err != nil {
		return nil, fmt.Errorf("%s is not a module root: %v", root, err)
	}
	mod := ""
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "module" {
			mod = strings.Trim(f[1], `"`)
			break
		}
	}
	if mod == "" {
		return nil, fmt.Errorf("%s/go.mod has no module line", root)
	}
	return &Repo{Root: abs, Module: mod, Fset: token.NewFileSet()}, nil
}

// Rel is path relative to the root, with forward slashes.
func (r *Repo) Rel(path string) string {
	if rel, err := filepath.Rel(r.Root, path); err == nil {
		return filepath.ToSlash(rel)
	}
	return path
}

// Abs is the absolute path of rel (a slash path relative to the root).
func (r *Repo) Abs(rel string) string { return filepath.Join(r.Root, filepath.FromSlash(rel)) }

// ImportPath is the import path of the package in dir (relative to the root).
func (r *Repo) ImportPath(dir string) string {
	if dir == "." || dir == "" {
		return r.Module
	}
	return r.Module + "/" + dir
}

// Dirs lists the directories under rel (relative to the root; "." for all)
// that hold .go or .s files, skipping testdata, directories starting with
// "." or "_", and nested modules, as the go command does. The result is
// sorted, relative to the root.
func (r *Repo) Dirs(rel string) ([]string, error) {
	start := r.Abs(rel)
	if _, err := os.Stat(start); err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	var dirs []string
	err := filepath.WalkDir(start, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != start && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		if path != r.Root {
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
		}
		ents, err := os.ReadDir(path)
		if err != nil {
			return err
		}
		for _, e := range ents {
			if !e.IsDir() && (strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), ".s")) {
				dirs = append(dirs, r.Rel(path))
				break
			}
		}
		return nil
	})
	sort.Strings(dirs)
	return dirs, err
}

// Files lists the files of dir (relative to the root) whose names end in
// suffix, skipping those the go command ignores (leading "." or "_"). The
// result is sorted, relative to the root.
func (r *Repo) Files(dir, suffix string) ([]string, error) {
	ents, err := os.ReadDir(r.Abs(dir))
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	var out []string
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, suffix) || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") {
			continue
		}
		out = append(out, pathJoin(dir, n))
	}
	sort.Strings(out)
	return out, nil
}

func pathJoin(dir, name string) string {
	if dir == "." || dir == "" {
		return name
	}
	return dir + "/" + name
}

// GoFiles lists every .go file under rel, in every package and for every
// build configuration, tests included.
func (r *Repo) GoFiles(rel string) ([]string, error) {
	dirs, err := r.Dirs(rel)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range dirs {
		fs, err := r.Files(d, ".go")
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	}
	return out, nil
}

// Parse parses a Go file (relative to the root) with comments.
func (r *Repo) Parse(rel string) (*ast.File, error) {
	return parser.ParseFile(r.Fset, r.Abs(rel), nil, parser.ParseComments|parser.SkipObjectResolution)
}

// IsStd reports whether path is a standard library import path: its first
// element has no dot (and it is not cgo's "C").
func IsStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return path != "C" && !strings.Contains(first, ".")
}

// Config is one build configuration: GOOS, GOARCH and the extra build
// tags CI uses.
type Config struct {
	OS, Arch string
	Tags     string // "", "purego" or "cpu_features_env", each also with "valgrind,"
}

func (c Config) String() string {
	s := c.OS + "/" + c.Arch
	if c.Tags != "" {
		s += " -tags " + c.Tags
	}
	return s
}

// Arches are the GOARCH values of `go tool dist list`.
var Arches = []string{"386", "amd64", "arm", "arm64", "loong64", "mips", "mips64", "mips64le", "mipsle", "ppc64", "ppc64le", "riscv64", "s390x", "wasm"}

// OSes are the operating systems a build set is computed over: the ones
// amd64 runs Go on that CI and users care about.
var OSes = []string{"linux", "darwin", "windows", "freebsd"}

// TagSets are the build-tag sets of tools/test.sh's three code paths, and
// of check_ct's builds of the same paths with the tag valgrind.
var TagSets = []string{"", "cpu_features_env", "purego", "valgrind", "valgrind,cpu_features_env", "valgrind,purego"}

// platforms are the GOOS/GOARCH pairs build sets range over.
func platforms() [][2]string {
	var out [][2]string
	for _, goos := range OSes {
		for _, arch := range Arches {
			if arch != "wasm" {
				out = append(out, [2]string{goos, arch})
			}
		}
	}
	return append(out, [2]string{"js", "wasm"}, [2]string{"wasip1", "wasm"})
}

// BuildSet is the set of configurations a file is compiled in.
type BuildSet map[Config]bool

// BuildSetOf computes the configurations in which the go command compiles
// the file rel (relative to the root), by asking go/build for each one:
// file-name suffixes (_amd64, _test) and //go:build lines count.
func (r *Repo) BuildSetOf(rel string) (BuildSet, error) {
	dir, name := filepath.Split(r.Abs(rel))
	data, err := os.ReadFile(r.Abs(rel))
	if err != nil {
		return nil, err
	}
	set := BuildSet{}
	for _, p := range platforms() {
		for _, tags := range TagSets {
			ctxt := build.Default
			ctxt.GOOS, ctxt.GOARCH, ctxt.CgoEnabled = p[0], p[1], false
			ctxt.BuildTags = nil
			if tags != "" {
				ctxt.BuildTags = strings.Split(tags, ",")
			}
			ctxt.OpenFile = func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
			ok, err := ctxt.MatchFile(dir, name)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", rel, err)
			}
			if ok {
				set[Config{p[0], p[1], tags}] = true
			}
		}
	}
	return set, nil
}

// Arches lists the GOARCH values of the set, sorted.
func (s BuildSet) Arches() []string {
	m := map[string]bool{}
	for c := range s {
		m[c.Arch] = true
	}
	var out []string
	for a := range m {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

// HasTags reports whether any configuration of the set uses tags.
func (s BuildSet) HasTags(tags string) bool {
	for c := range s {
		if c.Tags == tags {
			return true
		}
	}
	return false
}

// OnlyAMD64NoPurego reports whether every configuration of a non-empty set
// is amd64 without the purego tag.
func (s BuildSet) OnlyAMD64NoPurego() bool {
	if len(s) == 0 {
		return false
	}
	for c := range s {
		if c.Arch != "amd64" || c.Tags == "purego" || c.Tags == "valgrind,purego" {
			return false
		}
	}
	return true
}

// OnlyAMD64Valgrind reports whether every configuration of a non-empty set
// is amd64 with the tag valgrind (check_ct's builds).
func (s BuildSet) OnlyAMD64Valgrind() bool {
	if len(s) == 0 {
		return false
	}
	for c := range s {
		if c.Arch != "amd64" || !strings.HasPrefix(c.Tags, "valgrind") {
			return false
		}
	}
	return true
}

// Equal reports whether two sets hold the same configurations.
func (s BuildSet) Equal(t BuildSet) bool {
	if len(s) != len(t) {
		return false
	}
	for c := range s {
		if !t[c] {
			return false
		}
	}
	return true
}

// Diff describes the configurations in s but not in t, and in t but not
// in s (up to n of each), for messages. Configurations that differ for
// every OS are shown once, without the OS ("amd64 -tags purego").
func (s BuildSet) Diff(t BuildSet, n int) (onlyS, onlyT []string) {
	pick := func(a, b BuildSet) []string {
		byArch := map[Config]int{} // OS-less config -> how many OSes
		for c := range a {
			if !b[c] {
				byArch[Config{"", c.Arch, c.Tags}]++
			}
		}
		var out []string
		for c := range a {
			if b[c] {
				continue
			}
			key := Config{"", c.Arch, c.Tags}
			if byArch[key] == len(OSes) && c.Arch != "wasm" {
				s := c.Arch
				if c.Tags != "" {
					s += " -tags " + c.Tags
				}
				if !slices.Contains(out, s) {
					out = append(out, s)
				}
				continue
			}
			out = append(out, c.String())
		}
		sort.Strings(out)
		if len(out) > n {
			out = append(out[:n], "...")
		}
		return out
	}
	return pick(s, t), pick(t, s)
}

// LineOf returns the 1-based line of the first line of the file rel that
// contains needle, or 0.
func (r *Repo) LineOf(rel, needle string) int {
	f, err := os.Open(r.Abs(rel))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for n := 1; sc.Scan(); n++ {
		if strings.Contains(sc.Text(), needle) {
			return n
		}
	}
	return 0
}
