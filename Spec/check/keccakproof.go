package check

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"time"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips202"
	"github.com/vg-crypto/vg/Spec/x86"
)

// This file proves a Keccak-f[1600] routine's postcondition for every
// input, round by round, with the symbolic domain and the SAT solver:
//
//  1. An untrusted search (the hints' KeccakCuts, observing TaintTrace)
//     proposes, for each round i, the first instruction after which every
//     lane of the spec's state after i rounds sits in some location
//     (register word, frame slot or buffer word), possibly complemented,
//     which other locations hold XORs of its lanes (column parities of θ,
//     whole or partial) and which hold input-independent constants.
//  2. For each segment between cuts the routine runs symbolically, from
//     the cut's instruction for as many steps as the next cut is after it,
//     from a state where the cut's lane locations hold fresh variables x (or ¬x,
//     or XORs of them), its constant locations their constants, and
//     everything else fresh unknowns. At the next cut every location assumed there must equal
//     the spec's round applied to x, which the SAT solver proves (or the
//     terms are identical, or equal in algebraic normal form); z3, where
//     installed, must agree, and the segment must end at the next cut's
//     instruction. The last segment must leave x itself in the buffer.
//
// By induction over the segments the buffer holds KeccakF1600 of the input
// at RET, for every input: each assumption (the cut's instruction too) is
// proven by the segment before it, and a location the search got wrong
// makes a proof fail. A routine may loop: a branch whose condition is not
// a constant fails the segment (x86.BranchUnknown), so every segment takes
// the same instructions on every input, the ones its steps count.

// keccakProofTime bounds a whole Keccak proof (SAT and z3 together); a
// proof that does not finish in time fails.
const keccakProofTime = 5 * time.Minute

// loc is a 64-bit location of the machine.
type loc struct {
	kind   byte // 'g' GPR, 'v' vector word, 'm' memory slot
	reg, w int
	region string
	off    int
}

func (l loc) String() string {
	switch l.kind {
	case 'g':
		return x86.Reg(l.reg).String()
	case 'v':
		return fmt.Sprintf("Z%d[%d]", l.reg, l.w)
	}
	return fmt.Sprintf("%s+%d", l.region, l.off)
}

func locations[V any](m *x86.Machine[V]) []loc {
	var ls []loc
	// SP too: at a cut it is a constant like any other, proven by the
	// segment before (the prologue moves it).
	for i := 0; i < 16; i++ {
		ls = append(ls, loc{kind: 'g', reg: i})
	}
	// Every word of every vector register, zmm0–31: a routine on xmm or
	// ymm leaves the rest fresh unknowns, so a read of bits it never
	// wrote fails the proof.
	for i := range m.Vec {
		for w := range m.Vec[i] {
			ls = append(ls, loc{kind: 'v', reg: i, w: w})
		}
	}
	for _, r := range m.Regions {
		if r.Kind == x86.Frame || r.Kind == x86.Saved || (r.Kind == x86.Buffer && r.Writable) {
			for off := 0; off+8 <= r.Size(); off += 8 {
				ls = append(ls, loc{kind: 'm', region: r.Name, off: off})
			}
		}
	}
	return ls
}

func readLoc[V any](m *x86.Machine[V], l loc) V {
	switch l.kind {
	case 'g':
		return m.GPR[l.reg]
	case 'v':
		return m.Vec[l.reg][l.w]
	}
	return m.D.FromBytes(m.Region(l.region).Bytes[l.off : l.off+8])
}

func writeLoc[V any](m *x86.Machine[V], l loc, v V) {
	switch l.kind {
	case 'g':
		m.GPR[l.reg] = v
	case 'v':
		m.Vec[l.reg][l.w] = v
	default:
		bs := make([]V, 8)
		m.D.Bytes(v, bs)
		copy(m.Region(l.region).Bytes[l.off:], bs)
	}
}

