package check

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
	"github.com/vg-crypto/vg/Spec/x86"
)

// This file proves a HintBitUnpack routine (contract HintUnpack) for
// every encoding y (ProveHintUnpack): it returns 1 exactly when
// Algorithm 21 does not return ⊥, and then h is Algorithm 21's output.
//
// The proof runs Algorithm 21 as hintUnpackNext does: Spec/fips204's own
// steps (HintBitUnpackCount, line 4; HintBitUnpackPosition, lines 8 to
// 12; HintBitUnpackPadding, line 17), the code HintBitUnpack runs, on y's
// terms, in the loops of lines 3, 7 and 16, which are this file's. Where a
// step's check of a position or padding byte says ⊥ (lines 9 and 17),
// the proof records it in a flag V (bot) and goes on, where Algorithm 21
// returns at once: the results agree, since no later step's control
// depends on the bytes it tested (Index and the counts are concrete) and
// h is not read after ⊥. h[i] is a 256-bit mask M while polynomial i is
// read (line 12 sets bit b: hintMaskSet), written at the polynomial's
// end; the result is ¬V where the counts pass.
//
// The routine is cut at three heads the plan names: Poly, where the count
// of polynomial i is read, Coef, where a position is read, and Pad, where
// a padding byte is read. The proof's state there is concrete: (i, Index)
// at Poly, (i, Index, end, first) at Coef (first: Index is First, the
// polynomial's first position), Index at Pad. The induction hypothesis
// at a head is:
//
//   - the routine has done Algorithm 21 (as run above) up to that point:
//     h[i′] for i′ < i is Algorithm 21's (as M at their ends), the plan's
//     Bad register is nonzero exactly when V is set, and at Coef the
//     plan's Mask registers are M and its Lo register is 0 at the first
//     position, y[Index − 1] + 1 after it;
//   - each location the plan lists in Keep for the head holds one
//     constant per state (whatever the first path to reach it left there;
//     every later path must leave the same), and SP is at the frame's
//     base.
//
// At a head, M and the Bad register are variables (V is Bad ≠ 0), every
// byte of y is a variable, the byte read is the variable b at Coef and
// Pad and, at Poly, each of its 256 values on a path of its own; every
// other register, flag and frame byte is an unknown. A path runs in the
// model on the symbolic domain until it reaches a head or RET; every
// address must be a constant and no branch may depend on data. It must
// end where hintUnpackNext says, with Mask, Lo and Bad as it and the
// hypothesis say (by term identity or the SAT solver, for every value of
// the variables), and write h only at a polynomial's end, all of h[i]
// and nothing else, word c being bit c of M; RET 0 only on a failed
// count, RET ¬V only after the last padding byte. From the entry the
// path must reach Poly (0, 0) with Bad = 0. The states are explored in
// the order of a run (i, then Index, Poly before Coef; Pad last), so
// that every path into a state is known before it is explored. By
// induction over the paths of a run, the routine returns Algorithm 21's
// result, with h its output when it is not ⊥.
//
// What the proof reads rather than proves: Algorithm 21's checks and line
// 12 are Spec/fips204's steps, which every test of HintBitUnpack runs
// (and Spec/fips204 tests at every state they read). hintUnpackNext's
// loops and adapters are this file's: bot and the loops are tested
// against Spec's HintBitUnpack on whole encodings (every count at every
// polynomial and Index it can start at, and sampled hints:
// TestHintUnpackNextIsAlgorithm21), ge, nonzero, hintMaskSet and the
// First a Coef head after the first position passes at every state they
// read (TestHintUnpackAdaptersEveryState). Constant time, memory safety
// and the ABI are the inductive check's (the encoding is public).

