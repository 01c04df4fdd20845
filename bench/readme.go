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
	// expandAGeneric as the function to count in. For pq-crystals it is
	// the function that expands Â (row by row in the AVX2 code).
	ExpandA string
	// C, where set, names the CVariant of pq-crystals' code this column
	// runs (through its C driver instead of cmd/driver).
	C string
	// NoCount leaves the column out of the callgrind counts.
	NoCount bool
	// AVX512 marks the column of vg's AVX-512 path: measured only on a
	// CPU with AVX512F and AVX512VL, and timed only (valgrind cannot run
	// AVX-512 code).
	AVX512 bool
}

// Columns lists the tables' columns in order. vg's baseline assembly path
// is forced with VG_CPU_FEATURES=none, its AVX2 path with avx2 (on a CPU
// with AVX-512 the default is the AVX-512 path, which valgrind cannot
// run) and its AVX-512 path with avx512, which the library honours only
// when built with the cpu_features_env tag.
var Columns = []Column{
	{Key: "vg-avx512", Title: "vg AVX-512", Impl: "vg", Tags: "cpu_features_env", Env: []string{"VG_CPU_FEATURES=avx512"}, Path: "AVX-512",
		NoCount: true, AVX512: true},
	{Key: "vg-avx2", Title: "vg AVX2", Impl: "vg", Tags: "cpu_features_env", Env: []string{"VG_CPU_FEATURES=avx2"}, Path: "AVX2"},
	{Key: "vg-asm", Title: "vg asm", Impl: "vg", Tags: "cpu_features_env", Env: []string{"VG_CPU_FEATURES=none"}, Path: "baseline x86-64 assembly"},
	{Key: "vg-purego", Title: "vg pure Go", Impl: "vg", Tags: "purego", Path: "pure Go",
		ExpandA: "github.com/vg-crypto/vg/go/mldsa.expandAGeneric"},
	{Key: "filippo", Title: "filippo.io/mldsa", Impl: "filippo"},
	{Key: "circl", Title: "circl", Impl: "circl"},
	{Key: "pqc-avx2", Title: "pq-crystals AVX2", C: "avx2-haswell",
		ExpandA: "pqcrystals_dilithium*_avx2_polyvec_matrix_expand_row*"},
	// -march=native may emit AVX-512, which valgrind 3.19 cannot decode.
	{Key: "pqc-native", Title: "pq-crystals AVX2 native", C: "avx2-native", NoCount: true},
	{Key: "pqc-ref", Title: "pq-crystals ref", C: "ref",
		ExpandA: "pqcrystals_dilithium*_ref_polyvec_matrix_expand"},
}

// The columns the targets and the comparison tables refer to.
const (
	vgAVX512  = "vg-avx512"
	vgAVX2    = "vg-avx2"
	pqcAVX2   = "pqc-avx2"
	pqcNative = "pqc-native"
	pqcRef    = "pqc-ref"
)

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

