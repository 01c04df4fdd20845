package check

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// Unit is one assembly routine as the checker reads it, with the file that
// holds it.
type Unit struct {
	File    *x86.File
	Routine *x86.Routine
}

// Input is what Package checks: the routines found, and failing results
// for what could not be read (a routine the checker cannot read fails),
// each naming its TEXT symbol in Routine. ProgramsInput builds it from the
// machine code of go/asm as built.
type Input struct {
	Units    []Unit
	Failures []Result
	// Partial, when not "", says what the input leaves unchecked (e.g.
	// builds not made): every obligation is then at most tested.
	Partial string
}

// ProgramsInput is the Input of decoded routines: one that could not be
// decoded fails ("decode"), one whose text says something else than its
// machine code fails ("text = bytes") and is still checked, as the machine
// code is what runs.
func ProgramsInput(progs []Program) Input {
	var in Input
	for _, p := range progs {
		if p.OneBuild {
			in.Partial = "go/asm was built for linux at GOAMD64=v1 only, and no other build compared"
		}
		if p.LinkErr != nil {
			in.Failures = append(in.Failures, Result{Routine: p.Name, Obligation: "linked program",
				Status: Failing, Detail: p.LinkErr.Error()})
		}
		if p.Err != nil {
			in.Failures = append(in.Failures, Result{Routine: p.Name, Obligation: "decode",
				Status: Failing, Detail: p.Err.Error()})
			continue
		}
		if p.TextErr != nil {
			in.Failures = append(in.Failures, Result{Routine: p.Name, Obligation: "text = bytes",
				Status: Failing, Detail: p.TextErr.Error()})
		}
		// Go callers are compiled against the declaration, so a buffer it
		// declares smaller than the contract's is one the routine overruns.
		if c := contract.Lookup(p.Name); c != nil {
			want, err := GoSigDecl(c.GoSig)
			if err == nil && want != p.Decl {
				err = fmt.Errorf("go/asm declares %q, the contract %q", p.Decl, want)
			}
			if err != nil {
				in.Failures = append(in.Failures, Result{Routine: p.Name, Obligation: "declaration",
					Status: Failing, Detail: err.Error()})
			}
		}
		in.Units = append(in.Units, Unit{p.File, p.Routine})
	}
	return in
}

// PackageOptions tune Package.
type PackageOptions struct {
	Runs int // random functional runs per routine
	// Only restricts the check to one routine, by TEXT symbol or FIPS name,
	// or to several separated by commas ("" for all).
	Only string
	// Hints are the untrusted proof hints (Proofs); Package verifies
	// everything it uses of them.
	Hints Hints
	// Inputs returns extra functional-test inputs for a contract (e.g.
	// derived from test vectors), or nil.
	Inputs func(c *contract.Contract) []contract.Buffers
	// Workers is the number of routines checked at once (default 2).
	Workers int
	// NoCallees leaves out the callees of the routine Only names (they
	// are checked with it otherwise). Its obligations are then at most
	// tested (lowerByCallees), so this serves only to find failures
	// quickly, e.g. of a mutant of the routine itself.
	NoCallees bool
	// FirstFailure stops each routine's check at its first failure
	// (Options.FirstFailure).
	FirstFailure bool
	// Done, when set, is called as each routine's check finishes, one call
	// at a time, with the number of routines finished and to check and the
	// routine's results as its own check gave them: before its callees'
	// levels lower them (Package's results are after).
	Done func(done, total int, rs []Result)
}

// Package checks every routine of in under its contract and decides
// coverage: a TEXT symbol without a contract fails, and so does a contract
// without a routine. Results keep the order of in (its failures and the
// missing contracts first, then routine by routine, then contracts
// without a routine).
func Package(in Input, opt PackageOptions) ([]Result, error) {
	if opt.Workers <= 0 {
		opt.Workers = 2
	}
	match := func(symbol, routine string) bool { return opt.matches(symbol, routine) }
	var results []Result
	for _, f := range in.Failures {
		c := contract.Lookup(f.Routine)
		if c != nil && match(c.Symbol, c.Routine) || c == nil && match(f.Routine, "") {
			results = append(results, f)
		}
	}
	type job struct {
		u Unit
		c *contract.Contract
	}
	var jobs []job
	seen := map[string]bool{}
	callees := map[string]*x86.Routine{}
	for _, u := range in.Units {
		callees[u.Routine.Name] = u.Routine
	}
	for _, u := range in.Units {
		c := contract.Lookup(u.Routine.Name)
		if c == nil {
			if match(u.Routine.Name, "") {
				results = append(results, Result{Routine: u.Routine.Name, Obligation: "contract",
					Status: Failing, Detail: "no contract in Spec/contract for " + u.Routine.Name})
			}
			continue
		}
		seen[c.Symbol] = true
		if opt.selects(c) {
			jobs = append(jobs, job{u, c})
		}
	}
	var orphans []Result
	for _, c := range contract.All() {
		if !seen[c.Symbol] && match(c.Symbol, c.Routine) {
			orphans = append(orphans, Result{Routine: c.Routine, Variant: c.Variant, Obligation: "routine",
				Status: Failing, Detail: "contract without a routine: no TEXT " + c.Symbol + " in the assembly"})
		}
	}
	if len(jobs) == 0 && len(results) == 0 && len(orphans) == 0 {
		return nil, fmt.Errorf("no routine matches %q", opt.Only)
	}
	// Start the slowest first (samplers run many blocks per input), so the
	// workers finish together; results keep the order of in.
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	cost := func(j job) int {
		n := len(j.u.Routine.Insns)
		if j.c.PublicControl {
			n *= 8
		}
		return n
	}
	sort.SliceStable(order, func(a, b int) bool { return cost(jobs[order[a]]) > cost(jobs[order[b]]) })
	out := make([][]Result, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	var doneMu sync.Mutex
	done := 0
	for w := 0; w < opt.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				j := jobs[i]
				o := Options{Runs: opt.Runs, Seed: uint64(i + 1), Hints: opt.Hints, Callees: callees, FirstFailure: opt.FirstFailure}
				if opt.Inputs != nil {
					o.ExtraInputs = opt.Inputs(j.c)
				}
				out[i] = Routine(j.u.File, j.u.Routine, j.c, o)
				if opt.Done != nil {
					doneMu.Lock()
					done++
					opt.Done(done, len(jobs), append([]Result(nil), out[i]...))
					doneMu.Unlock()
				}
			}
		}()
	}
	for _, i := range order {
		next <- i
	}
	close(next)
	wg.Wait()
	var all []Result
	for _, rs := range out {
		all = append(all, rs...)
	}
	lowerByCallees(all)
	if in.Partial != "" {
		for i := range all {
			if all[i].Status == Proven {
				all[i].Status = Tested
				all[i].Detail += " (at most tested: " + in.Partial + ")"
			}
		}
	}
	results = append(results, all...)
	return append(results, orphans...), nil
}