// HintUnpackPlan is the untrusted description of a HintBitUnpack
// routine.
type HintUnpackPlan struct {
	Poly, Coef, Pad string // labels of the heads
	// Keep lists, per head label, the registers and frame slots
	// ("frame+N", 8 bytes) that hold a constant of the proof's state
	// there.
	Keep map[string][]string
	// Mask holds M at Coef (word w: positions 64w to 64w + 63), Lo holds
	// 0 at a polynomial's first position and y[Index − 1] + 1 after it, at
	// Coef; Bad is nonzero exactly when V is set, at every head.
	Mask    [4]string
	Lo, Bad string
}

// HintUnpackHints is implemented by hints that describe HintBitUnpack
// routines.
type HintUnpackHints interface {
	HintUnpackPlan(r *x86.Routine, c *contract.Contract) (*HintUnpackPlan, error)
}

// hintUnpackProofTime bounds the proof of one routine.
const hintUnpackProofTime = 3 * time.Minute

// Head kinds.
const (
	hkPoly = iota
	hkCoef
	hkPad
)

// hintUnpackKey is the proof's state at a head; first (at Coef) is
// whether Index is the polynomial's first position (Index = First).
type hintUnpackKey struct {
	kind, i, index, end int
	first               bool
}

// hloc is a register or an 8-byte frame slot.
type hloc struct {
	reg   x86.Reg
	off   int
	frame bool
	name  string
}

type hintUnpackProver struct {
	r        *x86.Routine
	c        *contract.Contract
	hu       *contract.HintUnpack
	p        *HintUnpackPlan
	s        *x86.Sym
	base     *x86.Machine[*x86.Term]
	lay      *layout
	pc       [3]int
	keep     [3][]hloc
	mask     [4]x86.Reg
	lo, bad  x86.Reg
	b        *x86.Term
	mv       [4]*x86.Term
	prev, bv *x86.Term
	kept     map[hintUnpackKey][]uint64
	proved   map[*x86.Term]bool
	paths    int
	heads    int
	sat      int
	z3       z3Sample
	deadline time.Time
}

// ProveHintUnpack proves a HintBitUnpack routine's functional correctness
// for every encoding (see above) and returns its detail.
func ProveHintUnpack(f *x86.File, r *x86.Routine, c *contract.Contract, h Hints, maxSteps int) (string, error) {
	hh, ok := h.(HintUnpackHints)
	if !ok {
		return "", fmt.Errorf("no HintBitUnpack plan for %s in the hints", c.Symbol)
	}
	p, err := hh.HintUnpackPlan(r, c)
	if err != nil {
		return "", fmt.Errorf("HintBitUnpack plan: %v", err)
	}
	return proveHintUnpack(f, r, c, p, maxSteps)
}

