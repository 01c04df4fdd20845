package check

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// fixedCuts proposes the given cuts for every routine.
type fixedCuts []Cut

func (fixedCuts) Invariants(string) []Invariant { return nil }

func (h fixedCuts) KeccakCuts(*x86.File, *x86.Routine, *contract.Contract, int) ([]Cut, error) {
	return h, nil
}

// Without a cut search, or with cuts of the wrong shape, the proof fails
// before it assumes anything. (The search itself and wrong cut contents
// are tested where the search lives, in Proofs.)
func TestProveKeccakFailsClosed(t *testing.T) {
	f := parseGoAsm(t, "keccak_amd64.s")
	r, c := f.Routine("KeccakF1600AMD64"), contract.Lookup("KeccakF1600AMD64")
	steps := make(fixedCuts, 24)
	for i := range steps {
		steps[i].Step = 24 - i // decreasing
	}
	for _, tc := range []struct {
		name string
		h    Hints
		want string
	}{
		{"no hints", nil, "no cut search"},
		{"no cuts", fixedCuts{}, "0 cuts proposed"},
		{"steps out of order", steps, "not after step"},
		{"unknown location", append(fixedCuts{{Step: 1, PC: 1, Lanes: []LaneAt{{Loc: "nowhere+8"}}}}, make(fixedCuts, 23)...), "no location"},
		{"XOR lane out of range", append(fixedCuts{{Step: 1, PC: 1, Lanes: []LaneAt{{Loc: "AX", Xor: []int{25}}}}}, make(fixedCuts, 23)...), "out of range or repeated"},
		{"XOR lane repeated", append(fixedCuts{{Step: 1, PC: 1, Lanes: []LaneAt{{Loc: "AX", Lane: 3, Xor: []int{8, 3}}}}}, make(fixedCuts, 23)...), "out of range or repeated"},
	} {
		d, err := ProveKeccak(f, r, c, tc.h, 1<<22)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %q, %v; want an error with %q", tc.name, d, err, tc.want)
		}
	}
}

func TestAllEqual(t *testing.T) {
	s := x86.NewSym()
	x, y := s.Var("x"), s.Var("y")
	rot1 := s.Or(s.Shl(x, 1), s.Shr(x, 63)) // a rotation by shifts: ANF
	cases := []struct {
		got, want *x86.Term
		ok        bool
	}{
		{s.Xor(s.Rol(x, 1), y), s.Xor(y, s.Rol(x, 1)), true},
		{s.Xor(s.Rol(x, 1), y), s.Xor(s.Rol(x, 2), y), false},
		{s.Not(s.Or(s.Not(x), y)), s.And(x, s.Not(y)), true}, // De Morgan
		{s.Xor(s.And(x, y), x), s.And(x, y), false},
		{rot1, s.Rol(x, 1), true},
		{rot1, s.Rol(x, 2), false},
		{s.Sar(s.Shl(x, 8), 8), s.Shr(s.Shl(x, 8), 8), false},
		{s.Add(x, y), s.Add(y, x), true}, // not in ANF's fragment: SAT
		{s.Xor(s.Add(x, y), s.Shl(x, 3)), s.Xor(s.Shl(x, 3), s.Add(y, x)), true},
		{s.Add(x, s.Shl(y, 1)), s.Add(x, s.Rol(y, 1)), false},
		{s.Mul(x, y), s.Mul(y, x), false}, // not bit-blasted: never proven
	}
	withZ3 := []bool{false}
	if _, err := exec.LookPath("z3"); err == nil {
		withZ3 = append(withZ3, true)
	}
	for _, z3 := range withZ3 {
		if !z3 {
			t.Setenv("PATH", "") // the SAT solver alone
		} else {
			t.Setenv("PATH", os.Getenv("PATH"))
		}
		for i, c := range cases {
			_, n, note, err := allEqual([]*x86.Term{c.got}, []*x86.Term{c.want}, []string{"case"}, time.Now().Add(time.Minute))
			if (err == nil) != c.ok {
				t.Errorf("z3=%v case %d: err = %v, want equal = %v", z3, i, err, c.ok)
			}
			if err == nil && n == 1 && (note == "") {
				t.Errorf("z3=%v case %d: no note on the second opinion", z3, i)
			}
		}
	}
}

