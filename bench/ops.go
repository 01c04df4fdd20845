package bench

import (
	"errors"
	"fmt"
	"slices"
	"syscall"
	"testing"
)

// Operation names, in table order.
const (
	OpKeyGen         = "KeyGen"
	OpSign           = "Sign"
	OpSignExpanded   = "SignExpanded"
	OpVerify         = "Verify"
	OpParsePublicKey = "ParsePublicKey"
)

// Ops lists the measured operations in table order.
var Ops = []string{OpKeyGen, OpSign, OpSignExpanded, OpVerify, OpParsePublicKey}

// Inputs are the encodings the Verify, ParsePublicKey and SignExpanded
// operations start from. They are the same for every implementation (the
// identity check asserts it), so one implementation can compute them once
// for all the driver runs, which keeps those runs' setup small.
type Inputs struct {
	PublicKeys, Signatures, Expanded [][]byte
}

// NewInputs computes the inputs of one parameter set with s; s must offer
// expanded private keys.
func NewInputs(s Scheme, w *Workload) (*Inputs, error) {
	keys, err := newKeys(s, w)
	if err != nil {
		return nil, err
	}
	in := &Inputs{make([][]byte, Cases), make([][]byte, Cases), make([][]byte, Cases)}
	for i, k := range keys {
		in.PublicKeys[i] = k.PublicKey()
		if in.Signatures[i], err = k.Sign(w.Messages[i]); err != nil {
			return nil, err
		}
		if in.Expanded[i] = k.Expanded(); in.Expanded[i] == nil {
			return nil, ErrUnsupported
		}
	}
	return in, nil
}

// Prepare does the setup for op on every case of w (outside any
// measurement) and returns a function that runs op once on case i.
// The setup depends only on s, op, w and in, so a run of n operations
// minus a run of none measures exactly the n operations. If in is nil,
// the encodings are computed with s.
func Prepare(s Scheme, op string, w *Workload, in *Inputs) (func(i int) error, error) {
	if op == OpSignExpanded {
		if _, err := s.SignExpanded(nil, nil); errors.Is(err, ErrUnsupported) {
			return nil, err
		}
	}
	switch op {
	case OpKeyGen:
		return func(i int) error {
			_, err := s.KeyGen(w.Seeds[i%Cases])
			return err
		}, nil
	case OpSign:
		keys, err := newKeys(s, w)
		if err != nil {
			return nil, err
		}
		// An in-memory key is one that has signed before: vg samples Â
		// again at the first signature of a key made from its seed, and
		// keeps it from the second on. (KeyGen followed by one Sign is
		// KeyGen's row plus the first signature's ExpandA.)
		for i, k := range keys {
			for range 2 {
				if _, err := k.Sign(w.Messages[i]); err != nil {
					return nil, err
				}
			}
		}
		return func(i int) error {
			_, err := keys[i%Cases].Sign(w.Messages[i%Cases])
			return err
		}, nil
	case OpSignExpanded, OpVerify, OpParsePublicKey:
		if in == nil {
			var err error
			if in, err = NewInputs(s, w); errors.Is(err, ErrUnsupported) && op != OpSignExpanded {
				// No expanded encoding: compute the rest with s.
				in, err = newPublicInputs(s, w)
			}
			if err != nil {
				return nil, err
			}
		}
		switch op {
		case OpSignExpanded:
			return func(i int) error {
				_, err := s.SignExpanded(in.Expanded[i%Cases], w.Messages[i%Cases])
				return err
			}, nil
		case OpParsePublicKey:
			return func(i int) error { return s.ParsePublicKey(in.PublicKeys[i%Cases]) }, nil
		}
		return func(i int) error {
			return s.Verify(in.PublicKeys[i%Cases], w.Messages[i%Cases], in.Signatures[i%Cases])
		}, nil
	}
	return nil, fmt.Errorf("unknown operation %q", op)
}

func newPublicInputs(s Scheme, w *Workload) (*Inputs, error) {
	keys, err := newKeys(s, w)
	if err != nil {
		return nil, err
	}
	in := &Inputs{PublicKeys: make([][]byte, Cases), Signatures: make([][]byte, Cases)}
	for i, k := range keys {
		in.PublicKeys[i] = k.PublicKey()
		if in.Signatures[i], err = k.Sign(w.Messages[i]); err != nil {
			return nil, err
		}
	}
	return in, nil
}

func newKeys(s Scheme, w *Workload) ([]Key, error) {
	keys := make([]Key, Cases)
	for i := range Cases {
		k, err := s.NewKey(w.Seeds[i])
		if err != nil {
			return nil, fmt.Errorf("case %d: %w", i, err)
		}
		keys[i] = k
	}
	return keys, nil
}

// Timing is the result of several testing.Benchmark runs of one cell.
type Timing struct {
	NsPerOp     float64 // wall clock, median over runs
	CPUNsPerOp  float64 // process CPU time (user + system), median over runs
	AllocsPerOp int64   // median over runs
	Runs        int
}

// Time runs f under testing.Benchmark runs times, cycling through the
// cases, and returns the medians. The caller sets -test.benchtime.
func Time(f func(i int) error, runs int) (Timing, error) {
	var ns, cpu []float64
	var allocs []int64
	for range runs {
		var ferr error
		var cpuNs float64
		r := testing.Benchmark(func(b *testing.B) {
			b.ReportAllocs()
			// testing.Benchmark calls this with growing b.N and reports
			// the last call, so the last value of cpuNs matches r.
			start := cpuTime()
			for i := range b.N {
				if err := f(i); err != nil {
					ferr = err
					b.FailNow()
				}
			}
			cpuNs = float64(cpuTime()-start) / float64(b.N)
		})
		if ferr != nil {
			return Timing{}, ferr
		}
		if r.N == 0 {
			return Timing{}, errors.New("benchmark did not run")
		}
		ns = append(ns, float64(r.T.Nanoseconds())/float64(r.N))
		cpu = append(cpu, cpuNs)
		allocs = append(allocs, r.AllocsPerOp())
	}
	return median(ns, cpu, allocs), nil
}

// Median combines timings of separate runs of one cell.
func Median(ts []Timing) Timing {
	var ns, cpu []float64
	var allocs []int64
	for _, t := range ts {
		ns = append(ns, t.NsPerOp)
		cpu = append(cpu, t.CPUNsPerOp)
		allocs = append(allocs, t.AllocsPerOp)
	}
	return median(ns, cpu, allocs)
}

// median returns the medians (the upper one for an even count), each
// taken separately.
func median(ns, cpu []float64, allocs []int64) Timing {
	slices.Sort(ns)
	slices.Sort(cpu)
	slices.Sort(allocs)
	return Timing{NsPerOp: ns[len(ns)/2], CPUNsPerOp: cpu[len(cpu)/2], AllocsPerOp: allocs[len(allocs)/2], Runs: len(ns)}
}

// cpuTime returns the process's user and system CPU time in nanoseconds.
// On a machine shared with other work it is steadier than wall time.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// TimeResult is one line of the driver's time-mode output.
type TimeResult struct {
	Param  string
	Op     string
	Timing Timing
}
