package vectors

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vg-crypto/vg/internal/modroot"
)

// Dir returns the directory holding the vectors: $VG_VECTORS, or
// ../shared/vectors relative to the vg source tree (internal/modroot). If the directory does not
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

// Locate returns the directory the vectors should be in ($VG_VECTORS, or
// ../shared/vectors beside the source tree) without checking that it exists.
func Locate() (string, error) { return findDir() }

func findDir() (string, error) {
	if d := os.Getenv("VG_VECTORS"); d != "" {
		return d, nil
	}
	root, err := modroot.Find()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "..", "shared", "vectors"), nil
}
