package check

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
	"github.com/vg-crypto/vg/Spec/x86"
)

// The functional proof of a norm check (contract.Exceeds), for a routine
// whose control flow and addresses do not depend on its inputs:
//
//  1. One taint run: the flag depends on the polynomial and the bound
//     only (not on registers, frame or other memory).
//  2. One symbolic run, word j of the polynomial a variable w_j and the
//     bound a variable b, gives the flag as a term. Each node's two
//     32-bit halves get the set of positions they may read (packing two
//     lanes in a 64-bit word and taking one back out reads one position).
//     A lane node of position j reads only w_j and b; the maximal ones
//     below the root are the per-position results, and so is each half
//     of a node whose halves read one position each (two lanes packed).
//  3. Each distinct lane node L (position renamed to x, other positions'
//     words 0, which it does not read) is shown to be v1 when Of(x) ≥ b
//     and v0 otherwise, for every x in [0, q) and b < 2³¹: exhaustion of
//     x gives L(x, Of(x)) = v1 and L(x, Of(x) + 1) = v0 and the range of
//     each frontier node (the nodes reading x only that feed nodes
//     reading both); the SAT solver shows, for every frontier value in
//     those ranges and every b with b + 1 < 2³¹, that L is v0 or v1 and
//     that L(b + 1) = v1 implies L(b) = v1 (so, by induction, L(b′) = v1
//     implies L(b) = v1 for b ≤ b′). So L = v1 exactly for b ≤ Of(x).
//     A lane node that is 0 on the whole domain (by the may-be-one bit
//     analysis) is v1 = v0 = 0.
//  4. The flag with each lane node of position j replaced by v1 or v0 as
//     a Boolean e_j says must be 1 if some e_j is set, else 0 (SAT, b and
//     any position variable left in the term free).
//
// z3, where installed, answers every SAT query again and must agree.

// exceedsQueryTime bounds one SAT query of a norm check, and z3's answer.
const exceedsQueryTime = time.Minute

// halfDep holds, for each 32-bit half of a node, the positions it may
// read (bit 256: the bound).
type halfDep [2][5]uint64

func (d *halfDep) any() [5]uint64 {
	var u [5]uint64
	for i := range u {
		u[i] = d[0][i] | d[1][i]
	}
	return u
}

func union(a, b [5]uint64) [5]uint64 {
	for i := range a {
		a[i] |= b[i]
	}
	return a
}

const boundPos = 256

// onePosition returns j if the set is {j} or {j, bound}, else −1.
func onePosition(u [5]uint64) int {
	j := -1
	for p := 0; p < 256; p++ {
		if u[p/64]>>(p%64)&1 == 1 {
			if j >= 0 {
				return -1
			}
			j = p
		}
	}
	return j
}

// termBits gives the bits of t that may be 1 (variables: all 64).
func termBits(t *x86.Term, memo map[*x86.Term]uint64) uint64 {
	if v, ok := memo[t]; ok {
		return v
	}
	const all = ^uint64(0)
	arg := func(i int) uint64 { return termBits(t.Args[i], memo) }
	h := all
	n := t.Val
	switch t.Op {
	case "const":
		h = t.Val
	case "bvand":
		h = arg(0) & arg(1)
	case "bvor", "bvxor":
		h = arg(0) | arg(1)
	case "shl":
		h = arg(0) << n
	case "lshr":
		h = arg(0) >> n
	case "ashr":
		a := arg(0)
		h = a >> n
		if a>>63 != 0 {
			h |= all << (63 - n)
		}
	case "bvadd":
		a, b := arg(0), arg(1)
		switch {
		case a == 0:
			h = b
		case b == 0:
			h = a
		case bits.Len64(a|b) < 64:
			h = 1<<(bits.Len64(a|b)+1) - 1
		}
	case "eq", "ult", "slt":
		h = 1
	case "ite":
		h = arg(1) | arg(2)
	}
	memo[t] = h
	return h
}

