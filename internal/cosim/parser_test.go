package cosim

import (
	"os"
	"path/filepath"
	"testing"

	x86 "github.com/vg-crypto/vg/Spec/x86"
	"github.com/vg-crypto/vg/internal/cosim/forms"
)

// TestCollectorMatchesModelParser checks that the form collector sees
// exactly the instruction lines Spec/x86's parser sees in go/asm, in the
// same order, so no emitted instruction escapes the coverage check.
func TestCollectorMatchesModelParser(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(asmDir(t), "*.s"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no go/asm/*.s files: %v", err)
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := x86.ParseFile(filepath.Base(name), string(src))
		if err != nil {
			t.Errorf("model parser: %v", err)
			continue
		}
		var model []string
		for _, r := range f.Routines {
			for _, in := range r.Insns {
				model = append(model, in.Text)
			}
		}
		ours, err := forms.ParseFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if len(ours) != len(model) {
			t.Errorf("%s: collector sees %d instructions, model parser %d", name, len(ours), len(model))
			continue
		}
		for i := range ours {
			if ours[i].Text != model[i] {
				t.Errorf("%s: instruction %d: collector %q, model parser %q", name, i, ours[i].Text, model[i])
				break
			}
		}
	}
}

// asmDir is go/asm, found from this package's directory.
func asmDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.Abs(filepath.Join("..", "..", "go", "asm"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// catalogPath is the catalog of further forms.
func catalogPath(t *testing.T) string {
	t.Helper()
	return filepath.Join("catalog", "catalog.txt")
}
