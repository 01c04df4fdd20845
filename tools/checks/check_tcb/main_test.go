package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/tools/checks/internal/scratch"
)

func TestCodeLines(t *testing.T) {
	src := "// Package a is a.\npackage a // a comment after code\n\n/* a block\n   comment */\nvar s = `raw\n\nstring`\n\n" +
		"func f() { /* inline */ }\n\t// indented comment\nvar x = 1 /* a block\ncomment after code */\n"
	// Counted: package, the three lines of the raw string, func, var x.
	n, err := codeLines("a.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if n != 6 {
		t.Errorf("codeLines = %d, want 6", n)
	}
	if _, err := codeLines("b.go", []byte("package b\nvar s = \"unterminated\n")); err == nil {
		t.Error("a file that does not scan was counted")
	}
}

// tree is a small vg tree whose tables agree with its count: Spec/a has 2
// trusted lines and 3 of tests, Spec/check 4 and 2.
func tree() map[string]string {
	return map[string]string{
		"Spec/a/a.go":             "// Package a.\npackage a\n\n// F is f.\nfunc F() {}\n",
		"Spec/a/a_test.go":        "package a\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) {}\n",
		"Spec/check/core.go":      "package check\n\nvar core = 1\n",
		"Spec/check/fam.go":       "package check\n\nvar fam = 2\n",
		"Spec/check/fam_test.go":  "package check\n\nvar famTest = 3\n",
		"Spec/check/testdata/x.s": "TEXT ·X(SB), 4, $0\n",
		groupsPath: `
# groups
group general machinery: every routine's
core.go   the core
group per-family proof procedures: one family each
fam.go    a family
`,
		readme: "# vg\n\n<!-- tcb:begin -->\n\n| Package | Lines | Tests | What it is |\n| --- | ---: | ---: | --- |\n" +
			"| `Spec/a` | 2 | 3 | A. |\n| `Spec/check` | 4 | 2 | The checker. |\n\n" +
			"In all, **6 trusted lines** in 2 packages, 4 of them in `Spec/check` (2 in general machinery, 2 in per-family proof procedures; [Spec/SOUNDNESS.md](Spec/SOUNDNESS.md#the-trusted-base-counted) lists its files), and 5 lines of tests. " +
			"A line counts when it holds Go code (not blank, not only a comment) in a non-test `.go` file; `_test.go` files are the Tests column. " +
			"`go run ./tools/checks/check_tcb` counts them and fails when this table differs; `-write` rewrites the counts.\n<!-- tcb:end -->\n\nmore\n",
		soundness: "# gaps\n\n## The trusted base, counted\n\n" + checkBegin + "\n" + checkEnd + "\n\nafter\n",
	}
}

