package check

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// The loop proof (contract.Loop): a routine that runs Spec's Step once
// for each of the first n units of a buffer, n a public count, is proven
// equal to Step folded over those units, for every n ≤ Max and every
// value of every other input, and to leave its buffers for n > Max.
//
// Every byte of the carried buffer, of the units and of the count is a
// variable (N, the count's word); every other value the routine starts
// with and every register a call clobbers a fresh variable. Each CALL,
// once call.go has checked its discipline, is the permutation's: it
// records the 200 bytes it got and returns fresh variables. The routine
// runs on this symbolic state path by path; every address must be a
// constant. A branch whose condition is not a constant (it depends on N,
// or on anything else) splits the path: each side is followed if some
// value of the variables meets the path's conditions and that side's
// (the SAT solver decides; a side no value reaches is dropped, which is
// exact: it drops no run). So the paths cover every run. At each RET,
// with c the permutation calls the path made:
//
//   - the path's conditions imply N = c, or c = 0 and N > Max (SAT): a
//     path that stops a block short, goes one too far, or enters the loop
//     for a count beyond Max fails;
//   - Step, run c times over the path's symbolic values from the old
//     carried bytes, unit k the k-th, applies f exactly as often as the
//     path called the permutation and on the same bytes, each lane (term
//     identity, else SAT), the k-th application the k-th call, and the
//     carried buffer ends as the term Step gives, byte by byte.
//
// Memory safety, constant time and the ABI are the inductive check's
// (the count is public), over the loop invariants Proofs/ gives, which
// it checks. With the permutation's contract, proven by its own check,
// the carried buffer is Step folded over the first N units for every
// input with N ≤ Max, and unchanged for N > Max. The proof's paths are
// Max + 2 for a loop that counts down (each shares its iterations with
// the longer ones, so the SAT queries of a unit are asked once): a proof
// for every n ≤ Max, not by induction over n, because the model's
// buffers have a fixed size (Max units) and its addresses are constants.

// loopProofTime bounds the proof of one routine.
const loopProofTime = 120 * time.Second

// loopObs keeps the last branch condition and fails an address that
// depends on data.
type loopObs struct {
	s    *x86.Sym
	cond *x86.Term
}

func (o *loopObs) Branch(_ *x86.Machine[*x86.Term], _ *x86.Insn, c *x86.Term) error {
	o.cond = c
	return nil
}

func (o *loopObs) Address(_ *x86.Machine[*x86.Term], in *x86.Insn, a *x86.Term, _ int, _ bool) error {
	if _, ok := o.s.Concrete(a); !ok {
		return fmt.Errorf("%s: the address depends on data", in)
	}
	return nil
}

func (o *loopObs) After(*x86.Machine[*x86.Term], *x86.Insn, []*x86.Term) error { return nil }

// permutesOne checks that perm is one of c's callees and permutes one
// 200-byte state.
func permutesOne(c *contract.Contract, perm string) error {
	if pc := contract.Lookup(perm); !contains(c.Calls, perm) || pc == nil || pc.KeccakStates != 1 || len(pc.Args) != 1 || pc.Args[0].Bytes != 200 || pc.Args[0].Indirect != 0 || !pc.Args[0].Write {
		return fmt.Errorf("%s is not a callee of the contract permuting one 200-byte state", perm)
	}
	return nil
}

// permEffect is a CALL of the permutation: it records the 200 bytes the
// call got and returns fresh variables, f<k>_<lane> for the k-th call.
func permEffect(s *x86.Sym, calls *[]permCall, cc *contract.Contract, bufs map[string][]*x86.Term) (map[string][]*x86.Term, *x86.Term, error) {
	k := len(*calls)
	out := make([]*x86.Term, 200)
	for w := 0; w < 25; w++ {
		s.Bytes(s.Var(fmt.Sprintf("f%d_%d", k, w)), out[8*w:8*w+8])
	}
	*calls = append(*calls, permCall{in: append([]*x86.Term(nil), bufs[cc.Args[0].Name]...), out: out})
	return map[string][]*x86.Term{cc.Args[0].Name: out}, s.Const(0), nil
}

