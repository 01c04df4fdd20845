package check

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// Obligations, in report order (named by the contracts, which declare the
// level each must reach).
const (
	MemorySafety = contract.MemorySafety
	ConstantTime = contract.ConstantTime
	ABI          = contract.ABI
	MCDT         = contract.MCDT
	Features     = contract.Features
	Functional   = contract.Functional
)

// Obligations lists them in report order.
var Obligations = contract.Obligations

// Statuses.
const (
	Proven  = contract.Proven
	Tested  = contract.Tested
	Failing = "failing"
)

// Result is one routine × obligation.
type Result struct {
	Routine    string  `json:"routine"`
	Variant    string  `json:"variant"`
	Obligation string  `json:"obligation"`
	Status     string  `json:"status"`
	Seconds    float64 `json:"seconds"`
	Detail     string  `json:"detail"`
}

// Options tune a check.
type Options struct {
	Runs     int    // random functional runs (≥ 10,000 for the report; see crossCheckRuns)
	Seed     uint64 // for the random inputs
	MaxSteps int    // per run
	// TaintRuns is the number of taint runs for routines whose control
	// flow depends on public inputs (their result is "tested" unless an
	// inductive proof covers every path).
	TaintRuns int
	Hints     Hints
	// ExtraSeeds are additional inputs for the functional test (e.g. seeds
	// derived from ACVP vectors).
	ExtraInputs []contract.Buffers
	// Callees are the decoded routines the contract's Calls may name
	// (Package passes every routine it read).
	Callees map[string]*x86.Routine
	// FirstFailure stops a routine's check at the first stage that finds
	// a failure (the taint runs, then the obligations before the
	// functional one): every obligation not yet decided is reported
	// failing, as not checked. For finding failures fast (a mutant needs
	// one failing row), never for a report of what holds.
	FirstFailure bool
}

func (o *Options) defaults() {
	if o.Runs == 0 {
		o.Runs = 10000
	}
	if o.MaxSteps == 0 {
		o.MaxSteps = 2_000_000
	}
	if o.TaintRuns == 0 {
		o.TaintRuns = 20
	}
}

// violation kinds found by a taint run.
type findings struct {
	ct      []string // constant-time violations
	mcdt    []string
	abi     []string
	mem     []string
	inDepBr []string // branch conditions that depend on input data
	inDepAd []string // addresses that depend on input data
	other   []string // model errors (unknown operand, undefined flag …)
	leak    []string // secret branches and addresses a SecretControl contract declares
	post    []string // taint runs whose output breaks the postcondition
}

func (f *findings) add(list *[]string, format string, a ...any) {
	if len(*list) < 3 {
		*list = append(*list, fmt.Sprintf(format, a...))
	}
}

// taintObs checks secrecy and input dependence on the Taint domain.
type taintObs struct {
	f        *findings
	mcdt     int // 0 closed, 1 saved, 2 0x1FBF loaded, 3 open, 4 closing
	saved    uint64
	publicIn bool // inputs may steer control flow (declared leak)
	// secretCtl: secret branches and addresses are the contract's declared
	// leak, recorded for the twin test instead of failing at once.
	secretCtl bool
}

func (o *taintObs) Branch(m *x86.Machine[x86.TV], in *x86.Insn, c x86.TV) error {
	if c.S != 0 {
		if o.secretCtl {
			o.f.add(&o.f.leak, "%s: branch condition depends on secret data", in)
		} else {
			o.f.add(&o.f.ct, "%s: branch condition depends on secret data", in)
		}
	}
	if c.I != 0 {
		o.f.add(&o.f.inDepBr, "%s", in)
	}
	return nil
}

func (o *taintObs) Address(m *x86.Machine[x86.TV], in *x86.Insn, a x86.TV, size int, write bool) error {
	if a.S != 0 {
		if o.secretCtl {
			o.f.add(&o.f.leak, "%s: memory address depends on secret data", in)
		} else {
			o.f.add(&o.f.ct, "%s: memory address depends on secret data", in)
		}
	}
	if a.I != 0 {
		o.f.add(&o.f.inDepAd, "%s", in)
	}
	return nil
}

