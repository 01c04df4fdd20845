package bench

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// The README markers between which the tables command writes.
const (
	BeginMarker = "<!-- bench:begin -->"
	EndMarker   = "<!-- bench:end -->"
)

// Column is one implementation and code path of the tables.
type Column struct {
	Key   string // results key and -impls name
	Title string // table header
	Impl  string // Impl.Name in the driver
	Tags  string // go build -tags
	Env   []string
	Path  string // what mldsa.Implementation() must say, for vg columns
	// ExpandA, where set, replaces the Impl's callgrind pattern: the
	// pure-Go build inlines vg's expandA into its caller, leaving
	// expandAGeneric as the function to count in.
	ExpandA string
}

// Columns lists the tables' columns in order. vg's baseline assembly path
// is forced with VG_CPU_FEATURES=none, which the library honours only when
// built with the cpu_features_env tag.
var Columns = []Column{
	{Key: "vg-avx2", Title: "vg AVX2", Impl: "vg", Path: "AVX2"},
	{Key: "vg-asm", Title: "vg asm", Impl: "vg", Tags: "cpu_features_env", Env: []string{"VG_CPU_FEATURES=none"}, Path: "baseline x86-64 assembly"},
	{Key: "vg-purego", Title: "vg pure Go", Impl: "vg", Tags: "purego", Path: "pure Go",
		ExpandA: "github.com/vg-crypto/vg/go/mldsa.expandAGeneric"},
	{Key: "filippo", Title: "filippo.io/mldsa", Impl: "filippo"},
	{Key: "circl", Title: "circl", Impl: "circl"},
}

// OpExpandA is the tables' extra row: the instructions spent in ExpandA
// (FIPS 204, Algorithm 32) during one Verify from public key bytes,
// counted by callgrind inside the implementation's ExpandA function only.
const OpExpandA = "ExpandA"

// Rows lists the tables' operations in order.
var Rows = append(append([]string(nil), Ops...), OpExpandA)

// opTitles are the operations as the tables name them.
var opTitles = map[string]string{
	OpExpandA:        "ExpandA alone (in Verify)",
	OpKeyGen:         "KeyGen (from seed)",
	OpSign:           "Sign (in-memory key)",
	OpSignExpanded:   "Sign (from expanded key)",
	OpVerify:         "Verify (from public key bytes)",
	OpParsePublicKey: "Parse public key",
}

// TableHeader is the header row shared by both tables; the README test
// checks it.
func TableHeader() string {
	var b strings.Builder
	b.WriteString("| Parameter set | Operation |")
	for _, c := range Columns {
		b.WriteString(" " + c.Title + " |")
	}
	return b.String()
}

// CellKey addresses one measurement.
type CellKey struct{ Column, Param, Op string }

// Results is everything the README section shows.
type Results struct {
	Date, Commit, CPU, Toolchain string
	// Paths maps a vg column key to what mldsa.Implementation() said in
	// that binary.
	Paths    map[string]string
	Identity string
	Instr    map[CellKey]float64 // million instructions per operation
	Time     map[CellKey]Timing
	Runs     int
	N        int // operations per callgrind run
}

// target is a standing instruction-count goal for one cell.
type target struct {
	column, param, op string
	minstr            float64
}

// Targets (million instructions per operation): vg AVX2 at or below
// 1.2× pq-crystals' AVX2 C code, vg's baseline assembly at or below the
// portable C code (KeyGen, Sign, Verify). vg pure Go is compared with
// purego× the measured filippo.io/mldsa column instead (see ratio).
var targets = func() []target {
	var t []target
	add := func(column string, scale float64, m map[string][3]float64) {
		for p, v := range m {
			t = append(t, target{column, p, OpKeyGen, scale * v[0]}, target{column, p, OpSign, scale * v[1]}, target{column, p, OpVerify, scale * v[2]})
		}
	}
	add("vg-avx2", 1.2, map[string][3]float64{
		"ML-DSA-44": {0.265, 0.731, 0.295},
		"ML-DSA-65": {0.449, 1.321, 0.468},
		"ML-DSA-87": {0.705, 1.402, 0.724},
	})
	add("vg-asm", 1, map[string][3]float64{
		"ML-DSA-44": {1.22, 4.89, 1.33},
		"ML-DSA-65": {2.065, 8.864, 2.156},
		"ML-DSA-87": {3.42, 9.99, 3.56},
	})
	return t
}()

// purego is vg pure Go's target as a fraction of filippo.io/mldsa's count.
const purego = 0.75

// ratio returns measured ÷ target for cell k, if k has a target.
func (r *Results) ratio(k CellKey) (float64, bool) {
	v, ok := r.Instr[k]
	if !ok {
		return 0, false
	}
	if k.Column == "vg-purego" {
		// Go's crypto/mldsa defers ExpandA from parsing to Verify, so
		// the parse rows do not compare like for like.
		if k.Op == OpParsePublicKey {
			return 0, false
		}
		ref, ok := r.Instr[CellKey{"filippo", k.Param, k.Op}]
		if !ok || ref == 0 {
			return 0, false
		}
		return v / (purego * ref), true
	}
	for _, t := range targets {
		if t.column == k.Column && t.param == k.Param && t.op == k.Op {
			return v / t.minstr, true
		}
	}
	return 0, false
}

