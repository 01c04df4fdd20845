package check

import (
	"errors"
	"fmt"
	"time"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
	"github.com/vg-crypto/vg/Spec/x86"
)

// This file proves a HintBitPack routine (contract HintPack) for every
// hint meeting its precondition (ProveHintPack): y is Algorithm 20's
// output.
//
// The routine is cut at one head the plan names, Coef, where its loop
// takes the next coefficient. The proof's state there is a pair of
// ghosts, both concrete: p = 256i + j, the coefficient next read (line 4,
// polynomial i of line 3), and Index (line 2). The induction hypothesis
// at Coef (p, Index) is:
//
//   - the routine has done lines 1 to 10 of Algorithm 20 for the
//     coefficients before p, and its y is Algorithm 20's y at that point:
//     in particular y[t] = 0 for Index ≤ t < ω and for t ≥ ω + i (line 1,
//     not yet written);
//   - each register the plan lists in Keep holds one constant per pair
//     (whatever the first path to reach the pair left there; every later
//     path must leave the same), and SP is at the frame's base.
//
// Every other register, flag and frame byte is an unknown at the head,
// and the bytes of y that Algorithm 20 has written (t < Index, and ω ≤ t
// < ω + i) are variables, so the head covers every hint that reaches it.
// The hint's words are variables too, except coefficient p (h[i]_j),
// which each path from the head takes as a constant: 0 on one path, 1 on
// the other (the precondition: each coefficient is 0 or 1), and only 0
// where Index = ω (at most ω ones in all). A path runs in the model on
// the symbolic domain until it reaches Coef or RET:
//
//   - every address must be a constant and no branch may depend on data
//     (a branch on any word but h[i]_j, or on y, fails the path);
//   - it must end where Spec/fips204's HintBitPackStep (lines 5 to 7 of
//     Algorithm 20 on h[i]_j, and line 10 after j = 255), run by the
//     proof on y's terms, says: at Coef (p + 1, Index′) while p + 1 <
//     256k, at RET after the last coefficient, with Keep's registers
//     constants, SP at the frame's base, and every byte of y the term
//     that step leaves:
//     the head's variable where Algorithm 20 leaves the byte, its
//     constant where it writes one (j at Index, Index at ω + i), 0
//     elsewhere (checked: each byte Algorithm 20 has not written at the
//     next pair is the constant 0).
//
// From the routine's entry (y and the hint all variables) the one path
// must reach Coef (0, 0) with y = 0 (line 1) and no branch on data. The
// pairs are explored in order of p, so that every path into a pair is
// known before it is explored. By induction over the paths of a run, the
// routine's run on a hint meeting the precondition ends at RET with y
// equal to Algorithm 20's output: each head's hypothesis holds for every
// value of its variables, hence for the run's. The hint is read-only (the
// model rejects a write to it), and y cannot be read where the contract
// makes it write-only.
//
// What the proof reads rather than proves: Algorithm 20's loop body is
// Spec/fips204's own HintBitPackStep, the code HintBitPack runs (and
// every vector test with it), generic in y's bytes so that the proof runs
// it on its terms; what it does cannot depend on the bytes y holds (short
// of a type switch on them, which reading it shows). The loops of lines 3
// and 4 (p = 256i + j from 0 to 256k − 1) and line 1 (y = 0) are the
// proof's; which bytes Algorithm 20 has written at a pair (written) is
// not trusted: a byte it calls unwritten must be 0 on every path in. Constant time, memory safety and the ABI
// are the inductive check's (the hint is public).

// HintPackPlan is the untrusted description of a HintBitPack routine.
type HintPackPlan struct {
	Coef string // label of the head where the next coefficient is read
	// Keep lists registers that hold at Coef a constant determined by the
	// proof's (p, Index).
	Keep []string
}

// HintPackHints is implemented by hints that describe HintBitPack
// routines.
type HintPackHints interface {
	HintPackPlan(r *x86.Routine, c *contract.Contract) (*HintPackPlan, error)
}

// hintPackProofTime bounds the proof of one routine.
const hintPackProofTime = 2 * time.Minute

// hintPackKey is the proof's state at Coef: p = 256i + j, and Index.
type hintPackKey struct{ p, index int }

type hintPackProver struct {
	r      *x86.Routine
	c      *contract.Contract
	hp     *contract.HintPack
	p      *HintPackPlan
	s      *x86.Sym
	base   *x86.Machine[*x86.Term]
	lay    *layout
	coefPC int
	keep   []x86.Reg
	yv     []*x86.Term // byte t of y where Algorithm 20 has written it
	hWords []*x86.Term // the hint's bytes as the base machine holds them
	kept   map[hintPackKey][]uint64
	paths  int
	heads  int
	dead   time.Time
}

// ProveHintPack proves a HintBitPack routine's functional correctness for
// every hint meeting its precondition (see above) and returns its detail.
func ProveHintPack(f *x86.File, r *x86.Routine, c *contract.Contract, h Hints, maxSteps int) (string, error) {
	hh, ok := h.(HintPackHints)
	if !ok {
		return "", fmt.Errorf("no HintBitPack plan for %s in the hints", c.Symbol)
	}
	p, err := hh.HintPackPlan(r, c)
	if err != nil {
		return "", fmt.Errorf("HintBitPack plan: %v", err)
	}
	return proveHintPack(f, r, c, p, maxSteps)
}

