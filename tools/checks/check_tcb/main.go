// Command check_tcb counts the trusted base, Spec/, and keeps the README's
// "What you need to trust" table and Spec/SOUNDNESS.md's per-file table of
// Spec/check equal to the count.
//
// The counting rule: a line counts when a Go token other than a comment
// lies on it (every line of a multi-line raw string counts; blank lines,
// comment lines and the lines of a block comment do not). Trusted lines
// are those of the non-test .go files of every package under Spec/, in
// every build configuration; the lines of its _test.go files are counted
// apart, as tests. testdata is not counted.
//
// The packages are found by walking Spec/ (every directory holding .go
// files, as the go command sees them), so a package added to Spec/ or
// leaving it needs only its README row. The README's table, between
// <!-- tcb:begin --> and <!-- tcb:end -->, must have one row per package,
// and no other, with the counts; the sentence after it, the totals, is
// written whole. Spec/SOUNDNESS.md's table of Spec/check, between
// <!-- tcb-check:begin --> and <!-- tcb-check:end -->, is written whole
// from the count and groups.txt, which places every file of Spec/check in
// a group (general machinery, per-family proof procedures, ...).
//
// Spec/ holding anything else the go command compiles (.s, .c, .syso, …)
// fails: the count would not cover it.
//
// A package of Spec/ may be outside the trusted base (untrusted, below):
// then one non-test file of Spec/ alone may import it, the file that
// checks what it answers, and its lines are counted apart, in the
// sentence after the README's table, not in the table.
//
// Usage, from the repository root:
//
//	go run ./tools/checks/check_tcb [-root dir]   # print the counts; fail when the tables differ
//	go run ./tools/checks/check_tcb -write        # rewrite the counts in README.md and Spec/SOUNDNESS.md
//
// With -write a missing or stale row of the README's table is still a
// finding: its description is written by hand.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/scanner"
	"go/token"
	"io"
	"os"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/vg-crypto/vg/tools/checks/internal/diag"
	"github.com/vg-crypto/vg/tools/checks/internal/repo"
)

const (
	spec       = "Spec"
	checkDir   = "Spec/check"
	readme     = "README.md"
	soundness  = "Spec/SOUNDNESS.md"
	groupsPath = "tools/checks/check_tcb/groups.txt"

	readmeBegin = "<!-- tcb:begin -->"
	readmeEnd   = "<!-- tcb:end -->"
	checkBegin  = "<!-- tcb-check:begin -->"
	checkEnd    = "<!-- tcb-check:end -->"

	command = "go run ./tools/checks/check_tcb"
)

func main() {
	root := flag.String("root", ".", "repository root")
	write := flag.Bool("write", false, "rewrite the counts in README.md and Spec/SOUNDNESS.md instead of checking them")
	flag.Parse()
	l, summary, err := run(*root, *write, os.Stdout)
	diag.Exit("check_tcb", l, summary, err)
}

// untrusted lists the packages under Spec/ that are not trusted: reader
// is the only non-test file of Spec/ that may import the package (it
// checks every answer before a proof rests on it).
var untrusted = []struct{ pkg, reader, about string }{
	{"Spec/sat", "Spec/check/bitblast.go", "the CDCL solver of the bit-level queries, whose every unsat comes with a certificate (the learned clauses) that `Spec/drup` checks against the checker's own copy of the formula"},
}

func isUntrusted(pkg string) bool {
	for _, u := range untrusted {
		if u.pkg == pkg {
			return true
		}
	}
	return false
}

// count is a number of trusted and of test lines.
type count struct{ trusted, tests int }

func (c *count) add(d count) { c.trusted += d.trusted; c.tests += d.tests }

// codeLines counts the lines of a Go source file that hold a token other
// than a comment.
func codeLines(name string, src []byte) (int, error) {
	fset := token.NewFileSet()
	file := fset.AddFile(name, -1, len(src))
	var errs scanner.ErrorList
	var s scanner.Scanner
	s.Init(file, src, func(pos token.Position, msg string) { errs.Add(pos, msg) }, 0)
	lines := map[int]bool{}
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue // inserted at a line's end: no code of its own
		}
		first := file.Line(pos)
		for l := first; l <= first+strings.Count(lit, "\n"); l++ {
			lines[l] = true
		}
	}
	if len(errs) > 0 {
		return 0, errs.Err()
	}
	return len(lines), nil
}

