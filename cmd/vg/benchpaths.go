package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/vg-crypto/vg/internal/modroot"
)

// A codePath is one way of building and running go/mldsa.
type codePath struct {
	name string
	tags string   // -tags value, or ""
	env  []string // added to the environment
}

// codePaths are the three paths DESIGN.md names. The default path is AVX2
// on CPUs that have it and the baseline assembly elsewhere.
var codePaths = []codePath{
	{name: "default"},
	{name: "baseline asm", tags: "cpu_features_env", env: []string{"VG_CPU_FEATURES=none"}},
	{name: "pure Go", tags: "purego"},
}

// pathOps are go/mldsa's benchmarks that -paths runs, in table order.
// Verify parses the public key first, so it includes ExpandA.
var pathOps = []string{"ExpandA", "KeyGen", "Sign", "Verify"}

// benchPaths times ExpandA, KeyGen, Sign and Verify on every code path by
// running go/mldsa's benchmarks once per path, so it needs the source tree
// and the go command. ExpandA is internal to go/mldsa and only its own
// benchmark can call it.
func benchPaths(s *stdio, d time.Duration) error {
	root, err := modroot.Find()
	if err != nil {
		return err
	}
	results := map[string]map[string]float64{} // op/params → path → ns/op
	impls := make([]string, len(codePaths))
	for i, p := range codePaths {
		out, err := runPathBench(root, p, d)
		if err != nil {
			return fmt.Errorf("path %s: %w", p.name, err)
		}
		res, err := parseBenchOutput(out)
		if err != nil {
			return fmt.Errorf("path %s: %w", p.name, err)
		}
		for k, v := range res {
			if results[k] == nil {
				results[k] = map[string]float64{}
			}
			results[k][p.name] = v
		}
		impls[i] = implementationLine(out)
	}

	for i, p := range codePaths {
		fmt.Fprintf(s.out, "%s: %s\n", p.name, impls[i])
	}
	tw := tabwriter.NewWriter(s.out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\t\t")
	for _, p := range codePaths {
		fmt.Fprintf(tw, "%s\t", p.name)
	}
	fmt.Fprintln(tw)
	for _, ps := range paramSets {
		for _, op := range pathOps {
			key := op + "/" + ps.name
			fmt.Fprintf(tw, "%s\t%s\t", ps.name, op)
			for _, p := range codePaths {
				v, ok := results[key][p.name]
				if !ok {
					return fmt.Errorf("path %s: no result for %s", p.name, key)
				}
				fmt.Fprintf(tw, "%s\t", formatOpTime(time.Duration(v)))
			}
			fmt.Fprintln(tw)
		}
	}
	return tw.Flush()
}

// runPathBench runs go/mldsa's benchmarks on one code path and returns go
// test's output.
func runPathBench(root string, p codePath, d time.Duration) ([]byte, error) {
	args := []string{"test", "-count=1", "-run", "^TestImplementationLine$",
		"-bench", "^Benchmark(" + strings.Join(pathOps, "|") + ")$",
		"-benchtime", d.String(), "-v"}
	if p.tags != "" {
		args = append(args, "-tags", p.tags)
	}
	args = append(args, "./go/mldsa")
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), p.env...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out.Bytes())
	}
	return out.Bytes(), nil
}

// benchLine matches "BenchmarkSign/ML-DSA-65-2   1234   567890 ns/op ...".
var benchLine = regexp.MustCompile(`^Benchmark(\w+)/(ML-DSA-\d+)(?:-\d+)?\s+\d+\s+([0-9.]+) ns/op`)

// parseBenchOutput returns ns/op keyed by "Op/ML-DSA-nn".
func parseBenchOutput(out []byte) (map[string]float64, error) {
	res := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		v, err := strconv.ParseFloat(m[3], 64)
		if err != nil {
			return nil, fmt.Errorf("bad benchmark line %q: %v", sc.Text(), err)
		}
		res[m[1]+"/"+m[2]] = v
	}
	if len(res) == 0 {
		return nil, errors.New("no benchmark results in the output of go test")
	}
	return res, nil
}

// implementationLine finds what TestImplementationLine logged.
func implementationLine(out []byte) string {
	const prefix = "implementation: "
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if _, after, ok := strings.Cut(sc.Text(), prefix); ok {
			return strings.TrimSpace(after)
		}
	}
	return "unknown"
}
