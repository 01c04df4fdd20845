// vg prove builds and checks go/asm itself, whatever code path the command
// was built for: its tests run on the default path only (tools/test.sh).

//go:build !purego && !cpu_features_env

package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vg-crypto/vg/Spec/check"
	"github.com/vg-crypto/vg/internal/modroot"
)

func proveJSON(t *testing.T, args ...string) ([]check.Result, error) {
	t.Helper()
	var buf bytes.Buffer
	err := prove(append([]string{"-json"}, args...), &buf, io.Discard)
	var rows []check.Result
	if jerr := json.Unmarshal(buf.Bytes(), &rows); jerr != nil {
		t.Fatalf("prove -json output: %v\n%s (prove: %v)", jerr, buf.String(), err)
	}
	return rows, err
}

func TestProveKeccak(t *testing.T) {
	rows, err := proveJSON(t, "-n", "5", "-routine", "KeccakF1600AMD64")
	got := map[string]string{}
	for _, r := range rows {
		if r.Routine != "KeccakF1600" || r.Variant != "AMD64" {
			t.Errorf("unexpected row %+v", r)
		}
		got[r.Obligation] = r.Status
	}
	// The contract declares every obligation proven: vg prove fails
	// exactly when one is not.
	allProven := len(got) == len(check.Obligations)
	for _, st := range got {
		allProven = allProven && st == check.Proven
	}
	if (err == nil) != allProven {
		t.Fatalf("prove: %v, statuses %v (%+v)", err, got, rows)
	}
	for _, ob := range check.Obligations {
		want := check.Proven
		if got[ob] != want {
			t.Errorf("%s: %q, want %q", ob, got[ob], want)
		}
	}
}

// A planted secret-dependent branch in a copy of the generated Keccak
// makes vg prove fail.
func TestProveCatchesPlantedBranch(t *testing.T) {
	root, err := modroot.Find()
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(root, "go", "asm", "keccak_amd64.s"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	i := strings.Index(s, "\tRET")
	if i < 0 {
		t.Fatal("no RET in keccak_amd64.s")
	}
	// Branch on lane 0 of the (secret) state just before returning.
	s = s[:i] + "\tMOVQ a+0(FP), DI\n\tMOVQ (DI), AX\n\tTESTQ AX, AX\n\tJEQ planted\nplanted:\n" + s[i:]
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "keccak_amd64.s"), []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err := proveJSON(t, "-n", "2", "-asm", dir, "-routine", "KeccakF1600AMD64")
	if err == nil {
		t.Fatal("prove succeeded on a planted secret branch")
	}
	found := false
	for _, r := range rows {
		if r.Obligation == check.ConstantTime && r.Status == check.Failing && strings.Contains(r.Detail, "secret") {
			found = true
		}
	}
	if !found {
		t.Errorf("no failing constant-time row: %+v", rows)
	}
}

// The table has a row per routine, the legend and the summary, and keeps
// to reportWidth columns.
func TestProveTable(t *testing.T) {
	var buf bytes.Buffer
	if err := prove([]string{"-n", "2", "-routine", "KeccakF1600"}, &buf, io.Discard); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, w := range []string{"ROUTINE", "MEM memory safety", "CT constant time", "ABI", "MCDT", "FEAT features", "FUNC functional",
		"P proven", "T tested", "F failing", "KeccakF1600            AMD64   P    P    P    P    P    P", "1/2", "2/2",
		"12 obligations of 2 routines: 12 proven, 0 tested, 0 failing; "} {
		if !strings.Contains(out, w) {
			t.Errorf("table lacks %q:\n%s", w, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(l); n > reportWidth {
			t.Errorf("line of %d characters: %s", n, l)
		}
	}
}

// A routine checked without its callees is lowered to tested after its
// row: the report prints it again with the details, within the width.
func TestProveTableLowered(t *testing.T) {
	var buf bytes.Buffer
	err := prove([]string{"-n", "1", "-routine", "RejNTTPolyAMD64", "-no-callees"}, &buf, io.Discard)
	if err == nil {
		t.Fatal("prove -no-callees of a caller passed its declared level")
	}
	out := buf.String()
	for _, w := range []string{"After the callees' levels", "Details:", "RejNTTPoly/AMD64 functional: tested", "tested, 0 failing"} {
		if !strings.Contains(out, w) {
			t.Errorf("table lacks %q:\n%s", w, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(l); n > reportWidth {
			t.Errorf("line of %d characters: %s", n, l)
		}
	}
}

// -one-build builds go/asm once, for linux at GOAMD64=v1, and compares no
// other build: even a routine without callees is then at most tested.
func TestProveOneBuildAtMostTested(t *testing.T) {
	rows, err := proveJSON(t, "-n", "5", "-routine", "BitUnpack3AMD64", "-one-build")
	if err == nil {
		t.Fatal("prove -one-build passed the contract's declared level")
	}
	if len(rows) != len(check.Obligations) {
		t.Fatalf("%d rows: %+v", len(rows), rows)
	}
	for _, r := range rows {
		if r.Status != check.Tested || !strings.Contains(r.Detail, "no other build compared") {
			t.Errorf("%s: %s: %s", r.Obligation, r.Status, r.Detail)
		}
	}
}

func TestWrap(t *testing.T) {
	got := wrap("aa bb cc dddddd e", 5)
	want := []string{"aa bb", "cc", "dddddd", "e"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("wrap = %q, want %q", got, want)
	}
}

func TestProveUsage(t *testing.T) {
	if err := prove([]string{"-n", "0"}, &bytes.Buffer{}, io.Discard); err == nil {
		t.Error("-n 0 accepted")
	}
	if err := prove([]string{"-routine", "NoSuchRoutine"}, &bytes.Buffer{}, io.Discard); err == nil {
		t.Error("unknown routine accepted")
	}
}