// matches reports whether opt.Only names the routine.
func (opt PackageOptions) matches(symbol, routine string) bool {
	if opt.Only == "" {
		return true
	}
	for _, o := range strings.Split(opt.Only, ",") {
		if o == symbol || o == routine {
			return true
		}
	}
	return false
}

// selects reports whether Package checks the routine of contract c: the
// routine Only names and, unless NoCallees, the routines it calls (its
// levels are theirs at most).
func (opt PackageOptions) selects(c *contract.Contract) bool {
	if opt.matches(c.Symbol, c.Routine) {
		return true
	}
	if opt.NoCallees {
		return false
	}
	for _, k := range contract.All() {
		if opt.matches(k.Symbol, k.Routine) && contains(k.Calls, c.Symbol) {
			return true
		}
	}
	return false
}

// lowerByCallees gives a caller's obligation at most the level its
// callees reach: the call was checked against each callee's contract, so
// the caller's result holds only as far as the callees' contracts are
// proven. A callee not checked in the same run leaves the caller tested.
// Callers of callers are lowered too: the passes repeat until nothing
// changes.
func lowerByCallees(rs []Result) {
	for lowerOnce(rs) {
	}
}

// lowerOnce is one pass of lowerByCallees; it says whether it changed a
// result.
func lowerOnce(rs []Result) bool {
	changed := false
	level := map[string]map[string]Result{}
	for _, r := range rs {
		if level[r.Routine+r.Variant] == nil {
			level[r.Routine+r.Variant] = map[string]Result{}
		}
		level[r.Routine+r.Variant][r.Obligation] = r
	}
	for i := range rs {
		r := &rs[i]
		c := contract.Lookup(r.Routine + r.Variant)
		if c == nil || r.Status == Failing {
			continue
		}
		before := r.Status
		for _, callee := range c.Calls {
			cc := contract.Lookup(callee)
			var got Result
			ok := false
			if cc != nil {
				got, ok = level[cc.Routine+cc.Variant][r.Obligation]
			}
			switch {
			case !ok && r.Status == Proven:
				r.Status = Tested
				r.Detail = fmt.Sprintf("%s; tested only: %s was not checked in this run", r.Detail, callee)
			case got.Status == Failing:
				r.Status = Failing
				r.Detail = fmt.Sprintf("callee %s: %s failing; %s", callee, r.Obligation, r.Detail)
			case got.Status == Tested && r.Status == Proven:
				r.Status = Tested
				r.Detail = fmt.Sprintf("%s; tested only: proven given %s's contract, whose %s is tested", r.Detail, callee, r.Obligation)
			}
			if r.Status == Failing {
				break
			}
		}
		changed = changed || r.Status != before
	}
	return changed
}

// BelowLevel lists the results that fail or reach less than the level
// their contract declares (a tested obligation the contract says is
// proven), as "Routine/Variant obligation: status, declared level".
func BelowLevel(results []Result) []string {
	var out []string
	for _, r := range results {
		if r.Status == Failing {
			out = append(out, fmt.Sprintf("%s/%s %s: failing", r.Routine, r.Variant, r.Obligation))
			continue
		}
		c := contract.Lookup(r.Routine + r.Variant)
		if c == nil {
			out = append(out, fmt.Sprintf("%s/%s %s: %s, no contract", r.Routine, r.Variant, r.Obligation, r.Status))
			continue
		}
		if c.Level[r.Obligation] == Proven && r.Status != Proven {
			out = append(out, fmt.Sprintf("%s/%s %s: %s, the contract declares it proven", r.Routine, r.Variant, r.Obligation, r.Status))
		}
	}
	return out
}