func (o *taintObs) After(m *x86.Machine[x86.TV], in *x86.Insn, reads []x86.TV) error {
	secret := false
	for _, r := range reads {
		if r.S != 0 {
			secret = true
		}
	}
	info := in.Info()
	if secret && !info.DOIT {
		o.f.add(&o.f.ct, "%s: %s is not a DOIT instruction and has a secret operand", in, in.Op)
	}
	switch in.Op {
	case "STMXCSR":
		o.saved = m.MXCSR.V
		if o.mcdt == 0 {
			o.mcdt = 1
		}
	case "LDMXCSR":
		v := m.MXCSR.V
		if m.MXCSR.I != 0 {
			// Whether LDMXCSR faults would depend on the input.
			o.f.add(&o.f.inDepAd, "%s: MXCSR value depends on input data", in)
		}
		switch {
		case o.mcdt == 1 && v == 0x1FBF:
			o.mcdt = 2
		case o.mcdt == 4 && v == o.saved:
			o.mcdt = 0
		default:
			o.f.add(&o.f.mcdt, "%s: LDMXCSR of %#x outside the prologue/epilogue pattern", in, v)
		}
	case "LFENCE":
		switch o.mcdt {
		case 2:
			o.mcdt = 3
		case 3:
			o.mcdt = 4
		}
	}
	if info.MCDT {
		if secret && o.mcdt != 3 {
			o.f.add(&o.f.mcdt, "%s: %s with a secret operand outside the MXCSR=0x1FBF bracket", in, in.Op)
		}
	}
	return nil
}

// taintRun runs r once on the Taint domain with input in and records
// findings; it also returns the outputs.
func taintRun(f *x86.File, r *x86.Routine, c *contract.Contract, in contract.Buffers, rng *rand.Rand,
	maxSteps int, fd *findings, callees map[string]*x86.Routine) (contract.Buffers, byte, bool) {
	m, lay := setup[x86.TV](x86.Taint{}, taintValue, f, r, c, in, rng)
	obs := &taintObs{f: fd, publicIn: c.PublicControl, secretCtl: c.SecretControl}
	m.Obs = obs
	if len(c.Calls) > 0 {
		taint := func(v x86.TV) (bool, bool) { return v.S != 0, v.I != 0 }
		env := &callEnv[x86.TV]{caller: c, callees: callees, lay: lay, mk: taintValue, rng: rng, taint: taint,
			effect:   concreteEffect[x86.TV](x86.Taint{}, taintValue, taint, rng),
			mcdtOpen: func() bool { return obs.mcdt != 0 }}
		m.Call = env.call
	}
	bp := m.GPR[x86.BP]
	err := m.Run(maxSteps)
	if err != nil {
		classify(err, fd)
		return nil, 0, false
	}
	// ABI at RET.
	if m.GPR[x86.SP].V != lay.entrySP || m.GPR[x86.SP].S != 0 {
		fd.add(&fd.abi, "%s: SP at RET is %#x, not the entry value %#x", r.Name, m.GPR[x86.SP].V, lay.entrySP)
	}
	if r.Prologue && m.GPR[x86.BP] != bp {
		fd.add(&fd.abi, "%s: BP at RET is %#x, not the caller's %#x", r.Name, m.GPR[x86.BP].V, bp.V)
	}
	if !r.Prologue && r.Frame == 0 && m.GPR[x86.BP] != bp {
		fd.add(&fd.abi, "%s: BP clobbered in a frameless routine (the assembler saves BP only when the frame is non-zero)", r.Name)
	}
	if m.MXCSR.V != 0x1F80 || m.MXCSR.S != 0 {
		fd.add(&fd.abi, "%s: MXCSR at RET is %#x, not restored to 0x1F80", r.Name, m.MXCSR.V)
	}
	if obs.mcdt != 0 {
		fd.add(&fd.mcdt, "%s: returns inside the MXCSR bracket", r.Name)
	}
	if res := m.Region("results"); res != nil {
		for i, w := range res.Written {
			if !w {
				fd.add(&fd.abi, "%s: result byte %d not written", r.Name, i)
			}
		}
	}
	out, ret, err := outputs(m, c)
	if err != nil {
		fd.add(&fd.other, "%v", err)
		return nil, 0, false
	}
	return out, ret, true
}