// TableHeader is the header row shared by both tables over cols (Columns,
// or Columns without vg AVX-512 on a CPU without it); the README test
// checks it.
func TableHeader(cols []Column) string {
	var b strings.Builder
	b.WriteString("| Parameter set | Operation |")
	for _, c := range cols {
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
	// Pin is the CPU list the timed processes ran on (taskset -c), or
	// empty; Load holds the load average (/proc/loadavg's first three
	// fields) before each round of timings and after the last.
	Pin  string
	Load []string
	// NoAVX512, if set, says why vg's AVX-512 path was not measured
	// (the CPU lacks it); its column is then left out.
	NoAVX512 string
}

// columns returns the columns r shows.
func (r *Results) columns() []Column {
	if r.NoAVX512 == "" {
		return Columns
	}
	return columnsWithoutAVX512()
}

func columnsWithoutAVX512() []Column {
	var cs []Column
	for _, c := range Columns {
		if !c.AVX512 {
			cs = append(cs, c)
		}
	}
	return cs
}

// avx512Target is the target for vg's AVX-512 path: at most this
// fraction of the AVX2 path's CPU time, in KeyGen, both Sign rows and
// Verify of every parameter set, measured in the same run.
const avx512Target = 0.77

// Instruction targets, as factors of a peer's count measured in the same
// run: vg AVX2 at or below avx2Factor × pq-crystals' AVX2 code, vg's
// baseline assembly at or below asmFactor × pq-crystals' portable C code
// (KeyGen, both Sign rows against the C code's Sign, which starts from the
// encoded private key, and Verify), vg pure Go at or below purego ×
// filippo.io/mldsa.
const (
	avx2Factor = 1.2
	asmFactor  = 1.0
)

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
	var peer string
	var factor float64
	switch k.Column {
	case vgAVX2:
		peer, factor = pqcAVX2, avx2Factor
	case "vg-asm":
		peer, factor = pqcRef, asmFactor
	default:
		return 0, false
	}
	op := k.Op
	switch op {
	case OpSign, OpSignExpanded:
		op = OpSignExpanded
	case OpKeyGen, OpVerify:
	default:
		return 0, false
	}
	ref, ok := r.Instr[CellKey{peer, k.Param, op}]
	if !ok || ref == 0 {
		return 0, false
	}
	return v / (factor * ref), true
}

