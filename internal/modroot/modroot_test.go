package modroot

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFromSkipsOtherModules(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "// the library\nmodule github.com/vg-crypto/vg\n\ngo 1.26.0\n")
	write("Emit/go.mod", "module github.com/vg-crypto/vg/Emit\n")
	write("Emit/sub/x.txt", "")
	got, err := From(filepath.Join(root, "Emit", "sub"))
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := filepath.Abs(root); got != want {
		t.Errorf("From(Emit/sub) = %s, want %s", got, want)
	}
	other := t.TempDir()
	write2 := filepath.Join(other, "go.mod")
	if err := os.WriteFile(write2, []byte("module example.com/other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := From(other); err == nil {
		t.Errorf("From(a tree of another module) = %s, want an error", got)
	}
}

func TestFindInThisTree(t *testing.T) {
	root, err := Find()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go", "mldsa")); err != nil {
		t.Errorf("Find() = %s, which has no go/mldsa: %v", root, err)
	}
}