func classify(err error, fd *findings) {
	var ce *CallError
	if errors.As(err, &ce) {
		switch ce.Ob {
		case MemorySafety:
			fd.add(&fd.mem, "%v", err)
		case ConstantTime:
			fd.add(&fd.ct, "%v", err)
		case MCDT:
			fd.add(&fd.mcdt, "%v", err)
		case ABI:
			fd.add(&fd.abi, "%v", err)
		default:
			fd.add(&fd.post, "%v", err)
		}
		fd.add(&fd.other, "call: %v", err)
		return
	}
	var me *x86.MemError
	if errors.As(err, &me) {
		if me.Region == "args" || me.Region == "saved BP and return address" || me.Region == "return address" {
			fd.add(&fd.abi, "%v", err)
		} else {
			fd.add(&fd.mem, "%v", err)
		}
		return
	}
	fd.add(&fd.other, "%v", err)
}

// concRun runs r on the plain concrete domain (the fast path of the
// functional test).
func concRun(f *x86.File, r *x86.Routine, c *contract.Contract, in contract.Buffers, rng *rand.Rand, maxSteps int,
	callees map[string]*x86.Routine) (contract.Buffers, byte, error) {
	m, lay := setup[uint64](x86.Conc{}, func(v uint64, _, _ bool) uint64 { return v }, f, r, c, in, rng)
	concCalls(m, c, lay, callees, rng)
	if err := m.Run(maxSteps); err != nil {
		return nil, 0, err
	}
	return outputs(m, c)
}

// concCalls makes m, set up for c on the plain concrete domain, carry out
// c's CALLs by its callees' Effects.
func concCalls(m *x86.Machine[uint64], c *contract.Contract, lay *layout, callees map[string]*x86.Routine, rng *rand.Rand) {
	if len(c.Calls) == 0 {
		return
	}
	mk := func(v uint64, _, _ bool) uint64 { return v }
	taint := func(uint64) (bool, bool) { return false, false }
	env := &callEnv[uint64]{caller: c, callees: callees, lay: lay, mk: mk, rng: rng, taint: taint,
		effect: concreteEffect[uint64](x86.Conc{}, mk, taint, rng)}
	m.Call = env.call
}

func copyBuffers(b contract.Buffers) contract.Buffers {
	out := contract.Buffers{}
	for k, v := range b {
		out[k] = append([]byte(nil), v...)
	}
	return out
}

// crossCheckRuns caps the random functional test of a routine whose
// contract declares functional correctness proven: the proof covers every
// input, and the random runs only cross-check it (and the concrete model
// with the other domains), for a tenth of the time of 10,000. A routine
// whose functional correctness is declared tested keeps opt.Runs.
const crossCheckRuns = 1000