func proveHintUnpack(f *x86.File, r *x86.Routine, c *contract.Contract, p *HintUnpackPlan, maxSteps int) (string, error) {
	pv := &hintUnpackProver{r: r, c: c, hu: c.HintUnpack, p: p, kept: map[hintUnpackKey][]uint64{},
		proved: map[*x86.Term]bool{}, deadline: time.Now().Add(hintUnpackProofTime)}
	if err := pv.shape(); err != nil {
		return "", err
	}
	if err := pv.resolve(); err != nil {
		return "", err
	}
	var m *x86.Machine[*x86.Term]
	pv.s, _, m, pv.lay, _ = symSetup(f, r, c, 13, func(secret, input bool) bool { return secret || input })
	s := pv.s
	y := m.Region(pv.hu.In)
	y.Own()
	for t := range y.Bytes {
		y.Bytes[t] = s.And(s.Var("y"+strconv.Itoa(t)), s.Const(0xff))
	}
	pv.b = s.And(s.Var("b"), s.Const(0xff))
	for w := range pv.mv {
		pv.mv[w] = s.Var("m" + strconv.Itoa(w))
	}
	pv.prev, pv.bv = s.And(s.Var("prev"), s.Const(0xff)), s.Var("bad")
	pv.base = m
	k, ω := pv.hu.K, pv.hu.Omega

	reached := map[hintUnpackKey]bool{}
	explore := func(key *hintUnpackKey) error {
		var ends []*hintUnpackKey
		if key == nil {
			e, err := pv.run(nil, 0, maxSteps)
			if err != nil {
				return fmt.Errorf("from the entry: %v", err)
			}
			if e == nil || *e != (hintUnpackKey{kind: hkPoly}) {
				return fmt.Errorf("the entry does not reach %s with i = 0 and Index = 0", p.Poly)
			}
			ends = append(ends, e)
		} else {
			pv.heads++
			vals := 1
			if key.kind == hkPoly {
				vals = 256 // the count y[ω + i], each value on a path of its own
			}
			for v := 0; v < vals; v++ {
				e, err := pv.run(key, v, maxSteps)
				if err != nil {
					return fmt.Errorf("from %s: %v", pv.describe(*key, v), err)
				}
				if e != nil {
					ends = append(ends, e)
				}
			}
		}
		for _, e := range ends {
			reached[*e] = true
		}
		return nil
	}
	if err := explore(nil); err != nil {
		return "", err
	}
	// The order of a run: i, then Index, Poly before Coef; Pad last.
	for i := 0; i < k; i++ {
		for index := 0; index <= ω; index++ {
			if key := (hintUnpackKey{kind: hkPoly, i: i, index: index}); reached[key] {
				if err := explore(&key); err != nil {
					return "", err
				}
			}
			for end := index + 1; end <= ω; end++ {
				for _, first := range []bool{true, false} {
					if key := (hintUnpackKey{hkCoef, i, index, end, first}); reached[key] {
						if err := explore(&key); err != nil {
							return "", err
						}
					}
				}
			}
		}
	}
	pads := 0
	for index := 0; index <= ω; index++ {
		if key := (hintUnpackKey{kind: hkPad, i: k, index: index}); reached[key] {
			pads++
			if err := explore(&key); err != nil {
				return "", err
			}
		}
	}
	if pads == 0 {
		return "", fmt.Errorf("%s is never reached: the routine never accepts an encoding", p.Pad)
	}
	return fmt.Sprintf("proven for every encoding: Algorithm 21 (%d heads (i, Index) at %s, (i, Index, end) at %s and Index at %s, %d paths, each count's 256 values and every position and padding byte as a variable; %d SAT queries: the mask, order and padding updates, h from the mask, the result; %s)",
		pv.heads, p.Poly, p.Coef, p.Pad, pv.paths, pv.sat, pv.z3.note()), nil
}

// shape checks that the contract's HintUnpack names what the proof needs.
func (pv *hintUnpackProver) shape() error {
	hu, c := pv.hu, pv.c
	if hu == nil {
		return errors.New("the contract has no HintUnpack")
	}
	if hu.K < 1 || hu.K > 8 || hu.Omega < 1 || hu.Omega > 255 {
		return fmt.Errorf("k = %d, ω = %d: not a HintBitUnpack of FIPS 204", hu.K, hu.Omega)
	}
	if c.Result != "bool" || len(c.Calls) > 0 {
		return errors.New("the routine returns no ok, or calls others")
	}
	out, in := false, false
	for _, a := range c.Args {
		switch {
		case a.Name == hu.Out && a.Bytes == 1024*hu.K && a.Write && a.Indirect == 0:
			out = true
		case a.Write:
			return fmt.Errorf("%s is writable, and HintUnpack says nothing of it", a.Name)
		case a.Name == hu.In && a.Bytes == hu.Omega+hu.K && a.Read && a.Indirect == 0:
			in = true
		}
	}
	if !out || !in {
		return fmt.Errorf("no writable %d-byte output %q or read-only %d-byte encoding %q", 1024*hu.K, hu.Out, hu.Omega+hu.K, hu.In)
	}
	return nil
}