// LaneAt says location Loc (a register "AX", a vector word "Z3[2]" or a
// memory word "a+16", "frame+8") holds lane Lane of interleaved state
// State, complemented if Comp. With Xor it holds the XOR of lane Lane and
// the lanes Xor lists, of the same state (a column parity of θ that a
// routine accumulates before the next round, or part of one).
type LaneAt struct {
	Loc   string
	Lane  int
	State int
	Comp  bool
	Xor   []int
}

// ConstAt says location Loc holds V whatever the input.
type ConstAt struct {
	Loc string
	V   uint64
}

// Cut is a claim about the machine after Step instructions, when the next
// is the routine's instruction PC: where each
// lane of the state after one more round sits and which locations hold
// constants. Cuts come from an untrusted search; ProveKeccak assumes one
// only after the segment before it has proven it.
type Cut struct {
	Step   int
	PC     int
	Lanes  []LaneAt
	Consts []ConstAt
}

// KeccakHints is implemented by hints that find the cuts of a Keccak
// routine: Cuts[i-1] is the cut after round i, for i = 1..24.
type KeccakHints interface {
	KeccakCuts(f *x86.File, r *x86.Routine, c *contract.Contract, maxSteps int) ([]Cut, error)
}

// TaintTrace runs routine r under contract c on input in over the taint
// domain and calls visit after every instruction with the steps run, the
// next instruction, every location ProveKeccak knows, its value and
// whether it depends on the input,
// until RET, maxSteps or visit returning false. It is the execution a
// cut search observes; it decides nothing.
func TaintTrace(f *x86.File, r *x86.Routine, c *contract.Contract, in contract.Buffers, seed uint64, maxSteps int,
	visit func(steps, pc int, locs []string, vals []uint64, input []bool) bool) error {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	m, _ := setup[x86.TV](x86.Taint{}, taintValue, f, r, c, copyBuffers(in), rng)
	ls := locations(m)
	names := make([]string, len(ls))
	for i, l := range ls {
		names[i] = l.String()
	}
	vals, input := make([]uint64, len(ls)), make([]bool, len(ls))
	for !m.Done {
		if m.Steps >= maxSteps {
			return fmt.Errorf("no RET within %d steps", maxSteps)
		}
		if err := m.Step(); err != nil {
			return err
		}
		for i, l := range ls {
			v := readLoc(m, l)
			vals[i], input[i] = v.V, v.I != 0
		}
		if !visit(m.Steps, m.PC, names, vals, input) {
			return nil
		}
	}
	return nil
}

// cut is a Cut with its locations resolved.
type cut struct {
	step   int
	pc     int
	lanes  []laneAt
	consts []constAt
}

type laneAt struct {
	l    loc
	lane int
	j    int
	comp bool
	xor  []int
}

// value returns the claimed content of la's location for the lanes st of
// each state: lane ⊕ the xor lanes, complemented if comp.
func (la laneAt) value(s *x86.Sym, st [][25]*x86.Term) *x86.Term {
	v := st[la.j][la.lane]
	for _, L := range la.xor {
		v = s.Xor(v, st[la.j][L])
	}
	if la.comp {
		v = s.Not(v)
	}
	return v
}

type constAt struct {
	l loc
	v uint64
}

