// Package sat is **not trusted**: a small CDCL SAT solver (conflict-driven
// clause learning with two watched literals, first-UIP learning,
// activity-based decisions with phase saving, and restarts), standard
// library only. The checker uses it for bit-level queries. An answer of
// Unsat comes with a certificate, the clauses learned in order ending in
// the empty clause (Proof), which Spec/drup checks against the checker's
// own copy of the formula before a proof rests on it; an answer of Sat
// with a model the checker evaluates. A wrong answer therefore makes a
// proof fail, never pass.
//
// Variables are numbered from 1; a literal is v or -v (DIMACS style).
package sat

import (
	"fmt"
	"time"
)

// Result is a solver's answer.
type Result int

// Answers. Unknown means the budget ran out: never a proof.
const (
	Unknown Result = iota
	Sat
	Unsat
)

func (r Result) String() string {
	switch r {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// lit is 2·(v−1) for v, 2·(v−1)+1 for −v.
type lit int32

func (l lit) neg() lit { return l ^ 1 }
func (l lit) v() int   { return int(l >> 1) }

const (
	unassigned int8 = 0
	valTrue    int8 = 1
	valFalse   int8 = -1
)

// Solver holds a CNF formula.
type Solver struct {
	nvars   int
	clauses [][]lit
	watches [][]int // literal → clauses watching it (watching its negation becoming false)
	assign  []int8  // per variable
	level   []int
	reason  []int // clause index, −1 for decisions and units
	trail   []lit
	lim     []int // trail length at each decision level
	qhead   int
	act     []float64
	inc     float64
	// heap orders the unassigned variables (and perhaps some assigned
	// ones, skipped when popped) by activity, highest first; pos[v] is
	// v's index in it, −1 when absent.
	heap  []int
	pos   []int
	phase []bool
	seen  []bool
	units []lit
	empty bool // an empty clause was added
	// Conflicts counts the conflicts of the last Solve.
	Conflicts int
	// Proof lists, after Unsat, the clauses learned (units included), in
	// order, and last the empty clause: each follows from the clauses
	// added and those before it by unit propagation.
	Proof [][]int
}

// New returns an empty solver.
func New() *Solver { return &Solver{inc: 1} }

// NewVar adds a variable and returns its number.
func (s *Solver) NewVar() int {
	s.nvars++
	s.watches = append(s.watches, nil, nil)
	s.assign = append(s.assign, unassigned)
	s.level = append(s.level, 0)
	s.reason = append(s.reason, -1)
	s.act = append(s.act, 0)
	s.pos = append(s.pos, -1)
	s.insert(s.nvars - 1)
	s.phase = append(s.phase, false)
	s.seen = append(s.seen, false)
	return s.nvars
}

// NumVars is the number of variables.
func (s *Solver) NumVars() int { return s.nvars }

func (s *Solver) toLit(x int) lit {
	if x == 0 || x > s.nvars || -x > s.nvars {
		panic(fmt.Sprintf("sat: literal %d out of range (%d variables)", x, s.nvars))
	}
	if x > 0 {
		return lit(2 * (x - 1))
	}
	return lit(2*(-x-1) + 1)
}

// AddClause adds the disjunction of lits. Duplicate literals are merged;
// a clause with x and −x is dropped (always true).
func (s *Solver) AddClause(lits ...int) {
	var c []lit
	for _, x := range lits {
		l := s.toLit(x)
		dup, taut := false, false
		for _, y := range c {
			if y == l {
				dup = true
			}
			if y == l.neg() {
				taut = true
			}
		}
		if taut {
			return
		}
		if !dup {
			c = append(c, l)
		}
	}
	switch len(c) {
	case 0:
		s.empty = true
	case 1:
		s.units = append(s.units, c[0])
	default:
		s.attach(c)
	}
}

func (s *Solver) attach(c []lit) int {
	i := len(s.clauses)
	s.clauses = append(s.clauses, c)
	s.watches[c[0].neg()] = append(s.watches[c[0].neg()], i)
	s.watches[c[1].neg()] = append(s.watches[c[1].neg()], i)
	return i
}

func (s *Solver) value(l lit) int8 {
	a := s.assign[l.v()]
	if l&1 == 1 {
		return -a
	}
	return a
}

func (s *Solver) enqueue(l lit, reason int) {
	v := l.v()
	if l&1 == 1 {
		s.assign[v] = valFalse
	} else {
		s.assign[v] = valTrue
	}
	s.level[v] = len(s.lim)
	s.reason[v] = reason
	s.trail = append(s.trail, l)
}

// propagate runs unit propagation; it returns a conflicting clause or −1.
func (s *Solver) propagate() int {
	for s.qhead < len(s.trail) {
		p := s.trail[s.qhead] // p became true: clauses watching ¬p … are in watches[p]
		s.qhead++
		ws := s.watches[p]
		j := 0
		for i := 0; i < len(ws); i++ {
			ci := ws[i]
			c := s.clauses[ci]
			falseLit := p.neg()
			if c[0] == falseLit {
				c[0], c[1] = c[1], c[0]
			}
			// c[1] is the false literal.
			if s.value(c[0]) == valTrue {
				ws[j] = ci
				j++
				continue
			}
			found := false
			for k := 2; k < len(c); k++ {
				if s.value(c[k]) != valFalse {
					c[1], c[k] = c[k], c[1]
					s.watches[c[1].neg()] = append(s.watches[c[1].neg()], ci)
					found = true
					break
				}
			}
			if found {
				continue
			}
			ws[j] = ci
			j++
			if s.value(c[0]) == valFalse {
				// Conflict: keep the remaining watches.
				for i++; i < len(ws); i++ {
					ws[j] = ws[i]
					j++
				}
				s.watches[p] = ws[:j]
				return ci
			}
			s.enqueue(c[0], ci)
		}
		s.watches[p] = ws[:j]
	}
	return -1
}

func (s *Solver) bump(v int) {
	s.act[v] += s.inc
	if s.act[v] > 1e100 {
		// Scaling every activity keeps the heap's order.
		for i := range s.act {
			s.act[i] *= 1e-100
		}
		s.inc *= 1e-100
	}
	if s.pos[v] >= 0 {
		s.up(s.pos[v])
	}
}

// insert puts v in the heap if it is not there.
func (s *Solver) insert(v int) {
	if s.pos[v] >= 0 {
		return
	}
	s.pos[v] = len(s.heap)
	s.heap = append(s.heap, v)
	s.up(s.pos[v])
}

// up moves the heap's entry at i towards the root while its activity is
// higher than its parent's.
func (s *Solver) up(i int) {
	v := s.heap[i]
	for i > 0 {
		p := (i - 1) / 2
		if s.act[s.heap[p]] >= s.act[v] {
			break
		}
		s.heap[i] = s.heap[p]
		s.pos[s.heap[i]] = i
		i = p
	}
	s.heap[i] = v
	s.pos[v] = i
}

// pop removes and returns the variable of highest activity.
func (s *Solver) pop() int {
	v := s.heap[0]
	last := s.heap[len(s.heap)-1]
	s.heap = s.heap[:len(s.heap)-1]
	s.pos[v] = -1
	if len(s.heap) == 0 {
		return v
	}
	// Move last down from the root.
	i := 0
	for {
		c := 2*i + 1
		if c >= len(s.heap) {
			break
		}
		if c+1 < len(s.heap) && s.act[s.heap[c+1]] > s.act[s.heap[c]] {
			c++
		}
		if s.act[s.heap[c]] <= s.act[last] {
			break
		}
		s.heap[i] = s.heap[c]
		s.pos[s.heap[i]] = i
		i = c
	}
	s.heap[i] = last
	s.pos[last] = i
	return v
}

// analyze derives the first-UIP clause of a conflict and the level to
// backtrack to.
func (s *Solver) analyze(confl int) ([]lit, int) {
	learnt := []lit{0} // slot for the asserting literal
	counter := 0
	var p lit = -1
	idx := len(s.trail) - 1
	cur := len(s.lim)
	for {
		for _, q := range s.clauses[confl] {
			if q == p {
				continue // the literal this reason clause implied
			}
			v := q.v()
			if s.seen[v] || s.level[v] == 0 {
				continue
			}
			s.seen[v] = true
			s.bump(v)
			if s.level[v] == cur {
				counter++
			} else {
				learnt = append(learnt, q)
			}
		}
		for !s.seen[s.trail[idx].v()] {
			idx--
		}
		p = s.trail[idx]
		idx--
		s.seen[p.v()] = false
		counter--
		if counter == 0 {
			break
		}
		confl = s.reason[p.v()]
	}
	learnt[0] = p.neg()
	bt := 0
	for i := 1; i < len(learnt); i++ {
		s.seen[learnt[i].v()] = false
		if s.level[learnt[i].v()] > bt {
			bt = s.level[learnt[i].v()]
		}
	}
	// Put a literal of the backtrack level second, so it is watched.
	for i := 2; i < len(learnt); i++ {
		if s.level[learnt[i].v()] > s.level[learnt[1].v()] {
			learnt[1], learnt[i] = learnt[i], learnt[1]
		}
	}
	s.inc *= 1 / 0.95
	return learnt, bt
}

func (s *Solver) cancel(level int) {
	if len(s.lim) <= level {
		return
	}
	for i := len(s.trail) - 1; i >= s.lim[level]; i-- {
		v := s.trail[i].v()
		s.phase[v] = s.trail[i]&1 == 0
		s.assign[v] = unassigned
		s.reason[v] = -1
		s.insert(v)
	}
	s.trail = s.trail[:s.lim[level]]
	s.qhead = len(s.trail)
	s.lim = s.lim[:level]
}

// decideVar returns an unassigned variable of highest activity, or −1.
// Every unassigned variable is in the heap: all start there, and cancel
// puts back each one it unassigns.
func (s *Solver) decideVar() int {
	for len(s.heap) > 0 {
		if v := s.pop(); s.assign[v] == unassigned {
			return v
		}
	}
	return -1
}

// Solve decides the formula. It gives up (Unknown) after maxConflicts
// conflicts (0: no limit) or at the deadline (zero: none).
func (s *Solver) Solve(maxConflicts int, deadline time.Time) Result {
	r := s.solve(maxConflicts, deadline)
	if r == Unsat {
		s.Proof = append(s.Proof, []int{})
	}
	return r
}

// learn records a learned clause in Proof.
func (s *Solver) learn(c []lit) {
	out := make([]int, len(c))
	for i, l := range c {
		out[i] = l.v() + 1
		if l&1 == 1 {
			out[i] = -out[i]
		}
	}
	s.Proof = append(s.Proof, out)
}

func (s *Solver) solve(maxConflicts int, deadline time.Time) Result {
	s.Conflicts = 0
	if s.empty {
		return Unsat
	}
	s.cancel(0)
	for _, u := range s.units {
		switch s.value(u) {
		case valFalse:
			return Unsat
		case unassigned:
			s.enqueue(u, -1)
		}
	}
	if s.propagate() >= 0 {
		return Unsat
	}
	restart := 100
	sinceRestart := 0
	for {
		confl := s.propagate()
		if confl >= 0 {
			s.Conflicts++
			sinceRestart++
			if len(s.lim) == 0 {
				return Unsat
			}
			learnt, bt := s.analyze(confl)
			s.learn(learnt)
			s.cancel(bt)
			if len(learnt) == 1 {
				s.units = append(s.units, learnt[0])
				s.enqueue(learnt[0], -1)
			} else {
				ci := s.attach(learnt)
				s.enqueue(learnt[0], ci)
			}
			if maxConflicts > 0 && s.Conflicts >= maxConflicts {
				s.cancel(0)
				return Unknown
			}
			if s.Conflicts%256 == 0 && !deadline.IsZero() && time.Now().After(deadline) {
				s.cancel(0)
				return Unknown
			}
			continue
		}
		if sinceRestart >= restart {
			sinceRestart = 0
			restart += restart / 2
			s.cancel(0)
			continue
		}
		v := s.decideVar()
		if v < 0 {
			return Sat
		}
		s.lim = append(s.lim, len(s.trail))
		l := lit(2 * v)
		if !s.phase[v] {
			l = l.neg()
		}
		s.enqueue(l, -1)
	}
}

// Value is variable v's value in the model after Sat.
func (s *Solver) Value(v int) bool { return s.assign[v-1] == valTrue }
