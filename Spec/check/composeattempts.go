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

// The attempts proof (contract.Attempts): a routine that computes ρ″ and
// then runs Algorithm 7's attempts over CALLs of proven stage routines is
// proven equal to fips204.SignLoopOver for every input, by induction over
// κ, with the stages replaced by their contracts:
//
//   - every byte of an input is a variable (eight bytes a word), every
//     other value the routine starts with a fresh variable; the
//     permutation's i-th call returns fresh variables (as in Compose); a
//     stage's call (a routine whose contract has a Stage) returns fresh
//     variables in every buffer it may write and a fresh bit as its
//     result; the valgrind client request changes nothing;
//   - a branch whose condition is not a constant splits the path; a side
//     no value of the variables reaches under the path's conditions is
//     dropped (SAT), so the paths cover every run.
//
// The prefix: from the entry every path must reach the loop head (the
// label of the routine's one loop invariant, Proofs/) with IntegerToBytes(0,
// 2) at bytes At, At + 1 of Counter; Before (ρ″) run over its symbolic
// values applies f as its calls, in order, on the same state (Compose's
// rule). The head state is that state with every register but SP (kept
// relative to the frame) a fresh variable, the counter IntegerToBytes(K,
// 2) for a fresh K with K < Bound, and every writable byte that some
// run of the body changes a fresh variable (found by running the body
// until no new byte changes); all else keeps its term. The stack and
// the buffers may have moved meanwhile (a CALL moves them, as the model
// does): frame and buffers are compared byte by byte at their offsets,
// and each attempt starts on a stack moved once more, so that no kept
// byte can hold a usable address of the stack it was written on.
//
// The body: every path from the head state must end
//
//   - back at the head with every byte the head state keeps unchanged,
//     the counter IntegerToBytes(K + Step, 2) and K + Step < Bound
//     implied by its conditions, where Attempt for κ = K gives false;
//   - at RET with result 1 where Attempt gives σ and true, σ in Sigma;
//   - at RET with result 0 where Attempt gives false and K + Step ≥
//     Bound is implied.
//
// Attempt (fips204.SignAttemptOver) runs over the path's values with K's
// bytes as κ: its k-th stage is the path's k-th stage call, of that
// method, on exactly its arguments (polynomials: the same 1024 byte terms,
// of the same Montgomery form, with words in the callee's precondition by
// the range the caller's input precondition or the computing stage's
// proven OutRange gives, or its OkRange where the path implies that
// stage's result 1; bytes: the same terms, else SAT; a stage's output
// only where the path implies that stage's result 1, since only there
// its contract says what it holds), giving that call's outputs; each Reveal must be decided by the path's conditions (the
// routine branched on exactly that result), and gives that side. A
// callee may get a PublicOut buffer's bytes in a buffer its contract calls
// public only on a path returning 1, and only bytes the routine leaves
// there. So, by induction over the attempts, with the stages' contracts
// (proven by their own checks), the routine computes SignLoopOver for
// every input meeting the precondition.

// attemptsProofTime bounds the proof of one routine.
const attemptsProofTime = 120 * time.Second

// spoly is a polynomial of the attempts proof: its bytes, whether they
// hold 2³² times the steps' value, the range of its words, and, for a
// stage's output, that stage's result ok (its outputs are its contract's
// only where ok is 1) and the range of its words there (okDom, if
// tighter).
type spoly struct {
	bytes []*x86.Term
	mont  bool
	dom   dom
	ok    *x86.Term
	okDom *dom
}

// stageCall is one CALL of a stage routine: what it got and returned.
type stageCall struct {
	cc  *contract.Contract
	in  map[string][]*x86.Term
	out map[string][]*x86.Term
	ok  *x86.Term
}

// attemptPath is one path's calls and conditions.
type attemptPath struct {
	perms  []permCall
	stages []*stageCall
	got    []map[string][]*x86.Term // the bytes each call got
	conds  []*x86.Term              // each a truth value (nonzero) of the path
}

