package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/vg-crypto/vg/Proofs"
	"github.com/vg-crypto/vg/Spec/check"
	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// runProve runs every routine of go/asm through the checker under its
// contract and prints routine × obligation: proven, tested or failing.
func runProve(args []string) error {
	return prove(args, os.Stdout)
}

func prove(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("prove", flag.ContinueOnError)
	jsonOut := fs.Bool("json", false, "print a JSON array of {routine, variant, obligation, status, seconds, detail}")
	only := fs.String("routine", "", "check only this routine (TEXT symbol, e.g. KeccakF1600AMD64, or FIPS name)")
	runs := fs.Int("n", 10000, "random inputs for the functional test")
	dir := fs.String("asm", "", "directory of the assembly (default: go/asm under the repository root)")
	if err := fs.Parse(args); err != nil {
		return &usageError{msg: err.Error(), printed: true}
	}
	if fs.NArg() != 0 {
		return usagef("prove: unexpected arguments %v", fs.Args())
	}
	if *runs < 1 {
		return usagef("prove: -n must be at least 1")
	}
	asmDir := *dir
	if asmDir == "" {
		root, err := repoRoot()
		if err != nil {
			return err
		}
		asmDir = filepath.Join(root, "go", "asm")
	}
	results, err := proveDir(asmDir, *only, *runs)
	if err != nil {
		return err
	}
	if *jsonOut {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(results); err != nil {
			return err
		}
	} else {
		printTable(w, results)
	}
	failing := 0
	for _, r := range results {
		if r.Status == check.Failing {
			failing++
		}
	}
	if failing > 0 {
		return fmt.Errorf("prove: %d obligations failing", failing)
	}
	return nil
}

// repoRoot walks up from the working directory to the directory holding go.mod.
func repoRoot() (string, error) {
	d, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		p := filepath.Dir(d)
		if p == d {
			return "", errors.New("prove: no go.mod above the working directory")
		}
		d = p
	}
}

type job struct {
	file *x86.File
	r    *x86.Routine
	c    *contract.Contract
}

// proveDir parses every .s file of dir and checks each routine.
func proveDir(dir, only string, runs int) ([]check.Result, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.s"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("prove: no assembly files in %s", dir)
	}
	sort.Strings(paths)
	var jobs []job
	var results []check.Result
	seen := map[string]bool{}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		rel := filepath.Join("go", "asm", filepath.Base(p))
		f, err := x86.ParseFile(rel, string(src))
		if err != nil {
			// A file the model cannot read fails every obligation of the
			// routines it would hold.
			results = append(results, check.Result{Routine: filepath.Base(p), Obligation: "parse",
				Status: check.Failing, Detail: err.Error()})
			continue
		}
		for _, r := range f.Routines {
			c := contract.Lookup(r.Name)
			if only != "" && only != r.Name && (c == nil || only != c.Routine) {
				continue
			}
			if c == nil {
				results = append(results, check.Result{Routine: r.Name, Obligation: "contract",
					Status: check.Failing, Detail: "no contract in Spec/contract for " + r.Name})
				continue
			}
			seen[r.Name] = true
			jobs = append(jobs, job{f, r, c})
		}
	}
	for _, c := range contract.All {
		if !seen[c.Symbol] && (only == "" || only == c.Symbol || only == c.Routine) {
			results = append(results, check.Result{Routine: c.Routine, Variant: c.Variant, Obligation: "presence",
				Status: check.Failing, Detail: c.Symbol + " has a contract but no TEXT in " + dir})
		}
	}
	if len(jobs) == 0 && len(results) == 0 {
		return nil, fmt.Errorf("prove: no routine matches %q", only)
	}
	out := make([][]check.Result, len(jobs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2) // two cores
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			out[i] = check.Routine(j.file, j.r, j.c, check.Options{Runs: runs, Seed: uint64(i + 1), Hints: proofs.Hints{}})
		}()
	}
	wg.Wait()
	for _, rs := range out {
		results = append(results, rs...)
	}
	return results, nil
}

func printTable(w io.Writer, results []check.Result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "ROUTINE\tVARIANT\tOBLIGATION\tSTATUS\tSECONDS\tDETAIL\n")
	for _, r := range results {
		d := r.Detail
		if len(d) > 160 {
			d = d[:157] + "..."
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.2f\t%s\n", r.Routine, r.Variant, r.Obligation, r.Status, r.Seconds, strings.ReplaceAll(d, "\t", " "))
	}
	tw.Flush()
}