// Render returns the README section (without the markers).
func Render(r *Results) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nMeasured %s on commit %s; CPU: %s; %s.\n", r.Date, r.Commit, r.CPU, r.Toolchain)
	if len(r.Paths) > 0 {
		var ps []string
		for _, c := range r.columns() {
			if p, ok := r.Paths[c.Key]; ok {
				ps = append(ps, fmt.Sprintf("%s = `%s`", c.Title, p))
			}
		}
		fmt.Fprintf(&b, "vg's code path per column (`mldsa.Implementation()`): %s.\n", strings.Join(ps, ", "))
	}
	if r.Identity != "" {
		fmt.Fprintf(&b, "Identity check: %s.\n", r.Identity)
	}
	if r.NoAVX512 != "" {
		fmt.Fprintf(&b, "vg AVX-512: not measured (%s); its column is left out.\n", r.NoAVX512)
	}
	b.WriteString("Workload: 64 fixed seeds and 64 fixed 32-byte messages, deterministic signing, empty context. " +
		"pq-crystals: its C code at " + PQCrystalsCommit + " (github.com/pq-crystals/dilithium), built by bench/ with gcc, " +
		"randomized signing turned off; AVX2 = its avx2/ code for -march=haswell, AVX2 native = the same for -march=native, " +
		"ref = its portable ref/ code; it signs from the encoded private key only, so its Sign is in the expanded-key row, " +
		"and has no public key object to parse. " +
		"Regenerate with `cd bench && go run ./cmd/tables` (see bench/README.md).\n")

	if len(r.Instr) > 0 {
		fmt.Fprintf(&b, "\n**Instructions per operation** (million; callgrind, a run of %d operations minus a run of none, "+
			"divided by %d). In parentheses: measured ÷ target, at or below 1.00 meets it. "+
			"Targets, from the counts in this table: vg AVX2 at %.1f× pq-crystals AVX2, vg asm at %.1f× pq-crystals ref "+
			"(KeyGen, both Sign rows against the C code's Sign, Verify), vg pure Go at %.2f× filippo.io/mldsa (Go's crypto/mldsa) "+
			"in every cell but the parse row. "+
			"Parse public key: circl computes Â there; vg (which keeps it from a key's second Verify on) and filippo.io/mldsa only inside Verify. "+
			"ExpandA alone: the instructions inside the implementation's ExpandA during one Verify from bytes "+
			"(callgrind --toggle-collect on vg's expandA, circl's Mat.Derive, filippo.io/mldsa's sampleNTT, "+
			"pq-crystals' polyvec_matrix_expand(_row*)). "+
			"pq-crystals AVX2 native is not counted (valgrind cannot run AVX-512)%s.\n\n", r.N, r.N, avx2Factor, asmFactor, purego, avx512Note(r))
		table(&b, r.columns(), func(k CellKey) string {
			if c, _ := columnByKey(k.Column); c.AVX512 {
				return "n/a (valgrind cannot run AVX-512)"
			}
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
		fmt.Fprintf(&b, "\n**Time per operation** (µs of process CPU time, with the wall-clock ns/op in parentheses; "+
			"allocations per operation for the Go code; medians of %d runs interleaved across columns; "+
			"Go: `testing.Benchmark`, C: the same growth of the iteration count to the same duration). "+
			"Wall-clock time on a shared machine is noisy and CPU time less so; the instruction counts are the "+
			"repeatable figures. ExpandA alone is counted, not timed.", r.Runs)
		if r.Pin != "" {
			fmt.Fprintf(&b, " Every timed process ran pinned to CPU %s (`taskset -c %s`).", r.Pin, r.Pin)
		}
		if len(r.Load) > 0 {
			fmt.Fprintf(&b, " Load average (1, 5, 15 min) before each round and after the last: %s.", strings.Join(r.Load, "; "))
		}
		b.WriteString("\n\n")
		table(&b, r.columns(), func(k CellKey) string {
			t, ok := r.Time[k]
			if !ok {
				return "—"
			}
			if c, _ := columnByKey(k.Column); c.C != "" {
				return fmt.Sprintf("%.1f (%.1f) µs", t.CPUNsPerOp/1e3, t.NsPerOp/1e3)
			}
			return fmt.Sprintf("%.1f (%.1f) µs, %d allocs", t.CPUNsPerOp/1e3, t.NsPerOp/1e3, t.AllocsPerOp)
		})
	}
	if rows := r.avx512Comparison(); rows != "" {
		fmt.Fprintf(&b, "\n**vg AVX-512 against vg AVX2** (CPU time from the table above, same run; "+
			"target: AVX-512 ÷ AVX2 at or below %.2f in every row). "+
			"Valgrind cannot run AVX-512 code, so this path has no instruction counts and `check_ct` does not cover it: "+
			"constant time on the AVX-512 path rests on the routines' proofs and on the Go code being the AVX2 path's.\n\n", avx512Target)
		b.WriteString(AVX512Header() + "\n|---|---|---:|---:|---:|\n" + rows)
	}
	if rows := r.comparison(); rows != "" {
		b.WriteString("\n**vg AVX2 against pq-crystals AVX2** (from the tables above: vg AVX2 ÷ pq-crystals; " +
			"both Sign rows of vg against the C code's Sign from the encoded private key; below 1.00 vg is ahead).\n\n")
		b.WriteString(ComparisonHeader() + "\n|---|---|---:|---:|---:|\n" + rows)
	}
	b.WriteString("\n")
	return b.String()
}

// PQCrystalsCommit is the pq-crystals commit the tables were made with
// (the tree in ../shared/peers carries no git metadata).
const PQCrystalsCommit = "6e00625"

func columnByKey(key string) (Column, bool) {
	for _, c := range Columns {
		if c.Key == key {
			return c, true
		}
	}
	return Column{}, false
}

// comparisonOps are the rows of the comparison table, each with the C
// code's operation it is compared with.
var comparisonOps = [][2]string{
	{OpKeyGen, OpKeyGen}, {OpSign, OpSignExpanded}, {OpSignExpanded, OpSignExpanded}, {OpVerify, OpVerify},
}

// ComparisonHeader is the header of the comparison table.
func ComparisonHeader() string {
	return "| Parameter set | Operation (vg) | instructions ÷ AVX2 | CPU time ÷ AVX2 | CPU time ÷ AVX2 native |"
}

// comparison returns the rows of the comparison table, or "" if there is
// nothing to compare.
func (r *Results) comparison() string {
	var b strings.Builder
	some := false
	for _, p := range Params {
		for _, o := range comparisonOps {
			vg, c := CellKey{vgAVX2, p, o[0]}, o[1]
			q := func(num, den float64, ok1, ok2 bool) string {
				if !ok1 || !ok2 || den == 0 {
					return "—"
				}
				some = true
				return fmt.Sprintf("%.2f", num/den)
			}
			vi, ok1 := r.Instr[vg]
			ci, ok2 := r.Instr[CellKey{pqcAVX2, p, c}]
			vt, ok3 := r.Time[vg]
			ct, ok4 := r.Time[CellKey{pqcAVX2, p, c}]
			nt, ok5 := r.Time[CellKey{pqcNative, p, c}]
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", p, opTitles[o[0]],
				q(vi, ci, ok1, ok2), q(vt.CPUNsPerOp, ct.CPUNsPerOp, ok3, ok4), q(vt.CPUNsPerOp, nt.CPUNsPerOp, ok3, ok5))
		}
	}
	if !some {
		return ""
	}
	return b.String()
}