// depOf gives the halves' position sets of t; every rule may only add
// positions a half could read, and a half whose bits are all 0 reads
// nothing.
func depOf(t *x86.Term, memo map[*x86.Term]*halfDep, nzs map[*x86.Term]uint64) (*halfDep, error) {
	if d, ok := memo[t]; ok {
		return d, nil
	}
	defer func() {
		if d := memo[t]; d != nil {
			nz := termBits(t, nzs)
			for h := 0; h < 2; h++ {
				if uint32(nz>>(32*h)) == 0 {
					d[h] = [5]uint64{}
				}
			}
		}
	}()
	d := &halfDep{}
	args := make([]*halfDep, len(t.Args))
	for i, a := range t.Args {
		ad, err := depOf(a, memo, nzs)
		if err != nil {
			return nil, err
		}
		args[i] = ad
	}
	all := [5]uint64{}
	for _, a := range args {
		all = union(all, a.any())
	}
	switch t.Op {
	case "const":
	case "var":
		p := -1
		if t.Name == "b" {
			p = boundPos
		} else if n, err := strconv.Atoi(strings.TrimPrefix(t.Name, "w_")); err == nil && t.Name == "w_"+strconv.Itoa(n) && n >= 0 && n < 256 {
			p = n
		} else {
			return nil, fmt.Errorf("the flag reads %q, not an input", t.Name)
		}
		d[0][p/64] |= 1 << (p % 64)
		d[1] = d[0]
	case "bvand":
		a, b := args[0], args[1]
		for h := 0; h < 2; h++ {
			ka, kb := constHalfZero(t.Args[0], h), constHalfZero(t.Args[1], h)
			if !ka && !kb {
				d[h] = union(a[h], b[h])
			}
		}
	case "bvor", "bvxor":
		for h := 0; h < 2; h++ {
			d[h] = union(args[0][h], args[1][h])
		}
	case "bvnot":
		*d = *args[0]
	case "shl", "lshr", "ashr":
		a := args[0]
		n := t.Val
		switch {
		case t.Op == "shl" && n >= 32:
			d[1] = a[0]
		case t.Op == "shl":
			d[0], d[1] = a[0], union(a[0], a[1])
		case n >= 32 && t.Op == "lshr":
			d[0] = a[1]
		case n >= 32:
			d[0], d[1] = a[1], a[1]
		default:
			d[0], d[1] = union(a[0], a[1]), a[1]
		}
	case "bvadd", "bvsub":
		d[0] = union(args[0][0], args[1][0])
		d[1] = union(d[0], union(args[0][1], args[1][1]))
	case "eq", "ult", "slt":
		d[0] = all
	default: // ite, mul, rol, popcnt…: everything reads everything
		d[0], d[1] = all, all
	}
	memo[t] = d
	return d, nil
}

// constHalfZero reports whether t is a constant whose half h is 0.
func constHalfZero(t *x86.Term, h int) bool {
	return t.Op == "const" && uint32(t.Val>>(32*h)) == 0
}

// laneNode is a distinct per-position result, renamed.
type laneNode struct {
	form   *laneForm
	v1, v0 uint64
}