// compiled are the suffixes of files the go command compiles or links
// besides .go files.
var compiled = []string{".s", ".S", ".sx", ".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".hxx", ".m", ".f", ".F", ".for", ".f90", ".syso", ".swig", ".swigcxx"}

// tally is the count of Spec/: per package and per file.
type tally struct {
	pkgs    []string // the trusted packages, sorted, "Spec/x"
	outside []string // the untrusted packages found, sorted
	byPkg   map[string]count
	// byFile counts each .go file: trusted lines for a non-test file,
	// test lines for a _test.go file.
	byFile map[string]count
}

func countSpec(r *repo.Repo, l *diag.List) (*tally, error) {
	dirs, err := r.Dirs(spec)
	if err != nil {
		return nil, err
	}
	t := &tally{byPkg: map[string]count{}, byFile: map[string]count{}}
	for _, d := range dirs {
		for _, suf := range compiled {
			others, err := r.Files(d, suf)
			if err != nil {
				return nil, err
			}
			for _, o := range others {
				l.Addf(o, 0, "the go command builds this file into a trusted package, and check_tcb counts Go files only")
			}
		}
		files, err := r.Files(d, ".go")
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			continue
		}
		if isUntrusted(d) {
			t.outside = append(t.outside, d)
		} else {
			t.pkgs = append(t.pkgs, d)
		}
		var c count
		for _, f := range files {
			src, err := os.ReadFile(r.Abs(f))
			if err != nil {
				return nil, err
			}
			n, err := codeLines(f, src)
			if err != nil {
				return nil, err
			}
			fc := count{trusted: n}
			if strings.HasSuffix(f, "_test.go") {
				fc = count{tests: n}
			}
			t.byFile[f] = fc
			c.add(fc)
		}
		t.byPkg[d] = c
	}
	return t, nil
}

func (t *tally) total() count {
	var c count
	for _, p := range t.pkgs {
		c.add(t.byPkg[p])
	}
	return c
}

// group is one group of groups.txt.
type group struct {
	name, about string
	files       []string // base names, in the file's order
	fileAbout   map[string]string
}

func readGroups(r *repo.Repo, l *diag.List, t *tally) ([]*group, error) {
	data, err := os.ReadFile(r.Abs(groupsPath))
	if err != nil {
		return nil, err
	}
	var gs []*group
	where := map[string]int{}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "group "); ok {
			name, about, ok := strings.Cut(rest, ":")
			if !ok || strings.TrimSpace(name) == "" {
				return nil, fmt.Errorf("%s:%d: want group <name>: <what it is>", groupsPath, i+1)
			}
			gs = append(gs, &group{name: strings.TrimSpace(name), about: strings.TrimSpace(about), fileAbout: map[string]string{}})
			continue
		}
		if len(gs) == 0 {
			return nil, fmt.Errorf("%s:%d: a file before the first group", groupsPath, i+1)
		}
		name, about, _ := strings.Cut(line, " ")
		g := gs[len(gs)-1]
		switch _, ok := t.byFile[checkDir+"/"+name]; {
		case where[name] > 0:
			l.Addf(groupsPath, i+1, "%s is placed twice (line %d)", name, where[name])
		case !ok || strings.HasSuffix(name, "_test.go"):
			l.Addf(groupsPath, i+1, "%s has no non-test file %s", checkDir, name)
		default:
			g.files = append(g.files, name)
			g.fileAbout[name] = strings.TrimSpace(about)
		}
		where[name] = i + 1
	}
	for _, f := range sortedKeys(t.byFile) {
		dir, base := path.Split(f)
		if dir == checkDir+"/" && !strings.HasSuffix(base, "_test.go") && where[base] == 0 {
			l.Addf(groupsPath, 0, "%s is in no group: place it (general machinery or a family's procedure)", f)
		}
	}
	return gs, nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// num writes n with thousands separated by commas, as the README's prose does.