// Routine checks one routine of f under contract c.
func Routine(f *x86.File, r *x86.Routine, c *contract.Contract, opt Options) []Result {
	opt.defaults()
	if c.Level[Functional] == Proven && opt.Runs > crossCheckRuns {
		opt.Runs = crossCheckRuns
	}
	res := map[string]*Result{}
	for _, ob := range Obligations {
		res[ob] = &Result{Routine: c.Routine, Variant: c.Variant, Obligation: ob}
	}
	set := func(ob, st, detail string, t time.Duration) {
		res[ob].Status, res[ob].Detail, res[ob].Seconds = st, detail, t.Seconds()
	}

	// Features and the static part of the ABI.
	t0 := time.Now()
	if d, err := checkFeatures(r, c); err != nil {
		set(Features, Failing, err.Error(), time.Since(t0))
	} else {
		set(Features, Proven, "static scan of every instruction: "+d, time.Since(t0))
	}
	t0 = time.Now()
	var abiStatic []string
	if r.ArgSize != c.ArgsSize() {
		abiStatic = append(abiStatic, fmt.Sprintf("TEXT declares %d bytes of arguments, signature %q needs %d", r.ArgSize, c.GoSig, c.ArgsSize()))
	}
	if r.Frame > c.MaxFrame {
		abiStatic = append(abiStatic, fmt.Sprintf("frame %d exceeds the contract's %d", r.Frame, c.MaxFrame))
	}
	if err := checkFPNames(r, c); err != nil {
		abiStatic = append(abiStatic, err.Error())
	}
	if err := checkCallSites(r, c); err != nil {
		abiStatic = append(abiStatic, err.Error())
	}
	staticT := time.Since(t0)

	// Taint runs.
	t0 = time.Now()
	rng := rand.New(rand.NewPCG(opt.Seed, 1))
	fd := &findings{}
	nTaint := 1
	if c.PublicControl || c.SecretControl {
		nTaint = opt.TaintRuns
	}
	taintOK := true
	// A SampleInBall routine's stream tests run with its twin test.
	var ballDetail string
	var ballErr error
	for i := 0; i < nTaint; i++ {
		in := c.Gen(rng)
		out, ret, ok := taintRun(f, r, c, copyBuffers(in), rng, opt.MaxSteps, fd, opt.Callees)
		if !ok {
			taintOK = false
			break
		}
		if err := c.Check(in, out, ret); err != nil {
			fd.add(&fd.post, "taint run %d: postcondition: %v", i, err)
		}
	}
	taintT := time.Since(t0)
	if opt.FirstFailure && (res[Features].Status == Failing || len(abiStatic) > 0 || !taintOK ||
		len(fd.mem)+len(fd.other)+len(fd.ct)+len(fd.abi)+len(fd.mcdt)+len(fd.post) > 0) {
		found := first(fd.mem, fd.other, fd.ct, fd.abi, fd.mcdt, fd.post, abiStatic, []string{res[Features].Detail})
		return notChecked(res, "the taint runs or static checks found: "+found)
	}
	fixed := len(fd.inDepBr) == 0 && len(fd.inDepAd) == 0 && taintOK
	var ind *InductiveResult
	if (c.PublicControl || c.SecretControl) && opt.Hints != nil && taintOK {
		ti := time.Now()
		ind = Inductive(f, r, c, opt.Hints.Invariants(c.Symbol), opt.Callees, opt.MaxSteps)
		ind.Seconds = time.Since(ti).Seconds()
	}
	other := ""
	if len(fd.other) > 0 {
		other = fd.other[0]
	}
	// Memory safety.
	switch {
	case len(fd.mem) > 0:
		set(MemorySafety, Failing, fd.mem[0], taintT)
	case other != "":
		set(MemorySafety, Failing, "model error: "+other, taintT)
	case fixed:
		set(MemorySafety, Proven, "one run: no branch condition or address depends on input data (checked by taint), so every input takes this path and these addresses; all in bounds", taintT)
	case ind != nil && ind.Err == nil:
		set(MemorySafety, Proven, ind.Detail, taintT+ind.dur())
	case ind != nil:
		set(MemorySafety, Failing, "inductive check: "+ind.Err.Error(), taintT+ind.dur())
	default:
		set(MemorySafety, Tested, fmt.Sprintf("%d taint runs in bounds; control flow depends on input (e.g. %s) and no inductive proof was given", nTaint, first(fd.inDepBr, fd.inDepAd)), taintT)
	}
	// Constant time.
	switch {
	case len(fd.ct) > 0:
		set(ConstantTime, Failing, fd.ct[0], taintT)
	case other != "" || !taintOK:
		set(ConstantTime, Failing, "run did not complete: "+other, taintT)
	case fixed:
		set(ConstantTime, Proven, "one taint run covers every input (fixed control flow and addresses); no branch, address or non-DOIT operand is secret", taintT)
	case c.SecretControl && c.Ball != nil:
		t1 := time.Now()
		if n, err := BallStreamTests(f, r, c, opt.Callees, opt.Seed, opt.MaxSteps, true); err != nil {
			ballErr = err
			set(ConstantTime, Failing, "twin test: "+err.Error(), taintT+time.Since(t1))
		} else {
			ballDetail = fmt.Sprintf("%d runs on chosen squeezed bytes (%d scenarios: uniform, j = i and j = 0 at every iteration, rejections of i + 1, the bound met exactly and missed by one byte, every byte rejected, the last block's first byte accepted last) give Spec's Algorithm 29 on those bytes and its ok", n, len(ballScenarios(c.Ball.Blocks)))
			set(ConstantTime, Tested, fmt.Sprintf("%d taint runs: no non-DOIT instruction has a secret operand; secret branches and addresses (e.g. %s) are the declared leak: %d pairs of runs on inputs with other secrets and on twin streams (each byte read redrawn on the same side of i, the signs redrawn) take the same path and addresses", nTaint, first(fd.leak), n), taintT+time.Since(t1))
		}
	case c.SecretControl:
		t1 := time.Now()
		if d, err := runTwins(f, r, c, opt); err != nil {
			set(ConstantTime, Failing, "twin test: "+err.Error(), taintT+time.Since(t1))
		} else {
			set(ConstantTime, Tested, fmt.Sprintf("%d taint runs: no non-DOIT instruction has a secret operand; secret branches and addresses (e.g. %s) are the declared leak: %s", nTaint, first(fd.leak), d), taintT+time.Since(t1))
		}
	case !c.PublicControl:
		set(ConstantTime, Failing, "control flow or addresses depend on input data, but the contract declares no leak: "+first(fd.inDepBr, fd.inDepAd), taintT)
	case ind != nil && ind.Err == nil && ind.NoSecret:
		set(ConstantTime, Proven, "every path of the inductive check (all loop states the invariants allow) has no secret branch, address or non-DOIT operand; inputs are public per the contract's leak", taintT+ind.dur())
	default:
		set(ConstantTime, Tested, fmt.Sprintf("%d taint runs: no secret-dependent branch, address or non-DOIT operand; control flow depends on public input (declared leak)", nTaint), taintT)
	}
	// ABI.
	abi := append(abiStatic, fd.abi...)
	switch {
	case len(abi) > 0:
		set(ABI, Failing, abi[0], staticT+taintT)
	case !taintOK:
		set(ABI, Failing, "run did not complete: "+other, staticT+taintT)
	case fixed:
		set(ABI, Proven, "args size, frame, FP names (static); SP, BP, MXCSR restored, result written, no write outside frame/results (one run covering every input)", staticT+taintT)
	case ind != nil && ind.Err == nil:
		set(ABI, Proven, "static checks; every path of the inductive check restores SP and MXCSR, writes the result and writes only frame, results and writable buffers", staticT+taintT+ind.dur())
	default:
		set(ABI, Tested, fmt.Sprintf("static checks proven; run-time checks on %d runs", nTaint), staticT+taintT)
	}
	// MCDT.
	switch {
	case len(fd.mcdt) > 0:
		set(MCDT, Failing, fd.mcdt[0], taintT)
	case !taintOK:
		set(MCDT, Failing, "run did not complete", taintT)
	case noMCDT(r):
		set(MCDT, Proven, "static scan of every instruction: none is marked MCDT, none is LDMXCSR or STMXCSR", taintT)
	case fixed:
		set(MCDT, Proven, "every instruction the model marks MCDT (PMULULQ, VPMULUDQ) with a secret operand lies inside the MXCSR bracket (one run covering every input)", taintT)
	case ind != nil && ind.Err == nil && ind.NoSecret:
		set(MCDT, Proven, "no instruction the model marks MCDT has a possibly secret operand on any path of the inductive check", taintT+ind.dur())
	default:
		set(MCDT, Tested, fmt.Sprintf("%d taint runs", nTaint), taintT)
	}
	if opt.FirstFailure {
		for _, ob := range Obligations {
			if res[ob].Status == Failing {
				return notChecked(res, ob+" failed: "+res[ob].Detail)
			}
		}
	}
	// Functional.
	t0 = time.Now()
	if len(fd.post) > 0 {
		set(Functional, Failing, fd.post[0], time.Since(t0))
	} else if err := functional(f, r, c, opt, rng); err != nil {
		set(Functional, Failing, err.Error(), time.Since(t0))
	} else {
		if c.Runs > 0 && c.Runs < opt.Runs {
			opt.Runs = c.Runs
		}
		n := opt.Runs + len(opt.ExtraInputs)
		tested := fmt.Sprintf("model output equals the contract's postcondition (Spec) on %d inputs (%d random, %d from vectors)", n, opt.Runs, len(opt.ExtraInputs))
		set(Functional, Tested, tested, time.Since(t0))
		streamsOK := true
		if c.Ball != nil {
			switch {
			case ballErr != nil:
				set(Functional, Failing, "stream test: "+ballErr.Error()+"; "+tested, time.Since(t0))
				streamsOK = false
			case ballDetail == "":
				set(Functional, Failing, "stream test not run; "+tested, time.Since(t0))
				streamsOK = false
			default:
				tested += "; " + ballDetail
				set(Functional, Tested, tested, time.Since(t0))
			}
		}
		if c.Streams != nil {
			if d, err := runStreams(f, r, c, opt); err != nil {
				set(Functional, Failing, "stream test: "+err.Error()+"; "+tested, time.Since(t0))
				streamsOK = false
			} else {
				tested += "; " + d
				set(Functional, Tested, tested, time.Since(t0))
				// The contract asks for the stream postcondition proven
				// for every stream: a refuted or incomplete proof fails.
				// Unless the sampler squeezes by calls (Sponge), the
				// squeeze is not proven, so the obligation stays tested.
				if c.Streams.Proven {
					if d, err := ProveRejStreams(f, r, c, opt.Hints, opt.Callees, 20000); err != nil {
						set(Functional, Failing, "stream proof: "+err.Error()+"; "+tested, time.Since(t0))
						streamsOK = false
					} else if c.Streams.Sponge != nil {
						set(Functional, Proven, d+"; also "+tested, time.Since(t0))
						if c.SecretControl && res[ConstantTime].Status == Tested {
							// The twin test passed, and the proof's paths
							// cover every run (rejproof.go, "Constant
							// time"); its time is the functional row's.
							ct, test := res[ConstantTime], "Algorithm 14's test of the next group"
							if c.Streams.HalfByteBound > 0 {
								test = "Algorithm 15's test of the next half-byte"
							}
							set(ConstantTime, Proven, "proven for every seed by the stream proof, whose paths cover every run: each branch on secret data is "+test+
								" (the declared leak: where the rejections fall), each address a constant or 4·count + k with the count the acceptances so far, no non-DOIT instruction has an operand that may be secret, and the permutation called is constant time by its own check; also "+ct.Detail,
								time.Duration(ct.Seconds*float64(time.Second)))
						}
					} else {
						set(Functional, Tested, d+"; "+tested, time.Since(t0))
					}
				}
			}
		}
		var ballCT string
		p, err := functionalProof(f, r, c, opt, res[MemorySafety].Status == Proven, &ballCT)
		switch {
		case err != nil:
			set(Functional, Failing, err.Error()+"; "+tested, time.Since(t0))
		case p == nil || !streamsOK:
		case p.fixed && (!fixed || len(fd.ct) > 0):
			// A contract with a proof claims proven: anything short of a
			// completed proof fails (fail closed), whatever the tests say.
			set(Functional, Failing, p.what+" not attempted: it needs fixed control flow and addresses; "+tested, time.Since(t0))
		default:
			// A proof that follows one path has it fixed (checked
			// above): the one path is every input's path.
			d, err := p.prove()
			if err == nil {
				set(Functional, Proven, d+"; also "+tested, time.Since(t0))
			} else {
				set(Functional, Failing, p.what+" failed: "+err.Error()+"; "+tested, time.Since(t0))
			}
			// The SampleInBall proof's paths also show its constant time
			// against the declared leak; the twin test must have passed
			// too (ConstantTime tested, not failing). The proof's time is
			// the functional row's.
			if p.what == ballProof && err == nil && res[ConstantTime].Status == Tested {
				ct := res[ConstantTime]
				set(ConstantTime, Proven, ballCT+"; also "+ct.Detail, time.Duration(ct.Seconds*float64(time.Second)))
			} else if p.what == ballProof && err != nil {
				set(ConstantTime, Failing, p.what+" failed: "+err.Error(), time.Since(t0))
			}
			// The ExpandA proof's CTSample is also a constant-time fact.
			if p.what == expandAProof && err == nil {
				if i := strings.Index(d, "CTSample:"); i >= 0 {
					res[ConstantTime].Detail = d[i:] + "; " + res[ConstantTime].Detail
				}
			} else if p.what == expandAProof {
				set(ConstantTime, Failing, p.what+" failed: "+err.Error(), time.Since(t0))
			}
		}
	}
	return resultsOf(res)
}

