// Command tables measures vg and its peers and writes the results into the
// repository README between <!-- bench:begin --> and <!-- bench:end -->.
//
// Run it from bench/:
//
//	go run ./cmd/tables             # measure everything, rewrite ../README.md's section
//	go run ./cmd/tables -print      # print the section instead of writing it
//
// It builds the driver once per build-tag set (one binary per vg code
// path), checks that all implementations agree byte for byte, counts
// instructions per operation with callgrind and times each operation with
// testing.Benchmark. Nothing outside the markers is changed; a README
// without them is an error.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/bench"
)

var (
	readme    = flag.String("readme", "../README.md", "README to update")
	printOnly = flag.Bool("print", false, "print the section instead of writing the README")
	impls     = flag.String("impls", "", "comma-separated column keys to measure (default all: "+allKeys()+")")
	n         = flag.Int("n", bench.Cases, "operations per callgrind run")
	runs      = flag.Int("runs", 5, "testing.Benchmark runs per cell")
	benchtime = flag.String("benchtime", "200ms", "duration of one testing.Benchmark run")
	jobs      = flag.Int("j", 2, "callgrind runs in parallel")
	noInstr   = flag.Bool("no-instr", false, "skip the callgrind counts")
	noTime    = flag.Bool("no-time", false, "skip the timings")
	commitID  = flag.String("commit", "", "commit to report (default: git rev-parse HEAD of the repository)")
	pqc       = flag.String("pqcrystals", bench.PQCrystalsDir(), "pq-crystals' source tree (also $VG_PQCRYSTALS)")
	pin       = flag.String("pin", "1", "CPU list for taskset -c around every timed process (empty: not pinned)")
)

func allKeys() string {
	var k []string
	for _, c := range bench.Columns {
		k = append(k, c.Key)
	}
	return strings.Join(k, ",")
}

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "tables:", err)
		os.Exit(1)
	}
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "[%s] "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

