package check

import (
	"fmt"
	"math/bits"
	"strconv"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// The proof of a packing's flag (contract.Packed's Flag, step 4 of the
// packing proof): the flag's term from the symbolic run, whose variables
// are the 256 fields (and whatever else the routine reads: registers, the
// frame, old bytes), must be 1 exactly when Bad holds for some field, else
// 0. One SAT query over every field's bits at once is beyond the pure-Go
// solver; the proof cuts the circuit between positions:
//
//  a. The term is bit-blasted (AND and XOR gates, constants folded,
//     shifts and masks rewired). A literal's support is the set of
//     positions whose field bits its cone reads; any other variable (a
//     field's bits from Width up, garbage) counts as a position of its
//     own that is never cut.
//  b. The cut: every literal that reads exactly one position j and feeds
//     a gate reading more (or is a bit of the flag). Each is a function
//     of field j alone, evaluated on all 2^Width fields (exhaustion): on
//     the fields Bad holds for it is always 1, always 0 or either, and
//     likewise on the others.
//  c. The circuit above the cut, with each cut literal replaced by
//     e_j ? v1 : v0 (e_j a Boolean variable, read as Bad of field j; v1
//     and v0 the literal's constant on the bad and the good fields, or,
//     where it is not constant, a Boolean variable of its own) and every
//     other input free, must equal OR_j e_j for every value of its
//     variables: one SAT query, which z3, where installed, answers too.
//     Every input of the routine gives values of those variables (e_j =
//     Bad of field j, the others the literals' values) under which this
//     circuit computes the routine's flag, so the flag is OR_j Bad(field
//     j) for every input.

// posSet is a set of positions; position otherPos stands for every input
// bit that is not a field's.
type posSet [5]uint64

const otherPos = 256

func (p *posSet) add(j int) { p[j/64] |= 1 << (j % 64) }

func (p *posSet) union(q posSet) {
	for i := range p {
		p[i] |= q[i]
	}
}

// only returns j if the set is {j} for a field's position j, else −1.
func (p *posSet) only() int {
	j := -1
	for i, w := range p {
		switch {
		case w == 0:
		case j >= 0 || w&(w-1) != 0:
			return -1
		default:
			j = 64*i + bits.TrailingZeros64(w)
		}
	}
	if j == otherPos {
		return -1
	}
	return j
}

// proveFlag runs steps a to c on flag, the term of buffer pk.Flag's 4
// bytes whose field i is bits 0 to Width − 1 of variable in0_i.
func proveFlag(flag *x86.Term, pk *contract.Packed) (string, error) {
	W := pk.Width
	if W > 6 {
		return "", fmt.Errorf("%s: fields of %d bits, more than a 64-bit truth table holds", pk.Flag, W)
	}
	n := 1 << W
	full := ^uint64(0) >> (64 - n)
	var badT uint64 // bit z: Bad(z)
	for z := 0; z < n; z++ {
		if pk.Bad(uint32(z)) {
			badT |= 1 << z
		}
	}
	goodT := full &^ badT

	// a. Bit-blast; gates and inputs by variable, which the blaster
	// numbers after the variables a gate reads.
	bl := newBlaster()
	out, err := bl.term(flag)
	if err != nil {
		return "", fmt.Errorf("%s: %v", pk.Flag, err)
	}
	nv := bl.nvars
	type gate struct {
		xor  bool
		x, y int
	}
	def := make([]*gate, nv+1)
	for k, g := range bl.gates {
		def[g] = &gate{xor: k[0] == 1, x: k[1], y: k[2]}
	}
	sup := make([]posSet, nv+1)
	fieldBit := make([]int, nv+1)
	for i := range fieldBit {
		fieldBit[i] = -1
	}
	for name, vs := range bl.vars {
		j, err := strconv.Atoi(name[min(len(name), len("in0_")):])
		field := err == nil && name == "in0_"+strconv.Itoa(j) && j >= 0 && j < laneWords
		for b, v := range vs {
			if field && b < W {
				sup[v].add(j)
				fieldBit[v] = b
			} else {
				sup[v].add(otherPos)
			}
		}
	}
	abs := func(l int) int {
		if l < 0 {
			return -l
		}
		return l
	}
	// Truth tables of the literals reading one position (or none: the
	// constant), over its 2^Width fields.
	tt := make([]uint64, nv+1)
	tt[bl.tru] = full
	litT := func(l int) uint64 {
		if l < 0 {
			return ^tt[-l] & full
		}
		return tt[l]
	}
	for v := 1; v <= nv; v++ {
		if g := def[v]; g != nil {
			sup[v] = sup[abs(g.x)]
			sup[v].union(sup[abs(g.y)])
		}
		if sup[v].only() < 0 {
			continue
		}
		switch g := def[v]; {
		case fieldBit[v] >= 0:
			for z := 0; z < n; z++ {
				tt[v] |= uint64(z>>fieldBit[v]&1) << z
			}
		case g != nil && g.xor:
			tt[v] = litT(g.x) ^ litT(g.y)
		case g != nil:
			tt[v] = litT(g.x) & litT(g.y)
		}
	}

	// b and c. The circuit above the cut, as 0/1 terms of a new domain.
	s := x86.NewSym()
	one := s.Const(1)
	boolVar := func(name string) *x86.Term { return s.And(s.Var(name), one) }
	e := map[int]*x86.Term{}
	eOf := func(j int) *x86.Term {
		switch {
		case badT == 0:
			return s.Const(0)
		case goodT == 0:
			return one
		}
		if e[j] == nil {
			e[j] = boolVar("e_" + strconv.Itoa(j))
		}
		return e[j]
	}
	cut, exact := 0, 0
	memo := map[int]*x86.Term{}
	var node func(v int) *x86.Term
	lit := func(l int) *x86.Term {
		if l < 0 {
			return s.Xor(node(-l), one)
		}
		return node(l)
	}
	node = func(v int) *x86.Term {
		if t, ok := memo[v]; ok {
			return t
		}
		var t *x86.Term
		switch g := def[v]; {
		case v == bl.tru:
			t = one
		case sup[v].only() >= 0:
			// A cut literal: its constant on the bad (good) fields, or a
			// variable of its own where it is not constant.
			side := func(class uint64) *x86.Term {
				switch tt[v] & class {
				case 0:
					return s.Const(0)
				case class:
					return one
				}
				return boolVar("u_" + strconv.Itoa(v))
			}
			hi, lo := side(badT), side(goodT)
			if hi.Op == "const" && lo.Op == "const" {
				exact++
			}
			cut++
			ej := eOf(sup[v].only())
			t = s.Or(s.And(ej, hi), s.And(s.Xor(ej, one), lo))
		case g != nil && g.xor:
			t = s.Xor(lit(g.x), lit(g.y))
		case g != nil:
			t = s.And(lit(g.x), lit(g.y))
		default: // an input that is no field's bit: free
			t = boolVar("g_" + strconv.Itoa(v))
		}
		memo[v] = t
		return t
	}
	word := s.Const(0)
	for k, l := range out {
		word = s.Or(word, s.Shl(lit(l), uint(k)))
	}
	anyBad := s.Const(0)
	for j := 0; j < laneWords; j++ {
		anyBad = s.Or(anyBad, eOf(j))
	}
	if err := satAndZ3(nil, s.Eq(word, anyBad), pk.Flag+" as the OR over the fields of Bad"); err != nil {
		return "", err
	}
	return fmt.Sprintf("; %s is 1 exactly when Bad holds for some field, else 0: its bit-blasted circuit cut at %d literals that each read one field "+
		"(%d a constant on the fields Bad holds for and one on the others, exhaustion of the %d fields), the circuit above the cut "+
		"the OR of Bad over the 256 fields (one SAT query%s)", pk.Flag, cut, exact, n, z3Note()), nil
}