// attemptOps is termOps with Reveal decided by a path's conditions.
type attemptOps struct {
	*termOps
	holds func(goal *x86.Term) (bool, error)
}

func (o *attemptOps) Reveal(b any) bool {
	if o.err != nil {
		return false
	}
	t := o.s.And(b.(*x86.Term), o.s.Const(1))
	for _, side := range []bool{true, false} {
		want := uint64(0)
		if side {
			want = 1
		}
		ok, err := o.holds(o.s.Eq(t, o.s.Const(want)))
		if err != nil {
			o.fail("Reveal: %v", err)
			return false
		}
		if ok {
			return side
		}
	}
	o.fail("Spec makes a stage's result public and branches on it where the routine's path does not decide it")
	return false
}

// stageOps are fips204.SignStages over a path's stage calls.
type stageOps struct {
	o     *attemptOps
	calls []*stageCall
	next  int
	// from is the result of the stage call whose output a byte is.
	from map[*x86.Term]*x86.Term
}

// valid checks that the path implies ok = 1: a stage's outputs are its
// contract's only there.
func (st *stageOps) valid(ok *x86.Term) error {
	if ok == nil {
		return nil
	}
	sure, err := st.o.holds(st.o.s.Eq(ok, st.o.s.Const(1)))
	if err == nil && !sure {
		err = errors.New("the path does not imply that stage's result is 1")
	}
	return err
}

// flat lays out a method's arguments back to back.
func flat(args ...any) []any {
	var out []any
	for _, a := range args {
		switch v := a.(type) {
		case [][]any:
			for _, row := range v {
				out = append(out, row...)
			}
		case []any:
			out = append(out, v...)
		default:
			out = append(out, v)
		}
	}
	return out
}