// Render returns the README section (without the markers).
func Render(r *Results) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nMeasured %s on commit %s; CPU: %s; %s.\n", r.Date, r.Commit, r.CPU, r.Toolchain)
	if len(r.Paths) > 0 {
		var ps []string
		for _, c := range Columns {
			if p, ok := r.Paths[c.Key]; ok {
				ps = append(ps, fmt.Sprintf("%s = `%s`", c.Title, p))
			}
		}
		fmt.Fprintf(&b, "vg's code path per column (`mldsa.Implementation()`): %s.\n", strings.Join(ps, ", "))
	}
	if r.Identity != "" {
		fmt.Fprintf(&b, "Identity check: %s.\n", r.Identity)
	}
	b.WriteString("Workload: 64 fixed seeds and 64 fixed 32-byte messages, deterministic signing, empty context. " +
		"Regenerate with `cd bench && go run ./cmd/tables` (see bench/README.md).\n")

	if len(r.Instr) > 0 {
		fmt.Fprintf(&b, "\n**Instructions per operation** (million; callgrind, a run of %d operations minus a run of none, "+
			"divided by %d). In parentheses: measured ÷ target, at or below 1.00 meets it. "+
			"Targets: vg AVX2 at 1.2× pq-crystals' AVX2 C code (KeyGen, Sign, Verify), vg asm at the portable C code "+
			"(KeyGen, Sign, Verify), vg pure Go at 0.75× filippo.io/mldsa (Go's crypto/mldsa) in every cell but the parse row. "+
			"The C code signs from the encoded private key, so compare its Sign target with both Sign rows. "+
			"Parse public key: vg and circl compute Â there, filippo.io/mldsa only inside Verify. "+
			"ExpandA alone: the instructions inside the implementation's ExpandA during one Verify from bytes "+
			"(callgrind --toggle-collect on vg's expandA, circl's Mat.Derive, filippo.io/mldsa's sampleNTT).\n\n", r.N, r.N)
		table(&b, func(k CellKey) string {
			v, ok := r.Instr[k]
			if !ok {
				return "—"
			}
			s := fmt.Sprintf("%.3f", v)
			if q, ok := r.ratio(k); ok {
				s += fmt.Sprintf(" (%.2f)", q)
			}
			return s
		})
	}
	if len(r.Time) > 0 {
		fmt.Fprintf(&b, "\n**Time per operation** (µs of process CPU time, with `testing.Benchmark`'s wall-clock ns/op "+
			"in parentheses; allocations per operation; medians of %d runs interleaved across columns). "+
			"Wall-clock time on a shared machine is noisy and CPU time less so; the instruction counts are the "+
			"repeatable figures. ExpandA alone is counted, not timed.\n\n", r.Runs)
		table(&b, func(k CellKey) string {
			t, ok := r.Time[k]
			if !ok {
				return "—"
			}
			return fmt.Sprintf("%.1f (%.1f) µs, %d allocs", t.CPUNsPerOp/1e3, t.NsPerOp/1e3, t.AllocsPerOp)
		})
	}
	b.WriteString("\n")
	return b.String()
}

func table(b *strings.Builder, cell func(CellKey) string) {
	b.WriteString(TableHeader() + "\n|---|---|")
	for range Columns {
		b.WriteString("---:|")
	}
	b.WriteString("\n")
	for _, p := range Params {
		for _, op := range Rows {
			fmt.Fprintf(b, "| %s | %s |", p, opTitles[op])
			for _, c := range Columns {
				b.WriteString(" " + cell(CellKey{c.Key, p, op}) + " |")
			}
			b.WriteString("\n")
		}
	}
}

// ErrNoMarkers reports a document without the bench markers.
var ErrNoMarkers = errors.New("README has no " + BeginMarker + " … " + EndMarker + " section")

// ReplaceSection returns doc with the text between the markers replaced by
// section; everything outside the markers is kept byte for byte.
func ReplaceSection(doc, section string) (string, error) {
	i := strings.Index(doc, BeginMarker)
	j := strings.Index(doc, EndMarker)
	if i < 0 || j < 0 {
		return "", ErrNoMarkers
	}
	if j < i || strings.Count(doc, BeginMarker) != 1 || strings.Count(doc, EndMarker) != 1 {
		return "", fmt.Errorf("README must hold exactly one %s followed by one %s", BeginMarker, EndMarker)
	}
	i += len(BeginMarker)
	return doc[:i] + section + doc[j:], nil
}

// Section returns the text between the markers.
func Section(doc string) (string, error) {
	i := strings.Index(doc, BeginMarker)
	j := strings.Index(doc, EndMarker)
	if i < 0 || j < 0 {
		return "", ErrNoMarkers
	}
	if j < i {
		return "", fmt.Errorf("%s comes before %s", EndMarker, BeginMarker)
	}
	return doc[i+len(BeginMarker) : j], nil
}

// CheckSection checks that every table in a README section has the
// current header and one row per parameter set and operation.
func CheckSection(section string) (tables int, err error) {
	lines := strings.Split(section, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "| Parameter set |") {
			continue
		}
		tables++
		if l != TableHeader() {
			return tables, fmt.Errorf("table header %q, want %q", l, TableHeader())
		}
		rows := 0
		for _, r := range lines[i+2:] {
			if !strings.HasPrefix(r, "|") {
				break
			}
			if got, want := strings.Count(r, "|"), len(Columns)+3; got != want {
				return tables, fmt.Errorf("row %q has %d cells, want %d", r, got-1, want-1)
			}
			rows++
		}
		if rows != len(Params)*len(Rows) {
			return tables, fmt.Errorf("table has %d rows, want %d", rows, len(Params)*len(Rows))
		}
	}
	return tables, nil
}

// WriteREADME replaces the bench section of the file at path.
func WriteREADME(path, section string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	doc, err := ReplaceSection(string(b), section)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, []byte(doc), 0o644)
}