func num(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// checkRows is Spec/check's per-file breakdown: per group, its files with
// their own and their tests' lines; the test files of no source file last.
type checkRows struct {
	groups []*group
	sums   []count
	loose  []string // test files without a source file of their stem
	looseN int
}

func breakdown(t *tally, gs []*group) checkRows {
	cr := checkRows{groups: gs}
	claimed := map[string]bool{}
	for _, g := range gs {
		var s count
		for _, f := range g.files {
			c := t.byFile[checkDir+"/"+f]
			test := checkDir + "/" + strings.TrimSuffix(f, ".go") + "_test.go"
			c.tests = t.byFile[test].tests
			claimed[test] = true
			s.add(c)
		}
		cr.sums = append(cr.sums, s)
	}
	for _, f := range sortedKeys(t.byFile) {
		dir, base := path.Split(f)
		if dir == checkDir+"/" && strings.HasSuffix(base, "_test.go") && !claimed[f] {
			cr.loose = append(cr.loose, base)
			cr.looseN += t.byFile[f].tests
		}
	}
	return cr
}

func (cr checkRows) fileRow(t *tally, g *group, f string) string {
	c := t.byFile[checkDir+"/"+f]
	tests := "—"
	if n := t.byFile[checkDir+"/"+strings.TrimSuffix(f, ".go")+"_test.go"].tests; n > 0 {
		tests = num(n)
	}
	return fmt.Sprintf("| `%s` | %s | %s | %s |\n", f, num(c.trusted), tests, g.fileAbout[f])
}

// checkTable is the block of Spec/SOUNDNESS.md between its markers.
func (cr checkRows) checkTable(t *tally) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n<!-- Written by `%s -write` from %s; do not edit. -->\n", checkBegin, command, groupsPath)
	b.WriteString("\nA file's Tests are the lines of its `<stem>_test.go`; the package's other tests are counted last.\n")
	for i, g := range cr.groups {
		name := strings.ToUpper(g.name[:1]) + g.name[1:]
		fmt.Fprintf(&b, "\n**%s** (%s): %s lines, tests %s.\n\n", name, g.about, num(cr.sums[i].trusted), num(cr.sums[i].tests))
		b.WriteString("| File | Lines | Tests | What it is |\n| --- | ---: | ---: | --- |\n")
		for _, f := range g.files {
			b.WriteString(cr.fileRow(t, g, f))
		}
	}
	if len(cr.loose) > 0 {
		fmt.Fprintf(&b, "\nTests of the package as a whole (%s): %s lines.\n", strings.Join(cr.loose, ", "), num(cr.looseN))
	}
	b.WriteString(checkEnd)
	return b.String()
}

// totals is the sentence of the README after the table.
func (cr checkRows) totals(t *tally) string {
	all := t.total()
	var parts []string
	for i, g := range cr.groups {
		parts = append(parts, fmt.Sprintf("%s in %s", num(cr.sums[i].trusted), g.name))
	}
	out := fmt.Sprintf("In all, **%s trusted lines** in %d packages, %s of them in `Spec/check` (%s; [Spec/SOUNDNESS.md](Spec/SOUNDNESS.md#the-trusted-base-counted) lists its files), and %s lines of tests. "+
		"A line counts when it holds Go code (not blank, not only a comment) in a non-test `.go` file; `_test.go` files are the Tests column. "+
		"`%s` counts them and fails when this table differs; `-write` rewrites the counts.",
		num(all.trusted), len(t.pkgs), num(t.byPkg[checkDir].trusted), strings.Join(parts, ", "), num(all.tests), command)
	for _, u := range untrusted {
		if c, ok := t.byPkg[u.pkg]; ok {
			out += fmt.Sprintf(" Under Spec/ but not trusted: `%s` (%s lines, tests %s), %s; only `%s` imports it (check_tcb keeps it so).",
				u.pkg, num(c.trusted), num(c.tests), u.about, u.reader)
		}
	}
	return out
}

// readers checks that each untrusted package exists and that no non-test
// file of Spec/ but its reader (and the package's own files) imports it.
func readers(r *repo.Repo, l *diag.List, t *tally) error {
	files, err := r.GoFiles(spec)
	if err != nil {
		return err
	}
	for _, u := range untrusted {
		if !slices.Contains(t.outside, u.pkg) {
			l.Addf("tools/checks/check_tcb/main.go", 0, "%s is listed as untrusted but is no Go package under %s/", u.pkg, spec)
		}
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := r.Parse(f)
		if err != nil {
			return err
		}
		for _, imp := range ast.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			for _, u := range untrusted {
				if p == r.Module+"/"+u.pkg && f != u.reader && path.Dir(f) != u.pkg {
					l.Addf(f, r.Fset.Position(imp.Pos()).Line, "imports %s, which is not trusted: only %s may (it checks the answers)", u.pkg, u.reader)
				}
			}
		}
	}
	return nil
}