// proveLoop proves contract c's postcondition for routine r for every
// input, given the permutation's contract.
func proveLoop(f *x86.File, r *x86.Routine, c *contract.Contract, callees map[string]*x86.Routine, maxSteps int) (string, error) {
	deadline := time.Now().Add(loopProofTime)
	lp := c.Loop
	if err := permutesOne(c, lp.Permutation); err != nil {
		return "", err
	}
	if c.Result != "" || lp.Max < 1 || lp.Unit < 1 || lp.Unit%8 != 0 {
		return "", fmt.Errorf("the routine has a result, or the loop no units of whole words")
	}
	var carry, over, count bool
	for _, a := range c.Args {
		switch {
		case a.Indirect != 0:
			return "", fmt.Errorf("%s is indirect", a.Name)
		case a.Name == lp.Carry && a.Read && a.Write && a.Bytes%8 == 0:
			carry = true
		case a.Name == lp.Over && a.Read && !a.Write && a.Bytes == lp.Max*lp.Unit:
			over = true
		case a.Name == lp.Count && a.Read && !a.Write && !a.Secret && a.Bytes == 8:
			count = true
		default:
			return "", fmt.Errorf("%s is none of the carried buffer %q, the read-only %d units of %q and the public 8-byte count %q", a.Name, lp.Carry, lp.Max, lp.Over, lp.Count)
		}
	}
	if !carry || !over || !count {
		return "", fmt.Errorf("no carried buffer %q, units %q or count %q", lp.Carry, lp.Over, lp.Count)
	}
	s, mk, base, lay, _ := symSetup(f, r, c, 12, func(secret, input bool) bool { return secret || input })
	vars := func(reg *x86.Region[*x86.Term], name string) []any {
		var out []any
		for w := 0; w < len(reg.Bytes)/8; w++ {
			s.Bytes(s.Var(fmt.Sprintf("%s_%d", name, w)), reg.Bytes[8*w:8*w+8])
		}
		for _, b := range reg.Bytes {
			out = append(out, b)
		}
		return out
	}
	carry0, units := vars(base.Region(lp.Carry), lp.Carry), vars(base.Region(lp.Over), lp.Over)
	vars(base.Region(lp.Count), lp.Count)
	N := s.FromBytes(base.Region(lp.Count).Bytes)
	q := newQuerier(deadline)
	same, holds := q.same, q.holds
	ps := &paths{q: q, s: s, budget: loopProofTime}
	err := ps.each(4*lp.Max+8, func(dec []bool) error {
		m := base.CloneCOW()
		obs := &loopObs{s: s}
		m.Obs = obs
		var calls []permCall
		effect := func(cc *contract.Contract, bufs map[string][]*x86.Term) (map[string][]*x86.Term, *x86.Term, error) {
			if cc.Symbol != lp.Permutation {
				return nil, nil, fmt.Errorf("%s is not the loop's permutation", cc.Symbol)
			}
			return permEffect(s, &calls, cc, bufs)
		}
		pl := *lay
		pl.slots = lay.slots.fork(uint64(ps.n))
		env := &callEnv[*x86.Term]{caller: c, callees: callees, lay: &pl, mk: mk, rng: rand.New(rand.NewPCG(5, uint64(ps.n))),
			taint: func(t *x86.Term) (bool, bool) {
				_, konst := s.Concrete(t)
				return !konst, !konst
			}, effect: effect}
		m.Call = env.call
		var conds []*x86.Term
		for !m.Done {
			if m.Steps >= maxSteps {
				return fmt.Errorf("path %v: no RET within %d steps", dec, maxSteps)
			}
			if err := ps.step(m, obs, nil, &dec, &conds); err != nil {
				return fmt.Errorf("path %v: %v", dec, err)
			}
		}
		// Where the path ends: the count it absorbed.
		n := len(calls)
		goal := s.Eq(N, s.Const(uint64(n)))
		if n == 0 {
			goal = s.Or(goal, s.Ult(s.Const(uint64(lp.Max)), N))
		}
		if n > lp.Max {
			return fmt.Errorf("a path calls the permutation %d times, more than the %d units", n, lp.Max)
		}
		ok, err := holds(conds, goal)
		if err != nil {
			return fmt.Errorf("path %v: %v", dec, err)
		}
		if !ok {
			if n == 0 {
				return fmt.Errorf("a path returns without a call where the count may be neither 0 nor above %d", lp.Max)
			}
			return fmt.Errorf("a path returns after %d calls where the count may be other than %d", n, n)
		}
		// Step over the path's units, f its calls in order.
		o := &termOps{s: s, calls: calls, same: same}
		want := carry0
		for k := 0; k < n; k++ {
			want = lp.Step(o, want, units[lp.Unit*k:lp.Unit*(k+1)])
			if o.err != nil {
				return fmt.Errorf("count %d, unit %d: %v", n, k, o.err)
			}
		}
		if o.next != n {
			return fmt.Errorf("count %d: the routine calls the permutation %d times, Step applies f %d times", n, n, o.next)
		}
		got := m.Region(lp.Carry).Bytes
		if len(want) != len(got) {
			return fmt.Errorf("the Step of Spec gives %d bytes of %s, which has %d", len(want), lp.Carry, len(got))
		}
		mask := s.Const(0xff)
		for i, w := range want {
			if err := same(s.And(got[i], mask), s.And(w.(*x86.Term), mask)); err != nil {
				return fmt.Errorf("count %d: byte %d of %s is not what Step gives: %v", n, i, lp.Carry, err)
			}
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("proven for every count n ≤ %d (and n > %d) and every value of %s and %s: %d paths cover every run, each returning after n calls of %s (the path's conditions imply the count), and Step of Spec run n times over the routine's symbolic values applies f as the calls in order, on the same state, and gives %s (%d SAT queries; %s); so, given the callee's contract, %s is Step folded over the first n units",
		lp.Max, lp.Max, lp.Carry, lp.Over, ps.n, lp.Permutation, lp.Carry, q.n, q.z3s.note(), lp.Carry), nil
}

// querier asks a proof's bit-level questions and counts them: every
// answer of the SAT solver that a property holds comes with a certificate
// it checks (satHolds, sameBits), z3 re-asks a sample, and two terms
// proven equal are not asked again.
type querier struct {
	deadline time.Time
	n        int
	z3s      z3Sample
	proven   map[[2]*x86.Term]bool
}

func newQuerier(deadline time.Time) *querier {
	return &querier{deadline: deadline, proven: map[[2]*x86.Term]bool{}}
}

// same is nil where got and want agree on every bit for every value of
// the variables.
func (q *querier) same(got, want *x86.Term) error {
	if got == want || q.proven[[2]*x86.Term{got, want}] {
		return nil
	}
	q.n++
	if err := sameBits(got, want, q.deadline, &q.z3s); err != nil {
		return err
	}
	q.proven[[2]*x86.Term{got, want}] = true
	return nil
}

// holds says whether goal is nonzero for every value of the variables
// that makes every assumption nonzero.
func (q *querier) holds(assume []*x86.Term, goal *x86.Term) (bool, error) {
	q.n++
	res, err := satHolds(assume, goal, q.deadline)
	switch {
	case err != nil:
		return false, err
	case res == satUnsat:
		return true, q.z3s.holds(assume, goal, q.deadline)
	case res == satSat:
		return false, nil
	}
	return false, errors.New("the SAT solver gave up")
}

// side decides a branch on cond that a path meets anew, under its
// assumptions: the side to follow (taken, unless no value reaches it) and
// whether the other is reachable too, and so a path of its own. A side
// no value reaches is dropped, which drops no run.
func (q *querier) side(s *x86.Sym, assume []*x86.Term, cond *x86.Term) (taken, both bool, err error) {
	never, err := q.holds(assume, s.Eq(cond, s.Const(0)))
	if err != nil {
		return false, false, err
	}
	always, err := q.holds(assume, cond)
	if err != nil {
		return false, false, err
	}
	return !never, !never && !always, nil
}

// paths runs a proof's symbolic paths: each is replayed from its start
// with the sides it takes at the branches on data, and a new branch
// queues the path that takes its other side where both are reachable.
type paths struct {
	q      *querier
	s      *x86.Sym
	budget time.Duration // the proof's time, which set q's deadline
	queue  [][]bool
	n      int // paths run
}

// each runs run on every path, the first with no decisions, at most limit
// in all, before the querier's deadline.
func (ps *paths) each(limit int, run func(dec []bool) error) error {
	ps.queue = [][]bool{nil}
	for len(ps.queue) > 0 {
		if ps.n++; ps.n > limit {
			return fmt.Errorf("more than %d paths", limit)
		}
		if time.Now().After(ps.q.deadline) {
			return fmt.Errorf("the proof's time (%v) ran out", ps.budget)
		}
		dec := ps.queue[0]
		ps.queue = ps.queue[1:]
		if err := run(dec); err != nil {
			return err
		}
	}
	return nil
}

// step runs one instruction of a path that has taken the sides dec at the
// branches whose conditions are conds (base assumed besides): at a branch
// on data (obs's condition), the side dec records, else the side the
// conditions allow, queueing the other where it is reachable too.
func (ps *paths) step(m *x86.Machine[*x86.Term], obs *loopObs, base []*x86.Term, dec *[]bool, conds *[]*x86.Term) error {
	err := m.Step()
	var bu *x86.BranchUnknown
	if !errors.As(err, &bu) {
		if err != nil {
			return fmt.Errorf("symbolic run: %v", err)
		}
		return nil
	}
	k := len(*conds)
	var taken bool
	if k < len(*dec) {
		taken = (*dec)[k]
	} else {
		var both bool
		taken, both, err = ps.q.side(ps.s, append(slices.Clone(base), *conds...), obs.cond)
		if err != nil {
			return fmt.Errorf("%s: %v", bu.Insn, err)
		}
		if both {
			ps.queue = append(ps.queue, append(slices.Clone((*dec)[:k:k]), false))
		}
		*dec = append((*dec)[:k:k], taken)
	}
	if taken {
		*conds = append(*conds, obs.cond)
	} else {
		*conds = append(*conds, ps.s.Eq(obs.cond, ps.s.Const(0)))
	}
	m.TakeBranch(bu, taken)
	return nil
}
