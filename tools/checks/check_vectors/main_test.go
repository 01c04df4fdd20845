package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/tools/checks/internal/scratch"
)

var vectorFiles = map[string]string{
	"README.md":                    "vectors\n",
	"acvp/M/prompt.json":           `{"testGroups": [{"tests": [{"tcId": 1}, {"tcId": 2}]}, {"tests": [{"tcId": 3}]}]}`,
	"acvp/M/expectedResults.json":  `{"testGroups": [{"tests": [{"tcId": 1}, {"tcId": 2}]}, {"tests": [{"tcId": 3}]}]}`,
	"wycheproof/w_test.json":       `{"numberOfTests": 2, "testGroups": [{"tests": [{}, {}]}]}`,
	"wycheproof/schema.json":       `{"type": "object"}`,
	"acvp/M/registration.json":     `{"parameterSets": ["ML-DSA-44"]}`,
	"acvp/NIST-LICENSE.txt":        "notice\n",
	"wycheproof/mldsa_w_notes.txt": "notes\n",
}

// module is a fake tree whose vector test logs what the runner logs.
func module(acvpRan, wRan int) map[string]string {
	test := `
package mldsa

import (
	"testing"

	"github.com/vg-crypto/vg/internal/vectors"
)

// TestOther is not a vector test: it would fail if run.
func TestOther(t *testing.T) { t.Fatal("not a vector test") }

func TestVectors(t *testing.T) {
	vectors.Run(t, "acvp/M", ACVP)
	if W > 0 {
		vectors.Run(t, "wycheproof/w_test.json", W)
	}
}
`
	test = strings.NewReplacer("ACVP", itoa(acvpRan), "W", itoa(wRan)).Replace(test)
	return map[string]string{
		"internal/vectors/v.go": `
package vectors

import "testing"

func Run(t *testing.T, name string, n int) {
	t.Logf("%s: ran %d, passed %d (declared %d) in 1ms", name, n, n, n)
}
`,
		"go/mldsa/v_test.go": test,
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// setup writes the vectors and a tree whose manifest matches them.
func setup(t *testing.T, acvpRan, wRan int) (root, vec string) {
	vec = scratch.Tree(t, vectorFiles)
	os.Remove(filepath.Join(vec, "go.mod"))
	root = scratch.Tree(t, module(acvpRan, wRan))
	os.MkdirAll(filepath.Join(root, "tools/checks/check_vectors"), 0o755)
	if err := writeManifest(root, vec); err != nil {
		t.Fatal(err)
	}
	return root, vec
}

func check(t *testing.T, root, vec string, tests bool) []string {
	t.Helper()
	l, _, err := run(root, vec, tests, "", "10m")
	if err != nil {
		t.Fatal(err)
	}
	return l.Strings()
}

const m = "tools/checks/check_vectors/manifest.json:"

func TestClean(t *testing.T) {
	root, vec := setup(t, 3, 2)
	scratch.Expect(t, check(t, root, vec, true))
	_, summary, _ := run(root, vec, true, "", "10m")
	if want := "8 files, 8 test cases, as the manifest says; go/mldsa.TestVectors ran all 8 cases of the files with cases"; summary != want {
		t.Errorf("summary %q, want %q", summary, want)
	}
}

func TestVectorsChanged(t *testing.T) {
	root, vec := setup(t, 3, 2)
	changed := `{"numberOfTests": 2, "testGroups": [{"tests": [{"x": 1}, {}]}]}`
	scratch.Write(t, vec, map[string]string{
		"wycheproof/w_test.json": changed,
		"wycheproof/new.json":    `{}`,
	})
	os.Remove(filepath.Join(vec, "acvp/NIST-LICENSE.txt"))
	scratch.Expect(t, check(t, root, vec, false),
		m+"3: ../"+filepath.Base(vec)+"/wycheproof/new.json is not in the manifest",
		m+"8: acvp/NIST-LICENSE.txt: missing from ../"+filepath.Base(vec),
		m+"11: wycheproof/w_test.json: SHA-256 is "+sha(changed)+", the manifest says "+sha(vectorFiles["wycheproof/w_test.json"]))
}

func TestManifestCountWrong(t *testing.T) {
	root, vec := setup(t, 3, 2)
	p := filepath.Join(root, manifestPath)
	data, _ := os.ReadFile(p)
	data = []byte(strings.Replace(string(data), `"cases":2}`, `"cases":3}`, 1))
	os.WriteFile(p, data, 0o644)
	scratch.Expect(t, check(t, root, vec, false),
		m+"11: wycheproof/w_test.json: holds 2 test cases, the manifest says 3")
}

func TestDeclaredCountWrong(t *testing.T) {
	root, vec := setup(t, 3, 2)
	scratch.Write(t, vec, map[string]string{"wycheproof/w_test.json": `{"numberOfTests": 3, "testGroups": [{"tests": [{}, {}]}]}`})
	_, _, err := run(root, vec, false, "", "10m")
	if err == nil || !strings.HasSuffix(err.Error(), "w_test.json: numberOfTests is 3 but the groups hold 2 tests") {
		t.Errorf("err = %v", err)
	}
}

func TestGroupDropped(t *testing.T) {
	root, vec := setup(t, 2, 2)
	scratch.Expect(t, check(t, root, vec, true),
		m+"5: acvp/M/expectedResults.json: a vector test ran 2 of its 3 cases",
		m+"6: acvp/M/prompt.json: a vector test ran 2 of its 3 cases")
}

func TestFileDropped(t *testing.T) {
	root, vec := setup(t, 3, 0)
	scratch.Expect(t, check(t, root, vec, true),
		m+"11: wycheproof/w_test.json: no vector test ran it (2 cases)")
}

func TestSavedLog(t *testing.T) {
	root, vec := setup(t, 3, 2)
	log := filepath.Join(t.TempDir(), "test.log")
	os.WriteFile(log, []byte("=== RUN   TestVectors\n    v.go:6: acvp/M: ran 3, passed 3 (declared 3) in 1ms\n"), 0o644)
	l, _, err := run(root, vec, true, log, "10m")
	if err != nil {
		t.Fatal(err)
	}
	scratch.Expect(t, l.Strings(), m+"11: wycheproof/w_test.json: no vector test ran it (2 cases)")
}

// TestSymlinkedVectors lays the tree out as CI does, root/../shared/vectors,
// but with vectors a symbolic link to a copy whose acvp/ directory and one
// Wycheproof file are links too.
func TestSymlinkedVectors(t *testing.T) {
	_, real := setup(t, 3, 2)
	top := t.TempDir()
	root := filepath.Join(top, "repo")
	scratch.Write(t, root, scratch.With(module(3, 2), map[string]string{"go.mod": scratch.GoMod}))
	copyDir := filepath.Join(top, "copy")
	os.MkdirAll(filepath.Join(copyDir, "wycheproof"), 0o755)
	for _, err := range []error{
		os.Symlink(filepath.Join(real, "acvp"), filepath.Join(copyDir, "acvp")),
		os.Symlink(filepath.Join(real, "README.md"), filepath.Join(copyDir, "README.md")),
		os.MkdirAll(filepath.Join(top, "shared"), 0o755),
		os.Symlink(copyDir, filepath.Join(top, "shared", "vectors")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"w_test.json", "schema.json", "mldsa_w_notes.txt"} {
		data, _ := os.ReadFile(filepath.Join(real, "wycheproof", f))
		os.WriteFile(filepath.Join(copyDir, "wycheproof", f), data, 0o644)
	}
	os.MkdirAll(filepath.Join(root, "tools/checks/check_vectors"), 0o755)
	t.Setenv("VG_VECTORS", "")
	if err := writeManifest(root, ""); err != nil {
		t.Fatal(err)
	}
	scratch.Expect(t, check(t, root, "", true))
	_, summary, _ := run(root, "", true, "", "10m")
	if want := "8 files, 8 test cases, as the manifest says; go/mldsa.TestVectors ran all 8 cases of the files with cases"; summary != want {
		t.Errorf("summary %q, want %q", summary, want)
	}
}
