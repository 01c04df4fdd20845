package drup

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// bruteForce reports whether a CNF over n ≤ 16 variables has a model.
func bruteForce(n int, cnf [][]int) bool {
	for a := 0; a < 1<<n; a++ {
		if satisfies(a, cnf) {
			return true
		}
	}
	return false
}

func satisfies(a int, cnf [][]int) bool {
	for _, c := range cnf {
		ok := false
		for _, x := range c {
			v := max(x, -x)
			if (a>>(v-1)&1 == 1) == (x > 0) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// dpll refutes an unsatisfiable CNF by a plain decision tree, independent
// of any solver under test: at a conflict under decisions d1 … dk it
// learns ¬d1 ∨ … ∨ ¬dk, which is RUP; when both branches of a decision
// are refuted, the clause without it is RUP by the two learned before.
// It returns false (and no proof) when it meets a model.
func dpll(n int, cnf [][]int) ([][]int, bool) {
	var proof [][]int
	var rec func(dec []int) bool
	rec = func(dec []int) bool {
		// The value of each variable under the decisions and propagation.
		val := make([]int, n+1)
		for _, d := range dec {
			val[max(d, -d)] = sign(d)
		}
		db := append(append([][]int{}, cnf...), proof...)
		for changed := true; changed; {
			changed = false
			for _, c := range db {
				open, last := 0, 0
				sat := false
				for _, x := range c {
					switch val[max(x, -x)] * sign(x) {
					case 1:
						sat = true
					case 0:
						open++
						last = x
					}
				}
				if sat {
					continue
				}
				if open == 0 {
					proof = append(proof, negate(dec))
					return true
				}
				if open == 1 {
					val[max(last, -last)] = sign(last)
					changed = true
				}
			}
		}
		for v := 1; v <= n; v++ {
			if val[v] == 0 {
				if !rec(append(append([]int{}, dec...), v)) || !rec(append(append([]int{}, dec...), -v)) {
					return false
				}
				proof = append(proof, negate(dec))
				return true
			}
		}
		return false // every variable has a value and no clause is false
	}
	return proof, rec(nil)
}

func sign(x int) int {
	if x < 0 {
		return -1
	}
	return 1
}

func negate(dec []int) []int {
	c := make([]int, len(dec))
	for i, d := range dec {
		c[i] = -d
	}
	return c
}

func randomCNF(rng *rand.Rand, n, m int) [][]int {
	var cnf [][]int
	for i := 0; i < m; i++ {
		var c []int
		for j := 0; j < 1+rng.IntN(4); j++ {
			x := 1 + rng.IntN(n)
			if rng.IntN(2) == 0 {
				x = -x
			}
			c = append(c, x)
		}
		cnf = append(cnf, c)
	}
	return cnf
}

// pigeonhole is PHP(n+1, n): n+1 pigeons, n holes, variable p·n + h + 1
// for pigeon p in hole h. It is unsatisfiable.
func pigeonhole(n int) (int, [][]int) {
	v := func(p, h int) int { return p*n + h + 1 }
	var cnf [][]int
	for p := 0; p <= n; p++ {
		var c []int
		for h := 0; h < n; h++ {
			c = append(c, v(p, h))
		}
		cnf = append(cnf, c)
	}
	for h := 0; h < n; h++ {
		for p := 0; p <= n; p++ {
			for q := p + 1; q <= n; q++ {
				cnf = append(cnf, []int{-v(p, h), -v(q, h)})
			}
		}
	}
	return (n + 1) * n, cnf
}

func TestPigeonhole(t *testing.T) {
	for n := 1; n <= 4; n++ {
		nv, cnf := pigeonhole(n)
		proof, ok := dpll(nv, cnf)
		if !ok {
			t.Fatalf("PHP(%d): the decision tree found a model", n)
		}
		if err := Check(nv, cnf, proof); err != nil {
			t.Fatalf("PHP(%d): %v", n, err)
		}
		// Without one clause the formula has a model: the same proof,
		// and any proof, must be rejected.
		if err := Check(nv, cnf[1:], proof); err == nil {
			t.Fatalf("PHP(%d) less a pigeon's clause: the proof was accepted", n)
		}
	}
}

// TestHandWritten covers the rules one at a time.
func TestHandWritten(t *testing.T) {
	// (x1 ∨ x2)(x1 ∨ ¬x2)(¬x1 ∨ x2)(¬x1 ∨ ¬x2): x1 is RUP, then ∅.
	cnf := [][]int{{1, 2}, {1, -2}, {-1, 2}, {-1, -2}}
	cases := []struct {
		name    string
		cnf     [][]int
		nvars   int
		learned [][]int
		err     string // "" for accepted
	}{
		{"x1 then empty", cnf, 2, [][]int{{1}, {}}, ""},
		{"empty at once is not RUP", cnf, 2, [][]int{{}}, "does not follow"},
		{"no empty clause", cnf, 2, [][]int{{1}}, "do not end"},
		{"no proof", cnf, 2, nil, "do not end"},
		{"a false step", cnf[:3], 2, [][]int{{-1}, {}}, "does not follow"},
		{"satisfiable, fabricated", [][]int{{1, 2}, {-1, -2}}, 2, [][]int{{1}, {-1}, {}}, "does not follow"},
		{"literal out of range", cnf, 2, [][]int{{3}, {}}, "out of range"},
		{"zero literal", cnf, 2, [][]int{{0}}, "out of range"},
		{"clause out of range", [][]int{{5}}, 2, [][]int{{}}, "out of range"},
		{"an empty original clause", [][]int{{1}, {}}, 1, [][]int{{}}, ""},
		{"units contradict", [][]int{{1}, {-1}}, 1, [][]int{{}}, ""},
		{"duplicates and tautologies", [][]int{{1, 1}, {-1, -1, 2, -2}, {-1, -1}}, 2, [][]int{{2, -2}, {}}, ""},
		{"a tautology only", [][]int{{1, -1}}, 1, [][]int{{}}, "does not follow"},
	}
	for _, c := range cases {
		err := Check(c.nvars, c.cnf, c.learned)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: err = %v, want %q", c.name, err, c.err)
		}
	}
}

// TestAgainstBruteForce checks, on random CNFs, that a refutation from the
// decision tree passes exactly where brute force finds no model, and that
// no proof passes where it finds one: the decision tree's proof of another
// formula, a proof with steps dropped or changed, or random clauses.
func TestAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	counts := map[bool]int{}
	var proofs [][][]int // refutations of earlier unsatisfiable formulas
	for iter := 0; iter < 4000; iter++ {
		n := 1 + rng.IntN(9)
		cnf := randomCNF(rng, n, 1+int(float64(n)*(0.5+rng.Float64()*2.5)))
		sat := bruteForce(n, cnf)
		counts[sat]++
		proof, refuted := dpll(n, cnf)
		if refuted == sat {
			t.Fatalf("iteration %d: decision tree refuted=%v, brute force sat=%v on %v", iter, refuted, sat, cnf)
		}
		if !sat {
			if err := Check(n, cnf, proof); err != nil {
				t.Fatalf("iteration %d: a valid refutation rejected: %v\n%v\n%v", iter, err, cnf, proof)
			}
			proofs = append(proofs, proof)
		}
		// Candidates: other formulas' proofs (their variables renamed into
		// range), this proof mutated, random clauses ending in ∅.
		var cands [][][]int
		for k := 0; k < 3 && len(proofs) > 0; k++ {
			cands = append(cands, inRange(proofs[rng.IntN(len(proofs))], n))
		}
		if !sat && len(proof) > 1 {
			i := rng.IntN(len(proof) - 1)
			cands = append(cands, append(append([][]int{}, proof[:i]...), proof[i+1:]...))
			mut := clone(proof)
			if len(mut[i]) > 0 {
				mut[i] = mut[i][1:]
			}
			cands = append(cands, mut)
		}
		for k := 0; k < 3; k++ {
			r := randomCNF(rng, n, rng.IntN(6))
			cands = append(cands, append(r, []int{}))
		}
		for _, p := range cands {
			if Check(n, cnf, p) == nil && sat {
				t.Fatalf("iteration %d: a proof of a satisfiable formula accepted\n%v\n%v", iter, cnf, p)
			}
		}
	}
	if counts[true] < 1000 || counts[false] < 1000 {
		t.Fatalf("the formulas are unbalanced: %v", counts)
	}
	t.Logf("satisfiable %d, unsatisfiable %d", counts[true], counts[false])
}

func clone(p [][]int) [][]int {
	out := make([][]int, len(p))
	for i, c := range p {
		out[i] = append([]int{}, c...)
	}
	return out
}

func inRange(p [][]int, n int) [][]int {
	out := clone(p)
	for _, c := range out {
		for i, x := range c {
			c[i] = sign(x) * (1 + (max(x, -x)-1)%n)
		}
	}
	return out
}

// TestWatchesAfterRetraction reuses clauses whose watches moved while a
// check assumed literals, after those were retracted.
func TestWatchesAfterRetraction(t *testing.T) {
	// a ∨ b ∨ c, ¬a ∨ d, ¬b ∨ d, ¬c ∨ d, ¬d ∨ e, ¬d ∨ ¬e.
	cnf := [][]int{{1, 2, 3}, {-1, 4}, {-2, 4}, {-3, 4}, {-4, 5}, {-4, -5}}
	proof := [][]int{{-1, -2}, {-4}, {-1}, {-2}, {-3}, {}}
	if err := Check(5, cnf, proof); err != nil {
		t.Fatal(err)
	}
	if bruteForce(5, cnf) {
		t.Fatal("the formula has a model")
	}
}
