package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/Spec/check"
	"github.com/vg-crypto/vg/tools/checks/internal/prove"
)

func TestNth(t *testing.T) {
	s := "a b a b a"
	for _, c := range []struct{ n, want int }{{1, 0}, {2, 4}, {3, 8}, {4, -1}, {-1, 8}} {
		if got := nth(s, "a", c.n); got != c.want {
			t.Errorf("nth(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

// apply edits and adds files; restore puts the directory back exactly.
func TestApplyRestore(t *testing.T) {
	dir := t.TempDir()
	orig := "\tMOVQ a+0(FP), R13\n\tRET\n"
	if err := os.WriteFile(filepath.Join(dir, "k.s"), []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	m := Mutant{Edits: []Edit{beforeRET("k.s", "\tNOTQ AX\n")}, Files: map[string]string{"x.h": "// x\n"}}
	restore, err := m.apply(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "k.s"))
	if string(got) != "\tMOVQ a+0(FP), R13\n\tNOTQ AX\n\tRET\n" {
		t.Errorf("edited: %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.h")); err != nil {
		t.Error("added file missing")
	}
	if err := restore(); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(filepath.Join(dir, "k.s"))
	if string(got) != orig {
		t.Errorf("not restored: %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.h")); !os.IsNotExist(err) {
		t.Error("added file left behind")
	}
	// A stale edit is an error, not a skipped mutant.
	m = Mutant{Edits: []Edit{{File: "k.s", Find: "NO SUCH LINE"}}}
	if restore, err := m.apply(dir); err == nil {
		t.Error("stale edit accepted")
	} else {
		restore()
	}
}

// Only a failing row other than the text comparison counts as caught.
func TestVerdict(t *testing.T) {
	rows := []prove.Row{{Obligation: "text = bytes", Status: "failing"}, {Obligation: "functional", Status: "proven"}}
	if o, _ := verdict(rows, nil); o != no {
		t.Errorf("text-only failure counted as caught: %v", o)
	}
	rows = append(rows, prove.Row{Obligation: "ABI", Status: "failing", Detail: "BP"})
	if o, why := verdict(rows, nil); o != yes || !strings.Contains(why, "ABI") {
		t.Errorf("verdict %v %q", o, why)
	}
	// -first-failure: the rows not checked name what failed first, and a
	// row that failed on its own is named before them.
	rows = []prove.Row{{Obligation: "memory safety", Status: "failing", Detail: check.NotChecked + "taint run 0: postcondition"},
		{Obligation: "functional", Status: "failing", Detail: check.NotChecked + "taint run 0: postcondition"}}
	if o, why := verdict(rows, nil); o != yes || why != "taint run 0: postcondition" {
		t.Errorf("verdict %v %q", o, why)
	}
	rows = append(rows, prove.Row{Obligation: "ABI", Status: "failing", Detail: "BP"})
	if o, why := verdict(rows, nil); o != yes || why != "ABI: BP" {
		t.Errorf("verdict %v %q", o, why)
	}
}

// Every mutant names a routine and changes something.
func TestCatalogue(t *testing.T) {
	if len(mutants) < 25 {
		t.Errorf("%d mutants, want at least 25", len(mutants))
	}
	seen := map[string]bool{}
	for _, m := range mutants {
		if seen[m.Name] {
			t.Errorf("duplicate mutant %s", m.Name)
		}
		seen[m.Name] = true
		if m.Routine == "" || len(m.Edits)+len(m.Files) == 0 {
			t.Errorf("%s: no routine or no change", m.Name)
		}
		for _, e := range m.Edits {
			if e.Find == e.Replace {
				t.Errorf("%s: edit changes nothing", m.Name)
			}
		}
	}
}

// A batch never holds two mutants of one file or one routine, a mutant
// that adds a file with another, or a caller with its callee; every
// mutant is in exactly one batch.
func TestBatch(t *testing.T) {
	seen := map[int]bool{}
	for _, b := range batch(mutants) {
		files, routines := map[string]bool{}, map[string]bool{}
		for _, i := range b {
			if seen[i] {
				t.Errorf("%s in two batches", mutants[i].Name)
			}
			seen[i] = true
			m := mutants[i]
			if len(m.Files) > 0 && len(b) > 1 {
				t.Errorf("%s adds a file but shares its batch", m.Name)
			}
			if routines[m.Routine] || calls(m.Routine, routines) {
				t.Errorf("%s: its routine %s, or a caller or callee of it, is in its batch already", m.Name, m.Routine)
			}
			routines[m.Routine] = true
			for _, e := range m.Edits {
				if files[e.File] {
					t.Errorf("%s edits %s, which another mutant of its batch edits", m.Name, e.File)
				}
			}
			for _, e := range m.Edits {
				files[e.File] = true
			}
		}
	}
	if len(seen) != len(mutants) {
		t.Errorf("%d of %d mutants batched", len(seen), len(mutants))
	}
	if n := len(batch(mutants)); n >= len(mutants) {
		t.Errorf("%d batches for %d mutants: nothing shared", n, len(mutants))
	}
}

// Each mutant is judged by its own routine's rows.
func TestRowsOf(t *testing.T) {
	rows := []prove.Row{
		{Routine: "NTT", Variant: "AVX2", Obligation: "functional", Status: "failing"},
		{Routine: "NTT", Variant: "AMD64", Obligation: "functional", Status: "proven"},
		{Routine: "NTTAMD64", Obligation: "text = bytes", Status: "failing"},
	}
	if got := rowsOf(rows, "NTTAVX2"); len(got) != 1 || got[0].Variant != "AVX2" {
		t.Errorf("rowsOf(NTTAVX2) = %+v", got)
	}
	if got := rowsOf(rows, "NTTAMD64"); len(got) != 2 {
		t.Errorf("rowsOf(NTTAMD64) = %+v", got)
	}
	if o, _ := verdict(rowsOf(rows, "NTTAMD64"), nil); o != no {
		t.Error("another variant's failure caught NTTAMD64's mutant")
	}
}

// Every mutant applies to go/asm as it is, and each edit falls inside the
// TEXT of the mutant's own routine, or changes data lines only (DATA,
// GLOBL, #define, #include) or a Go declaration: an edit that lands in another routine of its file is
// judged by rows it cannot fail, and survives for that reason alone.
func TestEditsInOwnRoutine(t *testing.T) {
	asmDir := filepath.Join("..", "..", "..", "go", "asm")
	for _, m := range mutants {
		dir := t.TempDir()
		orig := map[string]string{}
		for _, e := range m.Edits {
			if _, ok := orig[e.File]; ok {
				continue
			}
			data, err := os.ReadFile(filepath.Join(asmDir, e.File))
			if err != nil {
				t.Fatalf("%s: %v", m.Name, err)
			}
			orig[e.File] = string(data)
			if err := os.WriteFile(filepath.Join(dir, e.File), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := m.apply(dir); err != nil {
			t.Errorf("%s: does not apply: %v", m.Name, err)
			continue
		}
		for file, before := range orig {
			data, err := os.ReadFile(filepath.Join(dir, file))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(file, ".s") {
				continue // a declaration: judged by the routine's declaration rows
			}
			if where := outsideRoutine(before, string(data), m.Routine); where != "" {
				t.Errorf("%s: the edit of %s %s", m.Name, file, where)
			}
		}
	}
}

// outsideRoutine says where the change from before to after lies when it
// is neither inside routine's TEXT nor on data lines only; "" otherwise.
func outsideRoutine(before, after, routine string) string {
	lo := 0
	for lo < len(before) && lo < len(after) && before[lo] == after[lo] {
		lo++
	}
	if lo == len(before) && lo == len(after) {
		return ""
	}
	hb, ha := len(before), len(after)
	for hb > lo && ha > lo && before[hb-1] == after[ha-1] {
		hb--
		ha--
	}
	// Whole lines: from the start of lo's line to the end of hb's.
	lineStart := strings.LastIndex(before[:lo], "\n") + 1
	end := hb
	if k := strings.Index(before[hb:], "\n"); k >= 0 {
		end = hb + k
	} else {
		end = len(before)
	}
	endA := ha
	if k := strings.Index(after[ha:], "\n"); k >= 0 {
		endA = ha + k
	} else {
		endA = len(after)
	}
	dataOnly := true
	for _, l := range strings.Split(before[lineStart:end]+"\n"+after[lineStart:endA], "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "DATA ") && !strings.HasPrefix(l, "GLOBL ") && !strings.HasPrefix(l, "#define ") && !strings.HasPrefix(l, "#include ") && !strings.HasPrefix(l, "//") {
			dataOnly = false
		}
	}
	if dataOnly {
		return ""
	}
	start := strings.Index(before, "TEXT ·"+routine+"(SB)")
	if start < 0 {
		return "is in a file without TEXT ·" + routine + "(SB)"
	}
	stop := len(before)
	if k := strings.Index(before[start+1:], "\nTEXT "); k >= 0 {
		stop = start + 1 + k
	}
	if lo < start || hb > stop {
		line := strings.Count(before[:lo], "\n") + 1
		return fmt.Sprintf("at line %d lies outside TEXT ·%s(SB)", line, routine)
	}
	return ""
}