func resultsOf(res map[string]*Result) []Result {
	var out []Result
	for _, ob := range Obligations {
		out = append(out, *res[ob])
	}
	return out
}

// NotChecked starts the detail of an obligation FirstFailure left
// unchecked; what failed first follows it.
const NotChecked = "not checked (first failure): "

// notChecked ends a check under FirstFailure: every obligation without a
// status fails, as not checked because of found.
func notChecked(res map[string]*Result, found string) []Result {
	for _, ob := range Obligations {
		if res[ob].Status == "" {
			res[ob].Status, res[ob].Detail = Failing, NotChecked+found
		}
	}
	return resultsOf(res)
}

// proof is the proof of a contract's functional obligation.
// expandAProof names the ExpandA proof in reports, ballProof the
// SampleInBall proof, hintPackProof and hintUnpackProof the HintBitPack
// and HintBitUnpack proofs.
const (
	expandAProof    = "ExpandA proof (StageA, SampN, CTSample)"
	ballProof       = "SampleInBall proof"
	hintPackProof   = "HintBitPack proof"
	hintUnpackProof = "HintBitUnpack proof"
)

type proof struct {
	what  string // as reports name it
	fixed bool   // it follows the one path: control flow and addresses must be fixed
	prove func() (string, error)
}

// functionalProof returns the proof a contract's data name: its Keccak
// states (symbolic proof, with the hints' cuts), its ℤq map, its
// coefficient map, its sponge and unpacking (Squeeze), Spec's steps over
// its calls (Compose), Spec's step over each unit (Loop), its Ball where it
// declares functional correctness proven (the SampleInBall proof, which
// also sets *ballCT, its constant-time detail), its HintPack where it
// declares functional correctness proven (the HintBitPack proof), its
// HintUnpack so (the HintBitUnpack proof),
// or Unchanged (from memory safety, memSafe says whether that is proven);
// nil if it names none (the obligation is then tested). A contract naming
// more than one fails: no proof may stand in for another.
func functionalProof(f *x86.File, r *x86.Routine, c *contract.Contract, opt Options, memSafe bool, ballCT *string) (*proof, error) {
	var ps []proof
	if c.KeccakStates > 0 {
		ps = append(ps, proof{"symbolic proof", true, func() (string, error) { return ProveKeccak(f, r, c, opt.Hints, opt.MaxSteps) }})
	}
	if c.Zq != nil {
		ps = append(ps, proof{"ℤq proof", true, func() (string, error) { return proveZq(f, r, c, opt.MaxSteps) }})
	}
	if c.Lanes != nil {
		ps = append(ps, proof{"coefficient-map proof", true, func() (string, error) { return proveLanes(f, r, c, opt.MaxSteps) }})
	}
	if c.ExpandA != nil {
		ps = append(ps, proof{expandAProof, true, func() (string, error) {
			d, ct, err := proveExpandA(f, r, c, opt.Hints, opt.Callees, opt.MaxSteps)
			return d + "; " + ct, err
		}})
	}
	if c.Compose != nil {
		// With a Count, control flow may depend on it: each n's run
		// fails where a branch or address is not a constant, so the
		// runs cover every input meeting the precondition.
		ps = append(ps, proof{"composition proof", c.Compose.Count == "", func() (string, error) { return proveCompose(f, r, c, opt.Callees, opt.MaxSteps) }})
	}
	if c.Attempts != nil {
		// Its paths cover every run (control flow depends on κ and on
		// the stages' results).
		ps = append(ps, proof{"attempts proof", false, func() (string, error) {
			return proveAttempts(f, r, c, opt.Callees, opt.Hints, opt.MaxSteps)
		}})
	}
	if c.Loop != nil {
		// Its paths cover every run (control flow depends on the count).
		ps = append(ps, proof{"loop proof", false, func() (string, error) { return proveLoop(f, r, c, opt.Callees, opt.MaxSteps) }})
	}
	if c.Squeeze != nil {
		ps = append(ps, proof{"squeeze proof", true, func() (string, error) { return proveSqueeze(f, r, c, opt.Callees, opt.MaxSteps) }})
	}
	if c.Ball != nil && c.Level[Functional] == Proven {
		// Asked for by the contract's level. Its paths cover every run
		// (control flow depends on the stream), and it also gives the
		// constant-time detail.
		ps = append(ps, proof{ballProof, false, func() (string, error) {
			fn, ct, err := ProveBall(f, r, c, opt.Hints, opt.Callees, 20000)
			*ballCT = ct
			return fn, err
		}})
	}
	if c.HintPack != nil && c.Level[Functional] == Proven {
		// Asked for by the contract's level; its paths cover every hint
		// meeting the precondition (control flow depends on the hint).
		ps = append(ps, proof{hintPackProof, false, func() (string, error) { return ProveHintPack(f, r, c, opt.Hints, 20000) }})
	}
	if c.HintUnpack != nil && c.Level[Functional] == Proven {
		// Asked for by the contract's level; its paths cover every
		// encoding (control flow depends on the counts).
		ps = append(ps, proof{hintUnpackProof, false, func() (string, error) { return ProveHintUnpack(f, r, c, opt.Hints, 20000) }})
	}
	if c.Exceeds != nil {
		ps = append(ps, proof{"norm-check proof", true, func() (string, error) { return proveExceeds(f, r, c, opt.MaxSteps) }})
	}
	if c.Wiring != nil {
		ps = append(ps, proof{"wiring proof", true, func() (string, error) { return proveWiring(f, r, c, opt.MaxSteps) }})
	}
	if c.Packed != nil {
		ps = append(ps, proof{"packing proof", true, func() (string, error) { return provePacked(f, r, c, opt.MaxSteps) }})
	}
	if c.Unchanged {
		ps = append(ps, proof{"unchanged-buffers proof", false, func() (string, error) {
			// A write to a buffer (none is writable) or outside every
			// region fails memory safety; proven, it covers every input.
			writable := c.Result != ""
			for _, a := range c.Args {
				writable = writable || a.Write
			}
			switch {
			case writable:
				return "", errors.New("the contract says no buffer changes but has a writable buffer or a result")
			case !memSafe:
				return "", errors.New("no buffer changes only if memory safety is proven for every input")
			}
			return "no buffer is writable and memory safety is proven for every input (a write to a region that is not writable fails it): every buffer is unchanged", nil
		}})
	}
	switch len(ps) {
	case 0:
		return nil, nil
	case 1:
		return &ps[0], nil
	}
	var names []string
	for _, p := range ps {
		names = append(names, p.what)
	}
	return nil, fmt.Errorf("the contract names %d functional proofs (%s): one at most", len(ps), strings.Join(names, ", "))
}

