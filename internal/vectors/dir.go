package vectors

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the directory holding the vectors: $VG_VECTORS, or
// ../shared/vectors relative to the repository root (the nearest directory
// above the working directory with a go.mod). If the directory does not
// exist the test is skipped with a message, or fails when CI=true.
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := findDir()
	if err == nil {
		var fi os.FileInfo
		if fi, err = os.Stat(dir); err == nil && !fi.IsDir() {
			err = &os.PathError{Op: "stat", Path: dir, Err: os.ErrInvalid}
		}
	}
	if err != nil {
		msg := "ML-DSA test vectors not found (set VG_VECTORS to the directory holding acvp/ and wycheproof/): " + err.Error()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		} else {
			t.Skip(msg)
		}
	}
	return dir
}

func findDir() (string, error) {
	if d := os.Getenv("VG_VECTORS"); d != "" {
		return d, nil
	}
	root, err := repoRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "..", "shared", "vectors"), nil
}

// repoRoot walks up from the working directory to the first directory
// holding go.mod.
func repoRoot() (string, error) {
	d, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", &os.PathError{Op: "find", Path: "go.mod", Err: os.ErrNotExist}
		}
		d = parent
	}
}