// resolve reads the plan: labels, locations and registers.
func (pv *hintUnpackProver) resolve() error {
	p := pv.p
	for kind, l := range []string{p.Poly, p.Coef, p.Pad} {
		pc, ok := pv.r.Labels[l]
		if !ok {
			return fmt.Errorf("plan names no label %q of the routine", l)
		}
		for k := 0; k < kind; k++ {
			if pv.pc[k] == pc {
				return fmt.Errorf("plan names label %q twice", l)
			}
		}
		pv.pc[kind] = pc
		for _, name := range p.Keep[l] {
			lc, err := pv.loc(name)
			if err != nil {
				return err
			}
			pv.keep[kind] = append(pv.keep[kind], lc)
		}
	}
	regs := map[x86.Reg]bool{}
	use := func(name string) (x86.Reg, error) {
		g, err := gpr(name)
		if err == nil && regs[g] {
			err = fmt.Errorf("plan names register %s twice", name)
		}
		regs[g] = true
		return g, err
	}
	var err error
	for w := range pv.mask {
		if pv.mask[w], err = use(p.Mask[w]); err != nil {
			return err
		}
	}
	if pv.lo, err = use(p.Lo); err != nil {
		return err
	}
	pv.bad, err = use(p.Bad)
	return err
}

func (pv *hintUnpackProver) loc(name string) (hloc, error) {
	if s, ok := strings.CutPrefix(name, "frame+"); ok {
		off, err := strconv.Atoi(s)
		if err != nil || off < 0 || off+8 > pv.r.Frame {
			return hloc{}, fmt.Errorf("bad frame slot %q", name)
		}
		return hloc{off: off, frame: true, name: name}, nil
	}
	g, err := gpr(name)
	return hloc{reg: g, name: name}, err
}

func (pv *hintUnpackProver) get(m *x86.Machine[*x86.Term], l hloc) *x86.Term {
	if l.frame {
		return slot(m, l.off)
	}
	return m.GPR[l.reg]
}

func (pv *hintUnpackProver) describe(key hintUnpackKey, v int) string {
	switch key.kind {
	case hkPoly:
		return fmt.Sprintf("%s at i = %d, Index = %d with y[ω + i] = %d", pv.p.Poly, key.i, key.index, v)
	case hkCoef:
		at := ""
		if key.first {
			at = " (the first position)"
		}
		return fmt.Sprintf("%s at i = %d, Index = %d%s, end %d", pv.p.Coef, key.i, key.index, at, key.end)
	}
	return fmt.Sprintf("%s at Index = %d", pv.p.Pad, key.index)
}

// hintUnpackObs fails a path whose address depends on data.
type hintUnpackObs struct{ s *x86.Sym }

func (o hintUnpackObs) Branch(*x86.Machine[*x86.Term], *x86.Insn, *x86.Term) error { return nil }

func (o hintUnpackObs) Address(_ *x86.Machine[*x86.Term], in *x86.Insn, a *x86.Term, _ int, _ bool) error {
	if _, ok := o.s.Concrete(a); !ok {
		return fmt.Errorf("%s: the address depends on data", in)
	}
	return nil
}

func (o hintUnpackObs) After(*x86.Machine[*x86.Term], *x86.Insn, []*x86.Term) error { return nil }

// hintUnpackWant is what hintUnpackNext says a path from a head does.
type hintUnpackWant struct {
	next    *hintUnpackKey // nil: RET
	ret     *x86.Term      // at RET: the result, 0 or 1
	v       *x86.Term      // V after the path, 0 or 1
	expand  bool           // h[i] written from mask
	mask    [4]*x86.Term   // M after the path (at Coef, or expanded)
	expandI int
}

