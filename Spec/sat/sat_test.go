package sat

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/vg-crypto/vg/Spec/drup"
)

// bruteForce decides a CNF over n ≤ 20 variables by trying every
// assignment.
func bruteForce(n int, cnf [][]int) bool {
	for a := 0; a < 1<<n; a++ {
		ok := true
		for _, c := range cnf {
			sat := false
			for _, x := range c {
				v := x
				if v < 0 {
					v = -v
				}
				if (a>>(v-1)&1 == 1) == (x > 0) {
					sat = true
					break
				}
			}
			if !sat {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// TestAgainstBruteForce compares the solver with exhaustive search on
// random 3-CNF formulas around the satisfiability threshold (both answers
// occur), and checks every model it returns.
func TestAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	counts := map[Result]int{}
	for iter := 0; iter < 3000; iter++ {
		n := 3 + rng.IntN(14)
		m := int(float64(n) * (3.5 + rng.Float64()*1.5))
		width := 2 + rng.IntN(3)
		var cnf [][]int
		s := New()
		for i := 0; i < n; i++ {
			s.NewVar()
		}
		for i := 0; i < m; i++ {
			var c []int
			for j := 0; j < width; j++ {
				x := 1 + rng.IntN(n)
				if rng.IntN(2) == 0 {
					x = -x
				}
				c = append(c, x)
			}
			cnf = append(cnf, c)
			s.AddClause(c...)
		}
		got := s.Solve(0, time.Time{})
		want := bruteForce(n, cnf)
		counts[got]++
		if (got == Sat) != want || got == Unknown {
			t.Fatalf("iteration %d: solver %v, brute force sat=%v on %v", iter, got, want, cnf)
		}
		if got == Unsat {
			if err := drup.Check(n, cnf, s.Proof); err != nil {
				t.Fatalf("iteration %d: the certificate is rejected: %v", iter, err)
			}
		}
		if got == Sat {
			for _, c := range cnf {
				ok := false
				for _, x := range c {
					v := x
					if v < 0 {
						v = -v
					}
					if s.Value(v) == (x > 0) {
						ok = true
					}
				}
				if !ok {
					t.Fatalf("iteration %d: model violates clause %v", iter, c)
				}
			}
		}
	}
	if counts[Sat] < 300 || counts[Unsat] < 300 {
		t.Errorf("unbalanced test: %v", counts)
	}
	t.Logf("answers: %v", counts)
}

// Pigeonhole formulas (n+1 pigeons, n holes) are unsatisfiable and need
// real search; a conflict budget makes the answer Unknown, never Unsat
// or Sat.
func TestPigeonholeAndBudget(t *testing.T) {
	php := func(n int) (*Solver, [][]int) {
		s := New()
		var cnf [][]int
		add := func(c ...int) { s.AddClause(c...); cnf = append(cnf, c) }
		v := func(p, h int) int { return p*n + h + 1 }
		for i := 0; i < (n+1)*n; i++ {
			s.NewVar()
		}
		for p := 0; p <= n; p++ {
			var c []int
			for h := 0; h < n; h++ {
				c = append(c, v(p, h))
			}
			add(c...)
		}
		for h := 0; h < n; h++ {
			for p := 0; p <= n; p++ {
				for q := p + 1; q <= n; q++ {
					add(-v(p, h), -v(q, h))
				}
			}
		}
		return s, cnf
	}
	for n := 2; n <= 6; n++ {
		s, cnf := php(n)
		if r := s.Solve(0, time.Time{}); r != Unsat {
			t.Errorf("PHP(%d): %v", n, r)
		}
		if err := drup.Check(s.NumVars(), cnf, s.Proof); err != nil {
			t.Errorf("PHP(%d): the certificate is rejected: %v", n, err)
		}
		// The same certificate for the formula less a pigeon's clause
		// (satisfiable) must be rejected.
		if err := drup.Check(s.NumVars(), cnf[1:], s.Proof); err == nil {
			t.Errorf("PHP(%d) less a clause: the certificate is accepted", n)
		}
	}
	if s, _ := php(9); s.Solve(10, time.Time{}) != Unknown {
		t.Errorf("PHP(9) with 10 conflicts: want unknown")
	}
	if s, _ := php(9); s.Solve(0, time.Now().Add(-time.Second)) == Sat {
		t.Errorf("PHP(9) past its deadline: sat")
	}
}

func TestEdgeCases(t *testing.T) {
	s := New()
	a := s.NewVar()
	s.AddClause(a)
	s.AddClause(-a)
	if r := s.Solve(0, time.Time{}); r != Unsat {
		t.Errorf("a ∧ ¬a: %v", r)
	}
	if err := drup.Check(1, [][]int{{a}, {-a}}, s.Proof); err != nil {
		t.Errorf("a ∧ ¬a: %v", err)
	}
	s = New()
	s.AddClause()
	if r := s.Solve(0, time.Time{}); r != Unsat {
		t.Errorf("empty clause: %v", r)
	}
	if err := drup.Check(0, [][]int{{}}, s.Proof); err != nil {
		t.Errorf("empty clause: %v", err)
	}
	s = New()
	a, b := s.NewVar(), s.NewVar()
	s.AddClause(a, -a)
	s.AddClause(a, b)
	s.AddClause(-a)
	if r := s.Solve(0, time.Time{}); r != Sat || s.Value(a) || !s.Value(b) {
		t.Errorf("¬a ∧ (a ∨ b): %v a=%v b=%v", r, s.Value(a), s.Value(b))
	}
}
