package check

import (
	"fmt"
	"time"

	"github.com/vg-crypto/vg/Spec/drup"
	"github.com/vg-crypto/vg/Spec/sat"
	"github.com/vg-crypto/vg/Spec/x86"
)

// blaster encodes 64-bit terms as CNF (Tseitin): every term bit is a
// literal; AND/OR/XOR bits get defining clauses, NOT negates, shifts and
// rotations by constants rewire. Other operators are refused, so a query
// the encoding does not cover is never answered. The formula is kept
// here, not in the solver: it is what a certificate is checked against.
type blaster struct {
	nvars int
	cnf   [][]int
	tru   int
	memo  map[*x86.Term][64]int
	vars  map[string][64]int
	gates map[[3]int]int
}

func newBlaster() *blaster {
	b := &blaster{memo: map[*x86.Term][64]int{}, vars: map[string][64]int{}, gates: map[[3]int]int{}}
	b.tru = b.newVar()
	b.clause(b.tru)
	return b
}

func (b *blaster) newVar() int {
	b.nvars++
	return b.nvars
}

func (b *blaster) clause(lits ...int) { b.cnf = append(b.cnf, lits) }

func (b *blaster) isConst(l int) (bool, bool) {
	switch l {
	case b.tru:
		return true, true
	case -b.tru:
		return false, true
	}
	return false, false
}

// and returns a literal equal to x ∧ y.
func (b *blaster) and(x, y int) int {
	if v, ok := b.isConst(x); ok {
		if v {
			return y
		}
		return -b.tru
	}
	if v, ok := b.isConst(y); ok {
		if v {
			return x
		}
		return -b.tru
	}
	if x == y {
		return x
	}
	if x == -y {
		return -b.tru
	}
	if x > y {
		x, y = y, x
	}
	k := [3]int{0, x, y}
	if g, ok := b.gates[k]; ok {
		return g
	}
	g := b.newVar()
	b.clause(-g, x)
	b.clause(-g, y)
	b.clause(g, -x, -y)
	b.gates[k] = g
	return g
}

// xor returns a literal equal to x ⊕ y.
func (b *blaster) xor(x, y int) int {
	if v, ok := b.isConst(x); ok {
		if v {
			return -y
		}
		return y
	}
	if v, ok := b.isConst(y); ok {
		if v {
			return -x
		}
		return x
	}
	if x == y {
		return -b.tru
	}
	if x == -y {
		return b.tru
	}
	if x > y {
		x, y = y, x
	}
	k := [3]int{1, x, y}
	if g, ok := b.gates[k]; ok {
		return g
	}
	g := b.newVar()
	b.clause(-g, x, y)
	b.clause(-g, -x, -y)
	b.clause(g, -x, y)
	b.clause(g, x, -y)
	b.gates[k] = g
	return g
}

func (b *blaster) term(t *x86.Term) ([64]int, error) {
	if r, ok := b.memo[t]; ok {
		return r, nil
	}
	var r [64]int
	arg := func(i int) ([64]int, error) { return b.term(t.Args[i]) }
	switch t.Op {
	case "const":
		for i := range r {
			r[i] = -b.tru
			if t.Val>>i&1 == 1 {
				r[i] = b.tru
			}
		}
	case "var":
		v, ok := b.vars[t.Name]
		if !ok {
			for i := range v {
				v[i] = b.newVar()
			}
			b.vars[t.Name] = v
		}
		r = v
	case "bvnot":
		a, err := arg(0)
		if err != nil {
			return r, err
		}
		for i := range r {
			r[i] = -a[i]
		}
	case "bvand", "bvor", "bvxor":
		a, err := arg(0)
		if err != nil {
			return r, err
		}
		c, err := arg(1)
		if err != nil {
			return r, err
		}
		for i := range r {
			switch t.Op {
			case "bvand":
				r[i] = b.and(a[i], c[i])
			case "bvor": // x ∨ y = ¬(¬x ∧ ¬y)
				r[i] = -b.and(-a[i], -c[i])
			default:
				r[i] = b.xor(a[i], c[i])
			}
		}
	case "shl", "lshr", "ashr", "rol":
		a, err := arg(0)
		if err != nil {
			return r, err
		}
		n := int(t.Val)
		if n < 0 || n > 63 {
			return r, fmt.Errorf("shift by %d", n)
		}
		for i := range r {
			switch t.Op {
			case "shl":
				r[i] = -b.tru
				if i >= n {
					r[i] = a[i-n]
				}
			case "lshr":
				r[i] = -b.tru
				if i+n < 64 {
					r[i] = a[i+n]
				}
			case "ashr":
				r[i] = a[63]
				if i+n < 64 {
					r[i] = a[i+n]
				}
			default:
				r[i] = a[(i-n+64)%64]
			}
		}
	case "bvadd", "bvsub", "eq", "ult", "slt":
		a, err := arg(0)
		if err != nil {
			return r, err
		}
		c, err := arg(1)
		if err != nil {
			return r, err
		}
		switch t.Op {
		case "bvadd":
			r, _ = b.add(a, c, -b.tru)
		case "bvsub": // a + ¬c + 1
			r, _ = b.add(a, neg(c), b.tru)
		case "eq":
			e := b.tru
			for i := range a {
				e = b.and(e, -b.xor(a[i], c[i]))
			}
			r = b.bit(e)
		case "ult": // a < c iff a + ¬c + 1 has no carry out
			_, carry := b.add(a, neg(c), b.tru)
			r = b.bit(-carry)
		default: // signed: flip the sign bits, then unsigned
			a[63], c[63] = -a[63], -c[63]
			_, carry := b.add(a, neg(c), b.tru)
			r = b.bit(-carry)
		}
	case "ite":
		c, err := arg(0)
		if err != nil {
			return r, err
		}
		x, err := arg(1)
		if err != nil {
			return r, err
		}
		y, err := arg(2)
		if err != nil {
			return r, err
		}
		// The condition is nonzero.
		nz := -b.tru
		for _, l := range c {
			nz = -b.and(-nz, -l)
		}
		for i := range r {
			r[i] = -b.and(-b.and(nz, x[i]), -b.and(-nz, y[i]))
		}
	default:
		return r, fmt.Errorf("operator %s is not bit-blasted", t.Op)
	}
	b.memo[t] = r
	return r, nil
}