func run() error {
	start := time.Now()
	cols, err := selectColumns(*impls)
	if err != nil {
		return err
	}
	// vg's AVX-512 path is measured only where the CPU has it (the
	// features go/mldsa asks x/sys/cpu for); elsewhere the section says so.
	noAVX512 := ""
	if !(cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL) {
		noAVX512 = "this CPU (or OS) lacks AVX512F and AVX512VL"
		var kept []bench.Column
		for _, c := range cols {
			if !c.AVX512 {
				kept = append(kept, c)
			} else if *impls != "" {
				return fmt.Errorf("-impls %s: %s", c.Key, noAVX512)
			}
		}
		cols = kept
		logf("vg AVX-512 not measured: %s", noAVX512)
	}
	// Fail before measuring if the README cannot take the result.
	if !*printOnly {
		b, err := os.ReadFile(*readme)
		if err != nil {
			return err
		}
		if _, err := bench.Section(string(b)); err != nil {
			return fmt.Errorf("%s: %w", *readme, err)
		}
	}

	tmp, err := os.MkdirTemp("", "vg-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	// One driver binary per tag set; the default one also writes the
	// inputs of the count runs.
	bins := map[string]string{}
	cbins := map[string]string{} // C column key → driver
	for _, c := range cols {
		if c.C == "" {
			continue
		}
		v, ok := bench.CVariantByKey(c.C)
		if !ok {
			return fmt.Errorf("%s: no C variant %q", c.Key, c.C)
		}
		logf("building pq-crystals %s from %s", v.Key, *pqc)
		bin, err := bench.BuildPQCrystals(*pqc, v, tmp)
		if err != nil {
			return fmt.Errorf("%s: %w", c.Key, err)
		}
		cbins[c.Key] = bin
	}
	if *pin != "" && !*noTime {
		if _, err := exec.LookPath("taskset"); err != nil {
			return fmt.Errorf("-pin %s: %w (run with -pin '' to time unpinned)", *pin, err)
		}
	}
	for _, tags := range append([]string{""}, columnTags(cols)...) {
		if _, ok := bins[tags]; ok {
			continue
		}
		bin := filepath.Join(tmp, "driver-"+strings.ReplaceAll(tags+"default", ",", "-"))
		logf("go build -tags %q ./cmd/driver", tags)
		cmd := exec.Command("go", "build", "-tags", tags, "-o", bin, "./cmd/driver")
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("building the driver with tags %q: %w", tags, err)
		}
		bins[tags] = bin
	}

	res := &bench.Results{
		Date:      time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		Commit:    commit(),
		CPU:       cpuLine(),
		Toolchain: runtime.Version() + ", " + valgrindVersion(),
		Paths:     map[string]string{},
		Instr:     map[bench.CellKey]float64{},
		Time:      map[bench.CellKey]bench.Timing{},
		Runs:      *runs,
		N:         *n,
		NoAVX512:  noAVX512,
	}

	// Which vg code path each binary runs, natively and under valgrind.
	for _, c := range cols {
		if c.Impl != "vg" {
			continue
		}
		out, err := output(bins[c.Tags], c.Env, "-info")
		if err != nil {
			return fmt.Errorf("%s: %w", c.Key, err)
		}
		p := strings.TrimSpace(out)
		if p != c.Path {
			return fmt.Errorf("%s: vg runs the %q path, want %q", c.Key, p, c.Path)
		}
		res.Paths[c.Key] = p
		if !*noInstr && !c.NoCount {
			out, err := output("valgrind", append(c.Env, callgrindEnv...), append([]string{"-q", "--tool=callgrind", "--callgrind-out-file=/dev/null", bins[c.Tags]}, "-info")...)
			if err != nil {
				return fmt.Errorf("%s under valgrind: %w", c.Key, err)
			}
			if q := strings.TrimSpace(out); q != p {
				return fmt.Errorf("%s: vg runs %q natively but %q under valgrind", c.Key, p, q)
			}
		}
		logf("%s: mldsa.Implementation() = %q", c.Key, p)
	}

	// Identity first: every binary (and environment) checks all the
	// implementations it holds against each other.
	checked := map[string]bool{}
	var cNames []string
	for _, c := range cols {
		if c.C != "" {
			n, err := bench.CheckPQCrystals(cbins[c.Key])
			if err != nil {
				return fmt.Errorf("identity check of %s against vg: %w", c.Key, err)
			}
			logf("identity: %s agrees with vg (%s) on %d cases", c.Key, bench.VGImplementation(), n)
			cNames = append(cNames, c.Title)
			continue
		}
		id := c.Tags + "|" + strings.Join(c.Env, " ")
		if checked[id] {
			continue
		}
		checked[id] = true
		out, err := output(bins[c.Tags], c.Env, "-check")
		if err != nil {
			return fmt.Errorf("identity check (tags %q, env %q): %w", c.Tags, c.Env, err)
		}
		logf("identity (tags %q, env %q): %s", c.Tags, c.Env, strings.TrimSpace(out))
	}
	var names []string
	for _, c := range cols {
		if c.C == "" {
			names = append(names, c.Title)
		}
	}
	res.Identity = fmt.Sprintf("%s give byte-identical public keys and signatures (and expanded private keys, where offered) "+
		"on all %d cases of each parameter set and accept each other's signatures", strings.Join(names, ", "), bench.Cases)
	if len(cNames) > 0 {
		res.Identity += fmt.Sprintf("; %s give vg's public keys, expanded private keys and signatures byte for byte on the same cases, "+
			"also with a context of (7 i) mod 256 bytes on case i, and vg signing from μ gives the same signatures",
			strings.Join(cNames, ", "))
	}

	if !*noInstr {
		inputs := filepath.Join(tmp, "inputs.gob")
		if _, err := output(bins[""], nil, "-write-inputs", inputs); err != nil {
			return err
		}
		if err := countAll(cols, bins, cbins, inputs, res); err != nil {
			return err
		}
	}
	if !*noTime {
		// Rounds interleave the columns, so that load from elsewhere on
		// the machine spreads over all of them rather than one.
		// Every timed process runs pinned to one CPU (-pin), and the
		// load average is recorded before each round and after the last.
		bt, err := time.ParseDuration(*benchtime)
		if err != nil {
			return err
		}
		res.Pin = *pin
		all := map[bench.CellKey][]bench.Timing{}
		for r := range *runs {
			la := loadAvg()
			res.Load = append(res.Load, la)
			logf("timing round %d of %d, load average %s", r+1, *runs, la)
			for _, c := range cols {
				logf("timing %s (round %d of %d)", c.Key, r+1, *runs)
				var out string
				if c.C != "" {
					out, err = outputArgs(pinned(nil, cbins[c.Key], "time", strconv.FormatInt(bt.Milliseconds(), 10)))
				} else {
					out, err = outputArgs(pinned(c.Env, bins[c.Tags], "-time", "-impl", c.Impl, "-runs", "1", "-benchtime", *benchtime))
				}
				if err != nil {
					return fmt.Errorf("timing %s: %w", c.Key, err)
				}
				sc := bufio.NewScanner(strings.NewReader(out))
				for sc.Scan() {
					var tr bench.TimeResult
					if err := json.Unmarshal(sc.Bytes(), &tr); err != nil {
						return fmt.Errorf("timing %s: %w", c.Key, err)
					}
					k := bench.CellKey{Column: c.Key, Param: tr.Param, Op: tr.Op}
					all[k] = append(all[k], tr.Timing)
				}
			}
		}
		for k, ts := range all {
			res.Time[k] = bench.Median(ts)
		}
		la := loadAvg()
		res.Load = append(res.Load, la)
		logf("timings done, load average %s", la)
	}

	section := bench.Render(res)
	logf("done in %s", time.Since(start).Round(time.Second))
	if *printOnly {
		fmt.Print(section)
		return nil
	}
	if err := bench.WriteREADME(*readme, section); err != nil {
		return err
	}
	logf("wrote %s", *readme)
	return nil
}

