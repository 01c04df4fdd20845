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

func TestClean(t *testing.T) {
	needValgrind(t)
	l, summary, err := run("../../..", []string{"purego", "default"}, "44", "keygen,sign,hashsign,verify", 1)
	if err != nil {
		t.Fatal(err)
	}
	scratch.Expect(t, l.Strings())
	t.Log(summary)
}

// TestPlanted plants a branch on the secret seed in key generation, a
// branch on the secret key K in signing and a load indexed by K in signing,
// and expects each reported at its line, on both paths it runs.
func TestPlanted(t *testing.T) {
	needValgrind(t)
	root := copyLibrary(t)
	const file = "go/mldsa/mldsa.go"
	plant(t, root, file, "\th.read(seeds.ρPrime[:])\n",
		"\th.read(seeds.ρPrime[:])\n\tif sk.seed[3] == 0x42 { // planted: seed branch\n\t\tplantedSink++\n\t}\n")
	plant(t, root, file, "\tsk.markSecret()\n",
		"\tsk.markSecret()\n\tif sk.key[0]&1 == 0 { // planted: key branch\n\t\tplantedSink++\n\t}\n"+
			"\tplantedSink += int(zetasMont[sk.key[1]]) // planted: key-indexed load\n")
	plant(t, root, file, "func toMontgomeryVec(", "var plantedSink int\n\nfunc toMontgomeryVec(")
	seedLine := lineOf(t, root, file, "planted: seed branch")
	branchLine := lineOf(t, root, file, "planted: key branch")
	loadLine := lineOf(t, root, file, "planted: key-indexed load")
	l, _, err := run(root, []string{"purego", "default"}, "44", "keygen,sign", 1)
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
	for _, want := range []struct {
		line int
		kind string
	}{{seedLine, "UninitCondition"}, {branchLine, "UninitCondition"}, {loadLine, "UninitValue"}} {
		for _, path := range []string{"purego", "default"} {
			found := false
			for _, m := range got[want.line] {
				found = found || strings.HasPrefix(m, want.kind+":") && strings.Contains(m, "("+path+" path;")
			}
			if !found {
				t.Errorf("%s:%d: no %s finding on the %s path; findings:\n%s", file, want.line, want.kind, path, strings.Join(l.Strings(), "\n"))
			}
		}
	}
	for line := range got {
		if line != seedLine && line != branchLine && line != loadLine {
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