// resolveCuts checks the shape of the proposed cuts (the proof checks
// their content): 24 of them, at strictly increasing steps, each before an
// instruction of the routine, naming locations that exist and lanes of the
// contract's states.
func resolveCuts(f *x86.File, r *x86.Routine, c *contract.Contract, cs []Cut) ([25]cut, error) {
	var cuts [25]cut
	if len(cs) != 24 {
		return cuts, fmt.Errorf("%d cuts proposed, want 24", len(cs))
	}
	s := x86.NewSym()
	m, _ := setup[*x86.Term](s, func(v uint64, _, _ bool) *x86.Term { return s.Const(v) }, f, r, c,
		contract.Buffers{"a": make([]byte, 8*25*c.KeccakStates)}, rand.New(rand.NewPCG(1, 1)))
	byName := map[string]loc{}
	for _, l := range locations(m) {
		byName[l.String()] = l
	}
	prev := 0
	for i, k := range cs {
		if k.Step <= prev || k.PC <= 0 || k.PC >= len(r.Insns) {
			return cuts, fmt.Errorf("cut %d at step %d, instruction %d: not after step %d or not inside the routine's %d instructions", i+1, k.Step, k.PC, prev, len(r.Insns))
		}
		prev = k.Step
		cu := cut{step: k.Step, pc: k.PC}
		for _, la := range k.Lanes {
			l, ok := byName[la.Loc]
			if !ok || la.Lane < 0 || la.Lane >= 25 || la.State < 0 || la.State >= c.KeccakStates {
				return cuts, fmt.Errorf("cut %d: no location %q or no lane %d of state %d", i+1, la.Loc, la.Lane, la.State)
			}
			seen := map[int]bool{la.Lane: true}
			for _, L := range la.Xor {
				if L < 0 || L >= 25 || seen[L] {
					return cuts, fmt.Errorf("cut %d: %s: lane %d out of range or repeated in an XOR of lanes", i+1, la.Loc, L)
				}
				seen[L] = true
			}
			cu.lanes = append(cu.lanes, laneAt{l, la.Lane, la.State, la.Comp, append([]int(nil), la.Xor...)})
		}
		for _, ca := range k.Consts {
			l, ok := byName[ca.Loc]
			if !ok {
				return cuts, fmt.Errorf("cut %d: no location %q", i+1, ca.Loc)
			}
			cu.consts = append(cu.consts, constAt{l, ca.V})
		}
		cuts[i+1] = cu
	}
	return cuts, nil
}