// run runs the one path from the head key (nil: the entry), with the
// count v at Poly, and checks it; it returns the state it reaches (nil at
// RET).
func (pv *hintUnpackProver) run(key *hintUnpackKey, v int, maxSteps int) (*hintUnpackKey, error) {
	if time.Now().After(pv.deadline) {
		return nil, fmt.Errorf("the proof's %v ran out", hintUnpackProofTime)
	}
	pv.paths++
	s := pv.s
	m := pv.base.CloneCOW()
	m.Obs = hintUnpackObs{s}
	var w hintUnpackWant
	if key == nil {
		w = hintUnpackWant{next: &hintUnpackKey{kind: hkPoly}, v: s.Const(0)}
	} else {
		m.PC = pv.pc[key.kind]
		m.GPR[x86.SP] = s.Const(pv.lay.sp)
		m.MXCSR = s.Const(0x1F80)
		frame := m.Region("frame")
		frame.Own()
		for n, l := range pv.keep[key.kind] {
			c := s.Const(pv.kept[*key][n])
			if l.frame {
				s.Bytes(c, frame.Bytes[l.off:l.off+8])
			} else {
				m.GPR[l.reg] = c
			}
		}
		m.GPR[pv.bad] = pv.bv
		y := m.Region(pv.hu.In)
		y.Own()
		switch key.kind {
		case hkPoly:
			y.Bytes[pv.hu.Omega+key.i] = s.Const(uint64(v))
		case hkCoef:
			for w := range pv.mask {
				m.GPR[pv.mask[w]] = pv.mv[w]
			}
			y.Bytes[key.index] = pv.b
			if key.first {
				m.GPR[pv.lo] = s.Const(0)
			} else {
				y.Bytes[key.index-1] = pv.prev
				m.GPR[pv.lo] = s.Add(pv.prev, s.Const(1))
			}
		case hkPad:
			if key.index < pv.hu.Omega {
				y.Bytes[key.index] = pv.b
			}
		}
		w = pv.want(*key, v, y.Bytes)
	}
	for steps := 0; ; steps++ {
		if steps > maxSteps {
			return nil, fmt.Errorf("no head or RET within %d steps", maxSteps)
		}
		if steps > 0 && (m.PC == pv.pc[hkPoly] || m.PC == pv.pc[hkCoef] || m.PC == pv.pc[hkPad]) {
			break
		}
		if err := m.Step(); err != nil {
			var bu *x86.BranchUnknown
			if errors.As(err, &bu) {
				return nil, fmt.Errorf("%s: a branch on data", bu.Insn)
			}
			return nil, err
		}
		if m.Done {
			if w.next != nil {
				return nil, errors.New("RET where Algorithm 21 goes on")
			}
			if err := pv.written(m, w); err != nil {
				return nil, err
			}
			res := m.Region("results")
			if res == nil || !res.Written[0] {
				return nil, errors.New("RET without a result")
			}
			return nil, pv.holds(s.Eq(s.And(res.Bytes[0], s.Const(0xff)), w.ret), "the result is Algorithm 21's")
		}
	}
	// At a head.
	next := w.next
	kind := -1
	for k := range pv.pc {
		if m.PC == pv.pc[k] {
			kind = k
		}
	}
	switch {
	case next == nil:
		return nil, errors.New("a head reached where Algorithm 21 returns")
	case kind != next.kind:
		return nil, fmt.Errorf("%s reached where Algorithm 21 is at %s", []string{pv.p.Poly, pv.p.Coef, pv.p.Pad}[kind], pv.describe(*next, 0))
	}
	if sp, ok := s.Concrete(m.GPR[x86.SP]); !ok || sp != pv.lay.sp {
		return nil, errors.New("a head reached with SP not at the frame's base")
	}
	if err := pv.written(m, w); err != nil {
		return nil, err
	}
	if err := pv.holds(s.Eq(s.Eq(m.GPR[pv.bad], s.Const(0)), s.Eq(w.v, s.Const(0))), "the flag is Algorithm 21's (lines 9 and 17)"); err != nil {
		return nil, err
	}
	if next.kind == hkCoef {
		for k := range pv.mask {
			if err := pv.holds(s.Eq(m.GPR[pv.mask[k]], w.mask[k]), "the mask is Algorithm 21's (line 12)"); err != nil {
				return nil, err
			}
		}
		lo := s.Const(0)
		if !next.first {
			lo = s.Add(m.Region(pv.hu.In).Bytes[next.index-1], s.Const(1))
		}
		if err := pv.holds(s.Eq(m.GPR[pv.lo], lo), "the least next position is y[Index − 1] + 1, or 0 at the first (line 9)"); err != nil {
			return nil, err
		}
	}
	var vs []uint64
	for _, l := range pv.keep[next.kind] {
		c, ok := s.Concrete(pv.get(m, l))
		if !ok {
			return nil, fmt.Errorf("%s reached with %s not a constant", pv.describe(*next, 0), l.name)
		}
		vs = append(vs, c)
	}
	if old, ok := pv.kept[*next]; ok {
		for n := range vs {
			if vs[n] != old[n] {
				return nil, fmt.Errorf("%s reached with %s = %#x, another path with %#x", pv.describe(*next, 0), pv.keep[next.kind][n].name, vs[n], old[n])
			}
		}
	} else {
		pv.kept[*next] = vs
	}
	return next, nil
}

