package check

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/vg-crypto/vg/Spec/sat"
	"github.com/vg-crypto/vg/Spec/x86"
)

// TestBitBlastArithmetic pins the variables of random terms with the
// arithmetic and comparison operators to values and asks whether the
// term equals its value as Sym folds it (it must) and that value plus one
// (it must not).
func TestBitBlastArithmetic(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	names := []string{"a", "b", "c"}
	var gen func(s *x86.Sym, leaf func(string) *x86.Term, r *rand.Rand, depth int) *x86.Term
	gen = func(s *x86.Sym, leaf func(string) *x86.Term, r *rand.Rand, depth int) *x86.Term {
		if depth == 0 || r.IntN(5) == 0 {
			if r.IntN(4) == 0 {
				return s.Const(r.Uint64() >> r.IntN(64))
			}
			return leaf(names[r.IntN(len(names))])
		}
		x := func() *x86.Term { return gen(s, leaf, r, depth-1) }
		switch r.IntN(7) {
		case 0:
			return s.Add(x(), x())
		case 1:
			return s.Sub(x(), x())
		case 2:
			return s.Eq(x(), x())
		case 3:
			return s.Ult(x(), x())
		case 4:
			return s.Slt(x(), x())
		case 5:
			return s.Ite(x(), x(), x())
		}
		return s.Xor(x(), x())
	}
	for iter := 0; iter < 300; iter++ {
		seed := rng.Uint64()
		env := map[string]uint64{}
		for _, n := range names {
			env[n] = rng.Uint64() >> rng.IntN(64)
		}
		s := x86.NewSym()
		tm := gen(s, func(n string) *x86.Term { return s.Var(n) }, rand.New(rand.NewPCG(seed, 1)), 4)
		c := x86.NewSym()
		v, ok := c.Concrete(gen(c, func(n string) *x86.Term { return c.Const(env[n]) }, rand.New(rand.NewPCG(seed, 1)), 4))
		if !ok {
			t.Fatal("not folded")
		}
		var pin []*x86.Term
		for _, n := range names {
			pin = append(pin, s.Eq(s.Var(n), s.Const(env[n])))
		}
		deadline := time.Now().Add(time.Minute)
		if r, err := satHolds(pin, s.Eq(tm, s.Const(v)), deadline); err != nil || r != satUnsat {
			t.Fatalf("iteration %d: term = its value: %v %v", iter, r, err)
		}
		if r, err := satHolds(pin, s.Eq(tm, s.Const(v+1)), deadline); err != nil || r != satSat {
			t.Fatalf("iteration %d: term = its value + 1: %v %v", iter, r, err)
		}
	}
}

// liars are solvers that answer unsat wrongly or without a proof: each
// certificate must be rejected, so the answer is an error, never unsat.
var liars = []struct {
	name   string
	solver func(int, [][]int, time.Time) (sat.Result, [][]int)
}{
	{"unsat, the empty clause alone", func(int, [][]int, time.Time) (sat.Result, [][]int) {
		return sat.Unsat, [][]int{{}}
	}},
	{"unsat, no certificate", func(int, [][]int, time.Time) (sat.Result, [][]int) {
		return sat.Unsat, nil
	}},
	// The honest solver on a stronger formula: the query's last clause
	// (the negated goal, or the bits that may differ) contradicted by
	// unit clauses. Its certificate is valid for that formula, not for
	// the one asked.
	{"unsat of a stronger formula", func(n int, cnf [][]int, deadline time.Time) (sat.Result, [][]int) {
		strong := append([][]int{}, cnf...)
		for _, x := range cnf[len(cnf)-1] {
			strong = append(strong, []int{-x})
		}
		return honestSolver(n, strong, deadline)
	}},
}

var honestSolver = solver

// TestLyingSolverIsCaught: with a lying solver, neither a true equality
// that needs search nor a false one is proven. Where unit propagation
// alone refutes the formula (every bit the same literal, an assumption
// 0), the empty clause alone is a valid certificate, and the answer is
// unsat whatever the solver.
func TestLyingSolverIsCaught(t *testing.T) {
	s := x86.NewSym()
	x, y, z := s.Var("x"), s.Var("y"), s.Var("z")
	deadline := time.Now().Add(time.Minute)
	queries := []struct {
		a, b *x86.Term
		want satResult
	}{
		{s.Add(s.Add(x, y), z), s.Add(x, s.Add(y, z)), satUnsat},
		{s.Sub(s.Add(x, y), y), x, satUnsat},
		{s.Add(x, y), s.Sub(x, y), satSat},
		{s.Xor(x, s.Const(1)), s.Not(x), satSat},
	}
	for _, q := range queries {
		if r, err := satEqual(q.a, q.b, deadline); err != nil || r != q.want {
			t.Fatalf("%v = %v with the solver: %v %v, want %v", q.a, q.b, r, err, q.want)
		}
	}
	defer func() { solver = honestSolver }()
	for _, l := range liars {
		solver = l.solver
		for _, q := range queries {
			r, err := satEqual(q.a, q.b, deadline)
			if err == nil || !strings.Contains(err.Error(), "not certified") {
				t.Errorf("%s: %v = %v: %v %v, want a rejected certificate", l.name, q.a, q.b, r, err)
			}
		}
	}
	// The cases the blaster once answered without the solver: unit
	// propagation refutes them, so any solver's unsat with the empty
	// clause is accepted, and the honest solver's answers are right.
	for _, c := range []struct {
		assume []*x86.Term
		goal   *x86.Term
		want   satResult
	}{
		{[]*x86.Term{s.Const(0)}, s.Eq(x, y), satUnsat},
		{nil, s.Const(1), satUnsat},
		{nil, s.Eq(s.And(x, s.Const(0)), s.Const(0)), satUnsat},
		{nil, s.Eq(s.Add(x, y), s.Add(y, x)), satUnsat},
		{nil, s.Const(0), satSat},
	} {
		solver = honestSolver
		if r, err := satHolds(c.assume, c.goal, deadline); err != nil || r != c.want {
			t.Errorf("%v ⇒ %v: %v %v, want %v", c.assume, c.goal, r, err, c.want)
		}
		if c.want == satUnsat {
			solver = liars[0].solver
			if r, err := satHolds(c.assume, c.goal, deadline); err != nil || r != satUnsat {
				t.Errorf("%v ⇒ %v with the empty clause alone: %v %v", c.assume, c.goal, r, err)
			}
		}
	}
}

// TestLyingSolverFailsAProof plants the liars in a real proof: the norm
// check of NormExceedsAMD64 with one OR of the per-position results made
// an XOR, which the SAT query on the flag refutes; a solver that says
// unsat there (and everywhere) must not make it proven, nor the correct
// routine.
func TestLyingSolverFailsAProof(t *testing.T) {
	const sym = "NormExceedsAMD64"
	wrong := mutate(t, "normexceeds_amd64.s", 1, "ORL  BX, R10", "XORL BX, R10")
	d, err := proveExceeds(wrong, wrong.Routine(sym), normExceeds(sym), 1<<22)
	wantVerdict(t, d, err, "SAT solver: sat")
	defer func() { solver = honestSolver }()
	right := parseGoAsm(t, "normexceeds_amd64.s")
	for _, l := range liars {
		solver = l.solver
		for _, f := range []*x86.File{wrong, right} {
			d, err := proveExceeds(f, f.Routine(sym), normExceeds(sym), 1<<22)
			if err == nil || !strings.Contains(err.Error(), "not certified") {
				t.Errorf("%s: %v %q, want a rejected certificate", l.name, err, d)
			}
		}
	}
}