func selectColumns(list string) ([]bench.Column, error) {
	if list == "" {
		return bench.Columns, nil
	}
	var cols []bench.Column
	for _, k := range strings.Split(list, ",") {
		found := false
		for _, c := range bench.Columns {
			if c.Key == k {
				cols, found = append(cols, c), true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown column %q (have %s)", k, allKeys())
		}
	}
	return cols, nil
}

// callgrindEnv keeps a run repeatable under valgrind 3.19: no garbage
// collector (its spinning may reach RDTSCP, which valgrind cannot decode),
// no asynchronous preemption signals, one P. AVX-512 stays out because
// valgrind's CPUID hides it.
var callgrindEnv = []string{"GOGC=off", "GODEBUG=asyncpreemptoff=1", "GOMAXPROCS=1"}

var collected = regexp.MustCompile(`Collected : (\d+)`)

// callgrind returns the instructions a driver run executed, or
// bench.ErrUnsupported.
// A non-empty toggle restricts counting to one function and its callees.
func callgrind(bin string, env []string, toggle string, args ...string) (int64, error) {
	a := []string{"--tool=callgrind", "--callgrind-out-file=/dev/null"}
	if toggle != "" {
		a = append(a, toggle)
	}
	a = append(append(a, bin), args...)
	cmd := exec.Command("valgrind", a...)
	cmd.Env = append(append(os.Environ(), env...), callgrindEnv...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 3 {
		return 0, bench.ErrUnsupported
	}
	if err != nil {
		return 0, fmt.Errorf("valgrind %s: %w\n%s", strings.Join(args, " "), err, tail(stderr.String()))
	}
	m := collected.FindStringSubmatch(stderr.String())
	if m == nil {
		return 0, fmt.Errorf("valgrind %s: no \"Collected\" line\n%s", strings.Join(args, " "), tail(stderr.String()))
	}
	return strconv.ParseInt(m[1], 10, 64)
}

type countJob struct {
	col       bench.Column
	param, op string
}

func columnTags(cols []bench.Column) []string {
	var t []string
	for _, c := range cols {
		t = append(t, c.Tags)
	}
	return t
}

func countAll(cols []bench.Column, bins, cbins map[string]string, inputs string, res *bench.Results) error {
	var list []countJob
	for _, c := range cols {
		if c.NoCount {
			continue
		}
		for _, p := range bench.Params {
			for _, op := range bench.Rows {
				list = append(list, countJob{c, p, op})
			}
		}
	}
	logf("callgrind: %d cells, 2 runs each, %d at a time", len(list), *jobs)
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
		next     = make(chan countJob)
	)
	for range max(*jobs, 1) {
		wg.Go(func() {
			for j := range next {
				bin := bins[j.col.Tags]
				if j.col.C != "" {
					bin = cbins[j.col.Key]
				}
				v, err := countCell(j, bin, inputs)
				mu.Lock()
				switch {
				case errors.Is(err, bench.ErrUnsupported):
				case err != nil:
					if firstErr == nil {
						firstErr = fmt.Errorf("%s %s %s: %w", j.col.Key, j.param, j.op, err)
					}
				default:
					res.Instr[bench.CellKey{Column: j.col.Key, Param: j.param, Op: j.op}] = v
					logf("%-9s %s %-14s %8.3f Minstr/op", j.col.Key, j.param, j.op, v)
				}
				mu.Unlock()
			}
		})
	}
	for _, j := range list {
		next <- j
	}
	close(next)
	wg.Wait()
	return firstErr
}

// countCell returns million instructions per operation: a run of n
// operations minus a run of none (same setup), divided by n.
//
// For the ExpandA row the runs are of Verify, and callgrind counts only
// inside the implementation's ExpandA function (--toggle-collect).
func countCell(j countJob, bin, inputs string) (float64, error) {
	op, toggle := j.op, ""
	if op == bench.OpExpandA {
		pattern := j.col.ExpandA
		if pattern == "" {
			im, ok := bench.ImplByName(j.col.Impl)
			if !ok || im.ExpandA == "" {
				return 0, bench.ErrUnsupported
			}
			pattern = im.ExpandA
		}
		op, toggle = bench.OpVerify, "--toggle-collect="+pattern
	}
	args := func(k int) []string {
		if j.col.C != "" {
			// pq-crystals' driver derives its inputs itself.
			return []string{"count", j.param, op, strconv.Itoa(k)}
		}
		return []string{"-impl", j.col.Impl, "-param", j.param, "-op", op, "-n", strconv.Itoa(k), "-inputs", inputs}
	}
	with, err := callgrindRetry(bin, j.col.Env, toggle, args(*n)...)
	if err != nil {
		return 0, err
	}
	without, err := callgrindRetry(bin, j.col.Env, toggle, args(0)...)
	if err != nil {
		return 0, err
	}
	if with <= without {
		return 0, fmt.Errorf("run of %d operations executed %d instructions, run of none %d (for ExpandA: is the function pattern %q still right?)", *n, with, without, toggle)
	}
	return float64(with-without) / float64(*n) / 1e6, nil
}

// callgrindRetry runs callgrind a second time when a run crashes (the Go
// runtime under valgrind 3.19 rarely does, and then not again on the same
// run); the count of a run that completes is deterministic.
func callgrindRetry(bin string, env []string, toggle string, args ...string) (int64, error) {
	v, err := callgrind(bin, env, toggle, args...)
	if err != nil && !errors.Is(err, bench.ErrUnsupported) {
		logf("callgrind run failed, once more: %s", strings.SplitN(err.Error(), "\n", 2)[0])
		return callgrind(bin, env, toggle, args...)
	}
	return v, err
}

// pinned returns the arguments of output for running bin under taskset
// -c *pin with env, or unpinned if -pin is empty.
func pinned(env []string, bin string, args ...string) (string, []string, []string) {
	if *pin == "" {
		return bin, env, args
	}
	return "taskset", env, append([]string{"-c", *pin, bin}, args...)
}

// loadAvg returns the first three fields of /proc/loadavg.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func outputArgs(bin string, env []string, args []string) (string, error) {
	return output(bin, env, args...)
}

