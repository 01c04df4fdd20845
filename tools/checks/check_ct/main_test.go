package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/tools/checks/internal/scratch"
)

// needValgrind skips without valgrind, except under CI, which installs it.
func needValgrind(t *testing.T) {
	if testedElsewhere {
		t.Skip("runs in the default build: the driver's code paths do not depend on this binary's tags")
	}
	if _, err := exec.LookPath("valgrind"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("valgrind is not installed")
		}
		t.Skip("valgrind is not installed")
	}
}

// copyLibrary copies what the driver is built from (go.mod, go.sum, go/ and
// the driver) into a new directory and returns it.
func copyLibrary(t *testing.T) string {
	t.Helper()
	src, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	for _, part := range []string{"go.mod", "go.sum", "go", "tools/checks/check_ct/driver"} {
		err := filepath.Walk(filepath.Join(src, part), func(p string, fi os.FileInfo, err error) error {
			if err != nil || fi.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(src, p)
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			scratch.Write(t, dst, map[string]string{filepath.ToSlash(rel): string(data)})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// plant replaces old by new, exactly once, in file of the tree at root.
func plant(t *testing.T, root, file, old, new string) {
	t.Helper()
	p := filepath.Join(root, file)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), old); n != 1 {
		t.Fatalf("%q occurs %d times in %s", old, n, file)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// lineOf returns the line of root/file that holds s.
func lineOf(t *testing.T, root, file, s string) int {
	t.Helper()
	data, _ := os.ReadFile(filepath.Join(root, file))
	i := strings.Index(string(data), s)
	if i < 0 {
		t.Fatalf("%q not in %s", s, file)
	}
	return 1 + strings.Count(string(data[:i]), "\n")
}

// honestOps are the driver's operations that every path has.
const honestOps = "keygen,expanded,sign,signdet,signmu,hashsign,bytes,expandedbytes,equal,verify"

func TestClean(t *testing.T) {
	needValgrind(t)
	l, summary, err := run("../../..", []string{"purego", "default"}, "44", honestOps, 1)
	if err != nil {
		t.Fatal(err)
	}
	scratch.Expect(t, l.Strings())
	t.Log(summary)
}

// TestCleanBridge runs the go1.27 path, with the crypto/mldsa bridge.
// Without the Go 1.27 toolchain it skips, except under CI, which has it.
func TestCleanBridge(t *testing.T) {
	needValgrind(t)
	if out, err := exec.Command("go", "env", "GOVERSION").Output(); err != nil {
		t.Fatal(err)
	} else if v := strings.TrimSpace(string(out)); v != bridgeToolchain {
		cmd := exec.Command("go", "version")
		cmd.Env = append(os.Environ(), "GOTOOLCHAIN="+bridgeToolchain)
		if out, err := cmd.CombinedOutput(); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("GOTOOLCHAIN=%s: %v\n%s", bridgeToolchain, err, out)
			}
			t.Skipf("GOTOOLCHAIN=%s: %v\n%s", bridgeToolchain, err, out)
		}
	}
	l, summary, err := run("../../..", []string{"go1.27"}, "44", "bridge,signmu", 1)
	if err != nil {
		t.Fatal(err)
	}
	scratch.Expect(t, l.Strings())
	t.Log(summary)
}

// TestPlanted plants, where the library receives the caller's secrets
// before it copies them, a branch on the seed at the top of NewPrivateKey
// and a branch on a byte of s1 in the expanded key at the top of
// NewPrivateKeyFromExpanded; a load indexed by the key K at the top of
// SignMu; and, further in, a branch on the copied seed in key generation,
// a branch on K in signing and a load indexed by K in signing. It expects
// each reported at its line, on both paths it runs.
func TestPlanted(t *testing.T) {
	needValgrind(t)
	root := copyLibrary(t)
	const file = "go/mldsa/mldsa.go"
	plant(t, root, file, "\t\treturn nil, errInvalidSeedLength\n\t}\n\treturn newPrivateKeyFromSeed(params.p, (*[32]byte)(seed))\n",
		"\t\treturn nil, errInvalidSeedLength\n\t}\n\tif seed[5] == 0x42 { // planted: caller's seed branch\n\t\tplantedSink++\n\t}\n"+
			"\treturn newPrivateKeyFromSeed(params.p, (*[32]byte)(seed))\n")
	plant(t, root, file, "\t\treturn nil, errInvalidPrivateKeyLength\n\t}\n",
		"\t\treturn nil, errInvalidPrivateKeyLength\n\t}\n\tif sk[200]&1 == 0 { // planted: expanded-key branch\n\t\tplantedSink++\n\t}\n")
	plant(t, root, file, "func (sk *PrivateKey) SignMu(mu []byte) ([]byte, error) {\n",
		"func (sk *PrivateKey) SignMu(mu []byte) ([]byte, error) {\n\tplantedSink += int(zetasMont[sk.key[2]]) // planted: SignMu key-indexed load\n")
	plant(t, root, file, "\tcopy(sk.key[:], enc[32:64])\n",
		"\tcopy(sk.key[:], enc[32:64])\n\tif sk.seed[3] == 0x42 { // planted: seed branch\n\t\tplantedSink++\n\t}\n")
	plant(t, root, file, "\tsk.signForms()\n",
		"\tsk.signForms()\n\tif sk.key[0]&1 == 0 { // planted: key branch\n\t\tplantedSink++\n\t}\n"+
			"\tplantedSink += int(zetasMont[sk.key[1]]) // planted: key-indexed load\n")
	plant(t, root, file, "func toMontgomeryVec(", "var plantedSink int\n\nfunc toMontgomeryVec(")
	want := map[int]string{}
	for s, kind := range map[string]string{
		"planted: caller's seed branch":    "UninitCondition",
		"planted: expanded-key branch":     "UninitCondition",
		"planted: SignMu key-indexed load": "UninitValue",
		"planted: seed branch":             "UninitCondition",
		"planted: key branch":              "UninitCondition",
		"planted: key-indexed load":        "UninitValue",
	} {
		want[lineOf(t, root, file, s)] = kind
	}
	l, _, err := run(root, []string{"purego", "default"}, "44", "keygen,expanded,sign,signmu", 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("findings:\n%s", strings.Join(l.Strings(), "\n"))
	got := map[int][]string{}
	for _, d := range l {
		if d.File != file {
			t.Errorf("unexpected finding: %s", d)
			continue
		}
		got[d.Line] = append(got[d.Line], d.Msg)
	}
	for line, kind := range want {
		for _, path := range []string{"purego", "default"} {
			found := false
			for _, m := range got[line] {
				found = found || strings.HasPrefix(m, kind+":") && strings.Contains(m, "("+path+" path;")
			}
			if !found {
				t.Errorf("%s:%d: no %s finding on the %s path", file, line, kind, path)
			}
		}
	}
	for line := range got {
		if _, ok := want[line]; !ok {
			t.Errorf("finding at %s:%d, not a planted line: %v", file, line, got[line])
		}
	}
}

// TestDeclassifyList plants a declassification with no reason of the list,
// a client request outside ct.go and a reason nothing uses.
func TestDeclassifyList(t *testing.T) {
	root := copyLibrary(t)
	plant(t, root, "go/mldsa/sampleinball.go", "\t\t\taccept := j <= uint32(i)\n",
		"\t\t\taccept := j <= uint32(i)\n\t\t\tdeclassify(publicValue(2), unsafe.Pointer(&j), 4)\n\t\t\tvalgrindMakeMemDefined(unsafe.Pointer(&j), 4)\n")
	plant(t, root, "go/mldsa/ct.go", "\tpublicValues\n)", "\tpublicUnused\n\tpublicValues\n)")
	plant(t, root, "go/mldsa/ct.go", "var publicReasons = [publicValues]string{\n", "var publicReasons = [publicValues]string{\n\tpublicUnused: \"nothing\",\n")
	line := lineOf(t, root, "go/mldsa/sampleinball.go", "declassify(publicValue(2)")
	l, _, err := run(root, []string{"purego"}, "44", "keygen", 1)
	if err != nil {
		t.Fatal(err)
	}
	scratch.Expect(t, l.Strings(),
		"go/mldsa/ct.go:1: publicUnused is never declassified: a stale reason",
		"go/mldsa/sampleinball.go:"+itoa(line)+": declassify without one of ct.go's reasons: publicValue(2)",
		"go/mldsa/sampleinball.go:"+itoa(line+1)+": valgrindMakeMemDefined outside ct.go: declare public values with declassify and a reason")
}

func itoa(n int) string { return fmt.Sprint(n) }
