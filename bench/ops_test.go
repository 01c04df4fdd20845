package bench

import (
	"errors"
	"testing"
)

// TestPrepare runs every operation of every implementation on all cases,
// from shared inputs (as the count runs do) and from its own (as the
// timings do). Only filippo.io/mldsa may lack SignExpanded.
func TestPrepare(t *testing.T) {
	w := NewWorkload()
	for _, p := range Params {
		vg, err := VG.New(p)
		if err != nil {
			t.Fatal(err)
		}
		shared, err := NewInputs(vg, w)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range Implementations() {
			s, err := im.New(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, in := range []*Inputs{shared, nil} {
				for _, op := range Ops {
					f, err := Prepare(s, op, w, in)
					if errors.Is(err, ErrUnsupported) && op == OpSignExpanded && im.Name == "filippo" {
						continue
					}
					if err != nil {
						t.Fatalf("%s %s %s: %v", im.Name, p, op, err)
					}
					for i := range Cases {
						if err := f(i); err != nil {
							t.Fatalf("%s %s %s case %d: %v", im.Name, p, op, i, err)
						}
					}
				}
			}
		}
	}
}

func TestMedian(t *testing.T) {
	m := Median([]Timing{{NsPerOp: 30, CPUNsPerOp: 5, AllocsPerOp: 1}, {NsPerOp: 10, CPUNsPerOp: 7, AllocsPerOp: 3}, {NsPerOp: 20, CPUNsPerOp: 6, AllocsPerOp: 2}})
	if m.NsPerOp != 20 || m.CPUNsPerOp != 6 || m.AllocsPerOp != 2 || m.Runs != 3 {
		t.Fatalf("Median = %+v, want 20 ns, 6 ns CPU, 2 allocs, 3 runs", m)
	}
}
