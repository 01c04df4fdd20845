package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
