package main

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"text/tabwriter"
	"time"

	"github.com/vg-crypto/vg/go/mldsa"
)

// benchOps are the operations timed for each parameter set.
var benchOps = []string{"KeyGen", "Sign (deterministic)", "Verify"}

// maxBenchTime keeps a run (9 measurements) under a minute.
const maxBenchTime = 5 * time.Second

func runBench(args []string, s *stdio) error {
	fs := newFlagSet(s, "bench", "[-time 1s] [-markdown] [-paths]", `
Times ML-DSA KeyGen, deterministic Sign and Verify for ML-DSA-44, -65 and
-87 with the implementation in use (AVX2, baseline x86-64 assembly or pure
Go) and prints the time per operation. Each of the nine measurements runs
for about -time; Sign signs a different message each time, so its time is
averaged over the rejection loop's iterations (FIPS 204 Algorithm 7).

With -paths it runs go/mldsa's benchmarks (go test -bench, from the source
tree) once per code path: default (AVX2 where the CPU has it), the baseline
assembly (VG_CPU_FEATURES=none) and pure Go (-tags purego), and prints
ExpandA, KeyGen, Sign and Verify side by side.`)
	d := fs.Duration("time", time.Second, "time to spend on each measurement (at most 5s)")
	markdown := fs.Bool("markdown", false, "print a Markdown table")
	paths := fs.Bool("paths", false, "run go/mldsa's benchmarks on every code path, ExpandA included")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *d <= 0 || *d > maxBenchTime {
		return usagef("-time must be in (0, %v], got %v", maxBenchTime, *d)
	}
	if *paths {
		if *markdown {
			return usagef("-markdown and -paths do not combine")
		}
		return benchPaths(s, *d)
	}

	results := make([][]time.Duration, len(paramSets))
	for i, ps := range paramSets {
		r, err := benchParamSet(ps, *d)
		if err != nil {
			return fmt.Errorf("%s: %w", ps.name, err)
		}
		results[i] = r
	}

	impl := mldsa.Implementation()
	if *markdown {
		fmt.Fprintf(s.out, "Implementation: %s (%s, %s/%s), time per operation:\n\n", impl, runtime.Version(), runtime.GOOS, runtime.GOARCH)
		fmt.Fprintf(s.out, "| Parameter set |")
		for _, op := range benchOps {
			fmt.Fprintf(s.out, " %s |", op)
		}
		fmt.Fprintf(s.out, "\n|---|")
		for range benchOps {
			fmt.Fprintf(s.out, "---:|")
		}
		fmt.Fprintln(s.out)
		for i, ps := range paramSets {
			fmt.Fprintf(s.out, "| %s |", ps.name)
			for _, t := range results[i] {
				fmt.Fprintf(s.out, " %s |", formatOpTime(t))
			}
			fmt.Fprintln(s.out)
		}
		return nil
	}
	fmt.Fprintf(s.out, "implementation: %s (%s, %s/%s)\n", impl, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	tw := tabwriter.NewWriter(s.out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\t")
	for _, op := range benchOps {
		fmt.Fprintf(tw, "%s\t", op)
	}
	fmt.Fprintln(tw)
	for i, ps := range paramSets {
		fmt.Fprintf(tw, "%s\t", ps.name)
		for _, t := range results[i] {
			fmt.Fprintf(tw, "%s\t", formatOpTime(t))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// benchParamSet returns the time per operation of each of benchOps.
func benchParamSet(ps *paramSet, d time.Duration) ([]time.Duration, error) {
	sk, err := mldsa.GenerateKey(ps.params)
	if err != nil {
		return nil, err
	}
	pk := sk.PublicKey()
	msg := make([]byte, 32)
	sig, err := sk.SignDeterministic(msg, nil)
	if err != nil {
		return nil, err
	}
	if err := mldsa.Verify(pk, msg, sig, nil); err != nil {
		return nil, fmt.Errorf("a fresh signature does not verify: %w", err)
	}

	// Sign signs a new message each time; Verify checks the signature of
	// the all-zero message made above.
	signMsg := make([]byte, 32)
	var counter uint64
	ops := []func() error{
		func() error { _, err := mldsa.GenerateKey(ps.params); return err },
		func() error {
			counter++
			binary.LittleEndian.PutUint64(signMsg, counter)
			_, err := sk.SignDeterministic(signMsg, nil)
			return err
		},
		func() error { return mldsa.Verify(pk, msg, sig, nil) },
	}

	times := make([]time.Duration, len(ops))
	for i, op := range ops {
		t, err := timeOp(op, d)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", benchOps[i], err)
		}
		times[i] = t
	}
	return times, nil
}

// timeOp runs op in batches until d has passed and returns the mean time
// per call. Batches double, but the last is cut to what fits in the time
// left. The first call is a warm-up and is not counted.
func timeOp(op func() error, d time.Duration) (time.Duration, error) {
	if err := op(); err != nil {
		return 0, err
	}
	var n int64
	var total time.Duration
	for batch := int64(1); total < d; {
		start := time.Now()
		for range batch {
			if err := op(); err != nil {
				return 0, err
			}
		}
		total += time.Since(start)
		n += batch
		next := 2 * batch
		if perOp := total / time.Duration(n); perOp > 0 && total < d {
			next = min(next, max(int64((d-total)/perOp), 1))
		}
		batch = next
	}
	return total / time.Duration(n), nil
}

func formatOpTime(t time.Duration) string {
	switch {
	case t >= time.Millisecond:
		return fmt.Sprintf("%.2f ms", float64(t)/float64(time.Millisecond))
	default:
		return fmt.Sprintf("%.1f µs", float64(t)/float64(time.Microsecond))
	}
}
