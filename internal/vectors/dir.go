package vectors

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/internal/modroot"
)

// Dir returns the directory holding the vectors: $VG_VECTORS, or
// ../shared/vectors relative to the vg source tree (internal/modroot). If
// the directory does not exist the test is skipped with a message, or fails
// where the vectors must be present (see required).
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
		root, _ := modroot.Find()
		if must, why := required(os.Getenv, root, modCache); must {
			t.Fatal(msg + " (required: " + why + ")")
		} else {
			t.Skip(msg + " (skipped: " + why + ")")
		}
	}
	return dir
}

// required says whether absent vectors fail the test rather than skip it,
// and why. They fail when VG_REQUIRE_VECTORS=1 (vg's CI, .ci/run, sets
// it), or when CI=true and the tests run from a checkout of vg: root, the
// vg source tree found above the working directory, is neither empty nor
// in the module cache. A module that requires vg and runs `go test all`
// under CI=true (GitHub Actions, GitLab) tests vg's packages in the module
// cache, where the vectors (../shared/vectors, never copied into the
// module) cannot be, so there they skip.
func required(getenv func(string) string, root string, modCache func(getenv func(string) string) string) (bool, string) {
	if getenv("VG_REQUIRE_VECTORS") == "1" {
		return true, "VG_REQUIRE_VECTORS=1"
	}
	if getenv("CI") != "true" {
		return false, "neither VG_REQUIRE_VECTORS=1 nor CI=true"
	}
	if root == "" {
		return false, "CI=true, but not run inside a vg source tree"
	}
	if inModCache(root, modCache(getenv)) {
		return false, "CI=true, but vg is a dependency here (" + root + " is in the module cache); VG_REQUIRE_VECTORS=1 requires them"
	}
	return true, "CI=true in a checkout of vg"
}

// inModCache says whether root, a module's root directory, is a module
// cache's copy of it: under cache (when known), or named module@version,
// as the module cache names every module it holds.
func inModCache(root, cache string) bool {
	if cache != "" {
		if rel, err := filepath.Rel(cache, root); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return strings.Contains(filepath.Base(root), "@")
}

// modCache returns the module cache's directory: $GOMODCACHE, else what
// `go env GOMODCACHE` says, else "" (inModCache then goes by the names).
func modCache(getenv func(string) string) string {
	if d := getenv("GOMODCACHE"); d != "" {
		return d
	}
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
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