func proveExceeds(f *x86.File, r *x86.Routine, c *contract.Contract, maxSteps int) (string, error) {
	ex := c.Exceeds
	if !hasBuffer(c, ex.In, 4*laneWords) || !hasBuffer(c, ex.Bound, 4) || !hasBuffer(c, ex.Flag, 4) || ex.Of == nil {
		return "", fmt.Errorf("malformed Exceeds")
	}
	if err := flagIndependence(f, r, c, maxSteps); err != nil {
		return "", err
	}
	// 2. The symbolic run.
	s := x86.NewSym()
	mk := func(v uint64, _, _ bool) *x86.Term { return s.Const(v) }
	rng := rand.New(rand.NewPCG(5, 6))
	m, _ := setup[*x86.Term](s, mk, f, r, c, c.Gen(rng), rng)
	for j := 0; j < laneWords; j++ {
		bs := make([]*x86.Term, 4)
		s.Bytes(s.Var(fmt.Sprintf("w_%d", j)), bs)
		copy(m.Region(ex.In).Bytes[4*j:], bs)
	}
	bs := make([]*x86.Term, 4)
	s.Bytes(s.Var("b"), bs)
	copy(m.Region(ex.Bound).Bytes, bs)
	if err := m.Run(maxSteps); err != nil {
		return "", fmt.Errorf("symbolic run: %v", err)
	}
	flag := s.FromBytes(m.Region(ex.Flag).Bytes)
	deps := map[*x86.Term]*halfDep{}
	if _, err := depOf(flag, deps, map[*x86.Term]uint64{}); err != nil {
		return "", err
	}
	// The maximal lane nodes.
	lanePos := map[*x86.Term]int{}
	seen := map[*x86.Term]bool{}
	halves := map[*x86.Term][2]*x86.Term{}
	var walk func(t *x86.Term)
	walk = func(t *x86.Term) {
		if seen[t] {
			return
		}
		seen[t] = true
		if j := onePosition(deps[t].any()); j >= 0 {
			lanePos[t] = j
			return
		}
		// Two lanes packed in one word: each half is a result.
		if lo, hi := onePosition(deps[t][0]), onePosition(deps[t][1]); lo >= 0 && hi >= 0 {
			tl, th := s.And(t, s.Const(1<<32-1)), s.Shr(t, 32)
			halves[t] = [2]*x86.Term{tl, th}
			lanePos[tl], lanePos[th] = lo, hi
			return
		}
		for _, a := range t.Args {
			walk(a)
		}
	}
	walk(flag)
	covered := map[int]bool{}
	for _, j := range lanePos {
		covered[j] = true
	}
	if len(covered) != laneWords {
		return "", fmt.Errorf("the flag has per-position results for %d of %d positions", len(covered), laneWords)
	}
	// 3. Each distinct lane node.
	shapes := map[string]*laneNode{}
	nodeOf := map[*x86.Term]*laneNode{}
	queries := 0
	for t, j := range lanePos {
		fm, err := canonicalFlag(t, j)
		if err != nil {
			return "", err
		}
		ln, ok := shapes[fm.key]
		if !ok {
			ln = &laneNode{form: fm}
			n, err := proveLaneNode(ln, ex.Of)
			if err != nil {
				return "", fmt.Errorf("the result of position %d: %v", j, err)
			}
			queries += n
			shapes[fm.key] = ln
		}
		nodeOf[t] = ln
	}
	// 4. The reduction.
	s2 := x86.NewSym()
	e := make([]*x86.Term, laneWords)
	var assume []*x86.Term
	any := s2.Const(0)
	for j := range e {
		e[j] = s2.Var(fmt.Sprintf("e_%d", j))
		assume = append(assume, s2.Ult(e[j], s2.Const(2)))
		any = s2.Or(any, e[j])
	}
	assume = append(assume, s2.Ult(s2.Var("b"), s2.Const(1<<31)))
	memo := map[*x86.Term]*x86.Term{}
	var rebuild func(t *x86.Term) (*x86.Term, error)
	rebuild = func(t *x86.Term) (*x86.Term, error) {
		if u, ok := memo[t]; ok {
			return u, nil
		}
		var u *x86.Term
		lane := func(t *x86.Term) *x86.Term {
			ln := nodeOf[t]
			return s2.Ite(s2.Eq(e[lanePos[t]], s2.Const(1)), s2.Const(ln.v1), s2.Const(ln.v0))
		}
		if h, ok := halves[t]; ok {
			u = s2.Or(lane(h[0]), s2.Shl(lane(h[1]), 32))
		} else if _, ok := nodeOf[t]; ok {
			u = lane(t)
		} else {
			var args []*x86.Term
			for _, a := range t.Args {
				ra, err := rebuild(a)
				if err != nil {
					return nil, err
				}
				args = append(args, ra)
			}
			var err error
			if u, err = apply(s2, t, args); err != nil {
				return nil, err
			}
		}
		memo[t] = u
		return u, nil
	}
	got, err := rebuild(flag)
	if err != nil {
		return "", err
	}
	want := s2.Ite(s2.Eq(any, s2.Const(0)), s2.Const(0), s2.Const(1))
	if err := satAndZ3(assume, s2.Eq(got, want), "the flag as an OR of the per-position results"); err != nil {
		return "", err
	}
	queries++
	return fmt.Sprintf("proven for every input: a taint run shows the flag reads only the polynomial and the bound; "+
		"one symbolic run gives %d per-position results of %d distinct shapes, each v1 exactly when the coefficient's magnitude ≥ bound "+
		"(exhaustion of [0, q), monotone in the bound by SAT); the flag is their OR (SAT); %d SAT queries%s",
		len(lanePos), len(shapes), queries, z3Note()), nil
}

// flagIndependence runs step 1.
func flagIndependence(f *x86.File, r *x86.Routine, c *contract.Contract, maxSteps int) error {
	const byteTaint, regTaint = 0xff, ^uint64(0)
	rng := rand.New(rand.NewPCG(8, 7))
	mk := func(v uint64, _, _ bool) x86.TV { return x86.TV{V: v} }
	m, _ := setup[x86.TV](x86.Taint{}, mk, f, r, c, c.Gen(rng), rng)
	for i := range m.GPR {
		if x86.Reg(i) != x86.SP {
			m.GPR[i].S = regTaint
		}
	}
	for i := range m.Vec {
		for w := range m.Vec[i] {
			m.Vec[i][w].S = regTaint
		}
	}
	for _, reg := range m.Regions {
		switch {
		case reg.Kind == x86.Buffer && (reg.Name == c.Exceeds.In || reg.Name == c.Exceeds.Bound):
			for i := range reg.Bytes {
				reg.Bytes[i].I = byteTaint
			}
		case reg.Kind == x86.Buffer, reg.Kind == x86.Frame, reg.Kind == x86.Results:
			for i := range reg.Bytes {
				reg.Bytes[i].S = byteTaint
			}
		}
	}
	if err := m.Run(maxSteps); err != nil {
		return fmt.Errorf("independence run: %v", err)
	}
	for _, v := range m.Region(c.Exceeds.Flag).Bytes {
		if v.S&0xff != 0 {
			return fmt.Errorf("%s depends on something other than %s and %s", c.Exceeds.Flag, c.Exceeds.In, c.Exceeds.Bound)
		}
	}
	return nil
}

