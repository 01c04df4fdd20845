package check

import (
	"math/rand/v2"
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
		if r, err := satHolds(pin, s.Eq(tm, s.Const(v)), deadline); err != nil || r != sat.Unsat {
			t.Fatalf("iteration %d: term = its value: %v %v", iter, r, err)
		}
		if r, err := satHolds(pin, s.Eq(tm, s.Const(v+1)), deadline); err != nil || r != sat.Sat {
			t.Fatalf("iteration %d: term = its value + 1: %v %v", iter, r, err)
		}
	}
}