// ProveKeccak proves the routine equals KeccakF1600 on every input.
// The cuts come from the hints' search; without one the proof fails.
func ProveKeccak(f *x86.File, r *x86.Routine, c *contract.Contract, h Hints, maxSteps int) (string, error) {
	deadline := time.Now().Add(keccakProofTime)
	kh, ok := h.(KeccakHints)
	if !ok {
		return "", fmt.Errorf("no cut search for %s in the hints", c.Symbol)
	}
	proposed, err := kh.KeccakCuts(f, r, c, maxSteps)
	if err != nil {
		return "", fmt.Errorf("cut search: %v", err)
	}
	cuts, err := resolveCuts(f, r, c, proposed)
	if err != nil {
		return "", err
	}
	n := c.KeccakStates
	byANF, bySAT := 0, 0
	z3notes := map[string]bool{}
	for seg := 0; seg <= 24; seg++ {
		s := x86.NewSym()
		mk := func(v uint64, _, _ bool) *x86.Term { return s.Const(v) }
		m, lay := setup[*x86.Term](s, mk, f, r, c, contract.Buffers{"a": make([]byte, 8*25*n)}, rand.New(rand.NewPCG(1, 1)))
		// Everything unknown, then the cut's facts.
		for _, l := range locations(m) {
			writeLoc(m, l, s.Var(fmt.Sprintf("u_%s_%d", strings.NewReplacer("[", "_", "]", "", "+", "_").Replace(l.String()), seg)))
		}
		x := make([][25]*x86.Term, n)
		for j := 0; j < n; j++ {
			for L := 0; L < 25; L++ {
				x[j][L] = s.Var(fmt.Sprintf("x%d_%d", L, j))
			}
		}
		start, pc := 0, 0
		if seg == 0 {
			m.GPR[x86.SP] = s.Const(lay.entrySP)
		}
		if seg == 0 {
			for j := 0; j < n; j++ {
				for L := 0; L < 25; L++ {
					writeLoc(m, loc{kind: 'm', region: "a", off: 8 * (n*L + j)}, x[j][L])
				}
			}
		} else {
			cu := cuts[seg]
			start, pc = cu.step, cu.pc
			for _, k := range cu.consts {
				writeLoc(m, k.l, s.Const(k.v))
			}
			for _, la := range cu.lanes {
				writeLoc(m, la.l, la.value(s, x))
			}
		}
		m.PC = pc
		end := -1
		if seg < 24 {
			end = cuts[seg+1].step
		}
		for steps := start; !m.Done && steps != end; steps++ {
			if steps >= maxSteps {
				return "", fmt.Errorf("segment %d: no cut or RET within %d steps", seg, maxSteps)
			}
			if err := m.Step(); err != nil {
				return "", fmt.Errorf("segment %d: %v", seg, err)
			}
		}
		if seg < 24 && m.Done {
			return "", fmt.Errorf("round %d: RET before the cut at step %d", seg, end)
		}
		if seg < 24 && m.PC != cuts[seg+1].pc {
			return "", fmt.Errorf("round %d: at step %d the next instruction is %d, not the cut's %d", seg, end, m.PC, cuts[seg+1].pc)
		}
		// What must hold at the end of the segment.
		var got, want []*x86.Term
		var what []string
		if seg < 24 {
			next := make([][25]*x86.Term, n)
			for j := 0; j < n; j++ {
				next[j] = fips202.RndOver[*x86.Term](s, x[j], seg) // Spec's own round, over terms
			}
			cu := cuts[seg+1]
			for _, la := range cu.lanes {
				got, want = append(got, readLoc(m, la.l)), append(want, la.value(s, next))
				what = append(what, fmt.Sprintf("round %d: %s = lane %d%s of state %d", seg, la.l, la.lane, xorText(la.xor), la.j))
			}
			for _, k := range cu.consts {
				if v, ok := s.Concrete(readLoc(m, k.l)); !ok || v != k.v {
					return "", fmt.Errorf("round %d: %s is not the constant %#x on every input", seg, k.l, k.v)
				}
			}
		} else {
			if !m.Done {
				return "", fmt.Errorf("no RET after the last round")
			}
			for j := 0; j < n; j++ {
				for L := 0; L < 25; L++ {
					l := loc{kind: 'm', region: "a", off: 8 * (n*L + j)}
					got, want = append(got, readLoc(m, l)), append(want, x[j][L])
					what = append(what, fmt.Sprintf("output %s = lane %d of state %d", l, L, j))
				}
			}
		}
		na, nz, note, err := allEqual(got, want, what, deadline)
		if err != nil {
			return "", err
		}
		byANF, bySAT = byANF+na, bySAT+nz
		if note != "" {
			z3notes[note] = true
		}
	}
	var notes []string
	for n := range z3notes {
		notes = append(notes, n)
	}
	sortStrings(notes)
	z3 := ""
	if len(notes) > 0 {
		z3 = " (" + strings.Join(notes, "; ") + ")"
	}
	return fmt.Sprintf("proven for every input: round-by-round symbolic execution against Spec's Rnd (FIPS 202 §3.3), 25 segments; lane equalities by algebraic normal form: %d, by the SAT solver: %d%s, identical terms: the rest", byANF, bySAT, z3), nil
}

// allEqual proves got[i] = want[i] for all i: identical terms, equal
// algebraic normal forms, or else the SAT solver (Spec/sat) answering
// unsat for got[i] ≠ want[i], with a certificate Spec/drup accepts
// (satEqual). When z3 is on PATH it answers every query
// the SAT solver answered, and must agree. Any other answer (sat,
// unknown, a budget or deadline reached, an operator the encoding lacks,
// z3 failing or disagreeing) is an error: the proof is not complete.
func allEqual(got, want []*x86.Term, what []string, deadline time.Time) (byANF, bySAT int, z3note string, err error) {
	var idx []int
	memo := map[*x86.Term]anfPoly{}
	for i := range got {
		if got[i] == want[i] {
			continue
		}
		// Bitwise terms of rotated variables have a canonical algebraic
		// normal form: equal forms are equal functions.
		if a, ok := anf(got[i], memo); ok {
			if b, ok := anf(want[i], memo); ok {
				if !a.equal(b) {
					return 0, 0, "", fmt.Errorf("%s: not equal (algebraic normal forms differ)", what[i])
				}
				byANF++
				continue
			}
		}
		r, err := satEqual(got[i], want[i], deadline)
		if err != nil {
			return 0, 0, "", fmt.Errorf("%s: SAT encoding: %v", what[i], err)
		}
		if r != satUnsat {
			return 0, 0, "", fmt.Errorf("%s: not proven (SAT solver: %v)", what[i], r)
		}
		idx = append(idx, i)
	}
	if len(idx) == 0 {
		return byANF, 0, "", nil
	}
	z3, lerr := exec.LookPath("z3")
	if lerr != nil {
		return byANF, len(idx), "z3 not on PATH: no second opinion", nil
	}
	if err := z3AllUnsat(z3, got, want, what, idx, deadline); err != nil {
		return 0, 0, "", err
	}
	return byANF, len(idx), "z3 agrees on every SAT query", nil
}