func proveHintPack(f *x86.File, r *x86.Routine, c *contract.Contract, p *HintPackPlan, maxSteps int) (string, error) {
	pv := &hintPackProver{r: r, c: c, hp: c.HintPack, p: p, kept: map[hintPackKey][]uint64{},
		dead: time.Now().Add(hintPackProofTime)}
	if err := pv.shape(); err != nil {
		return "", err
	}
	var ok bool
	if pv.coefPC, ok = r.Labels[p.Coef]; !ok {
		return "", fmt.Errorf("plan names no label %q of the routine", p.Coef)
	}
	seen := map[x86.Reg]bool{}
	for _, name := range p.Keep {
		g, err := gpr(name)
		if err != nil {
			return "", err
		}
		if seen[g] {
			return "", fmt.Errorf("plan names register %s twice", name)
		}
		seen[g] = true
		pv.keep = append(pv.keep, g)
	}
	var m *x86.Machine[*x86.Term]
	pv.s, _, m, pv.lay, _ = symSetup(f, r, c, 12, func(secret, input bool) bool { return secret || input })
	for t := 0; t < pv.hp.Omega+pv.hp.K; t++ {
		pv.yv = append(pv.yv, pv.s.And(pv.s.Var(fmt.Sprintf("y%d", t)), pv.s.Const(0xff)))
	}
	pv.base = m
	pv.hWords = m.Region(pv.hp.In).Bytes
	n := 256 * pv.hp.K

	// From the entry to Coef (0, 0).
	next, err := pv.run(nil, 0, maxSteps)
	if err != nil {
		return "", fmt.Errorf("from the entry: %v", err)
	}
	if next == nil || *next != (hintPackKey{0, 0}) {
		return "", fmt.Errorf("the entry does not reach %s at coefficient 0 with Index 0", p.Coef)
	}
	// The pairs reached, in order of p (a path from p reaches p + 1).
	reached := make([][]bool, n)
	for q := range reached {
		reached[q] = make([]bool, pv.hp.Omega+1)
	}
	reached[0][0] = true
	for q := 0; q < n; q++ {
		for index := 0; index <= pv.hp.Omega; index++ {
			if !reached[q][index] {
				continue
			}
			pv.heads++
			vs := []uint64{0, 1}
			if index == pv.hp.Omega {
				vs = vs[:1] // the precondition: at most ω ones in all
			}
			for _, v := range vs {
				key := hintPackKey{q, index}
				next, err := pv.run(&key, v, maxSteps)
				if err != nil {
					return "", fmt.Errorf("from %s at i = %d, j = %d, Index = %d with h[i]_j = %d: %v", p.Coef, q/256, q%256, index, v, err)
				}
				if next != nil {
					reached[next.p][next.index] = true
				}
			}
		}
	}
	return fmt.Sprintf("proven for every hint meeting the precondition: Algorithm 20 (%d heads (i, j, Index) at %s, %d paths, each with its coefficient 0 or 1 and every byte of y Algorithm 20's)",
		pv.heads, p.Coef, pv.paths), nil
}

// shape checks that the contract's HintPack names what the proof needs.
func (pv *hintPackProver) shape() error {
	hp, c := pv.hp, pv.c
	if hp == nil {
		return errors.New("the contract has no HintPack")
	}
	if hp.K < 1 || hp.K > 8 || hp.Omega < 1 || hp.Omega > 255 {
		return fmt.Errorf("k = %d, ω = %d: not a HintBitPack of FIPS 204", hp.K, hp.Omega)
	}
	if c.Result != "" || len(c.Calls) > 0 {
		return errors.New("the routine returns a result or calls others, which Algorithm 20 does not")
	}
	out, in := false, false
	for _, a := range c.Args {
		switch {
		case a.Name == hp.Out && a.Bytes == hp.Omega+hp.K && a.Write && a.Indirect == 0:
			out = true
		case a.Write:
			return fmt.Errorf("%s is writable, and HintPack says nothing of it", a.Name)
		case a.Name == hp.In && a.Bytes == 1024*hp.K && a.Indirect == 0:
			in = true
		}
	}
	if !out || !in {
		return fmt.Errorf("no writable %d-byte output %q or read-only %d-byte hint %q", hp.Omega+hp.K, hp.Out, 1024*hp.K, hp.In)
	}
	return nil
}

// written says whether Algorithm 20 has written byte t of y at the pair
// key: a position (t < Index) or the count of a polynomial before i.
func (pv *hintPackProver) written(key hintPackKey, t int) bool {
	ω := pv.hp.Omega
	return t < key.index || (t >= ω && t < ω+key.p/256)
}

// hintPackObs fails a path whose address depends on data.
type hintPackObs struct{ s *x86.Sym }

func (o hintPackObs) Branch(*x86.Machine[*x86.Term], *x86.Insn, *x86.Term) error { return nil }

