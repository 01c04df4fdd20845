package bench

// Routine is one of vg's routines beside its counterpart in pq-crystals'
// AVX2 code (pqcrystals/routines.c, under the same Name), for the
// per-routine timings of cmd/routines.
type Routine struct {
	Name string // shared with pqcrystals/routines.c
	VG   string // go/asm function
	C    string // pq-crystals function, or "" if it has no counterpart
	Run  func(i int)
	// NoCount marks an AVX-512 routine: timed only, since valgrind
	// cannot run AVX-512 code.
	NoCount bool
	// Beside, for a routine without a C counterpart of its own (C is
	// ""), names the routine whose C timings its row shows.
	Beside string
}

// Routines returns vg's routines of the AVX2 path on ML-DSA-65's inputs,
// with the AVX-512 path's where the CPU has AVX512F and AVX512VL, or nil
// where this build has no assembly or the CPU lacks AVX2.
func Routines() []Routine {
	if !routinesUsable() {
		return nil
	}
	return routineList()
}

// RoutineTiming is one line of the drivers' routine timings (the C
// driver prints the same JSON).
type RoutineTiming struct {
	Routine             string
	NsPerOp, CPUNsPerOp float64
}