// want is hintUnpackNext from the head key, in terms of the proof's
// variables, on y as the head's machine holds it.
func (pv *hintUnpackProver) want(key hintUnpackKey, v int, y []*x86.Term) hintUnpackWant {
	s := pv.s
	vHead := s.Xor(s.Eq(pv.bv, s.Const(0)), s.Const(1))
	out := hintUnpackNext[*x86.Term](s, pv.hu.K, pv.hu.Omega, key, v, y, vHead, pv.mv)
	return hintUnpackWant{next: out.next, ret: out.ret, v: out.v, mask: out.mask, expand: out.expand, expandI: key.i}
}

// written checks the path's writes to h: none, or, where Algorithm 21
// ends polynomial i, all of h[i] and nothing else, word c bit c of M.
func (pv *hintUnpackProver) written(m *x86.Machine[*x86.Term], w hintUnpackWant) error {
	s := pv.s
	h := m.Region(pv.hu.Out)
	lo, hi := 0, 0
	if w.expand {
		lo, hi = 1024*w.expandI, 1024*(w.expandI+1)
	}
	for t, wr := range h.Written {
		if wr != (t >= lo && t < hi) {
			if wr {
				return fmt.Errorf("h's byte %d written where Algorithm 21 writes no h[i] or another", t)
			}
			return fmt.Errorf("h's byte %d not written at polynomial %d's end", t, w.expandI)
		}
	}
	if !w.expand {
		return nil
	}
	var goal []*x86.Term
	for c := 0; c < 256; c++ {
		got := s.FromBytes(h.Bytes[lo+4*c : lo+4*c+4])
		bit := s.And(s.Shr(w.mask[c/64], uint(c%64)), s.Const(1))
		goal = append(goal, s.Eq(got, bit))
	}
	return pv.holds(conj(s, goal), fmt.Sprintf("h[%d] is the mask (line 12)", w.expandI))
}

// holds proves goal nonzero for every value of the variables, by term
// identity or the SAT solver; each goal is asked once.
func (pv *hintUnpackProver) holds(goal *x86.Term, what string) error {
	if c, ok := pv.s.Concrete(goal); ok {
		if c == 0 {
			return fmt.Errorf("%s: refuted", what)
		}
		return nil
	}
	if pv.proved[goal] {
		return nil
	}
	pv.sat++
	r, err := satHolds(nil, goal, pv.deadline)
	if err != nil {
		return fmt.Errorf("%s: SAT encoding: %v", what, err)
	}
	if r != satUnsat {
		return fmt.Errorf("%s: not proven (SAT solver: %v)", what, r)
	}
	if err := pv.z3.holds(nil, goal, pv.deadline); err != nil {
		return fmt.Errorf("%s: %v", what, err)
	}
	pv.proved[goal] = true
	return nil
}

// hintUnpackOut is where Algorithm 21 goes from a head: the next head,
// or (next nil) the result, 0 or 1; V and M after the step; and whether
// polynomial i ends there (h[i] ← M).
type hintUnpackOut[V any] struct {
	next   *hintUnpackKey
	ret    V
	v      V
	mask   [4]V
	expand bool
}

