package bench

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func sampleResults() *Results {
	r := &Results{
		Date: "2026-01-02 03:04 UTC", Commit: "0123abc", CPU: "Test CPU", Toolchain: "go1.26.8, valgrind-3.19.0",
		Paths: map[string]string{"vg-avx2": "avx2"}, Identity: "ok",
		Instr: map[CellKey]float64{}, Time: map[CellKey]Timing{}, Runs: 5, N: Cases,
	}
	r.Instr[CellKey{"vg-avx2", "ML-DSA-44", OpKeyGen}] = 0.53
	r.Instr[CellKey{"pqc-avx2", "ML-DSA-44", OpKeyGen}] = 0.265
	r.Instr[CellKey{"vg-asm", "ML-DSA-65", OpSignExpanded}] = 3.3
	r.Instr[CellKey{"pqc-ref", "ML-DSA-65", OpSignExpanded}] = 6.6
	r.Time[CellKey{"vg-avx2", "ML-DSA-65", OpVerify}] = Timing{NsPerOp: 70000, CPUNsPerOp: 66000, AllocsPerOp: 3}
	r.Time[CellKey{"vg-avx512", "ML-DSA-65", OpVerify}] = Timing{NsPerOp: 50000, CPUNsPerOp: 49500, AllocsPerOp: 3}
	r.Time[CellKey{"vg-avx2", "ML-DSA-87", OpKeyGen}] = Timing{NsPerOp: 100000, CPUNsPerOp: 100000}
	r.Time[CellKey{"vg-avx512", "ML-DSA-87", OpKeyGen}] = Timing{NsPerOp: 80000, CPUNsPerOp: 80000}
	r.Time[CellKey{"pqc-avx2", "ML-DSA-65", OpVerify}] = Timing{NsPerOp: 56000, CPUNsPerOp: 55000}
	r.Time[CellKey{"pqc-native", "ML-DSA-65", OpVerify}] = Timing{NsPerOp: 53000, CPUNsPerOp: 52800}
	r.Pin, r.Load = "1", []string{"0.10 0.20 0.30", "0.40 0.50 0.60"}
	r.Instr[CellKey{"vg-purego", "ML-DSA-65", OpSign}] = 4.67
	r.Instr[CellKey{"filippo", "ML-DSA-65", OpSign}] = 9.34
	r.Time[CellKey{"circl", "ML-DSA-87", OpVerify}] = Timing{NsPerOp: 88270, CPUNsPerOp: 80110, AllocsPerOp: 5}
	return r
}

func TestRenderCells(t *testing.T) {
	s := Render(sampleResults())
	for _, want := range []string{
		"| ML-DSA-44 | KeyGen (from seed) | n/a (valgrind cannot run AVX-512) | 0.530 (1.67) |",           // 0.53 ÷ (1.2 × pq-crystals' 0.265)
		"| ML-DSA-65 | Sign (from expanded key) | n/a (valgrind cannot run AVX-512) | — | 3.300 (0.50) |", // 3.3 ÷ (1.0 × pq-crystals ref's 6.6)
		"| ML-DSA-65 | Verify (from public key bytes) | 49.5 (50.0) µs, 3 allocs | 66.0 (70.0) µs, 3 allocs |",
		"| ML-DSA-65 | Verify (from public key bytes) | 49.5 | 66.0 | 0.75 |",     // 49.5 ÷ 66
		"| ML-DSA-87 | KeyGen (from seed) | 80.0 | 100.0 | 0.80 (above target) |", // 80 ÷ 100 > 0.77
		"| ML-DSA-44 | Sign (in-memory key) | — | — | — |",
		"55.0 (56.0) µs | 52.8 (53.0) µs |",                                // C cells: no allocations column
		"| ML-DSA-65 | Verify (from public key bytes) | — | 1.20 | 1.25 |", // 66 ÷ 55, 66 ÷ 52.8
		"`taskset -c 1`", "0.10 0.20 0.30; 0.40 0.50 0.60",
		"4.670 (0.67) | 9.340 |", // pure Go ÷ (0.75 × filippo.io/mldsa)
		"80.1 (88.3) µs, 5 allocs |",
		"commit 0123abc",
		"Test CPU",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("rendered section lacks %q:\n%s", want, s)
		}
	}
	if n, err := CheckSection(s); err != nil || n != 4 {
		t.Fatalf("CheckSection = %d tables, %v; want 4, nil", n, err)
	}
	// Without a pq-crystals count there is no target: no ratio.
	r := sampleResults()
	delete(r.Instr, CellKey{"pqc-avx2", "ML-DSA-44", OpKeyGen})
	if s := Render(r); !strings.Contains(s, "| ML-DSA-44 | KeyGen (from seed) | n/a (valgrind cannot run AVX-512) | 0.530 |") {
		t.Errorf("a cell without a measured target shows a ratio:\n%s", s)
	}
}

