package bench

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// pqcBuild builds variant key of pq-crystals' code for a test. Without
// gcc or the source tree the test is skipped, except under CI=true, where
// it fails.
func pqcBuild(t *testing.T, key string) string {
	t.Helper()
	v, ok := CVariantByKey(key)
	if !ok {
		t.Fatalf("no variant %q", key)
	}
	bin, err := BuildPQCrystals(PQCrystalsDir(), v, t.TempDir())
	if errors.Is(err, ErrNoPQCrystals) {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true: %v", err)
		}
		t.Skipf("pq-crystals not built: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// TestPQCrystalsIdentity builds the Haswell AVX2 code and the reference
// code and requires byte identity with vg on every case (keys, signatures
// with and without a context, signatures from μ).
func TestPQCrystalsIdentity(t *testing.T) {
	for _, key := range []string{"avx2-haswell", "ref"} {
		t.Run(key, func(t *testing.T) {
			bin := pqcBuild(t, key)
			n, err := CheckPQCrystals(bin)
			if err != nil {
				t.Fatal(err)
			}
			if n != len(Params)*Cases {
				t.Fatalf("compared %d cases, want %d", n, len(Params)*Cases)
			}
			if key == "avx2-haswell" {
				checkRoutineNames(t, bin)
			}
		})
	}
}

// TestPQCrystalsDeterministic checks that the build copy turns hedged
// signing off: built from the unpatched config.h, the driver's signing
// calls randombytes, which the driver refuses (exit status 2); patched,
// it signs. pq-crystals has no in-memory Sign (exit status 3).
func TestPQCrystalsDeterministic(t *testing.T) {
	bin := pqcBuild(t, "ref")
	sign := func(bin, op string) error {
		return exec.Command(bin, "count", "ML-DSA-44", op, "1").Run()
	}
	if err := sign(bin, "SignExpanded"); err != nil {
		t.Fatalf("deterministic build: %v", err)
	}
	var ee *exec.ExitError
	if err := sign(bin, "Sign"); !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("in-memory Sign: err = %v, want exit status 3 (not offered)", err)
	}
	v, _ := CVariantByKey("ref")
	hedged, err := buildPQCrystals(PQCrystalsDir(), v, t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	if err := sign(hedged, "SignExpanded"); !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("hedged build: err = %v, want exit status 2 (randombytes called while signing)", err)
	}
}

// TestCheckPQCrystalsDetectsMismatch makes sure the comparison can fail.
func TestCheckPQCrystalsDetectsMismatch(t *testing.T) {
	w := NewWorkload()
	err := compareCase("ML-DSA-44", 0, w, make([]byte, 1312), make([]byte, 2560), nil, nil)
	if err == nil || !strings.Contains(err.Error(), "different public keys") {
		t.Fatalf("err = %v, want a public key mismatch", err)
	}
}

// checkRoutineNames requires the C driver's routines and vg's (Routines)
// to pair up by name, and runs each on both sides.
func checkRoutineNames(t *testing.T, bin string) {
	rs := Routines()
	if rs == nil {
		t.Log("no AVX2 routines in this build or on this CPU")
		return
	}
	out, err := exec.Command(bin, "names").Output()
	if err != nil {
		t.Fatal(err)
	}
	c := map[string]bool{}
	for _, n := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		c[n] = true
	}
	for _, r := range rs {
		for i := range 3 {
			r.Run(i)
		}
		if r.C == "" {
			continue
		}
		if !c[r.Name] {
			t.Errorf("routine %s (%s) has no counterpart %s in the C driver", r.Name, r.VG, r.C)
		}
		delete(c, r.Name)
		if out, err := exec.Command(bin, "routine", r.Name, "3").CombinedOutput(); err != nil {
			t.Errorf("C routine %s: %v\n%s", r.Name, err, out)
		}
	}
	for n := range c {
		t.Errorf("C routine %s has no counterpart in Routines", n)
	}
}