// check runs check_tcb on files (written first when write) and returns its
// findings and the tree's root.
func check(t *testing.T, files map[string]string, write bool) ([]string, string) {
	t.Helper()
	saved := untrusted
	untrusted = treeUntrusted
	defer func() { untrusted = saved }()
	root := scratch.Tree(t, files)
	l, _, err := run(root, write, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return l.Strings(), root
}

func read(t *testing.T, root, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// written returns files with SOUNDNESS.md's table as -write writes it.
func written(t *testing.T, files map[string]string) map[string]string {
	t.Helper()
	got, root := check(t, files, true)
	scratch.Expect(t, got)
	return scratch.With(files, map[string]string{soundness: read(t, root, soundness)})
}

func TestClean(t *testing.T) {
	files := written(t, tree())
	got, _ := check(t, files, false)
	scratch.Expect(t, got)
	table := files[soundness]
	for _, want := range []string{
		"**General machinery** (every routine's): 2 lines, tests 0.",
		"| `core.go` | 2 | — | the core |",
		"**Per-family proof procedures** (one family each): 2 lines, tests 2.",
		"| `fam.go` | 2 | 2 | a family |",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("Spec/SOUNDNESS.md lacks %q:\n%s", want, table)
		}
	}
	if !strings.HasSuffix(table, checkEnd+"\n\nafter\n") || !strings.HasPrefix(table, "# gaps\n\n## The trusted base, counted\n\n"+checkBegin+"\n") {
		t.Errorf("-write changed Spec/SOUNDNESS.md outside its markers:\n%s", table)
	}
}

const totals = "README.md:10: the totals after the table differ from the count; run go run ./tools/checks/check_tcb -write"

func TestCountDisagrees(t *testing.T) {
	files := written(t, tree())
	// The README states a size the count does not give.
	got, _ := check(t, scratch.Replace(t, files, readme, "| `Spec/a` | 2 | 3 |", "| `Spec/a` | 2 | 4 |"), false)
	scratch.Expect(t, got,
		"README.md:7: Spec/a: the table says 4 lines of tests, check_tcb counts 3; run go run ./tools/checks/check_tcb -write")
	// Spec grows by one line of code: the row, the totals and the
	// breakdown of Spec/check no longer agree.
	got, _ = check(t, scratch.Replace(t, files, "Spec/check/fam.go", "var fam = 2\n", "var fam = 2\nvar more = 3\n"), false)
	scratch.Expect(t, got,
		"README.md:8: Spec/check: the table says 4 trusted lines, check_tcb counts 5; run go run ./tools/checks/check_tcb -write",
		totals,
		"Spec/SOUNDNESS.md:5: the table of Spec/check differs from the count; run go run ./tools/checks/check_tcb -write")
	// A comment or a blank line is no trusted line.
	got, _ = check(t, scratch.Replace(t, files, "Spec/check/fam.go", "var fam = 2\n", "var fam = 2 // two\n\n/* more */\n"), false)
	scratch.Expect(t, got)
	// -write brings both tables up to date.
	grown := scratch.Replace(t, files, "Spec/check/fam.go", "var fam = 2\n", "var fam = 2\nvar more = 3\n")
	got, root := check(t, grown, true)
	scratch.Expect(t, got)
	if r := read(t, root, readme); !strings.Contains(r, "| `Spec/check` | 5 | 2 | The checker. |") || !strings.Contains(r, "**7 trusted lines**") {
		t.Errorf("-write did not rewrite the counts:\n%s", r)
	}
	saved := untrusted
	untrusted = nil
	defer func() { untrusted = saved }()
	l, _, err := run(root, false, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	scratch.Expect(t, l.Strings())
}

func TestPackagesDerived(t *testing.T) {
	files := written(t, tree())
	// A new package under Spec/ needs a row, even when writing.
	plus := scratch.With(files, map[string]string{"Spec/drup/drup.go": "package drup\n"})
	for _, write := range []bool{false, true} {
		got, _ := check(t, plus, write)
		want := []string{"README.md:3: Spec/drup is a package of the trusted base but has no row in the table: add one (its description; -write fills in the counts)"}
		if !write {
			want = append(want, totals)
		}
		scratch.Expect(t, got, want...)
	}
	// A row whose package has left Spec/.
	gone := scratch.Replace(t, files, readme, "| `Spec/a` | 2 | 3 | A. |\n", "| `Spec/a` | 2 | 3 | A. |\n| `Spec/sat` | 1 | 1 | Gone. |\n")
	got, _ := check(t, gone, false)
	scratch.Expect(t, got, "README.md:8: the table names `Spec/sat`, which is no Go package under Spec/: remove its row")
	// Twice the same row.
	twice := scratch.Replace(t, files, readme, "| `Spec/a` | 2 | 3 | A. |\n", "| `Spec/a` | 2 | 3 | A. |\n| `Spec/a` | 2 | 3 | A. |\n")
	got, _ = check(t, twice, false)
	scratch.Expect(t, got, "README.md:8: Spec/a has a row already (line 7)")
	// Trusted code the count would not see.
	got, _ = check(t, scratch.With(files, map[string]string{"Spec/a/a_amd64.s": "TEXT ·G(SB), 4, $0\n"}), false)
	scratch.Expect(t, got, "Spec/a/a_amd64.s: the go command builds this file into a trusted package, and check_tcb counts Go files only")
}

func TestGroups(t *testing.T) {
	files := written(t, tree())
	// A new file of the checker must be placed.
	got, _ := check(t, scratch.With(files, map[string]string{"Spec/check/new.go": "package check\n"}), true)
	scratch.Expect(t, got, groupsPath+": Spec/check/new.go is in no group: place it (general machinery or a family's procedure)")
	// A group names a file the checker does not have, or a file twice.
	got, _ = check(t, scratch.Replace(t, files, groupsPath, "fam.go    a family\n", "fam.go    a family\ngone.go   gone\ncore.go   again\n"), true)
	scratch.Expect(t, got,
		groupsPath+":6: Spec/check has no non-test file gone.go",
		groupsPath+":7: core.go is placed twice (line 3)")
}

func TestMarkers(t *testing.T) {
	files := written(t, tree())
	got, _ := check(t, scratch.Replace(t, files, readme, "<!-- tcb:end -->", ""), false)
	scratch.Expect(t, got, "README.md: want one <!-- tcb:begin --> ... <!-- tcb:end --> around the table of the trusted base")
	got, _ = check(t, scratch.Replace(t, files, readme, "| Package | Lines | Tests |", "| Package | Size | Tests |"), false)
	scratch.Expect(t, got, `README.md:5: the table's columns are ["Package" "Size" "Tests" "What it is"], want ["Package" "Lines" "Tests" "What it is"]`)
}

// treeUntrusted is the list of untrusted packages check uses: none in
// tree(), whose packages are all trusted.
var treeUntrusted []struct{ pkg, reader, about string }

// TestUntrusted: a package outside the trusted base is counted apart, has
// no row, and only its reader imports it.
func TestUntrusted(t *testing.T) {
	treeUntrusted = []struct{ pkg, reader, about string }{{"Spec/u", "Spec/check/core.go", "a solver"}}
	defer func() { treeUntrusted = nil }()
	files := scratch.With(tree(), map[string]string{
		"Spec/u/u.go":        "package u\n\nvar U = 1\n",
		"Spec/check/core.go": "package check\n\nimport \"github.com/vg-crypto/vg/Spec/u\"\n\nvar core = u.U\n",
	})
	// core.go has a line more: -write rewrites the counts, and the
	// sentence names Spec/u with its 2 lines.
	got, root := check(t, files, true)
	scratch.Expect(t, got)
	r := read(t, root, readme)
	for _, want := range []string{"**7 trusted lines** in 2 packages", "Under Spec/ but not trusted: `Spec/u` (2 lines, tests 0), a solver; only `Spec/check/core.go` imports it"} {
		if !strings.Contains(r, want) {
			t.Errorf("the README lacks %q:\n%s", want, r)
		}
	}
	files = scratch.With(files, map[string]string{readme: r, soundness: read(t, root, soundness)})
	got, _ = check(t, files, false)
	scratch.Expect(t, got)
	// Another file of Spec/ imports it; a test file may.
	got, _ = check(t, scratch.With(files, map[string]string{
		"Spec/a/b.go":      "package a\n\nimport _ \"github.com/vg-crypto/vg/Spec/u\"\n",
		"Spec/a/b_test.go": "package a\n\nimport _ \"github.com/vg-crypto/vg/Spec/u\"\n",
	}), true)
	scratch.Expect(t, got, "Spec/a/b.go:3: imports Spec/u, which is not trusted: only Spec/check/core.go may (it checks the answers)")
	// A row for it in the table of the trusted base.
	got, _ = check(t, scratch.Replace(t, files, readme, "| `Spec/a` | 2 | 3 | A. |\n", "| `Spec/a` | 2 | 3 | A. |\n| `Spec/u` | 2 | 0 | U. |\n"), false)
	scratch.Expect(t, got, "README.md:8: Spec/u is not trusted: remove its row (the sentence after the table counts it)")
	// Listed, but gone.
	treeUntrusted = append(treeUntrusted, struct{ pkg, reader, about string }{"Spec/gone", "Spec/check/core.go", "gone"})
	got, _ = check(t, files, false)
	scratch.Expect(t, got, "tools/checks/check_tcb/main.go: Spec/gone is listed as untrusted but is no Go package under Spec/")
}

// TestRepository checks the tree itself.
func TestRepository(t *testing.T) {
	l, summary, err := run("../../..", false, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	scratch.Expect(t, l.Strings())
	t.Log(summary)
}
