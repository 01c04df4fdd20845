package check

import (
	"fmt"
	"time"

	"github.com/vg-crypto/vg/Spec/sat"
	"github.com/vg-crypto/vg/Spec/x86"
)

// blaster encodes 64-bit terms as CNF (Tseitin): every term bit is a
// literal; AND/OR/XOR bits get defining clauses, NOT negates, shifts and
// rotations by constants rewire. Other operators are refused, so a query
// the encoding does not cover is never answered.
type blaster struct {
	s     *sat.Solver
	tru   int
	memo  map[*x86.Term][64]int
	vars  map[string][64]int
	gates map[[3]int]int
}

func newBlaster() *blaster {
	b := &blaster{s: sat.New(), memo: map[*x86.Term][64]int{}, vars: map[string][64]int{}, gates: map[[3]int]int{}}
	b.tru = b.s.NewVar()
	b.s.AddClause(b.tru)
	return b
}

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
	g := b.s.NewVar()
	b.s.AddClause(-g, x)
	b.s.AddClause(-g, y)
	b.s.AddClause(g, -x, -y)
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
	g := b.s.NewVar()
	b.s.AddClause(-g, x, y)
	b.s.AddClause(-g, -x, -y)
	b.s.AddClause(g, -x, y)
	b.s.AddClause(g, x, -y)
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
				v[i] = b.s.NewVar()
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
	default:
		return r, fmt.Errorf("operator %s is not bit-blasted", t.Op)
	}
	b.memo[t] = r
	return r, nil
}

// satEqual decides a = b for every value of the variables with the SAT
// solver: it asks for an assignment under which some bit differs. Unsat is
// a proof; Sat a counterexample; Unknown (budget or deadline) neither.
func satEqual(a, b *x86.Term, deadline time.Time) (sat.Result, error) {
	bl := newBlaster()
	x, err := bl.term(a)
	if err != nil {
		return sat.Unknown, err
	}
	y, err := bl.term(b)
	if err != nil {
		return sat.Unknown, err
	}
	var diff []int
	for i := range x {
		d := bl.xor(x[i], y[i])
		if v, ok := bl.isConst(d); ok {
			if v {
				return sat.Sat, nil // a bit differs whatever the variables
			}
			continue
		}
		diff = append(diff, d)
	}
	if len(diff) == 0 {
		return sat.Unsat, nil // every bit is the same literal
	}
	bl.s.AddClause(diff...)
	return bl.s.Solve(satConflicts, deadline), nil
}

// satConflicts bounds one query; the lane equalities of a Keccak round
// need a few dozen conflicts.
const satConflicts = 200_000
