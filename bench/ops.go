package bench

import (
	"errors"
	"fmt"
	"slices"
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

// Prepare does the setup for op on every case of w (outside any
// measurement) and returns a function that runs op once on case i.
// The setup depends only on s, op and w, so a run of n operations minus a
// run of none measures exactly the n operations.
func Prepare(s Scheme, op string, w *Workload) (func(i int) error, error) {
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
		return func(i int) error {
			_, err := keys[i%Cases].Sign(w.Messages[i%Cases])
			return err
		}, nil
	case OpSignExpanded:
		keys, err := newKeys(s, w)
		if err != nil {
			return nil, err
		}
		exp := make([][]byte, Cases)
		for i, k := range keys {
			if exp[i] = k.Expanded(); exp[i] == nil {
				return nil, ErrUnsupported
			}
		}
		return func(i int) error {
			_, err := s.SignExpanded(exp[i%Cases], w.Messages[i%Cases])
			return err
		}, nil
	case OpVerify, OpParsePublicKey:
		keys, err := newKeys(s, w)
		if err != nil {
			return nil, err
		}
		pks := make([][]byte, Cases)
		sigs := make([][]byte, Cases)
		for i, k := range keys {
			pks[i] = k.PublicKey()
			if sigs[i], err = k.Sign(w.Messages[i]); err != nil {
				return nil, err
			}
		}
		if op == OpParsePublicKey {
			return func(i int) error { return s.ParsePublicKey(pks[i%Cases]) }, nil
		}
		return func(i int) error {
			return s.Verify(pks[i%Cases], w.Messages[i%Cases], sigs[i%Cases])
		}, nil
	}
	return nil, fmt.Errorf("unknown operation %q", op)
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
	NsPerOp     float64 // median over runs
	AllocsPerOp int64   // median over runs
	Runs        int
}

// Time runs f under testing.Benchmark runs times, cycling through the
// cases, and returns the medians. The caller sets -test.benchtime.
func Time(f func(i int) error, runs int) (Timing, error) {
	var ns []float64
	var allocs []int64
	for range runs {
		var ferr error
		r := testing.Benchmark(func(b *testing.B) {
			b.ReportAllocs()
			for i := range b.N {
				if err := f(i); err != nil {
					ferr = err
					b.FailNow()
				}
			}
		})
		if ferr != nil {
			return Timing{}, ferr
		}
		if r.N == 0 {
			return Timing{}, errors.New("benchmark did not run")
		}
		ns = append(ns, float64(r.T.Nanoseconds())/float64(r.N))
		allocs = append(allocs, r.AllocsPerOp())
	}
	return median(ns, allocs), nil
}

// Median combines timings of separate runs of one cell.
func Median(ts []Timing) Timing {
	var ns []float64
	var allocs []int64
	for _, t := range ts {
		ns = append(ns, t.NsPerOp)
		allocs = append(allocs, t.AllocsPerOp)
	}
	return median(ns, allocs)
}

// median returns the medians (the upper one for an even count).
func median(ns []float64, allocs []int64) Timing {
	slices.Sort(ns)
	slices.Sort(allocs)
	return Timing{NsPerOp: ns[len(ns)/2], AllocsPerOp: allocs[len(allocs)/2], Runs: len(ns)}
}

// TimeResult is one line of the driver's time-mode output.
type TimeResult struct {
	Param  string
	Op     string
	Timing Timing
}