// The bit-blaster agrees with concrete evaluation: on random terms, SAT's
// answer for t = u is checked against 64 random evaluations, and a
// counterexample must really separate them.
func TestBitBlastAgainstEvaluation(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	s := x86.NewSym()
	vars := []*x86.Term{s.Var("a"), s.Var("b"), s.Var("c")}
	gen := randTerms(rng, s, vars, true)
	eval := func(tm *x86.Term, env map[string]uint64) uint64 {
		c := x86.NewSym()
		var ev func(*x86.Term) *x86.Term
		ev = func(u *x86.Term) *x86.Term {
			switch u.Op {
			case "var":
				return c.Const(env[u.Name])
			case "const":
				return c.Const(u.Val)
			case "bvand":
				return c.And(ev(u.Args[0]), ev(u.Args[1]))
			case "bvor":
				return c.Or(ev(u.Args[0]), ev(u.Args[1]))
			case "bvxor":
				return c.Xor(ev(u.Args[0]), ev(u.Args[1]))
			case "bvnot":
				return c.Not(ev(u.Args[0]))
			case "rol":
				return c.Rol(ev(u.Args[0]), uint(u.Val))
			case "shl":
				return c.Shl(ev(u.Args[0]), uint(u.Val))
			case "lshr":
				return c.Shr(ev(u.Args[0]), uint(u.Val))
			case "ashr":
				return c.Sar(ev(u.Args[0]), uint(u.Val))
			}
			t.Fatalf("op %s", u.Op)
			return nil
		}
		v, _ := c.Concrete(ev(tm))
		return v
	}
	counts := map[satResult]int{}
	for iter := 0; iter < 400; iter++ {
		a := gen(4)
		b := a
		if rng.IntN(2) == 0 {
			b = gen(4)
		} else {
			// An equal term built differently: De Morgan on the outside.
			b = s.Not(s.Or(s.Not(a), s.And(vars[0], s.Not(vars[0]))))
		}
		r, err := satEqual(a, b, time.Now().Add(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		counts[r]++
		differs := false
		for k := 0; k < 64; k++ {
			env := map[string]uint64{"a": rng.Uint64(), "b": rng.Uint64(), "c": rng.Uint64()}
			if eval(a, env) != eval(b, env) {
				differs = true
			}
		}
		if differs && r != satSat {
			t.Fatalf("iteration %d: SAT says %v but evaluation separates the terms", iter, r)
		}
		if r == satUnknown {
			t.Fatalf("iteration %d: unknown", iter)
		}
	}
	if counts[satSat] < 50 || counts[satUnsat] < 50 {
		t.Errorf("unbalanced: %v", counts)
	}
	t.Logf("answers: %v", counts)
}

// The algebraic normal form is canonical, shifts included: on random
// terms it calls two terms equal exactly when the SAT solver does, and
// it proves a rotation built from two shifts and an OR, and one built
// from bytes as VPSHUFB builds it, equal to the rotation.
func TestANFAgainstSAT(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	s := x86.NewSym()
	vars := []*x86.Term{s.Var("a"), s.Var("b"), s.Var("c")}
	gen := randTerms(rng, s, vars, false) // no arithmetic shift: outside ANF
	same, differ := 0, 0
	for iter := 0; iter < 400; iter++ {
		a := gen(4)
		var b *x86.Term
		switch rng.IntN(3) {
		case 0:
			b = gen(4)
		case 1:
			// Equal, built differently: a rotation of a as two shifts.
			k := uint(1 + rng.IntN(63))
			b = s.Or(s.Shr(a, 64-k), s.Shl(a, k))
			a = s.Rol(a, k)
		default:
			// Equal or one bit apart: a shifted out and back.
			k := uint(1 + rng.IntN(63))
			b = s.Or(s.Shr(s.Shl(a, k), k), s.Shl(s.Shr(a, 64-k), 64-k))
		}
		memo := map[*x86.Term]anfPoly{}
		pa, okA := anf(a, memo)
		pb, okB := anf(b, memo)
		if !okA || !okB {
			t.Fatalf("iteration %d: a term outside ANF's fragment", iter)
		}
		r, err := satEqual(a, b, time.Now().Add(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		if pa.equal(pb) != (r == satUnsat) || r == satUnknown {
			t.Fatalf("iteration %d: ANF equal %v, SAT %v", iter, pa.equal(pb), r)
		}
		if pa.equal(pb) {
			same++
		} else {
			differ++
		}
	}
	if same < 50 || differ < 50 {
		t.Errorf("unbalanced: %d equal, %d different", same, differ)
	}
	// A whole-byte rotation as VPSHUFB's semantics build it: byte i of
	// the result is byte i−1 of the word.
	x := s.Var("x")
	bs := make([]*x86.Term, 8)
	for i := range bs {
		bs[i] = s.And(s.Shr(x, uint(8*((i+7)%8))), s.Const(0xff))
	}
	memo := map[*x86.Term]anfPoly{}
	p, ok1 := anf(s.FromBytes(bs), memo)
	q, ok2 := anf(s.Rol(x, 8), memo)
	if !ok1 || !ok2 || !p.equal(q) {
		t.Errorf("bytes rotated by one: ANF %v %v, equal %v", ok1, ok2, p.equal(q))
	}
	p, _ = anf(s.FromBytes(bs), memo)
	q, _ = anf(s.Rol(x, 56), memo)
	if p.equal(q) {
		t.Errorf("bytes rotated by one equal to a rotation by 56")
	}
}

// randTerms returns a generator of random terms of the given depth over
// vars and constants: AND, OR, XOR, NOT, rotations, logical shifts and,
// with sar, arithmetic shifts.
func randTerms(rng *rand.Rand, s *x86.Sym, vars []*x86.Term, sar bool) func(depth int) *x86.Term {
	ops := 7
	if sar {
		ops = 8
	}
	var gen func(depth int) *x86.Term
	gen = func(depth int) *x86.Term {
		if depth == 0 || rng.IntN(4) == 0 {
			if rng.IntN(5) == 0 {
				return s.Const(rng.Uint64() & (1<<rng.IntN(64) - 1))
			}
			return vars[rng.IntN(len(vars))]
		}
		switch rng.IntN(ops) {
		case 0:
			return s.And(gen(depth-1), gen(depth-1))
		case 1:
			return s.Or(gen(depth-1), gen(depth-1))
		case 2:
			return s.Xor(gen(depth-1), gen(depth-1))
		case 3:
			return s.Not(gen(depth - 1))
		case 4:
			return s.Rol(gen(depth-1), uint(rng.IntN(64)))
		case 5:
			return s.Shl(gen(depth-1), uint(rng.IntN(64)))
		case 6:
			return s.Shr(gen(depth-1), uint(rng.IntN(64)))
		}
		return s.Sar(gen(depth-1), uint(rng.IntN(64)))
	}
	return gen
}
