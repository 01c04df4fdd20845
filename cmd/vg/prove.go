package main

import (
	"encoding/json"
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
	"github.com/vg-crypto/vg/internal/modroot"
	"github.com/vg-crypto/vg/internal/vectors"
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
	dir := fs.String("asm", "", "directory whose files replace go/asm's files of the same name before the build (default: none)")
	if err := fs.Parse(args); err != nil {
		return &usageError{msg: err.Error(), printed: true}
	}
	if fs.NArg() != 0 {
		return usagef("prove: unexpected arguments %v", fs.Args())
	}
	if *runs < 1 {
		return usagef("prove: -n must be at least 1")
	}
	root, err := modroot.Find()
	if err != nil {
		return err
	}
	overlay, err := asmOverlay(root, *dir)
	if err != nil {
		return err
	}
	extra, note := vectorSeeds()
	results, err := proveBuilt(root, overlay, *only, *runs, extra)
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
		if note != "" {
			fmt.Fprintln(w, note)
		}
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

type job struct {
	file *x86.File
	r    *x86.Routine
	c    *contract.Contract
}

// asmOverlay reads the files of dir as replacements for go/asm's files of
// the same name (and additions, e.g. a local textflag.h).
func asmOverlay(root, dir string) (map[string][]byte, error) {
	if dir == "" {
		return nil, nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	ov := map[string][]byte{}
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		if filepath.Ext(e.Name()) == ".h" {
			// The assembler's include path is the package directory on
			// disk; an overlaid header would not be what it reads.
			return nil, fmt.Errorf("prove: -asm cannot overlay header %s: edit a copy of the tree instead", e.Name())
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		ov[filepath.Join(root, "go", "asm", e.Name())] = data
	}
	return ov, nil
}

// proveBuilt builds go/asm, decodes every routine and checks each one.
func proveBuilt(root string, overlay map[string][]byte, only string, runs int, extra []rejSeed) ([]check.Result, error) {
	progs, err := check.Programs(root, overlay)
	if err != nil {
		return nil, err
	}
	var jobs []job
	var results []check.Result
	seen := map[string]bool{}
	for _, p := range progs {
		c := contract.Lookup(p.Name)
		if only != "" && only != p.Name && (c == nil || only != c.Routine) {
			continue
		}
		if p.Err != nil {
			results = append(results, check.Result{Routine: p.Name, Obligation: "decode",
				Status: check.Failing, Detail: p.Err.Error()})
			continue
		}
		if p.TextErr != nil {
			// The machine code is what is checked; a text that says
			// something else is reported, and fails the run.
			results = append(results, check.Result{Routine: p.Name, Obligation: "text = bytes",
				Status: check.Failing, Detail: p.TextErr.Error()})
		}
		if c == nil {
			results = append(results, check.Result{Routine: p.Name, Obligation: "contract",
				Status: check.Failing, Detail: "no contract in Spec/contract for " + p.Name})
			continue
		}
		seen[p.Name] = true
		jobs = append(jobs, job{p.File, p.Routine, c})
	}
	dir := filepath.Join(root, "go", "asm")
	// A contract whose routine has not been generated yet is noted, not
	// failed: there is nothing to check.
	var missing []string
	for _, c := range contract.All {
		if !seen[c.Symbol] && (only == "" || only == c.Symbol || only == c.Routine) {
			missing = append(missing, c.Symbol)
		}
	}
	if len(missing) > 0 {
		fmt.Fprintf(os.Stderr, "prove: contracts without a routine in %s: %s\n", dir, strings.Join(missing, ", "))
	}
	if len(jobs) == 0 && len(results) == 0 {
		return nil, fmt.Errorf("prove: no routine matches %q", only)
	}
	// Start the slowest first (samplers run many blocks per input), so the
	// two workers finish together; results keep the file order.
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	cost := func(j job) int {
		n := len(j.r.Insns)
		if j.c.PublicControl {
			n *= 8
		}
		return n
	}
	sort.SliceStable(order, func(a, b int) bool { return cost(jobs[order[a]]) > cost(jobs[order[b]]) })
	out := make([][]check.Result, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ { // two cores
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				j := jobs[i]
				opt := check.Options{Runs: runs, Seed: uint64(i + 1), Hints: proofs.Hints{}, ExtraInputs: vectorInputs(j.c, extra)}
				out[i] = check.Routine(j.file, j.r, j.c, opt)
			}
		}()
	}
	for _, i := range order {
		next <- i
	}
	close(next)
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

// rejSeed is a 34-byte RejNTTPoly seed ρ ‖ s ‖ r derived from a vector.
type rejSeed [34]byte

// vectorSeeds derives RejNTTPoly seeds from the public keys of the ACVP
// keyGen vectors (pk starts with ρ, FIPS 204 Algorithm 22): ρ ‖ s ‖ r for
// every entry of Â (Algorithm 32). Five test cases per parameter set keep
// the run short. Absent vectors are not an error here (vg prove must run
// without them); the table says so.
func vectorSeeds() ([]rejSeed, string) {
	dir, err := vectors.Locate()
	if err != nil {
		return nil, "no vector seeds: " + err.Error()
	}
	groups, err := vectors.KeyGenPublicKeys(dir)
	if err != nil {
		return nil, "no vector seeds (" + err.Error() + ")"
	}
	dims := map[string][2]int{"ML-DSA-44": {4, 4}, "ML-DSA-65": {6, 5}, "ML-DSA-87": {8, 7}}
	var seeds []rejSeed
	for _, g := range groups {
		kl, ok := dims[g.ParameterSet]
		if !ok {
			continue
		}
		for i, pk := range g.PublicKeys {
			if i == 5 {
				break
			}
			if len(pk) < 32 {
				return nil, "no vector seeds: short pk in a " + g.ParameterSet + " group"
			}
			for r := 0; r < kl[0]; r++ {
				for s := 0; s < kl[1]; s++ {
					var sd rejSeed
					copy(sd[:], pk[:32])
					sd[32], sd[33] = byte(s), byte(r)
					seeds = append(seeds, sd)
				}
			}
		}
	}
	return seeds, ""
}

// vectorInputs turns the seeds into inputs of a RejNTTPoly contract.
func vectorInputs(c *contract.Contract, seeds []rejSeed) []contract.Buffers {
	var out []contract.Buffers
	switch c.Routine {
	case "RejNTTPoly":
		for _, s := range seeds {
			out = append(out, contract.Buffers{"a": make([]byte, 1024), "seed": append([]byte(nil), s[:]...)})
		}
	case "RejNTTPolyx4":
		for i := 0; i+4 <= len(seeds); i += 4 {
			b := contract.Buffers{"seeds": nil}
			for j := 0; j < 4; j++ {
				b["seeds"] = append(b["seeds"], seeds[i+j][:]...)
				b[fmt.Sprintf("a[%d]", j)] = make([]byte, 1024)
			}
			out = append(out, b)
		}
	}
	return out
}
