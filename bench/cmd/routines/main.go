// Command routines times each of vg's AVX2 routines beside its counterpart
// in pq-crystals' AVX2 code, on ML-DSA-65's inputs, and counts both with
// callgrind, to show where vg loses time per instruction. On a CPU with
// AVX512F and AVX512VL the AVX-512 path's four-way Keccak gets a row too,
// timed only (valgrind cannot run it).
//
// Run it from bench/:
//
//	go run ./cmd/routines            # prints a Markdown table
//
// It builds cmd/driver and pq-crystals' AVX2 code twice (-march=haswell,
// which valgrind runs and which is counted, and -march=native), then runs
// -rounds rounds, each timing all three drivers in turn pinned to one CPU
// (-pin), and reports the medians with the load average of each round.
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
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vg-crypto/vg/bench"
)

var (
	rounds    = flag.Int("rounds", 5, "interleaved rounds of timings")
	benchtime = flag.String("benchtime", "100ms", "duration of one timing of one routine")
	n         = flag.Int("n", 2000, "calls per callgrind run")
	noInstr   = flag.Bool("no-instr", false, "skip the callgrind counts")
	pqc       = flag.String("pqcrystals", bench.PQCrystalsDir(), "pq-crystals' source tree (also $VG_PQCRYSTALS)")
	pin       = flag.String("pin", "1", "CPU list for taskset -c around every timed process (empty: not pinned)")
)

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "routines:", err)
		os.Exit(1)
	}
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "[%s] "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

// side is one driver: vg's or a build of pq-crystals'.
type side struct {
	key  string
	bin  string
	args func(mode string, extra ...string) []string
}