// canonicalFlag compiles lane node t of position j: w_j is input 0, the
// bound input 1, other positions' words z.
func canonicalFlag(t *x86.Term, j int) (*laneForm, error) {
	fm, err := compileForm(t, func(name string) (uint64, error) {
		switch name {
		case "b":
			return 1, nil
		case fmt.Sprintf("w_%d", j):
			return 0, nil
		}
		return ^uint64(0), nil
	})
	if err != nil {
		return nil, err
	}
	fm.where = j
	return fm, nil
}

// proveLaneNode runs step 3 on one shape and returns its SAT queries.
func proveLaneNode(ln *laneNode, of func(uint32) uint32) (int, error) {
	fm := ln.form
	nodes := fm.nodes
	nz := maybeBits(nodes, []uint32{fips204.Q, 1 << 31})
	args := func(i int) []int { return nodeArgs(nodes, i) }
	dep := depends(nodes, inputLeaf(nodes, nz))
	if nz[fm.root] == 0 {
		ln.v1, ln.v0 = 0, 0 // 0 on the whole domain
		return 0, nil
	}
	if dep[fm.root] != depX|depY {
		return 0, fmt.Errorf("it does not read both the coefficient and the bound")
	}
	// The frontier: coefficient-only arguments of nodes reading both.
	var front []int
	inF := map[int]bool{}
	for i := range nodes {
		if dep[i] != depX|depY {
			continue
		}
		for _, a := range args(i) {
			if dep[a] == depX && !inF[a] {
				inF[a] = true
				front = append(front, a)
			}
		}
	}
	// Exhaustion of x: at b = Of(x) the node is v1, at Of(x) + 1 v0.
	p, err := compile(fm)
	if err != nil {
		return 0, err
	}
	lo := make([]uint64, len(front))
	hi := make([]uint64, len(front))
	for i := range lo {
		lo[i] = ^uint64(0)
	}
	in := make([][256]uint64, 2)
	first := true
	for x0 := uint32(0); x0 < fips204.Q; x0 += 256 {
		n := min(256, int(fips204.Q-x0))
		for step := 0; step < 2; step++ {
			for l := 0; l < n; l++ {
				v := of(x0 + uint32(l))
				if v >= 1<<31-1 {
					return 0, fmt.Errorf("Of(%d) = %d, not below 2³¹ − 1", x0+uint32(l), v)
				}
				in[0][l], in[1][l] = uint64(x0)+uint64(l), uint64(v)+uint64(step)
			}
			got := p.run(in, n, nil)
			if first {
				if step == 0 {
					ln.v1 = got[0]
				} else {
					ln.v0 = got[0]
					first = false
					if ln.v0 == ln.v1 {
						return 0, fmt.Errorf("it is %#x both at the bound and past it", ln.v0)
					}
				}
			}
			want := ln.v1
			if step == 1 {
				want = ln.v0
			}
			for l := 0; l < n; l++ {
				if got[l] != want {
					return 0, fmt.Errorf("at x = %d, b = %d: %#x, want %#x", in[0][l], in[1][l], got[l], want)
				}
			}
			if step == 0 {
				for i, fi := range front {
					for l := 0; l < n; l++ {
						lo[i], hi[i] = min(lo[i], p.rows[fi][l]), max(hi[i], p.rows[fi][l])
					}
				}
			}
		}
	}
	// SAT over the frontier box and two bounds b, b′ = b + 1 < 2³¹.
	s := x86.NewSym()
	var assume []*x86.Term
	kvar := map[int]*x86.Term{}
	for i, fi := range front {
		k := s.Var(fmt.Sprintf("k_%d", i))
		kvar[fi] = k
		assume = append(assume, s.Eq(s.Ult(k, s.Const(lo[i])), s.Const(0)), s.Eq(s.Ult(s.Const(hi[i]), k), s.Const(0)))
	}
	b, b2 := s.Var("b"), s.Var("b2")
	assume = append(assume, s.Ult(b, s.Const(1<<31)), s.Ult(b2, s.Const(1<<31)), s.Eq(b2, s.Add(b, s.Const(1))))
	build := func(bv *x86.Term) (*x86.Term, error) {
		ts := make([]*x86.Term, len(nodes))
		var at func(i int) (*x86.Term, error)
		at = func(i int) (*x86.Term, error) {
			if ts[i] != nil {
				return ts[i], nil
			}
			nd := nodes[i]
			var t *x86.Term
			switch {
			case kvar[i] != nil:
				t = kvar[i]
			case nz[i] == 0:
				t = s.Const(0) // 0 on the whole domain
			case nd.op == "var" && nd.val == 1:
				t = bv
			case nd.op == "var" && nd.val == 0:
				return nil, fmt.Errorf("the coefficient reaches the result outside the frontier")
			case nd.op == "var":
				t = s.Const(0)
			case nd.op == "const":
				t = s.Const(nd.val)
			default:
				var as []*x86.Term
				for _, a := range args(i) {
					u, err := at(a)
					if err != nil {
						return nil, err
					}
					as = append(as, u)
				}
				var err error
				if t, err = apply(s, &x86.Term{Op: nd.op, Val: nd.val}, as); err != nil {
					return nil, err
				}
			}
			ts[i] = t
			return t, nil
		}
		return at(fm.root)
	}
	lb, err := build(b)
	if err != nil {
		return 0, err
	}
	lb2, err := build(b2)
	if err != nil {
		return 0, err
	}
	v1, v0 := s.Const(ln.v1), s.Const(ln.v0)
	if err := satAndZ3(assume, s.Or(s.Eq(lb, v1), s.Eq(lb, v0)), "two values"); err != nil {
		return 0, err
	}
	if err := satAndZ3(append(assume, s.Eq(lb2, v1)), s.Eq(lb, v1), "monotone in the bound"); err != nil {
		return 0, err
	}
	return 2, nil
}