// hintUnpackNext is Algorithm 21 from the head key, with V and the mask M
// there, on y as the proof reads it: Spec/fips204's step for the byte the
// head reads (HintBitUnpackCount on the count y[ω + i] at Poly,
// HintBitUnpackPosition on y[Index] at Coef, HintBitUnpackPadding on
// y[Index] at Pad), in the loops of lines 3, 7 and 16, which are this
// file's. Its adapters, each tested at every state it reads
// (hintunpackproof_test.go): where a step's check says ⊥ (lines 9 and
// 17), bot records it in V and the run goes on; ge and nonzero are y[Index
// − 1] ≥ y[Index] and y[i] ≠ 0 on the domain; set is hintMaskSet, h[i]
// being M; at Coef, First is Index at the polynomial's first position and
// Index − 1 after it, the step reading First only in line 8's comparison.
func hintUnpackNext[V any](d x86.Domain[V], k, ω int, key hintUnpackKey, count int, y []V, v V, mask [4]V) (out hintUnpackOut[V]) {
	one, zero := d.Const(1), d.Const(0)
	bot := func(c V) bool {
		v = d.Or(v, c)
		return false
	}
	ge := func(a, b V) V { return hintGe(d, a, b) }
	nonzero := func(a V) V { return hintNonzero(d, a) }
	i, index, end := key.i, key.index, key.end
	switch key.kind {
	case hkPoly:
		if fips204.HintBitUnpackCount(ω, index, count) { // line 4
			out.ret = zero
			return out
		}
		end = count // line 7's bound
		for w := range mask {
			mask[w] = zero // h[i] as line 1 leaves it
		}
	case hkCoef:
		first := index
		if !key.first {
			first = index - 1
		}
		// bot answers no: the step returns false.
		fips204.HintBitUnpackPosition(y, index, first, ge, bot, func(b V) { mask = hintMaskSet(d, mask, b) })
		index++ // line 13
	default:
		out.v, out.mask = v, mask
		if index == ω { // the loop of line 16 done
			out.ret = d.Xor(v, one) // line 20, or ⊥ where V
			return out
		}
		fips204.HintBitUnpackPadding(y, index, nonzero, bot)
		out.v, out.next = v, &hintUnpackKey{kind: hkPad, i: k, index: index + 1}
		return out
	}
	out.v, out.mask = v, mask
	switch {
	case index < end: // the loop of line 7 goes on
		out.next = &hintUnpackKey{hkCoef, i, index, end, key.kind == hkPoly}
	case i+1 < k: // the loop of line 3 goes on
		out.expand = true
		out.next = &hintUnpackKey{kind: hkPoly, i: i + 1, index: index}
	default: // line 16
		out.expand = true
		out.next = &hintUnpackKey{kind: hkPad, i: k, index: index}
	}
	return out
}

// hintGe is a ≥ b (1 or 0) for bytes a and b, hintNonzero a ≠ 0.
func hintGe[V any](d x86.Domain[V], a, b V) V { return d.Xor(d.Ult(a, b), d.Const(1)) }
func hintNonzero[V any](d x86.Domain[V], a V) V {
	return d.Xor(d.Eq(a, d.Const(0)), d.Const(1))
}

// hintMaskSet is M with bit b set (line 12's h[i]_b ← 1, h[i] being M:
// word w holds positions 64w to 64w + 63), by selections on b's bits, for
// b a byte.
func hintMaskSet[V any](d x86.Domain[V], mask [4]V, b V) [4]V {
	one, zero := d.Const(1), d.Const(0)
	for w := range mask {
		inWord := d.Eq(d.Shr(b, 6), d.Const(uint64(w)))
		bit := d.Shl(one, 0)
		for t := 0; t < 6; t++ {
			bit = d.Ite(d.And(d.Shr(b, uint(t)), one), d.Shl(bit, 1<<t), bit)
		}
		mask[w] = d.Or(mask[w], d.Ite(inWord, bit, zero))
	}
	return mask
}
