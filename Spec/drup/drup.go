// Package drup is **Trusted**: it checks a refutation of a CNF formula by
// reverse unit propagation (RUP), the DRUP format without deletions. A
// solver that answers "unsat" hands over the clauses it learned, in the
// order it learned them; each must follow from the formula and the
// clauses before it by unit propagation alone, and one must be the empty
// clause. Then the formula has no satisfying assignment, whatever the
// solver that found the clauses, so the solver is not trusted.
//
// Variables are numbered from 1; a literal is v or −v (DIMACS style).
// Standard library only.
package drup

import (
	"errors"
	"fmt"
)

// Check returns nil when learned refutes the formula clauses over the
// variables 1 … nvars: each learned clause, in order, is RUP with respect
// to the clauses and the learned clauses before it (assigning the negation
// of its literals and propagating units reaches a conflict), and one of
// them is the empty clause. Every unit propagation step is sound, so every
// learned clause holds under every model of the formula; the empty clause
// holds under none, so the formula has no model.
func Check(nvars int, clauses, learned [][]int) error {
	if nvars < 0 {
		return fmt.Errorf("drup: %d variables", nvars)
	}
	size := 0
	for _, c := range clauses {
		size += len(c)
	}
	for _, c := range learned {
		size += len(c)
	}
	k := &checker{
		nvars:   nvars,
		val:     make([]int8, 2*nvars),
		watches: make([][]int, 2*nvars),
		arena:   make([]int, 0, size),
	}
	for i, c := range clauses {
		lits, taut, err := k.lits(c)
		if err != nil {
			return fmt.Errorf("drup: clause %d: %v", i, err)
		}
		if !taut {
			k.add(lits)
		}
	}
	for i, c := range learned {
		lits, taut, err := k.lits(c)
		if err != nil {
			return fmt.Errorf("drup: learned clause %d: %v", i, err)
		}
		if taut {
			continue // true under every assignment
		}
		if !k.rup(lits) {
			return fmt.Errorf("drup: learned clause %d %v does not follow by unit propagation", i, c)
		}
		if len(lits) == 0 {
			return nil
		}
		k.add(lits)
	}
	return errors.New("drup: the learned clauses do not end in the empty clause")
}

// A literal is 2·(v−1) for v and 2·(v−1)+1 for −v; l^1 is its negation.

type checker struct {
	nvars int
	// val is each literal's value: 1 true, −1 false, 0 unassigned.
	val []int8
	// db holds the clauses of two or more literals not already true when
	// added; each watches its first two literals.
	db [][]int
	// watches[l] lists the clauses watching l, visited when l becomes false.
	watches [][]int
	trail   []int
	qhead   int
	// conflict: the clauses so far propagate to a conflict with nothing
	// assumed (so the empty clause is RUP).
	conflict bool
	// arena holds the literals of every clause, one allocation for all.
	arena []int
}

// lits converts a clause to literals, merging duplicates; taut reports
// a clause holding some x and −x.
func (k *checker) lits(c []int) (lits []int, taut bool, err error) {
	start := len(k.arena)
	for _, x := range c {
		if x == 0 || x > k.nvars || -x > k.nvars {
			return nil, false, fmt.Errorf("literal %d out of range (%d variables)", x, k.nvars)
		}
		l := 2 * (x - 1)
		if x < 0 {
			l = 2*(-x-1) + 1
		}
		dup := false
		for _, y := range lits {
			dup = dup || y == l
			taut = taut || y == l^1
		}
		if !dup {
			k.arena = append(k.arena, l)
			lits = k.arena[start:len(k.arena):len(k.arena)]
		}
	}
	return lits, taut, nil
}

func (k *checker) assign(l int) {
	k.val[l], k.val[l^1] = 1, -1
	k.trail = append(k.trail, l)
}

// add puts a clause into the formula, with nothing assumed: a clause
// already true is dropped (nothing assumed is ever retracted), one with
// every literal false is a conflict, one with a single literal not false
// assigns it and propagates.
func (k *checker) add(c []int) {
	if k.conflict {
		return
	}
	open := 0 // c[:open] are the literals not false
	for i, l := range c {
		if k.val[l] == 1 {
			return
		}
		if k.val[l] == 0 {
			c[open], c[i] = c[i], c[open]
			open++
		}
	}
	switch open {
	case 0:
		k.conflict = true
		return
	case 1:
		k.assign(c[0])
		if k.propagate() {
			k.conflict = true
			return
		}
	}
	if len(c) >= 2 {
		// With one open literal, c[0] is true and c[1] false for good,
		// which two watches allow.
		k.db = append(k.db, c)
		k.watches[c[0]] = append(k.watches[c[0]], len(k.db)-1)
		k.watches[c[1]] = append(k.watches[c[1]], len(k.db)-1)
	}
}

// propagate assigns the literals the clauses force until none is forced
// or a clause is false; it reports the latter.
func (k *checker) propagate() bool {
	for k.qhead < len(k.trail) {
		f := k.trail[k.qhead] ^ 1 // became false
		k.qhead++
		ws := k.watches[f]
		j := 0
		for i := 0; i < len(ws); i++ {
			c := k.db[ws[i]]
			if c[0] == f {
				c[0], c[1] = c[1], c[0]
			}
			// c[1] is f.
			if k.val[c[0]] == 1 {
				ws[j] = ws[i]
				j++
				continue
			}
			moved := false
			for m := 2; m < len(c); m++ {
				if k.val[c[m]] != -1 {
					c[1], c[m] = c[m], c[1]
					k.watches[c[1]] = append(k.watches[c[1]], ws[i])
					moved = true
					break
				}
			}
			if moved {
				continue
			}
			ws[j] = ws[i]
			j++
			if k.val[c[0]] == -1 {
				j += copy(ws[j:], ws[i+1:])
				k.watches[f] = ws[:j]
				return true
			}
			k.assign(c[0])
		}
		k.watches[f] = ws[:j]
	}
	return false
}

// rup reports whether assigning the negation of every literal of c and
// propagating reaches a conflict; the assignments are then undone.
func (k *checker) rup(c []int) bool {
	if k.conflict {
		return true
	}
	mark := len(k.trail)
	confl := false
	for _, l := range c {
		if k.val[l] == 1 {
			confl = true // ¬l contradicts what is already forced
			break
		}
		if k.val[l] == 0 {
			k.assign(l ^ 1)
		}
	}
	if !confl {
		confl = k.propagate()
	}
	for _, l := range k.trail[mark:] {
		k.val[l], k.val[l^1] = 0, 0
	}
	k.trail = k.trail[:mark]
	k.qhead = mark
	return confl
}
