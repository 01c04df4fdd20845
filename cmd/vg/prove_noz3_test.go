// vg prove builds and checks go/asm itself, whatever code path the command
// was built for: its tests run on the default path only (tools/test.sh).

//go:build !purego && !cpu_features_env

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/Spec/check"
)

// Without z3 on PATH (only the go command), vg prove still proves the η
// decoder's flag (Spec/check, packflag.go): the SAT solver answers its
// query, and the report says no second opinion was had.
func TestProveWithoutZ3(t *testing.T) {
	if testing.Short() {
		t.Skip("a vg prove run builds go/asm")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(goBin, filepath.Join(dir, "go")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	if _, err := exec.LookPath("z3"); err == nil {
		t.Fatal("z3 still on PATH")
	}
	rows, err := proveJSON(t, "-n", "5", "-routine", "BitUnpack3AMD64")
	if err != nil {
		t.Fatalf("prove: %v (%+v)", err, rows)
	}
	found := false
	for _, r := range rows {
		if r.Obligation == check.Functional {
			found = true
			if r.Status != check.Proven || !strings.Contains(r.Detail, "SAT query") || !strings.Contains(r.Detail, "no second opinion") {
				t.Errorf("functional: %s: %s", r.Status, r.Detail)
			}
		}
	}
	if !found {
		t.Error("no functional row")
	}
}