// apply builds op(args) in s as t's operator.
func apply(s *x86.Sym, t *x86.Term, a []*x86.Term) (*x86.Term, error) {
	n := uint(t.Val)
	switch t.Op {
	case "const":
		return s.Const(t.Val), nil
	case "var":
		return s.Var(t.Name), nil
	case "bvand":
		return s.And(a[0], a[1]), nil
	case "bvor":
		return s.Or(a[0], a[1]), nil
	case "bvxor":
		return s.Xor(a[0], a[1]), nil
	case "bvnot":
		return s.Not(a[0]), nil
	case "bvadd":
		return s.Add(a[0], a[1]), nil
	case "bvsub":
		return s.Sub(a[0], a[1]), nil
	case "shl":
		return s.Shl(a[0], n), nil
	case "lshr":
		return s.Shr(a[0], n), nil
	case "ashr":
		return s.Sar(a[0], n), nil
	case "rol":
		return s.Rol(a[0], n), nil
	case "eq":
		return s.Eq(a[0], a[1]), nil
	case "ult":
		return s.Ult(a[0], a[1]), nil
	case "slt":
		return s.Slt(a[0], a[1]), nil
	case "ite":
		return s.Ite(a[0], a[1], a[2]), nil
	}
	return nil, fmt.Errorf("operator %s is not rebuilt", t.Op)
}

// satAndZ3 proves goal nonzero under the assumptions with the SAT solver,
// and again with z3 where it is installed.
func satAndZ3(assume []*x86.Term, goal *x86.Term, what string) error {
	deadline := time.Now().Add(exceedsQueryTime)
	r, err := satHolds(assume, goal, deadline)
	if err != nil {
		return fmt.Errorf("%s: SAT encoding: %v", what, err)
	}
	if r != satUnsat {
		return fmt.Errorf("%s: not proven (SAT solver: %v)", what, r)
	}
	return z3Holds(assume, goal, deadline, what)
}

// z3Holds asks z3, where it is on PATH, for an assignment with every
// assumption nonzero and goal zero; the answer must be unsat.
func z3Holds(assume []*x86.Term, goal *x86.Term, deadline time.Time, what string) error {
	z3, err := exec.LookPath("z3")
	if err != nil {
		return nil
	}
	ans, err := z3Ask(z3, assume, []*x86.Term{goal}, nil, time.Until(deadline)+time.Second, deadline)
	if err != nil {
		return fmt.Errorf("%s: %v", what, err)
	}
	if ans != "unsat" {
		return fmt.Errorf("%s: the SAT solver says unsat, z3 says %s: disagreement", what, firstLine(ans))
	}
	return nil
}

func z3Note() string {
	if _, err := exec.LookPath("z3"); err != nil {
		return "; z3 not on PATH: no second opinion"
	}
	return "; z3 agrees on every query"
}