func neg(a [64]int) [64]int {
	for i := range a {
		a[i] = -a[i]
	}
	return a
}

// bit returns the word whose bit 0 is l and the others 0.
func (b *blaster) bit(l int) [64]int {
	var r [64]int
	for i := range r {
		r[i] = -b.tru
	}
	r[0] = l
	return r
}

// add returns a + c + carry (ripple carry) and the carry out.
func (b *blaster) add(a, c [64]int, carry int) ([64]int, int) {
	var r [64]int
	for i := range r {
		x := b.xor(a[i], c[i])
		r[i] = b.xor(x, carry)
		// carry' = a∧c ∨ carry∧(a⊕c)
		carry = -b.and(-b.and(a[i], c[i]), -b.and(carry, x))
	}
	return r, carry
}

// satHolds decides whether goal is nonzero for every value of the
// variables under which every assumption is nonzero: it asks for an
// assignment with every assumption nonzero and goal zero. A constant
// literal is a clause like any other (the clause of a false one is false
// outright), so every answer comes from the solver and every Unsat from a
// checked certificate.
func satHolds(assume []*x86.Term, goal *x86.Term, deadline time.Time) (satResult, error) {
	bl := newBlaster()
	nonzero := func(t *x86.Term) (int, error) {
		w, err := bl.term(t)
		if err != nil {
			return 0, err
		}
		l := -bl.tru
		for _, x := range w {
			l = -bl.and(-l, -x)
		}
		return l, nil
	}
	for _, a := range assume {
		l, err := nonzero(a)
		if err != nil {
			return satUnknown, err
		}
		bl.clause(l)
	}
	g, err := nonzero(goal)
	if err != nil {
		return satUnknown, err
	}
	bl.clause(-g)
	return bl.solve(deadline)
}

// satEqual decides a = b for every value of the variables with the SAT
// solver: it asks for an assignment under which some bit differs. Unsat is
// a proof; Sat a counterexample; Unknown (budget or deadline) neither.
func satEqual(a, b *x86.Term, deadline time.Time) (satResult, error) {
	bl := newBlaster()
	x, err := bl.term(a)
	if err != nil {
		return satUnknown, err
	}
	y, err := bl.term(b)
	if err != nil {
		return satUnknown, err
	}
	diff := make([]int, len(x))
	for i := range x {
		diff[i] = bl.xor(x[i], y[i])
	}
	bl.clause(diff...)
	return bl.solve(deadline)
}

// satResult is a query's answer as the checker takes it. This file alone
// reads Spec/sat's answers (check_tcb keeps it so), and gives satUnsat
// only for a certified unsat.
type satResult int

const (
	satUnknown satResult = iota
	satSat
	satUnsat
)

func (r satResult) String() string {
	switch r {
	case satSat:
		return "sat"
	case satUnsat:
		return "unsat"
	}
	return "unknown"
}

// solver decides a CNF formula over the variables 1 … nvars; after Unsat,
// proof is its certificate for Spec/drup. It is Spec/sat, which is not
// trusted; tests put a lying solver here.
var solver = func(nvars int, cnf [][]int, deadline time.Time) (r sat.Result, proof [][]int) {
	s := sat.New()
	for i := 0; i < nvars; i++ {
		s.NewVar()
	}
	for _, c := range cnf {
		s.AddClause(c...)
	}
	r = s.Solve(satConflicts, deadline)
	return r, s.Proof
}

// solve asks the solver about the formula built. satUnsat is returned
// only when drup.Check accepts the solver's certificate against bl.cnf,
// the formula as built here; otherwise the answer is an error. Sat and
// unknown are never a proof, so they are passed on unchecked.
func (bl *blaster) solve(deadline time.Time) (satResult, error) {
	r, proof := solver(bl.nvars, bl.cnf, deadline)
	switch r {
	case sat.Sat:
		return satSat, nil
	case sat.Unsat:
		if err := drup.Check(bl.nvars, bl.cnf, proof); err != nil {
			return satUnknown, fmt.Errorf("the SAT solver's unsat is not certified: %v", err)
		}
		return satUnsat, nil
	}
	return satUnknown, nil
}

// satConflicts bounds one query; the lane equalities of a Keccak round
// need a few dozen conflicts.
const satConflicts = 200_000