// z3AllUnsat asks z3 whether got[i] ≠ want[i] is satisfiable for each i
// in idx, within the deadline; every answer must be unsat.
func z3AllUnsat(z3 string, got, want []*x86.Term, what []string, idx []int, deadline time.Time) error {
	var defs []string
	seen := map[int]bool{}
	vars := map[string]bool{}
	var decls, asserts []string
	for _, i := range idx {
		for _, t := range []*x86.Term{got[i], want[i]} {
			for _, v := range x86.Vars(t) {
				if !vars[v] {
					vars[v] = true
					decls = append(decls, fmt.Sprintf("(declare-const %s (_ BitVec 64))", v))
				}
			}
		}
		a := x86.SMT(got[i], &defs, seen)
		b := x86.SMT(want[i], &defs, seen)
		asserts = append(asserts, fmt.Sprintf("(push)\n(assert (not (= %s %s)))\n(check-sat)\n(pop)", a, b))
	}
	script := strings.Join(decls, "\n") + "\n" + strings.Join(defs, "\n") + "\n" + strings.Join(asserts, "\n") + "\n"
	if debugZ3 != nil {
		debugZ3(script)
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	secs := int(time.Until(deadline).Seconds()) + 1
	cmd := exec.CommandContext(ctx, z3, fmt.Sprintf("-T:%d", secs), "-in")
	cmd.Stdin = strings.NewReader(script)
	cmd.WaitDelay = time.Second
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("z3 (second opinion): %v: %s", err, firstLine(out.String()))
	}
	lines := strings.Fields(out.String())
	if len(lines) != len(idx) {
		return fmt.Errorf("z3 (second opinion) answered %d of %d queries: %s", len(lines), len(idx), firstLine(out.String()))
	}
	for k, ans := range lines {
		if ans != "unsat" {
			return fmt.Errorf("%s: the SAT solver says unsat, z3 says %s: disagreement", what[idx[k]], ans)
		}
	}
	return nil
}

