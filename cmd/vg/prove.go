package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/vg-crypto/vg/Proofs"
	"github.com/vg-crypto/vg/Spec/check"
	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/internal/modroot"
	"github.com/vg-crypto/vg/internal/vectors"
)

// runProve runs every routine of go/asm through the checker under its
// contract and prints routine × obligation: proven, tested or failing.
func runProve(args []string, s *stdio) error {
	return prove(args, s.out, s.err)
}

const proveDescription = `
Checks every assembly routine of go/asm under its contract (Spec/contract):
memory safety, constant time, ABI, MCDT, CPU features and functional
correctness against Spec/fips204. Prints a row per routine as its check
finishes, then the details of every obligation short of proven, a legend and
a summary. Exits 1 when an obligation fails or stays below the level its
contract declares. Run it from the vg source tree; it needs the go command.`

func prove(args []string, w, errw io.Writer) error {
	fs := newFlagSet(&stdio{err: errw}, "prove", "[-json] [-v] [-routine names [-no-callees]] [-n runs] [-one-build] [-first-failure] [-asm dir] [-cpuprofile file]", proveDescription)
	jsonOut := fs.Bool("json", false, "print a JSON array of {routine, variant, obligation, status, seconds, detail} at the end instead of the table")
	verbose := fs.Bool("v", false, "print the detail of every obligation, proven ones too")
	only := fs.String("routine", "", "check only this routine (TEXT symbol, e.g. KeccakF1600AMD64, or FIPS name), or these, separated by commas")
	runs := fs.Int("n", 10000, "random inputs for the functional test")
	noCallees := fs.Bool("no-callees", false, "with -routine, do not check the routine's callees (its obligations are then at most tested; for finding failures fast)")
	firstFailure := fs.Bool("first-failure", false, "stop each routine's check at its first failure, reporting the obligations not yet decided as failing, not checked (for finding failures fast)")
	oneBuild := fs.Bool("one-build", false, "build go/asm for linux at GOAMD64=v1 only, not for the other levels, GOOSes and toolchains whose routines must be the same (every obligation is then at most tested; for finding failures fast)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the proofs to this file (for go tool pprof)")
	dir := fs.String("asm", "", "directory whose files replace go/asm's files of the same name before the build (default: none)")
	toolchains := fs.String("toolchains", os.Getenv("VG_PROVE_TOOLCHAINS"), "other Go toolchains (GOTOOLCHAIN values, comma-separated, e.g. go1.27.3) whose builds of go/asm must give the same routines and wrappers (default $VG_PROVE_TOOLCHAINS)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *noCallees && *only == "" {
		return usagef("-no-callees needs -routine")
	}
	if *runs < 1 {
		return usagef("-n must be at least 1")
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
	var tcs []string
	if *toolchains != "" {
		tcs = strings.Split(*toolchains, ",")
	}
	build := check.ProgramsWith
	if *oneBuild {
		build = func(root string, overlay map[string][]byte, _ []string) ([]check.Program, error) {
			return check.ProgramsLinuxOnly(root, overlay)
		}
	}
	progs, err := build(root, overlay, tcs)
	if err != nil {
		return fmt.Errorf("prove: %v", err)
	}
	if len(progs) > 0 && len(progs[0].NotRun) > 0 {
		fmt.Fprintf(os.Stderr, "vg prove: this CPU cannot run the linux programs built with %s: their routines are compared with GOAMD64=v1's byte for byte, and the Go entries checked are their symbols'\n", strings.Join(progs[0].NotRun, ", "))
	}
	proveGC()
	if *cpuProfile != "" {
		pf, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer pf.Close()
		if err := pprof.StartCPUProfile(pf); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	// Coverage, the order of work and the levels are the checker's; this
	// command supplies the proof hints and the vector inputs, and prints.
	start := time.Now()
	var rep *report
	if !*jsonOut {
		rep = newReport(w)
	}
	opt := check.PackageOptions{
		Runs: *runs, Only: *only, Hints: proofs.Hints{}, NoCallees: *noCallees, FirstFailure: *firstFailure,
		Inputs: func(c *contract.Contract) []contract.Buffers { return vectorInputs(c, extra) },
	}
	if rep != nil {
		opt.Done = rep.routine
	}
	results, err := check.Package(check.ProgramsInput(progs), opt)
	if err != nil {
		return fmt.Errorf("prove: %v", err)
	}
	if *jsonOut {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(results); err != nil {
			return err
		}
	} else {
		rep.finish(results, *verbose, time.Since(start))
		if note != "" {
			fmt.Fprintln(w, note)
		}
	}
	if below := check.BelowLevel(results); len(below) > 0 {
		for _, b := range below {
			fmt.Fprintln(errw, "prove:", b)
		}
		return fmt.Errorf("prove: %d obligations failing or below the level their contract declares", len(below))
	}
	return nil
}

// proveGC lets the heap grow to five times the live data between
// collections, under a soft limit of 6 GiB: the proofs allocate many
// short-lived states, and the collector's default pace spent about a fifth
// of the CPU time. GOGC and GOMEMLIMIT, when set, are left to rule.
func proveGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(6 << 30)
	}
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