func (o hintPackObs) Address(_ *x86.Machine[*x86.Term], in *x86.Insn, a *x86.Term, _ int, _ bool) error {
	if _, ok := o.s.Concrete(a); !ok {
		return fmt.Errorf("%s: the address depends on data", in)
	}
	return nil
}

func (o hintPackObs) After(*x86.Machine[*x86.Term], *x86.Insn, []*x86.Term) error { return nil }

// run runs the one path from the head key (nil: the entry) with h[i]_j =
// v and checks it against Spec's HintBitPackStep; it returns the pair it reaches
// (nil at RET).
func (pv *hintPackProver) run(key *hintPackKey, v uint64, maxSteps int) (*hintPackKey, error) {
	if time.Now().After(pv.dead) {
		return nil, fmt.Errorf("the proof's %v ran out", hintPackProofTime)
	}
	pv.paths++
	s, ω := pv.s, pv.hp.Omega
	m := pv.base.CloneCOW()
	m.Obs = hintPackObs{s}
	y := m.Region(pv.hp.Out)
	y.Own()
	// want is y as Algorithm 20 leaves it after the path.
	want := make([]*x86.Term, ω+pv.hp.K)
	var next hintPackKey
	done := false
	if key == nil {
		for t := range want {
			want[t] = s.Const(0) // line 1
		}
	} else {
		m.PC = pv.coefPC
		m.GPR[x86.SP] = s.Const(pv.lay.sp)
		m.MXCSR = s.Const(0x1F80)
		for n, g := range pv.keep {
			m.GPR[g] = s.Const(pv.kept[*key][n])
		}
		for t := range want {
			y.Bytes[t] = s.Const(0)
			if pv.written(*key, t) {
				y.Bytes[t] = pv.yv[t]
			}
			want[t] = y.Bytes[t]
		}
		// h[i]_j = v, in the base machine's (shared, read-only) hint for
		// this path only.
		w := 4 * key.p
		old := append([]*x86.Term(nil), pv.hWords[w:w+4]...)
		for b := 0; b < 4; b++ {
			pv.hWords[w+b] = s.Const(v >> (8 * b) & 0xff)
		}
		defer copy(pv.hWords[w:w+4], old)
		// Spec's step on y as the proof reads it, then the next
		// coefficient (the loops of lines 3 and 4).
		i, j := key.p/256, key.p%256
		nindex := fips204.HintBitPackStep(ω, want, i, j, key.index, int32(v), func(n int) *x86.Term { return s.Const(uint64(byte(n))) })
		next = hintPackKey{key.p + 1, nindex}
		done = key.p+1 == 256*pv.hp.K
	}
	for steps := 0; ; steps++ {
		if steps > maxSteps {
			return nil, fmt.Errorf("no head or RET within %d steps", maxSteps)
		}
		if steps > 0 && m.PC == pv.coefPC {
			break
		}
		if err := m.Step(); err != nil {
			var bu *x86.BranchUnknown
			if errors.As(err, &bu) {
				return nil, fmt.Errorf("%s: a branch on data other than the coefficient read", bu.Insn)
			}
			return nil, err
		}
		if m.Done {
			if key == nil || !done {
				return nil, errors.New("RET before the last coefficient")
			}
			return nil, pv.sameY(y.Bytes, want)
		}
	}
	if key != nil && done {
		return nil, fmt.Errorf("%s reached after the last coefficient", pv.p.Coef)
	}
	if sp, ok := s.Concrete(m.GPR[x86.SP]); !ok || sp != pv.lay.sp {
		return nil, errors.New("a head reached with SP not at the frame's base")
	}
	if err := pv.sameY(y.Bytes, want); err != nil {
		return nil, err
	}
	for t := range want {
		if !pv.written(next, t) {
			if c, ok := s.Concrete(want[t]); !ok || c != 0 {
				return nil, fmt.Errorf("y[%d] is not 0 where Algorithm 20 has not written it", t)
			}
		}
	}
	var vs []uint64
	for n, g := range pv.keep {
		c, ok := s.Concrete(m.GPR[g])
		if !ok {
			return nil, fmt.Errorf("%s reached with %s not a constant", pv.p.Coef, pv.p.Keep[n])
		}
		vs = append(vs, c)
	}
	if old, ok := pv.kept[next]; ok {
		for n := range vs {
			if vs[n] != old[n] {
				return nil, fmt.Errorf("%s reached at p = %d, Index = %d with %s = %#x, another path with %#x", pv.p.Coef, next.p, next.index, pv.p.Keep[n], vs[n], old[n])
			}
		}
	} else {
		pv.kept[next] = vs
	}
	return &next, nil
}

// sameY checks y's bytes against Algorithm 20's: equal constants, or the
// same term (a byte the path left).
func (pv *hintPackProver) sameY(got, want []*x86.Term) error {
	for t := range want {
		if got[t] == want[t] {
			continue
		}
		gc, ok1 := pv.s.Concrete(got[t])
		wc, ok2 := pv.s.Concrete(want[t])
		if !ok1 || !ok2 || gc&0xff != wc&0xff {
			return fmt.Errorf("y[%d] is not Algorithm 20's", t)
		}
	}
	return nil
}