// xorText names the lanes XORed with a claimed lane, for messages.
func xorText(xor []int) string {
	var b strings.Builder
	for _, L := range xor {
		fmt.Fprintf(&b, " ⊕ %d", L)
	}
	return b.String()
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

var debugZ3 func(string)

// anfPoly is a bitwise Boolean function in algebraic normal form: bit z is
// the XOR, over monomials m with bit z of coefficient c_m set, of the AND
// of m's atoms' bit z. An atom "v@k" is variable v rotated left by k, so
// its bit z is bit z−k of v; distinct atoms are independent bits, which
// makes the form canonical.
type anfPoly map[string]uint64

const maxMonomials = 20000

func (p anfPoly) equal(q anfPoly) bool {
	if len(p) != len(q) {
		return false
	}
	for m, c := range p {
		if q[m] != c {
			return false
		}
	}
	return true
}

func (p anfPoly) add(m string, c uint64) {
	if v := p[m] ^ c; v != 0 {
		p[m] = v
	} else {
		delete(p, m)
	}
}

func xorPoly(a, b anfPoly) anfPoly {
	r := anfPoly{}
	for m, c := range a {
		r.add(m, c)
	}
	for m, c := range b {
		r.add(m, c)
	}
	return r
}

func mulMono(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	set := map[string]bool{}
	for _, x := range strings.Split(a, ",") {
		set[x] = true
	}
	for _, x := range strings.Split(b, ",") {
		set[x] = true
	}
	atoms := make([]string, 0, len(set))
	for x := range set {
		atoms = append(atoms, x)
	}
	sortStrings(atoms)
	return strings.Join(atoms, ",")
}

func andPoly(a, b anfPoly) (anfPoly, bool) {
	if len(a)*len(b) > maxMonomials {
		return nil, false
	}
	r := anfPoly{}
	for ma, ca := range a {
		for mb, cb := range b {
			if c := ca & cb; c != 0 {
				r.add(mulMono(ma, mb), c)
			}
		}
	}
	return r, true
}

// rolPoly rotates a left by k bits: every atom's rotation grows by k, and
// so does each coefficient, as bit z of the result is bit z−k of a.
func rolPoly(a anfPoly, k uint) anfPoly {
	return shiftPoly(a, k, ^uint64(0))
}

// shiftPoly is rolPoly whose coefficients are then masked by keep: a left
// shift by k is the rotation with keep = 1⁶⁴ << k (the low k bits are 0),
// a right shift by n the rotation by 64 − n with keep = 1⁶⁴ >> n.
func shiftPoly(a anfPoly, k uint, keep uint64) anfPoly {
	r := anfPoly{}
	for m, c := range a {
		var atoms []string
		if m != "" {
			for _, x := range strings.Split(m, ",") {
				v, rot, _ := strings.Cut(x, "@")
				n := 0
				fmt.Sscan(rot, &n)
				atoms = append(atoms, fmt.Sprintf("%s@%d", v, (n+int(k))%64))
			}
		}
		sortStrings(atoms)
		r.add(strings.Join(atoms, ","), (c<<k|c>>(64-k))&keep)
	}
	return r
}

// anf computes the normal form of a term built from variables, constants,
// NOT, AND, OR, XOR, rotations and logical shifts by constants; ok is
// false for anything else.
func anf(t *x86.Term, memo map[*x86.Term]anfPoly) (anfPoly, bool) {
	if p, ok := memo[t]; ok {
		return p, p != nil
	}
	var r anfPoly
	ok := true
	sub := func(i int) anfPoly {
		p, o := anf(t.Args[i], memo)
		ok = ok && o
		return p
	}
	switch t.Op {
	case "const":
		r = anfPoly{}
		r.add("", t.Val)
	case "var":
		r = anfPoly{t.Name + "@0": ^uint64(0)}
	case "bvxor":
		a, b := sub(0), sub(1)
		if ok {
			r = xorPoly(a, b)
		}
	case "bvnot":
		a := sub(0)
		if ok {
			r = xorPoly(a, anfPoly{"": ^uint64(0)})
		}
	case "bvand", "bvor":
		a, b := sub(0), sub(1)
		if ok {
			var ab anfPoly
			ab, ok = andPoly(a, b)
			if ok {
				r = ab
				if t.Op == "bvor" { // a ∨ b = a ⊕ b ⊕ ab
					r = xorPoly(xorPoly(a, b), ab)
				}
			}
		}
	case "rol":
		a := sub(0)
		if ok {
			r = rolPoly(a, uint(t.Val))
		}
	case "shl", "lshr":
		// Shifts by 1 to 63 (the domain folds 0 away): a rotation
		// whose wrapped-around bits are cleared.
		a := sub(0)
		if ok && t.Val > 0 && t.Val < 64 {
			if t.Op == "shl" {
				r = shiftPoly(a, uint(t.Val), ^uint64(0)<<t.Val)
			} else {
				r = shiftPoly(a, uint(64-t.Val), ^uint64(0)>>t.Val)
			}
		} else {
			ok = false
		}
	default:
		ok = false
	}
	if !ok || len(r) > maxMonomials {
		memo[t] = nil
		return nil, false
	}
	memo[t] = r
	return r, true
}