// call matches the next stage call with method and its arguments and
// returns its outputs, one group for each Out buffer, and its result.
func (st *stageOps) call(method string, groups int, args []any) ([][]any, any) {
	o := st.o
	bad := func(format string, a ...any) ([][]any, any) {
		o.fail(format, a...)
		out := make([][]any, groups)
		for i := range out {
			out[i] = []any{&spoly{}}
		}
		return out, o.s.Const(0)
	}
	if o.err != nil {
		return bad("")
	}
	k := st.next
	st.next++
	if k >= len(st.calls) {
		return bad("Spec's attempt runs stage %s; the path calls %d stages", method, len(st.calls))
	}
	sc := st.calls[k]
	cc := sc.cc
	if cc.Stage.Method != method || len(cc.Stage.Out) != groups {
		return bad("stage call %d is %s (%s), where Spec's attempt runs %s", k, cc.Symbol, cc.Stage.Method, method)
	}
	isPoly := func(b string) bool { return slices.Contains(cc.Compose.Polys, b) }
	i := 0
	for _, b := range cc.Stage.In {
		got := sc.in[b]
		if isPoly(b) {
			need := fullDom
			if r, ok := cc.Compose.InRange[b]; ok {
				need = dom{int64(r[0]), int64(r[1])}
			} else if b == cc.Compose.Hint {
				need = dom{0, 1}
			}
			for n := 0; n < len(got)/1024; n++ {
				if i >= len(args) {
					return bad("%s: Spec gives fewer arguments than its %s", cc.Symbol, b)
				}
				p, ok := args[i].(*spoly)
				i++
				if !ok || len(p.bytes) != 1024 {
					return bad("%s: polynomial %d of %s is no polynomial of Spec's", cc.Symbol, n, b)
				}
				for j, t := range got[1024*n : 1024*n+1024] {
					if t != p.bytes[j] {
						return bad("%s: byte %d of polynomial %d of %s is not the polynomial Spec's attempt passes", cc.Symbol, j, n, b)
					}
				}
				if p.mont != slices.Contains(cc.Compose.MontIn, b) {
					return bad("%s: polynomial %d of %s: its Montgomery form is not the callee's", cc.Symbol, n, b)
				}
				if err := st.valid(p.ok); err != nil {
					return bad("%s: polynomial %d of %s is a stage's output: %v", cc.Symbol, n, b, err)
				}
				d := p.dom
				if p.okDom != nil {
					d = *p.okDom
				}
				if d.lo < need.lo || d.hi > need.hi {
					return bad("%s: polynomial %d of %s may have words outside its precondition [%d, %d]", cc.Symbol, n, b, need.lo, need.hi)
				}
			}
			continue
		}
		for j, t := range got {
			if i >= len(args) {
				return bad("%s: Spec gives fewer arguments than its %s", cc.Symbol, b)
			}
			x, ok := args[i].(*x86.Term)
			i++
			if !ok {
				return bad("%s: byte %d of %s is no byte of Spec's", cc.Symbol, j, b)
			}
			mask := o.s.Const(0xff)
			if err := o.same(o.s.And(t, mask), o.s.And(x, mask)); err != nil {
				return bad("%s: byte %d of %s is not what Spec's attempt passes: %v", cc.Symbol, j, b, err)
			}
			if err := st.valid(st.from[x]); err != nil {
				return bad("%s: byte %d of %s is a stage's output: %v", cc.Symbol, j, b, err)
			}
		}
	}
	if i != len(args) {
		return bad("%s: Spec passes %d values, the call's buffers hold %d", cc.Symbol, len(args), i)
	}
	var ok *x86.Term // nil: a stage without a result, whose outputs always hold
	if cc.Result == "bool" {
		ok = sc.ok
	}
	var out [][]any
	for _, b := range cc.Stage.Out {
		vs := sc.out[b]
		var g []any
		if isPoly(b) {
			rg := cc.Stage.OutRange[b]
			for n := 0; n < len(vs)/1024; n++ {
				p := &spoly{bytes: vs[1024*n : 1024*n+1024], mont: slices.Contains(cc.Compose.Mont, b), dom: dom{int64(rg[0]), int64(rg[1])}, ok: ok}
				if r, in := cc.Stage.OkRange[b]; in {
					p.okDom = &dom{int64(r[0]), int64(r[1])}
				}
				g = append(g, p)
			}
		} else {
			for _, t := range vs {
				if ok != nil {
					st.from[t] = ok
				}
				g = append(g, t)
			}
		}
		out = append(out, g)
	}
	return out, sc.ok
}

func (st *stageOps) Z(aHat [][]any, s1Hat []any, mu, rhoPP, kappa []any) ([]any, any, []any, []any, any) {
	g, ok := st.call("Z", 4, flat(aHat, s1Hat, mu, rhoPP, kappa))
	return g[0], g[1][0], g[2], g[3], ok
}

func (st *stageOps) R0(s2Hat []any, cHat any, w []any) ([]any, any) {
	g, ok := st.call("R0", 1, flat(s2Hat, cHat, w))
	return g[0], ok
}

func (st *stageOps) Hint(t0Hat []any, cHat any, wcs2 []any) ([]any, any) {
	g, ok := st.call("Hint", 1, flat(t0Hat, cHat, wcs2))
	return g[0], ok
}

func (st *stageOps) Encode(cTilde []any, z, h []any) []any {
	g, _ := st.call("Encode", 1, flat(cTilde, z, h))
	return g[0]
}