// TestRenderWithoutAVX512: on a CPU without the AVX-512 path its column
// and the comparison with AVX2 are left out, and the section says so.
func TestRenderWithoutAVX512(t *testing.T) {
	r := sampleResults()
	r.NoAVX512 = "this CPU lacks AVX512F and AVX512VL"
	for k := range r.Time {
		if k.Column == "vg-avx512" {
			delete(r.Time, k)
		}
	}
	s := Render(r)
	for _, bad := range []string{"vg AVX-512 |", "n/a (valgrind", AVX512Header()} {
		if strings.Contains(s, bad) {
			t.Errorf("section without the AVX-512 path holds %q:\n%s", bad, s)
		}
	}
	if !strings.Contains(s, "vg AVX-512: not measured (this CPU lacks AVX512F and AVX512VL)") {
		t.Errorf("section does not say the AVX-512 path was not measured:\n%s", s)
	}
	if !strings.Contains(s, "| ML-DSA-44 | KeyGen (from seed) | 0.530 (1.67) |") {
		t.Errorf("the AVX2 column does not come first:\n%s", s)
	}
	if n, err := CheckSection(s); err != nil || n != 3 {
		t.Fatalf("CheckSection = %d tables, %v; want 3, nil", n, err)
	}
}

func TestReplaceSectionKeepsTheRest(t *testing.T) {
	doc := "# Title\n\nbefore\n" + BeginMarker + "\nold table\n" + EndMarker + "\nafter\n"
	got, err := ReplaceSection(doc, "\nnew\n")
	if err != nil {
		t.Fatal(err)
	}
	want := "# Title\n\nbefore\n" + BeginMarker + "\nnew\n" + EndMarker + "\nafter\n"
	if got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if _, err := ReplaceSection("# no markers\n", "x"); !errors.Is(err, ErrNoMarkers) {
		t.Fatalf("missing markers: err = %v, want ErrNoMarkers", err)
	}
	if _, err := ReplaceSection(EndMarker+BeginMarker, "x"); err == nil {
		t.Fatal("markers in the wrong order were accepted")
	}
}

func TestCheckSectionRejectsChangedColumns(t *testing.T) {
	s := Render(sampleResults())
	bad := strings.Replace(s, "| circl |", "| other |", 1)
	if _, err := CheckSection(bad); err == nil {
		t.Fatal("a changed header was accepted")
	}
	bad = strings.Replace(s, "| ML-DSA-87 | Parse public key |", "| ML-DSA-87 |", 1)
	if bad == s {
		t.Fatal("test row not found")
	}
	if _, err := CheckSection(bad); err == nil {
		t.Fatal("a row with a missing cell was accepted")
	}
}

// TestREADMEMarkers checks the repository's README: the bench markers are
// in place, any table between them has the current columns, and the
// writer, run on a temporary copy, fills the section and keeps the rest.
func TestREADMEMarkers(t *testing.T) {
	path := filepath.Join("..", "README.md")
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) && os.Getenv("CI") != "true" {
		t.Skip("no README.md at the repository root yet")
	}
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	sec, err := Section(doc)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	n, err := CheckSection(sec)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if n == 0 {
		t.Logf("%s: the bench section holds no table yet (run `go run ./cmd/tables`)", path)
	}

	tmp := filepath.Join(t.TempDir(), "README.md")
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteREADME(tmp, Render(sampleResults())); err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(tmp)
	if err != nil {
		t.Fatal(err)
	}
	i, j := strings.Index(doc, BeginMarker), strings.Index(doc, EndMarker)
	o := string(out)
	if !strings.HasPrefix(o, doc[:i+len(BeginMarker)]) || !strings.HasSuffix(o, doc[j:]) {
		t.Fatal("the writer changed text outside the bench markers")
	}
	sec, _ = Section(o)
	if n, err := CheckSection(sec); err != nil || n != 4 {
		t.Fatalf("written section: %d tables, %v; want 4, nil", n, err)
	}
}