func run() error {
	rs := bench.Routines()
	if rs == nil {
		return errors.New("vg's AVX2 routines are not available in this build or on this CPU")
	}
	bt, err := time.ParseDuration(*benchtime)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "vg-routines-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	goBin := filepath.Join(tmp, "driver")
	logf("go build ./cmd/driver")
	if out, err := exec.Command("go", "build", "-o", goBin, "./cmd/driver").CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %w\n%s", err, out)
	}
	sides := []side{{key: "vg", bin: goBin, args: func(mode string, extra ...string) []string {
		if mode == "time" {
			return []string{"-routines", "-benchtime", *benchtime}
		}
		return []string{"-routine", extra[0], "-n", extra[1]}
	}}}
	for _, key := range []string{"avx2-haswell", "avx2-native"} {
		v, _ := bench.CVariantByKey(key)
		logf("building pq-crystals %s from %s", key, *pqc)
		bin, err := bench.BuildPQCrystals(*pqc, v, tmp)
		if err != nil {
			return err
		}
		sides = append(sides, side{key: key, bin: bin, args: func(mode string, extra ...string) []string {
			if mode == "time" {
				return []string{"routines", strconv.FormatInt(bt.Milliseconds(), 10)}
			}
			return append([]string{"routine"}, extra...)
		}})
	}

	times := map[[2]string][]float64{} // side, routine → CPU ns per call
	var loads []string
	for r := range *rounds {
		la := loadAvg()
		loads = append(loads, la)
		logf("round %d of %d, load average %s", r+1, *rounds, la)
		for _, s := range sides {
			args := s.args("time")
			bin := s.bin
			if *pin != "" {
				args, bin = append([]string{"-c", *pin, bin}, args...), "taskset"
			}
			out, err := exec.Command(bin, args...).Output()
			if err != nil {
				return fmt.Errorf("%s: %w", s.key, err)
			}
			sc := bufio.NewScanner(bytes.NewReader(out))
			for sc.Scan() {
				var t bench.RoutineTiming
				if err := json.Unmarshal(sc.Bytes(), &t); err != nil {
					return fmt.Errorf("%s: %w", s.key, err)
				}
				k := [2]string{s.key, t.Routine}
				times[k] = append(times[k], t.CPUNsPerOp)
			}
		}
	}
	loads = append(loads, loadAvg())

	instr := map[[2]string]float64{}
	if !*noInstr {
		for _, r := range rs {
			for _, s := range sides[:2] {
				if s.key != "vg" && r.C == "" || s.key == "vg" && r.NoCount {
					continue
				}
				v, err := count(s, r.Name)
				if err != nil {
					return fmt.Errorf("%s %s: %w", s.key, r.Name, err)
				}
				instr[[2]string{s.key, r.Name}] = v
				logf("%-12s %-22s %10.1f instructions per call", s.key, r.Name, v)
			}
		}
	}

	med := func(k [2]string) (float64, bool) {
		v := times[k]
		if len(v) == 0 {
			return 0, false
		}
		v = slices.Clone(v)
		slices.Sort(v)
		return v[len(v)/2], true
	}
	f := func(v float64, ok bool, format string) string {
		if !ok {
			return "—"
		}
		return fmt.Sprintf(format, v)
	}
	fmt.Printf("Per-routine CPU time (ns per call, medians of %d interleaved rounds, pinned to CPU %q) and callgrind instructions per call (%d calls minus none; "+
		"pq-crystals' from its -march=haswell build), ML-DSA-65 inputs. Load average (1, 5, 15 min) before each round and after the last: %s.\n\n",
		*rounds, *pin, *n, strings.Join(loads, "; "))
	fmt.Println("| Routine | vg (go/asm) | pq-crystals | vg ns | C native ns | C haswell ns | vg ÷ C native | vg instr | C instr | instr vg ÷ C | vg instr/ns | C haswell instr/ns |")
	fmt.Println("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range rs {
		vt, ok1 := med([2]string{"vg", r.Name})
		cName, c := r.Name, r.C
		if r.Beside != "" {
			cName = r.Beside
			for _, b := range rs {
				if b.Name == r.Beside {
					c = b.C + " (AVX2)"
				}
			}
		}
		nt, ok2 := med([2]string{"avx2-native", cName})
		ht, ok3 := med([2]string{"avx2-haswell", cName})
		vi, ok4 := instr[[2]string{"vg", r.Name}]
		ci, ok5 := instr[[2]string{"avx2-haswell", cName}]
		if c == "" {
			c = "—"
		}
		vic := f(vi, ok4, "%.0f")
		if r.NoCount {
			vic = "n/a (valgrind cannot run AVX-512)"
		}
		fmt.Printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.Name, r.VG, c,
			f(vt, ok1, "%.1f"), f(nt, ok2, "%.1f"), f(ht, ok3, "%.1f"), f(vt/nt, ok1 && ok2 && nt > 0, "%.2f"),
			vic, f(ci, ok5, "%.0f"), f(vi/ci, ok4 && ok5 && ci > 0, "%.2f"),
			f(vi/vt, ok1 && ok4 && vt > 0, "%.2f"), f(ci/ht, ok3 && ok5 && ht > 0, "%.2f"))
	}
	return nil
}

var collected = regexp.MustCompile(`Collected : (\d+)`)

// count returns instructions per call: callgrind on n calls minus on none.
func count(s side, name string) (float64, error) {
	run := func(k int) (int64, error) {
		args := append([]string{"--tool=callgrind", "--callgrind-out-file=/dev/null", s.bin}, s.args("count", name, strconv.Itoa(k))...)
		cmd := exec.Command("valgrind", args...)
		cmd.Env = append(os.Environ(), "GOGC=off", "GODEBUG=asyncpreemptoff=1", "GOMAXPROCS=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			return 0, fmt.Errorf("%w\n%s", err, stderr.String())
		}
		m := collected.FindStringSubmatch(stderr.String())
		if m == nil {
			return 0, fmt.Errorf("no Collected line\n%s", stderr.String())
		}
		return strconv.ParseInt(m[1], 10, 64)
	}
	with, err := run(*n)
	if err != nil {
		return 0, err
	}
	without, err := run(0)
	if err != nil {
		return 0, err
	}
	// The Go runtime's own threads make a Go run's count vary by some
	// thousands of instructions from run to run; n calls must outweigh it.
	if with <= without {
		return 0, fmt.Errorf("%d calls counted %d instructions, none %d: raise -n", *n, with, without)
	}
	return float64(with-without) / float64(*n), nil
}

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