// proveAttempts proves contract c's postcondition for routine r for every
// input, given its callees' contracts.
func proveAttempts(f *x86.File, r *x86.Routine, c *contract.Contract, callees map[string]*x86.Routine, hints Hints, maxSteps int) (string, error) {
	deadline := time.Now().Add(attemptsProofTime)
	ap := c.Attempts
	if err := permutesOne(c, ap.Permutation); err != nil {
		return "", err
	}
	if c.Result != "bool" || ap.Step < 1 || ap.Bound < ap.Step || ap.Bound >= 1<<16 {
		return "", fmt.Errorf("the routine returns no truth value, or the loop's step and bound are not those of a 2-byte κ")
	}
	if hints == nil || len(hints.Invariants(c.Symbol)) != 1 {
		return "", fmt.Errorf("no loop head: the routine's hints name no single loop invariant")
	}
	head, ok := r.Labels[hints.Invariants(c.Symbol)[0].Label]
	if !ok {
		return "", fmt.Errorf("no label %q", hints.Invariants(c.Symbol)[0].Label)
	}
	isPoly := map[string]bool{}
	for _, n := range ap.Polys {
		isPoly[n] = true
	}
	for _, a := range c.Args {
		switch {
		case a.Indirect != 0:
			return "", fmt.Errorf("%s is indirect", a.Name)
		case a.Write && a.Name != ap.Sigma && !slices.Contains(ap.Scratch, a.Name):
			return "", fmt.Errorf("the routine may write %s, which is neither σ nor scratch", a.Name)
		case a.Name == ap.Counter && (!a.Write || !a.Read || a.Bytes < ap.At+2):
			return "", fmt.Errorf("the counter %s is not a buffer the routine reads and writes with room for κ at %d", a.Name, ap.At)
		case isPoly[a.Name] && (a.Write || a.Bytes%1024 != 0):
			return "", fmt.Errorf("%s is not a read-only buffer of polynomials", a.Name)
		}
	}
	s, mk, base, lay, _ := symSetup(f, r, c, 13, func(secret, input bool) bool { return secret || input })
	in := map[string][]any{}
	for _, a := range c.Args {
		reg := base.Region(a.Name)
		prefix := a.Name
		if a.Write {
			prefix = "old_" + a.Name
		}
		for w := 0; 8*w < a.Bytes; w++ {
			s.Bytes(s.Var(fmt.Sprintf("%s_%d", prefix, w)), reg.Bytes[8*w:min(8*w+8, a.Bytes)])
		}
		if a.Write {
			continue
		}
		if !isPoly[a.Name] {
			for _, b := range reg.Bytes {
				in[a.Name] = append(in[a.Name], b)
			}
			continue
		}
		for k := 0; k < a.Bytes/1024; k++ {
			in[a.Name] = append(in[a.Name], &spoly{bytes: reg.Bytes[1024*k : 1024*k+1024], mont: slices.Contains(ap.MontIn, a.Name), dom: fullDom})
		}
	}
	q := newQuerier(deadline)
	same, holds := q.same, q.holds
	K := s.Var("kappa")
	kBytes := make([]*x86.Term, 8)
	s.Bytes(K, kBytes)
	next := s.Add(K, s.Const(uint64(ap.Step)))
	nextBytes := make([]*x86.Term, 8)
	s.Bytes(next, nextBytes)

	// explore runs every path from start (at the head when body is
	// set), calling end for each with how it ends: at the head or at RET.
	ps := &paths{q: q, s: s, budget: attemptsProofTime}
	explore := func(start *x86.Machine[*x86.Term], startLay *layout, body bool, base []*x86.Term,
		end func(m *x86.Machine[*x86.Term], p *attemptPath, atHead bool, env *callEnv[*x86.Term]) error) error {
		return ps.each(256, func(dec []bool) error {
			m := start.CloneCOW()
			obs := &loopObs{s: s}
			m.Obs = obs
			p := &attemptPath{}
			effect := func(cc *contract.Contract, bufs map[string][]*x86.Term) (map[string][]*x86.Term, *x86.Term, error) {
				p.got = append(p.got, bufs)
				switch {
				case cc.Valgrind && cc.Unchanged:
					return map[string][]*x86.Term{}, s.Const(0), nil
				case !body && cc.Symbol == ap.Permutation:
					return permEffect(s, &p.perms, cc, bufs)
				case body && cc.Stage != nil && cc.Compose != nil:
					k := len(p.stages)
					out := map[string][]*x86.Term{}
					for _, a := range cc.Args {
						if !a.Write {
							continue
						}
						vs := make([]*x86.Term, a.Bytes)
						for w := 0; 8*w < a.Bytes; w++ {
							s.Bytes(s.Var(fmt.Sprintf("stage%d_%s_%d", k, a.Name, w)), vs[8*w:min(8*w+8, a.Bytes)])
						}
						out[a.Name] = vs
					}
					ok := s.Const(0)
					if cc.Result == "bool" {
						ok = s.And(s.Var(fmt.Sprintf("stage%d_ok", k)), s.Const(1))
					}
					p.stages = append(p.stages, &stageCall{cc: cc, in: bufs, out: out, ok: ok})
					return out, ok, nil
				}
				return nil, nil, fmt.Errorf("%s is neither the permutation before the loop, a stage in it, nor the valgrind client request", cc.Symbol)
			}
			pl := *startLay
			pl.slots = startLay.slots.fork(uint64(ps.n))
			env := &callEnv[*x86.Term]{caller: c, callees: callees, lay: &pl, mk: mk, rng: rand.New(rand.NewPCG(7, uint64(ps.n))),
				taint: func(t *x86.Term) (bool, bool) {
					_, konst := s.Concrete(t)
					return false, !konst
				}, effect: effect}
			m.Call = env.call
			// An attempt starts on a moved stack (and buffers, for a
			// routine declared noescape), as every attempt after the
			// first does: a kept byte holding an address of the old
			// place cannot reach what it reached before.
			if body {
				env.moveStack(m)
			}
			var conds []*x86.Term
			first := m.Steps
			atHead := false
			for !m.Done {
				if m.PC == head && (m.Steps > first || !body) {
					atHead = true
					break
				}
				if m.Steps-first >= maxSteps {
					return fmt.Errorf("path %v: neither RET nor the loop head within %d steps", dec, maxSteps)
				}
				if err := ps.step(m, obs, base, &dec, &conds); err != nil {
					return fmt.Errorf("path %v: %v", dec, err)
				}
			}
			p.conds = conds
			if err := end(m, p, atHead, env); err != nil {
				return fmt.Errorf("path %v: %v", dec, err)
			}
			return nil
		})
	}

	// The prefix: entry to the head.
	var s0 *x86.Machine[*x86.Term]
	var lay0 layout
	var rhoPP []any
	err := explore(base, lay, false, nil, func(m *x86.Machine[*x86.Term], p *attemptPath, atHead bool, env *callEnv[*x86.Term]) error {
		if !atHead {
			return fmt.Errorf("returns before the first attempt")
		}
		if s0 != nil {
			return fmt.Errorf("a second path to the first attempt")
		}
		ctr := m.Region(ap.Counter).Bytes[ap.At : ap.At+2]
		for i, t := range ctr {
			if ok, err := holds(p.conds, s.Eq(s.And(t, s.Const(0xff)), s.Const(0))); err != nil || !ok {
				return fmt.Errorf("byte %d of κ is not 0 at the first attempt%s", i, why(err))
			}
		}
		o := &termOps{s: s, p: ap.P, calls: p.perms, same: same}
		rhoPP = ap.Before(o, in)
		if o.err != nil {
			return o.err
		}
		if o.next != len(p.perms) {
			return fmt.Errorf("the routine calls the permutation %d times before the first attempt, Before applies f %d times", len(p.perms), o.next)
		}
		if err := publicOut(s, c, env.Calls, p.got, m, false, same); err != nil {
			return err
		}
		s0, lay0 = m, *env.lay
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("before the first attempt: %v", err)
	}
	if s0 == nil {
		return "", fmt.Errorf("no path reaches the first attempt")
	}
	frameOff := func(m *x86.Machine[*x86.Term]) (uint64, bool) {
		sp, ok := s.Concrete(m.GPR[x86.SP])
		return sp - m.Region("frame").Base, ok
	}
	sp0, ok := frameOff(s0)
	if !ok {
		return "", fmt.Errorf("SP is not a constant at the first attempt")
	}
	// The writable bytes each round forgets, by region.
	forget := map[string][]bool{}
	for _, reg := range s0.Regions {
		if reg.Writable {
			forget[reg.Name] = make([]bool, reg.Size())
		}
	}
	headState := func(round int) *x86.Machine[*x86.Term] {
		m := s0.CloneCOW()
		for i := range m.GPR {
			if x86.Reg(i) != x86.SP {
				m.GPR[i] = s.Var(fmt.Sprintf("head%d_r%d", round, i))
			}
		}
		for i := range m.Vec {
			for w := range m.Vec[i] {
				m.Vec[i][w] = s.Var(fmt.Sprintf("head%d_v%d_%d", round, i, w))
			}
		}
		m.UndefFlags()
		for _, reg := range m.Regions {
			fg := forget[reg.Name]
			if fg == nil {
				continue
			}
			reg.Own()
			for w := 0; 8*w < reg.Size(); w++ {
				hi := min(8*w+8, reg.Size())
				if slices.Contains(fg[8*w:hi], true) {
					s.Bytes(s.Var(fmt.Sprintf("head%d_%s_%d", round, reg.Name, w)), reg.Bytes[8*w:hi])
				}
			}
		}
		ctr := m.Region(ap.Counter)
		copy(ctr.Bytes[ap.At:ap.At+2], kBytes[:2])
		return m
	}
	assume0 := []*x86.Term{s.Ult(K, s.Const(uint64(ap.Bound)))}
	isCounter := func(reg string, i int) bool { return reg == ap.Counter && i >= ap.At && i < ap.At+2 }
	var accepts, rejects, loops int
	for round := 0; ; round++ {
		if round > 8 {
			return "", fmt.Errorf("the head state does not settle in 8 rounds")
		}
		hs := headState(round)
		grew := false
		accepts, rejects, loops = 0, 0, 0
		err := explore(hs, &lay0, true, assume0, func(m *x86.Machine[*x86.Term], p *attemptPath, atHead bool, env *callEnv[*x86.Term]) error {
			as := append(slices.Clone(assume0), p.conds...)
			if atHead {
				// Bytes that differ from the head state's are forgotten.
				for _, reg := range hs.Regions {
					fg := forget[reg.Name]
					if fg == nil {
						continue
					}
					now := m.Region(reg.Name).Bytes
					for i, t := range reg.Bytes {
						if !fg[i] && !isCounter(reg.Name, i) && now[i] != t {
							fg[i], grew = true, true
						}
					}
				}
				if off, ok := frameOff(m); !ok || off != sp0 {
					return fmt.Errorf("SP differs at the loop head")
				}
			}
			if grew {
				return nil
			}
			o := &attemptOps{termOps: &termOps{s: s, p: ap.P, same: same}, holds: func(goal *x86.Term) (bool, error) { return holds(as, goal) }}
			st := &stageOps{o: o, calls: p.stages, from: map[*x86.Term]*x86.Term{}}
			sigma, ok := ap.Attempt(o, st, in, rhoPP, []any{kBytes[0], kBytes[1]})
			if o.err != nil {
				return o.err
			}
			if st.next != len(p.stages) {
				return fmt.Errorf("the path calls %d stages, Spec's attempt runs %d", len(p.stages), st.next)
			}
			more := s.Ult(next, s.Const(uint64(ap.Bound)))
			res := s.And(s.FromBytes(m.Region("results").Bytes[:1]), s.Const(0xff))
			switch {
			case atHead:
				loops++
				if ok {
					return fmt.Errorf("starts another attempt where Spec's attempt gives σ")
				}
				if sure, err := holds(as, more); err != nil || !sure {
					return fmt.Errorf("starts another attempt where κ + %d may be %d or more%s", ap.Step, ap.Bound, why(err))
				}
				ctr := m.Region(ap.Counter).Bytes[ap.At : ap.At+2]
				for i, t := range ctr {
					if sure, err := holds(as, s.Eq(s.And(t, s.Const(0xff)), s.And(nextBytes[i], s.Const(0xff)))); err != nil || !sure {
						return fmt.Errorf("byte %d of κ is not that of κ + %d at the next attempt%s", i, ap.Step, why(err))
					}
				}
			case ok:
				accepts++
				if sure, err := holds(as, s.Eq(res, s.Const(1))); err != nil || !sure {
					return fmt.Errorf("the result is not 1 where Spec's attempt gives σ%s", why(err))
				}
				got := m.Region(ap.Sigma).Bytes
				if len(got) != len(sigma) {
					return fmt.Errorf("the σ of Spec is %d bytes, %s %d", len(sigma), ap.Sigma, len(got))
				}
				for i, t := range sigma {
					mask := s.Const(0xff)
					if err := same(s.And(got[i], mask), s.And(t.(*x86.Term), mask)); err != nil {
						return fmt.Errorf("byte %d of σ is not Spec's: %v", i, err)
					}
				}
			default:
				rejects++
				if sure, err := holds(as, s.Eq(res, s.Const(0))); err != nil || !sure {
					return fmt.Errorf("the result is not 0 where Spec's attempt gives ⊥ and the routine returns%s", why(err))
				}
				if sure, err := holds(as, s.Eq(more, s.Const(0))); err != nil || !sure {
					return fmt.Errorf("returns where κ + %d may be below %d: Spec makes another attempt%s", ap.Step, ap.Bound, why(err))
				}
			}
			return publicOut(s, c, env.Calls, p.got, m, ok && !atHead, same)
		})
		if err != nil {
			return "", fmt.Errorf("an attempt from the loop head (round %d): %v", round, err)
		}
		if !grew {
			break
		}
	}
	return fmt.Sprintf("proven for every input, by induction over κ: the prefix gives ρ″ as Before (Spec) on the permutation's calls and κ = 0; "+
		"from the loop head (κ any value below %d, every byte an attempt changes any value) the paths of an attempt (%d returning σ, %d returning false, %d back at the head with κ + %d) "+
		"each run Spec's attempt over the stages' proven contracts, its Reveals the path's branches (%d SAT queries; %s); so the routine computes fips204.SignLoopOver",
		ap.Bound, accepts, rejects, loops, ap.Step, q.n, q.z3s.note()), nil
}

// publicOut checks a run's calls (made, with the bytes each got) against
// c's PublicOut buffers: a callee may get their bytes in a buffer its
// contract calls public only on a run that returns them as output
// (accept), and only bytes that, at the call, are what the routine leaves
// there at the end.
func publicOut(s *x86.Sym, c *contract.Contract, made []callRecord, got []map[string][]*x86.Term, m *x86.Machine[*x86.Term], accept bool, same func(a, b *x86.Term) error) error {
	for i, rec := range made {
		cc := contract.Lookup(rec.Target)
		for _, a := range cc.Args {
			for _, bn := range a.BufferNames() {
				sp, ok := rec.Buffers[bn]
				if a.Secret || !ok || !contains(c.PublicOut, sp.Region) {
					continue
				}
				if !accept || i >= len(got) {
					return fmt.Errorf("call %d of %s gets bytes of %s in its public %s on a path that returns no σ", i, rec.Target, sp.Region, bn)
				}
				final := m.Region(sp.Region).Bytes[sp.Off : sp.Off+sp.N]
				for j, t := range got[i][bn] {
					mask := s.Const(0xff)
					if err := same(s.And(t, mask), s.And(final[j], mask)); err != nil {
						return fmt.Errorf("call %d of %s: byte %d of its public %s (%s+%d) is not what the routine leaves there: %v", i, rec.Target, j, bn, sp.Region, sp.Off+j, err)
					}
				}
			}
		}
	}
	return nil
}

// why is err's text for a message, if any.
func why(err error) string {
	if err == nil {
		return ""
	}
	return " (" + err.Error() + ")"
}
