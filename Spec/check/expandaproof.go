package check

import (
	"fmt"
	"strings"
	"time"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// The proof of an ExpandA routine (FIPS 204, Algorithm 32) for every ρ.
// The routine has fixed control flow and addresses (its taint run shows
// it), so one symbolic run covers every input: ρ is four 64-bit variables,
// every garbage byte (frame, registers, what a call clobbers) a fresh
// variable, and each sampler call, replaced by its contract, writes fresh
// variables to the polynomials it samples and returns a fresh bit. The
// hints (untrusted) state the proof as the design being ported names it,
// and the checker verifies each claim on that run:
//
//   - StageA: the schedule of calls. After call i, entries 0 … e−1 of Â
//     are sampled, and call i samples consecutive entries in its buffers'
//     order, from one at most e to one at least e, so that at the end all
//     kℓ are; an entry sampled again (by a last group of eight that ends
//     at kℓ) holds what the last call on it wrote.
//   - SampN (the design's Samp4, for groups of any width): the g-th
//     many-way call (four-way or eight-way) samples the next entries
//     e … e+w−1: polynomial j's seed is exactly ρ ‖ s ‖ r for its entry e+j
//     (s = e mod ℓ, r = e div ℓ; Algorithm 32, lines 3 and 4), its output
//     is entry e+j of a, and the running mask before the call is the AND
//     of the results so far (decided by SAT), so the group's result is
//     ANDed in. Single calls are checked the same way.
//   - CTSample: the buffers whose bytes may reach a sampler (ρ): each is
//     public in the contract, and every seed byte is a byte of them or a
//     constant, so nothing secret and nothing but ρ reaches a sampler;
//     its pointers are constants.
//
// At the end every entry e of a holds exactly what the last call that
// sampled it wrote, and the result is the AND of every call's result
// (SAT). With the samplers' postconditions (ok ⇔ the bound suffices for
// each of the call's seeds, all of them entries' seeds; ok ⇒ each
// polynomial is RejNTTPoly of its seed), that is ExpandA's: ok ⇔ every
// entry's bound suffices, ok ⇒ a[ℓr + s] = RejNTTPoly(ρ ‖ s ‖ r).

// SampleCall is one sampler call of an ExpandA schedule: its callee and
// the entries of Â its polynomials receive, in the callee's buffer order.
type SampleCall struct {
	Target  string
	Entries []int
}

// SampleHints states the proof of an ExpandA routine.
type SampleHints interface {
	// SampN is the g-th many-way call (four or eight entries) of ExpandA
	// routine symbol (k × ℓ).
	SampN(symbol string, k, l, g int) SampleCall
	// StageA is the whole schedule of the routine's calls, and the frame
	// offset of its running mask (8 bytes).
	StageA(symbol string, k, l int) (calls []SampleCall, maskSlot int, err error)
	// CTSample names the buffers whose bytes may reach a sampler's seed.
	CTSample(symbol string) []string
}

// expandAProofTime bounds the proof of one routine.
const expandAProofTime = 60 * time.Second

// proveExpandA proves contract c's postcondition for routine r for every
// ρ, given its callees' contracts; it returns the functional detail and
// the constant-time (CTSample) detail.
func proveExpandA(f *x86.File, r *x86.Routine, c *contract.Contract, h Hints,
	callees map[string]*x86.Routine, maxSteps int) (string, string, error) {
	deadline := time.Now().Add(expandAProofTime)
	var z3s z3Sample
	sh, ok := h.(SampleHints)
	if !ok {
		return "", "", fmt.Errorf("no StageA, SampN or CTSample in the hints")
	}
	k, l := c.ExpandA.K, c.ExpandA.L
	n := k * l
	sched, maskSlot, err := sh.StageA(c.Symbol, k, l)
	if err != nil {
		return "", "", fmt.Errorf("StageA: %v", err)
	}
	// StageA's shape: each call samples consecutive entries, the first at
	// most e (the entries sampled before it: no gap), the last at least e
	// (one new at least), so that at the end all kℓ are. A call may sample
	// an entry again (a last group of eight that ends at kℓ): every call's
	// seeds are checked and its result ANDed, and the entry must hold what
	// the last call on it wrote. The many-way calls are SampN's groups.
	e, groups, wide := 0, 0, 0
	for i, sc := range sched {
		cc := contract.Lookup(sc.Target)
		if cc == nil || cc.Streams == nil || len(cc.Args) != 2 {
			return "", "", fmt.Errorf("StageA: call %d: %s is not a rejection sampler with a contract", i, sc.Target)
		}
		if len(sc.Entries) != cc.Streams.Polys {
			return "", "", fmt.Errorf("StageA: call %d samples %d entries, %s samples %d", i, len(sc.Entries), sc.Target, cc.Streams.Polys)
		}
		first := sc.Entries[0]
		if first < 0 || first > e || first+len(sc.Entries) <= e {
			return "", "", fmt.Errorf("StageA: call %d samples entries from %d, but %d entries are sampled before it", i, first, e)
		}
		for j, x := range sc.Entries {
			if x != first+j {
				return "", "", fmt.Errorf("StageA: call %d, polynomial %d samples entry %d, not %d", i, j, x, first+j)
			}
		}
		if cc.Streams.Polys > 1 {
			g := sh.SampN(c.Symbol, k, l, groups)
			if g.Target != sc.Target || fmt.Sprint(g.Entries) != fmt.Sprint(sc.Entries) {
				return "", "", fmt.Errorf("StageA: call %d is not SampN's group %d (%v)", i, groups, g)
			}
			groups++
			wide += len(sc.Entries)
		}
		e = first + len(sc.Entries)
	}
	if e != n {
		return "", "", fmt.Errorf("StageA: %d entries sampled, Â has %d", e, n)
	}
	public := sh.CTSample(c.Symbol)
	for _, name := range public {
		found := false
		for _, a := range c.Args {
			if a.Name == name && a.Indirect == 0 && !a.Secret {
				found = true
			}
		}
		if !found {
			return "", "", fmt.Errorf("CTSample: %s is not a public buffer of the contract", name)
		}
	}

	s, mk, m, lay, rng := symSetup(f, r, c, 9, func(secret, input bool) bool { return secret && input })
	// The bytes of the public buffers are variables, eight bytes a word.
	src := map[*x86.Term]string{} // a byte term → "rho[i]"
	for _, name := range public {
		reg := m.Region(name)
		if reg.Size()%8 != 0 {
			return "", "", fmt.Errorf("CTSample: %s is not whole words", name)
		}
		for w := 0; w < reg.Size()/8; w++ {
			bs := make([]*x86.Term, 8)
			s.Bytes(s.Var(fmt.Sprintf("%s%d", name, w)), bs)
			copy(reg.Bytes[8*w:], bs)
			for i, b := range bs {
				src[b] = fmt.Sprintf("%s[%d]", name, 8*w+i)
			}
		}
	}
	isGarbage := func(t *x86.Term) bool {
		for _, v := range x86.Vars(t) {
			if strings.HasPrefix(v, "garbage") {
				return true
			}
		}
		return false
	}
	taint := func(t *x86.Term) (bool, bool) {
		_, konst := s.Concrete(t)
		return isGarbage(t), !konst
	}
	var oks []*x86.Term
	sampled := make([][]*x86.Term, n) // entry → the byte terms its last call wrote
	callN := 0
	effect := func(cc *contract.Contract, bufs map[string][]*x86.Term) (map[string][]*x86.Term, *x86.Term, error) {
		i := callN
		callN++
		if i >= len(sched) || sched[i].Target != cc.Symbol {
			return nil, nil, fmt.Errorf("StageA: call %d is %s, the schedule says otherwise", i, cc.Symbol)
		}
		// The running mask before the call is the AND of the results so far.
		frame := m.Region("frame")
		if maskSlot < 0 || maskSlot+8 > frame.Size() {
			return nil, nil, fmt.Errorf("StageA: mask slot %d outside the frame", maskSlot)
		}
		if err := sameBits(s.FromBytes(frame.Bytes[maskSlot:maskSlot+8]), andAll(s, oks), deadline, &z3s); err != nil {
			return nil, nil, fmt.Errorf("SampN/StageA: before call %d the mask is not the AND of the results so far: %v", i, err)
		}
		polys := cc.Args[0].BufferNames()
		seeds := bufs[cc.Args[1].Name]
		out := map[string][]*x86.Term{}
		for j, poly := range polys {
			ent := sched[i].Entries[j]
			seed := seeds[34*j : 34*j+34]
			for b := 0; b < 32; b++ {
				want := fmt.Sprintf("%s[%d]", public[0], b)
				if len(public) != 1 || src[seed[b]] != want {
					return nil, nil, fmt.Errorf("SampN/CTSample: call %d, polynomial %d: seed byte %d is not ρ[%d]", i, j, b, b)
				}
			}
			if seed[32] != s.Const(uint64(ent%l)) || seed[33] != s.Const(uint64(ent/l)) {
				return nil, nil, fmt.Errorf("SampN: call %d, polynomial %d (entry %d): seed bytes 32, 33 are not s = %d, r = %d", i, j, ent, ent%l, ent/l)
			}
			ws := make([]*x86.Term, 1024)
			for w := 0; w < 128; w++ {
				s.Bytes(s.Var(fmt.Sprintf("call%d_poly%d_%d", i, j, w)), ws[8*w:8*w+8])
			}
			out[poly] = ws
			sampled[ent] = ws // the last call on an entry stands
		}
		ok := s.And(s.Var(fmt.Sprintf("ok%d", i)), s.Const(1))
		oks = append(oks, ok)
		return out, ok, nil
	}
	env := &callEnv[*x86.Term]{caller: c, callees: callees, lay: lay, mk: mk, rng: rng, taint: taint, effect: effect}
	m.Call = env.call
	if err := m.Run(maxSteps); err != nil {
		return "", "", fmt.Errorf("symbolic run: %v", err)
	}
	if callN != len(sched) {
		return "", "", fmt.Errorf("StageA: %d calls made, the schedule has %d", callN, len(sched))
	}
	// Each call's polynomial j went to entry Entries[j] of a.
	for i, rec := range env.Calls {
		cc := contract.Lookup(rec.Target)
		for j, poly := range cc.Args[0].BufferNames() {
			sp := rec.Buffers[poly]
			ent := sched[i].Entries[j]
			if sp.Region != "a" || sp.Off != 1024*ent || sp.N != 1024 {
				return "", "", fmt.Errorf("StageA: call %d writes polynomial %d to %s+%d, not entry %d of a", i, j, sp.Region, sp.Off, ent)
			}
		}
	}
	a := m.Region("a")
	for ent := 0; ent < n; ent++ {
		for b := 0; b < 1024; b++ {
			if a.Bytes[1024*ent+b] != sampled[ent][b] {
				return "", "", fmt.Errorf("StageA: byte %d of entry %d is not what the last sampler on it wrote", b, ent)
			}
		}
	}
	res := m.Region("results")
	if res == nil || res.Size() != 1 {
		return "", "", fmt.Errorf("no result byte")
	}
	if err := sameBits(s.FromBytes(res.Bytes[:1]), andAll(s, oks), deadline, &z3s); err != nil {
		return "", "", fmt.Errorf("the result is not the AND of the %d sampler results: %v", len(oks), err)
	}
	fd := fmt.Sprintf("StageA: Â's %d entries sampled in order, none left out, by %d calls, each entry holding its last call's output; SampN: %d groups (%d entries), seeds ρ‖s‖r, masks ANDed; result = AND of all %d (SAT; %s); for every ρ, given the samplers' contracts",
		n, len(sched), groups, wide, len(oks), z3s.note())
	ct := fmt.Sprintf("CTSample: every seed byte of the %d calls is a byte of the public %s or a constant, every sampler pointer a constant (symbolic run)",
		len(sched), strings.Join(public, ", "))
	return fd, ct, nil
}

// andAll is the AND of terms (1 for none).
func andAll(s *x86.Sym, ts []*x86.Term) *x86.Term {
	r := s.Const(1)
	for _, t := range ts {
		r = s.And(r, t)
	}
	return r
}

// sameBits proves a = b for every value of the variables (SAT); z3 re-asks
// the sample z takes.
func sameBits(a, b *x86.Term, deadline time.Time, z *z3Sample) error {
	res, err := satEqual(a, b, deadline)
	if err != nil {
		return err
	}
	switch res {
	case satUnsat:
		return z.equal(a, b, deadline)
	case satSat:
		return fmt.Errorf("they differ for some values (SAT)")
	}
	return fmt.Errorf("the SAT solver gave up")
}
