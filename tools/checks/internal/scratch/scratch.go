// Package scratch builds small fake vg trees for the tests of the checks.
package scratch

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// GoMod is the go.mod of a scratch tree: the real module path, so import
// paths in planted files read as in the repository.
const GoMod = "module github.com/vg-crypto/vg\n\ngo 1.26.0\n"

// Tree writes files (slash paths relative to the root; a leading newline
// of the content is dropped) into a new temporary directory and returns it.
// go.mod is added unless files has one.
func Tree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	if _, ok := files["go.mod"]; !ok {
		files["go.mod"] = GoMod
	}
	Write(t, root, files)
	return root
}

// Write writes files into root, as Tree does.
func Write(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.TrimPrefix(content, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// With returns a copy of base with the files of over added or replaced.
func With(base map[string]string, over map[string]string) map[string]string {
	out := make(map[string]string, len(base)+len(over))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		out[k] = v
	}
	return out
}

// Replace returns a copy of base whose file name has old replaced by new
// (exactly once; the test fails otherwise, so a planted violation cannot
// silently miss its target).
func Replace(t testing.TB, base map[string]string, name, old, new string) map[string]string {
	t.Helper()
	if strings.Count(base[name], old) != 1 {
		t.Fatalf("scratch: %q occurs %d times in %s", old, strings.Count(base[name], old), name)
	}
	return With(base, map[string]string{name: strings.Replace(base[name], old, new, 1)})
}

// Expect fails the test unless got holds exactly the lines want, in order.
func Expect(t testing.TB, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
		t.Errorf("got findings:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}