func output(bin string, env []string, args ...string) (string, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %w\n%s", filepath.Base(bin), strings.Join(args, " "), err, tail(stderr.String()))
	}
	return string(out), nil
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}

func commit() string {
	if *commitID != "" {
		return *commitID
	}
	out, err := exec.Command("git", "-C", "..", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	c := strings.TrimSpace(string(out))
	dirty, err := exec.Command("git", "-C", "..", "status", "--porcelain", "--", "go", "bench", "go.mod", "go.sum").Output()
	if err == nil && len(bytes.TrimSpace(dirty)) > 0 {
		c += " (plus uncommitted changes in go/ or bench/)"
	}
	return c
}

func cpuLine() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	model, cores := "", 0
	var flags []string
	for _, l := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "model name":
			model = strings.TrimSpace(v)
			cores++
		case "flags":
			flags = strings.Fields(v)
		}
	}
	var feats []string
	for _, f := range []string{"avx2", "bmi2", "avx512f"} {
		for _, g := range flags {
			if f == g {
				feats = append(feats, strings.ToUpper(f))
			}
		}
	}
	s := fmt.Sprintf("%s, %d logical cores", model, cores)
	if len(feats) > 0 {
		s += " (" + strings.Join(feats, ", ") + ")"
	}
	return s
}

func valgrindVersion() string {
	out, err := exec.Command("valgrind", "--version").Output()
	if err != nil {
		return "valgrind not found"
	}
	return strings.TrimSpace(string(out))
}