// noMCDT reports that r has no instruction the model marks MCDT and does
// not touch MXCSR, so that the MCDT rule holds on every path.
func noMCDT(r *x86.Routine) bool {
	for _, in := range r.Insns {
		if in.Info().MCDT || in.Op == "LDMXCSR" || in.Op == "STMXCSR" {
			return false
		}
	}
	return true
}

func first(lists ...[]string) string {
	for _, l := range lists {
		if len(l) > 0 {
			return l[0]
		}
	}
	return ""
}

// functional runs the concrete fast path on opt.ExtraInputs and opt.Runs
// random inputs, split over two goroutines (two cores).
func functional(f *x86.File, r *x86.Routine, c *contract.Contract, opt Options, _ *rand.Rand) error {
	const workers = 2
	if c.Runs > 0 && c.Runs < opt.Runs {
		opt.Runs = c.Runs
	}
	total := opt.Runs + len(opt.ExtraInputs)
	errs := make([]error, workers)
	first := make([]int, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(opt.Seed, uint64(100+w)))
			for i := w; i < total; i += workers {
				var in contract.Buffers
				if i < len(opt.ExtraInputs) {
					in = opt.ExtraInputs[i]
				} else {
					in = c.Gen(rng)
				}
				out, ret, err := concRun(f, r, c, copyBuffers(in), rng, opt.MaxSteps, opt.Callees)
				if err == nil {
					err = c.Check(in, out, ret)
				}
				if err != nil {
					errs[w], first[w] = fmt.Errorf("run %d: %v", i, err), i
					return
				}
			}
		}()
	}
	wg.Wait()
	var err error
	best := total
	for w := range errs {
		if errs[w] != nil && first[w] < best {
			err, best = errs[w], first[w]
		}
	}
	return err
}