// splitRow splits a Markdown table row into its cells (an escaped \| is
// no separator).
func splitRow(line string) ([]string, bool) {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "|") || !strings.HasSuffix(line, "|") || len(line) < 2 {
		return nil, false
	}
	var cells []string
	var cur strings.Builder
	inner := line[1 : len(line)-1]
	for i := 0; i < len(inner); i++ {
		switch {
		case inner[i] == '\\' && i+1 < len(inner) && inner[i+1] == '|':
			cur.WriteString(`\|`)
			i++
		case inner[i] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(inner[i])
		}
	}
	return append(cells, strings.TrimSpace(cur.String())), true
}

var header = []string{"Package", "Lines", "Tests", "What it is"}

// readmeTable checks (or, writing, rewrites) the README's block: one row
// per package with its counts, then the totals. It returns the new block.
func readmeTable(l *diag.List, block string, firstLine int, t *tally, cr checkRows, write bool) string {
	lines := strings.Split(block, "\n")
	seen := map[string]int{}
	sawHeader, tableEnd := false, -1
	for i, line := range lines {
		cells, ok := splitRow(line)
		if !ok {
			if sawHeader && tableEnd < 0 {
				tableEnd = i
			}
			continue
		}
		at := firstLine + i
		if !sawHeader {
			if strings.Join(cells, "|") != strings.Join(header, "|") {
				l.Addf(readme, at, "the table's columns are %q, want %q", cells, header)
				return block
			}
			sawHeader = true
			continue
		}
		if strings.Trim(strings.Join(cells, ""), "-: ") == "" {
			continue // the delimiter row
		}
		if len(cells) != len(header) {
			l.Addf(readme, at, "a row of %d cells, want %d", len(cells), len(header))
			continue
		}
		pkg := strings.Trim(cells[0], "`")
		c, ok := t.byPkg[pkg]
		switch {
		case isUntrusted(pkg):
			l.Addf(readme, at, "%s is not trusted: remove its row (the sentence after the table counts it)", pkg)
			continue
		case !ok:
			l.Addf(readme, at, "the table names %s, which is no Go package under %s/: remove its row", cells[0], spec)
			continue
		case seen[pkg] > 0:
			l.Addf(readme, at, "%s has a row already (line %d)", pkg, seen[pkg])
			continue
		}
		seen[pkg] = at
		want := []string{num(c.trusted), num(c.tests)}
		if write {
			cells[1], cells[2] = want[0], want[1]
			lines[i] = "| " + strings.Join(cells, " | ") + " |"
			continue
		}
		for k, what := range []string{"trusted lines", "lines of tests"} {
			if cells[1+k] != want[k] {
				l.Addf(readme, at, "%s: the table says %s %s, check_tcb counts %s; run %s -write", pkg, cells[1+k], what, want[k], command)
			}
		}
	}
	if !sawHeader {
		l.Addf(readme, firstLine, "no table between %s and %s", readmeBegin, readmeEnd)
		return block
	}
	for _, p := range t.pkgs {
		if seen[p] == 0 {
			l.Addf(readme, firstLine, "%s is a package of the trusted base but has no row in the table: add one (its description; -write fills in the counts)", p)
		}
	}
	// After the table: a blank line, the totals, and the end marker's line.
	if tableEnd < 0 {
		tableEnd = len(lines)
	}
	want := strings.Join(lines[:tableEnd], "\n") + "\n\n" + cr.totals(t) + "\n"
	if !write && want != block {
		l.Addf(readme, firstLine+tableEnd+1, "the totals after the table differ from the count; run %s -write", command)
	}
	return want
}

// between returns the text between begin and end in text, and the line
// of its first byte.
func between(text, begin, end string) (block string, i, j, line int, ok bool) {
	i = strings.Index(text, begin)
	j = strings.Index(text, end)
	if i < 0 || j < i || strings.Count(text, begin) != 1 || strings.Count(text, end) != 1 {
		return "", 0, 0, 0, false
	}
	i += len(begin)
	return text[i:j], i, j, strings.Count(text[:i], "\n") + 1, true
}