// avx512Note is the instruction table's word on the AVX-512 column.
func avx512Note(r *Results) string {
	if r.NoAVX512 != "" {
		return ""
	}
	return "; nor is vg AVX-512, which is timed only (under valgrind the CPU looks like AVX2)"
}

// AVX512Header is the header of the AVX-512 against AVX2 table.
func AVX512Header() string {
	return "| Parameter set | Operation | vg AVX-512 µs | vg AVX2 µs | AVX-512 ÷ AVX2 |"
}

// avx512Ops are the rows of the AVX-512 against AVX2 table.
var avx512Ops = []string{OpKeyGen, OpSign, OpSignExpanded, OpVerify}

// avx512Comparison returns the rows of the AVX-512 against AVX2 table, or
// "" if the AVX-512 path was not timed.
func (r *Results) avx512Comparison() string {
	if r.NoAVX512 != "" {
		return ""
	}
	var b strings.Builder
	some := false
	for _, p := range Params {
		for _, op := range avx512Ops {
			x, ok1 := r.Time[CellKey{vgAVX512, p, op}]
			y, ok2 := r.Time[CellKey{vgAVX2, p, op}]
			cell := func(t Timing, ok bool) string {
				if !ok {
					return "—"
				}
				return fmt.Sprintf("%.1f", t.CPUNsPerOp/1e3)
			}
			q := "—"
			if ok1 && ok2 && y.CPUNsPerOp > 0 {
				some = true
				q = fmt.Sprintf("%.2f", x.CPUNsPerOp/y.CPUNsPerOp)
				if x.CPUNsPerOp/y.CPUNsPerOp > avx512Target {
					q += " (above target)"
				}
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", p, opTitles[op], cell(x, ok1), cell(y, ok2), q)
		}
	}
	if !some {
		return ""
	}
	return b.String()
}

func table(b *strings.Builder, cols []Column, cell func(CellKey) string) {
	b.WriteString(TableHeader(cols) + "\n|---|---|")
	for range cols {
		b.WriteString("---:|")
	}
	b.WriteString("\n")
	for _, p := range Params {
		for _, op := range Rows {
			fmt.Fprintf(b, "| %s | %s |", p, opTitles[op])
			for _, c := range cols {
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
		cells, want := len(Columns)+2, len(Params)*len(Rows)
		switch l {
		case TableHeader(Columns):
		case TableHeader(columnsWithoutAVX512()):
			cells = len(columnsWithoutAVX512()) + 2
		case ComparisonHeader():
			cells, want = 5, len(Params)*len(comparisonOps)
		case AVX512Header():
			cells, want = 5, len(Params)*len(avx512Ops)
		default:
			return tables, fmt.Errorf("table header %q, want %q (or without vg AVX-512), %q or %q",
				l, TableHeader(Columns), ComparisonHeader(), AVX512Header())
		}
		rows := 0
		for _, r := range lines[i+2:] {
			if !strings.HasPrefix(r, "|") {
				break
			}
			if got := strings.Count(r, "|") - 1; got != cells {
				return tables, fmt.Errorf("row %q has %d cells, want %d", r, got, cells)
			}
			rows++
		}
		if rows != want {
			return tables, fmt.Errorf("table has %d rows, want %d", rows, want)
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
