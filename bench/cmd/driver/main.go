// Command driver runs one side of the benchmark comparison in its own
// process, so that each of vg's code paths (chosen at build time or by
// VG_CPU_FEATURES) gets a binary of its own.
//
//	driver -check                          identity check of all implementations
//	driver -info                           print vg's Implementation()
//	driver -digest                         print the SHA-256 of vg's outputs on the workload
//	driver -write-inputs FILE              write the encodings Verify, ParsePublicKey and
//	                                       SignExpanded start from (computed with vg)
//	driver -impl I -param P -op O -n N [-inputs FILE]
//	                                       set up, then run O N times (for callgrind)
//	driver -time -impl I [-runs R] [-benchtime D]
//	                                       time every parameter set and operation, JSON lines
//	driver -routines [-benchtime D]        time each of vg's AVX2 routines, JSON lines
//	driver -routine NAME -n N              run one routine N times (for callgrind)
//
// Exit status 3 means the implementation does not offer the operation.
package main

import (
	"encoding/gob"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/vg-crypto/vg/bench"
)

func main() {
	testing.Init()
	check := flag.Bool("check", false, "check that all implementations agree byte for byte")
	info := flag.Bool("info", false, "print the vg code path in use")
	digest := flag.Bool("digest", false, "print the SHA-256 of vg's keys and signatures on the workload")
	timeMode := flag.Bool("time", false, "time every parameter set and operation of -impl")
	impl := flag.String("impl", "", "implementation")
	param := flag.String("param", "", "parameter set (ML-DSA-44, ML-DSA-65, ML-DSA-87)")
	op := flag.String("op", "", "operation")
	n := flag.Int("n", bench.Cases, "number of operations (count mode)")
	runs := flag.Int("runs", 5, "testing.Benchmark runs per cell (time mode)")
	benchtime := flag.String("benchtime", "200ms", "duration of one run (time mode)")
	writeInputs := flag.String("write-inputs", "", "write the workload's encodings to this file")
	inputs := flag.String("inputs", "", "read the encodings from this file (count mode)")
	routines := flag.Bool("routines", false, "time each of vg's AVX2 routines")
	routine := flag.String("routine", "", "run this routine -n times")
	flag.Parse()

	w := bench.NewWorkload()
	switch {
	case *info:
		fmt.Println(bench.VGImplementation())
	case *digest:
		d, err := bench.Digest(bench.VG, w)
		if err != nil {
			fail(err)
		}
		fmt.Println(d)
	case *writeInputs != "":
		all := map[string]*bench.Inputs{}
		for _, p := range bench.Params {
			s, err := bench.VG.New(p)
			if err != nil {
				fail(err)
			}
			if all[p], err = bench.NewInputs(s, w); err != nil {
				fail(err)
			}
		}
		f, err := os.Create(*writeInputs)
		if err != nil {
			fail(err)
		}
		if err := gob.NewEncoder(f).Encode(all); err != nil {
			fail(err)
		}
		if err := f.Close(); err != nil {
			fail(err)
		}
	case *routines:
		if err := flag.Set("test.benchtime", *benchtime); err != nil {
			fail(err)
		}
		enc := json.NewEncoder(os.Stdout)
		for _, r := range bench.Routines() {
			t, err := bench.Time(func(i int) error { r.Run(i); return nil }, 1)
			if err != nil {
				fail(fmt.Errorf("%s: %w", r.Name, err))
			}
			enc.Encode(bench.RoutineTiming{Routine: r.Name, NsPerOp: t.NsPerOp, CPUNsPerOp: t.CPUNsPerOp})
		}
	case *routine != "":
		for _, r := range bench.Routines() {
			if r.Name == *routine {
				for i := range *n {
					r.Run(i)
				}
				return
			}
		}
		fmt.Fprintf(os.Stderr, "driver: no routine %q in this build\n", *routine)
		os.Exit(3)
	case *check:
		for _, p := range bench.Params {
			if err := bench.CheckIdentity(bench.Implementations(), p, w); err != nil {
				fail(err)
			}
		}
		fmt.Printf("identity: %d implementations agree on %d cases of each parameter set\n",
			len(bench.Implementations()), bench.Cases)
	case *timeMode:
		if err := flag.Set("test.benchtime", *benchtime); err != nil {
			fail(err)
		}
		im := find(*impl)
		enc := json.NewEncoder(os.Stdout)
		for _, p := range bench.Params {
			s, err := im.New(p)
			if err != nil {
				fail(err)
			}
			for _, o := range bench.Ops {
				f, err := bench.Prepare(s, o, w, nil)
				if errors.Is(err, bench.ErrUnsupported) {
					continue
				}
				if err != nil {
					fail(fmt.Errorf("%s %s %s: %w", *impl, p, o, err))
				}
				t, err := bench.Time(f, *runs)
				if err != nil {
					fail(fmt.Errorf("%s %s %s: %w", *impl, p, o, err))
				}
				enc.Encode(bench.TimeResult{Param: p, Op: o, Timing: t})
			}
		}
	default:
		s, err := find(*impl).New(*param)
		if err != nil {
			fail(err)
		}
		var in *bench.Inputs
		if *inputs != "" {
			all := map[string]*bench.Inputs{}
			f, err := os.Open(*inputs)
			if err != nil {
				fail(err)
			}
			if err := gob.NewDecoder(f).Decode(&all); err != nil {
				fail(err)
			}
			f.Close()
			if in = all[*param]; in == nil {
				fail(fmt.Errorf("%s holds no inputs for %s", *inputs, *param))
			}
		}
		f, err := bench.Prepare(s, *op, w, in)
		if errors.Is(err, bench.ErrUnsupported) {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		if err != nil {
			fail(err)
		}
		for i := range *n {
			if err := f(i); err != nil {
				fail(err)
			}
		}
	}
}

func find(name string) bench.Impl {
	if im, ok := bench.ImplByName(name); ok {
		return im
	}
	fail(fmt.Errorf("unknown implementation %q", name))
	panic("unreachable")
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "driver:", err)
	os.Exit(1)
}