func run(root string, write bool, out io.Writer) (diag.List, string, error) {
	r, err := repo.Open(root)
	if err != nil {
		return nil, "", err
	}
	var l diag.List
	t, err := countSpec(r, &l)
	if err != nil {
		return nil, "", err
	}
	if t.byPkg[checkDir] == (count{}) {
		return nil, "", fmt.Errorf("no Go files in %s", checkDir)
	}
	gs, err := readGroups(r, &l, t)
	if err != nil {
		return nil, "", err
	}
	if err := readers(r, &l, t); err != nil {
		return nil, "", err
	}
	cr := breakdown(t, gs)
	report(out, t, cr)

	texts := map[string]string{}
	for _, name := range []string{readme, soundness} {
		data, err := os.ReadFile(r.Abs(name))
		if err != nil {
			return nil, "", err
		}
		texts[name] = string(data)
	}
	updated := map[string]string{}
	if block, i, j, line, ok := between(texts[readme], readmeBegin, readmeEnd); !ok {
		l.Addf(readme, 0, "want one %s ... %s around the table of the trusted base", readmeBegin, readmeEnd)
	} else {
		nb := readmeTable(&l, block, line, t, cr, write)
		updated[readme] = texts[readme][:i] + nb + texts[readme][j:]
	}
	if _, i, j, _, ok := between(texts[soundness], checkBegin, checkEnd); !ok {
		l.Addf(soundness, 0, "want one %s ... %s around the table of %s", checkBegin, checkEnd, checkDir)
	} else {
		i -= len(checkBegin)
		updated[soundness] = texts[soundness][:i] + cr.checkTable(t) + texts[soundness][j+len(checkEnd):]
		if !write && updated[soundness] != texts[soundness] {
			l.Addf(soundness, strings.Count(texts[soundness][:i], "\n")+1, "the table of %s differs from the count; run %s -write", checkDir, command)
		}
	}
	all := t.total()
	summary := fmt.Sprintf("%s trusted lines (tests %s) in %d packages of %s/, %s in %s", num(all.trusted), num(all.tests), len(t.pkgs), spec, num(t.byPkg[checkDir].trusted), checkDir)
	if !write {
		return l, summary + "; README.md and Spec/SOUNDNESS.md agree", nil
	}
	var wrote []string
	for _, name := range []string{readme, soundness} {
		if u, ok := updated[name]; ok && u != texts[name] {
			if err := os.WriteFile(r.Abs(name), []byte(u), 0o644); err != nil {
				return nil, "", err
			}
			wrote = append(wrote, name)
		}
	}
	if len(wrote) == 0 {
		return l, summary + "; README.md and Spec/SOUNDNESS.md already up to date", nil
	}
	return l, summary + "; wrote " + strings.Join(wrote, " and "), nil
}

// report prints the count: per package, then Spec/check per file.
func report(out io.Writer, t *tally, cr checkRows) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%-22s %8s %8s\n", "package", "lines", "tests")
	for _, p := range t.pkgs {
		fmt.Fprintf(&b, "%-22s %8s %8s\n", p, num(t.byPkg[p].trusted), num(t.byPkg[p].tests))
	}
	all := t.total()
	fmt.Fprintf(&b, "%-22s %8s %8s\n", "total", num(all.trusted), num(all.tests))
	for _, p := range t.outside {
		fmt.Fprintf(&b, "%-22s %8s %8s  (not trusted)\n", p, num(t.byPkg[p].trusted), num(t.byPkg[p].tests))
	}
	for i, g := range cr.groups {
		fmt.Fprintf(&b, "\n%s: %s (tests %s)\n", checkDir+", "+g.name, num(cr.sums[i].trusted), num(cr.sums[i].tests))
		for _, f := range g.files {
			c := t.byFile[checkDir+"/"+f]
			tc := t.byFile[checkDir+"/"+strings.TrimSuffix(f, ".go")+"_test.go"]
			fmt.Fprintf(&b, "  %-20s %8s %8s\n", f, num(c.trusted), num(tc.tests))
		}
	}
	if len(cr.loose) > 0 {
		fmt.Fprintf(&b, "\n%s, tests of the package as a whole: %s (%s)\n", checkDir, num(cr.looseN), strings.Join(cr.loose, ", "))
	}
	out.Write(b.Bytes())
}
