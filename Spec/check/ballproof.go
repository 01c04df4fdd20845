package check

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips202"
	"github.com/vg-crypto/vg/Spec/fips204"
	"github.com/vg-crypto/vg/Spec/x86"
)

// This file proves a SampleInBall routine (contract Ball) for every seed
// c̃ (ProveBall): ok = 1 exactly when Algorithm 29 reads at most the
// contract's K blocks of SHAKE256(c̃), and then c is Algorithm 29's
// output mod q; and, for its constant time, that its only branch on
// secret data is the declared leak, j > i on each byte read.
//
// The routine keeps c as two 256-bit masks, nz (bit k set where c_k ≠ 0)
// and neg (bit k set where c_k = −1, read only where nz is set), in
// registers the plan names. It is cut at two heads the plan names: Read,
// where the loop takes the next byte of the stream (Algorithm 29, lines
// 7 and 9), and Expand, where the masks become coefficients. The proof's
// state at Read is a triple of ghosts, all concrete: i (line 6), b, the
// blocks squeezed less one, and pos, the next byte's offset in block b
// (the stream has been read to byte t = 136·b + pos, the 8 signs
// included). The induction hypothesis at Read (i, b, pos) is:
//
//   - the loop is at iteration i of line 6 and has read exactly the bytes
//     8 … t − 1 of the stream (lines 7 and 9), rejecting and accepting as
//     Algorithm 29 does;
//   - the masks, read as c (c_k = 0, 1 or −1 as nz_k and neg_k say), are
//     Algorithm 29's c at that point, and their bits at i and above are 0
//     (Inv(i): c_k = 0 for k ≥ i, which the routine relies on to set bit
//     i by OR);
//   - the frame slot Signs holds h, the stream's first 8 bytes as a
//     little-endian word (line 4: bit k of h is h[k], as BytesToBits
//     orders the bits);
//   - the frame's State holds S_{b+1}, the permutation applied b + 1
//     times to the absorbed state S₀ (below), whose rate is block b of
//     the stream;
//   - each frame slot the plan lists in Keep holds one constant per
//     triple (whatever the first path to reach the triple stored there;
//     every later path must store the same).
//
// At Expand: the masks read as c are Algorithm 29's output on the stream
// (every iteration done, within the bound). Every other register and
// frame byte is an unknown at a head.
//
// From each head the routine runs in the model on the symbolic domain:
// the masks, h and every byte of the current block are variables, the
// byte at pos of the block (or, after a CALL, byte 0 of the new block) is
// the variable j (a byte), and everything else is an unknown of its own.
// Every address must be a constant (one that depends on data fails the
// path), and a branch on data is a decision: the path is run once for
// each outcome. Each path must end at a head or RET and meet:
//
//   - from Read (i, b, pos): exactly one branch on data, whose condition,
//     at each of j's 256 values, is the constant "Spec/fips204's
//     SampleInBallStep rejects j at i" (line 8: j > i), or at each its
//     negation (exhaustion: the term with j replaced by the value must
//     fold to that constant, so it reads nothing else); the step must
//     leave c as it was on a rejected j, and then so must the path (the
//     same terms, or SAT); for each j the step accepts (exhaustion, the
//     terms rebuilt with j replaced by its value) the path's masks must
//     read as the c that SampleInBallStep itself computes (lines 11 and
//     12: c_i ← c_j, then c_j ← (−1)^{h[i+τ−256]}), run on the masks'
//     coefficients as (nz, neg) pairs of bit terms and h's bits, and meet
//     Inv(i + 1), for every value of the masks meeting Inv(i) and of h
//     (one SAT query per j); it reaches Read at (i, b, pos + 1) if
//     rejected, (i + 1, b, pos + 1) if accepted and i < 255, Expand if
//     accepted and i = 255 (the step must return i or i + 1);
//   - from Read (i, b, 136), the block read to its end: exactly one CALL
//     of the permutation on State, allowed only with b + 1 < K, then the
//     same with byte 0 of block b + 1, to (·, b + 1, 1); or, with b =
//     K − 1 only, RET 0 without reading (Algorithm 29 needs byte t = 136K,
//     past the bound);
//   - from Expand: RET 1 with word k of c equal to ballCoeff of the
//     masks at k: 0, 1 or q − 1 as c_k is 0, 1 or −1 (SAT);
//   - from the entry: exactly one CALL, on State holding fips202's
//     PadBlock of the seed in the rate and 0 in the capacity (S₀, each
//     byte the seed's or PadBlock's constant, by term identity or SAT),
//     then Read at (256 − τ, 0, 8) with the masks reading as c = 0, Inv
//     and Signs the first 8 bytes of block 0 (h, line 4).
//
// No path writes State but the entry's before its CALL, and no other path
// CALLs (each CALL's buffer is State, of 200 bytes). The heads explored are
// the triples reached from the entry, i in increasing order (so that Keep's
// constants for a triple are known before it is explored). t grows by one
// on every path, so every run reaches RET within 136K paths. By induction
// over the paths of a run, the routine's run on c̃ ends with RET 1 exactly
// when Algorithm 29 on SHAKE256(c̃) finishes within 136K bytes, and then c
// is its output mod q: block b is the rate of S_{b+1}, output block b of
// SHAKE256 of c̃ (FIPS 202, Algorithm 8, as fips202's Read squeezes), given
// the callee's contract a = Keccak-f[1600](old a), which its own check
// proves.
//
// Constant time: the paths cover every run, on every seed, stream and
// garbage (all unknowns of the proof). On them every address is a
// constant, every branch on data is the one test of the byte read, j >
// i, and no instruction off Intel's DOIT list reads anything but
// constants (ballObs). The ghosts (i, b, pos) are functions of where the
// rejections fall, so the instructions executed, the addresses touched and
// the operands of non-DOIT instructions are too: the declared leak. The
// callee's constant time is its own check's.
//
// What the proof reads rather than proves: Algorithm 29 is
// Spec/fips204's own SampleInBallStep, the code SampleInBallFrom runs
// (and every vector test with it); it is generic in c and h, so the proof
// runs it on its terms, and what it does cannot depend on the values c
// and h hold (short of a type switch on them, which reading it shows). The proof's reading of the masks, ballCoeff, is checked where it
// meets Spec: at each coefficient, the pair it reads as BallSign(b) mod q
// is the pair line 12 writes, and it reads two pairs as the same
// coefficient exactly where their nz and nz ∧ neg bits agree, the test
// the masks' update is held to (ballSign, ballPairs, all 256 × 16 cases);
// that it reads bit k of each mask at coefficient k is read. Beyond that
// it is a bridge: c at RET is ballCoeff of masks that the chain of steps
// from c = 0 ties to Spec's. Line 6's range (256 − τ to 255) is the
// proof's, and that the Ball's meaning is the contract's Check (contract
// tests). Its SAT queries are answered by Spec/sat, each unsat with a
// certificate Spec/drup checks; z3 re-asks a sample of them (z3Sample):
// it took seconds a query on these, and the proof asks about ten
// thousand.

// BallPlan is the untrusted description of a SampleInBall routine.
type BallPlan struct {
	Read   string // label of the head where a byte of the stream is read
	Expand string // label of the head where the masks become c
	State  string // frame slot of the SHAKE256 state ("frame+8", 200 bytes)
	Signs  string // frame slot of h (line 4), 8 bytes
	// NZ and Neg are the registers of the masks at both heads, word k
	// holding coefficients 64k to 64k + 63.
	NZ, Neg [4]string
	// Keep lists frame slots (8 bytes) that hold at Read a constant
	// determined by the proof's (i, b, pos).
	Keep []string
}

// BallHints is implemented by hints that describe SampleInBall routines.
type BallHints interface {
	BallPlan(r *x86.Routine, c *contract.Contract) (*BallPlan, error)
}

// ballProofTime bounds the proof of one routine.
const ballProofTime = 3 * time.Minute

// ballKey is the proof's state at Read.
type ballKey struct{ i, b, pos int }

// ballHead is where a path starts: Read at key, Expand (expand), or the
// routine's entry (neither).
type ballHead struct {
	key    ballKey
	read   bool
	expand bool
}

type ballProver struct {
	f       *x86.File
	r       *x86.Routine
	c       *contract.Contract
	b       *contract.Ball
	callees map[string]*x86.Routine
	p       *BallPlan
	s       *x86.Sym
	tau, K  int
	seedLen int

	readPC, expandPC int
	state, signs     int   // frame offsets
	keep             []int // frame offsets
	nz, neg          [4]x86.Reg

	// The proof's variables.
	j, h       *x86.Term // j a byte
	nzV, negV  [4]*x86.Term
	blk        [][]*x86.Term // block b, byte p
	capv       [][]*x86.Term // block b, capacity byte
	seed       []*x86.Term
	base       *x86.Machine[*x86.Term]
	lay        *layout
	nfresh     int
	kept       map[ballKey][]uint64
	stepOK     map[[9]*x86.Term]bool
	leakOf     map[[2]*x86.Term]bool // condition, i → rejected when it holds
	exhausted  int
	paths, sat int
	z3         z3Sample
	deadline   time.Time
}

// ProveBall proves a SampleInBall routine's functional correctness and its
// constant time against the declared leak for every seed (see above). It
// returns the detail of each.
func ProveBall(f *x86.File, r *x86.Routine, c *contract.Contract, h Hints, callees map[string]*x86.Routine, maxSteps int) (fn, ct string, err error) {
	bh, ok := h.(BallHints)
	if !ok {
		return "", "", fmt.Errorf("no SampleInBall plan for %s in the hints", c.Symbol)
	}
	p, err := bh.BallPlan(r, c)
	if err != nil {
		return "", "", fmt.Errorf("SampleInBall plan: %v", err)
	}
	return proveBall(f, r, c, p, callees, maxSteps)
}

func proveBall(f *x86.File, r *x86.Routine, c *contract.Contract, p *BallPlan, callees map[string]*x86.Routine, maxSteps int) (string, string, error) {
	pv := &ballProver{f: f, r: r, c: c, b: c.Ball, callees: callees, p: p,
		kept: map[ballKey][]uint64{}, stepOK: map[[9]*x86.Term]bool{}, leakOf: map[[2]*x86.Term]bool{},
		deadline: time.Now().Add(ballProofTime)}
	if err := pv.shape(); err != nil {
		return "", "", err
	}
	if err := pv.resolve(); err != nil {
		return "", "", err
	}
	if err := ballPairs(); err != nil {
		return "", "", err
	}
	pv.vars()
	// The heads reached, explored with i increasing (a path from i
	// reaches i or i + 1).
	queue := make([][]ballKey, 257)
	seen := map[ballKey]bool{}
	expand := false
	reach := func(hd ballHead) {
		switch {
		case hd.expand:
			expand = true
		case !seen[hd.key]:
			seen[hd.key] = true
			queue[hd.key.i] = append(queue[hd.key.i], hd.key)
		}
	}
	ends, err := pv.explore(nil, maxSteps)
	if err != nil {
		return "", "", fmt.Errorf("from the entry: %v", err)
	}
	for _, e := range ends {
		reach(e)
	}
	heads := 0
	for i := range queue {
		for len(queue[i]) > 0 {
			k := queue[i][0]
			queue[i] = queue[i][1:]
			heads++
			ends, err := pv.explore(&ballHead{key: k, read: true}, maxSteps)
			if err != nil {
				return "", "", fmt.Errorf("from %s at i = %d, block %d, byte %d: %v", p.Read, k.i, k.b, k.pos, err)
			}
			for _, e := range ends {
				reach(e)
			}
		}
	}
	if !expand {
		return "", "", fmt.Errorf("%s is never reached: the routine never completes Algorithm 29", p.Expand)
	}
	if _, err := pv.explore(&ballHead{expand: true}, maxSteps); err != nil {
		return "", "", fmt.Errorf("from %s: %v", p.Expand, err)
	}
	fn := fmt.Sprintf("proven for every seed: Algorithm 29 on every stream (%d heads (i, block, byte) and %s, %d paths; %d exhaustions of j: the test j > i, the masks' update of lines 11 and 12 for each j ≤ i; %d SAT queries: that update for every c with its bits from i on 0 and every h, the expansion to c mod q, the absorbed seed; %s), and the stream is SHAKE256 of the seed: the entry absorbs fips202's PadBlock of it and only one CALL of %s per block changes the state, at most %d blocks",
		heads, p.Expand, pv.paths, pv.exhausted, pv.sat, pv.z3.note(), pv.b.Permutation, pv.K)
	ct := "proven for every seed by the SampleInBall proof, whose paths cover every run: the one branch on secret data is the test j > i of the byte read (the declared leak: where the rejections fall), every address is a constant of the path, no non-DOIT instruction reads anything but constants, and the permutation called is constant time by its own check"
	return fn, ct, nil
}

// shape checks that the contract's Ball names what the proof needs.
func (pv *ballProver) shape() error {
	b, c := pv.b, pv.c
	if b == nil {
		return errors.New("the contract has no Ball")
	}
	if b.Tau < 1 || b.Tau > 64 || b.Blocks < 1 {
		return fmt.Errorf("τ = %d, %d blocks: not a SampleInBall", b.Tau, b.Blocks)
	}
	pv.tau, pv.K = b.Tau, b.Blocks
	if !contains(c.Calls, b.Permutation) {
		return fmt.Errorf("the contract's Calls do not name the permutation %s", b.Permutation)
	}
	pc := contract.Lookup(b.Permutation)
	if pc == nil || pc.KeccakStates != 1 || len(pc.Args) != 1 || pc.Args[0].Bytes != 200 || !pc.Args[0].Write || pc.Args[0].Indirect != 0 {
		return fmt.Errorf("%s's contract is not Keccak-f[1600] on one state of 200 bytes", b.Permutation)
	}
	if c.Result != "bool" {
		return errors.New("the routine returns no ok")
	}
	out := false
	for _, a := range c.Args {
		switch {
		case a.Name == b.Out && a.Bytes == 1024 && a.Write && a.Indirect == 0:
			out = true
		case a.Write:
			return fmt.Errorf("%s is writable, and Ball says nothing of it", a.Name)
		case a.Name == b.Seed && a.Read && a.Indirect == 0 && a.Bytes < fips202.Rate256:
			pv.seedLen = a.Bytes
		}
	}
	if !out || pv.seedLen == 0 {
		return fmt.Errorf("no writable 1024-byte output %q or read-only seed %q shorter than the rate", b.Out, b.Seed)
	}
	// Nothing sets MXCSR, so it is the caller's 0x1F80 at every head.
	if !noMCDT(pv.r) {
		return errors.New("the routine touches MXCSR or uses an MCDT instruction, which the proof does not follow")
	}
	return nil
}

func (pv *ballProver) frameSlot(loc string, n int) (int, error) {
	s, ok := strings.CutPrefix(loc, "frame+")
	off, err := strconv.Atoi(s)
	if !ok || err != nil || off < 0 || off+n > pv.r.Frame {
		return 0, fmt.Errorf("bad frame slot %q", loc)
	}
	return off, nil
}

// resolve reads the plan: labels, slots and registers, which must not
// overlap.
func (pv *ballProver) resolve() error {
	p := pv.p
	var ok bool
	if pv.readPC, ok = pv.r.Labels[p.Read]; !ok {
		return fmt.Errorf("plan names no label %q of the routine", p.Read)
	}
	if pv.expandPC, ok = pv.r.Labels[p.Expand]; !ok || pv.expandPC == pv.readPC {
		return fmt.Errorf("plan names no label %q of the routine apart from %q", p.Expand, p.Read)
	}
	var err error
	if pv.state, err = pv.frameSlot(p.State, 200); err != nil {
		return err
	}
	if pv.signs, err = pv.frameSlot(p.Signs, 8); err != nil {
		return err
	}
	used := map[int]bool{}
	claim := func(off, n int) error {
		for k := off; k < off+n; k++ {
			if used[k] {
				return fmt.Errorf("plan's frame slots overlap at frame+%d", k)
			}
			used[k] = true
		}
		return nil
	}
	if err := claim(pv.state, 200); err != nil {
		return err
	}
	if err := claim(pv.signs, 8); err != nil {
		return err
	}
	for _, l := range p.Keep {
		off, err := pv.frameSlot(l, 8)
		if err != nil {
			return err
		}
		if err := claim(off, 8); err != nil {
			return err
		}
		pv.keep = append(pv.keep, off)
	}
	regs := map[x86.Reg]bool{}
	for w := 0; w < 4; w++ {
		for _, rr := range []struct {
			name string
			dst  *x86.Reg
		}{{p.NZ[w], &pv.nz[w]}, {p.Neg[w], &pv.neg[w]}} {
			g, err := gpr(rr.name)
			if err != nil {
				return err
			}
			if regs[g] {
				return fmt.Errorf("plan names register %s twice", rr.name)
			}
			regs[g] = true
			*rr.dst = g
		}
	}
	return nil
}

// vars makes the proof's variables and the machine every path starts
// from (the routine's entry, every value not a constant a variable).
func (pv *ballProver) vars() {
	var m *x86.Machine[*x86.Term]
	pv.s, _, m, pv.lay, _ = symSetup(pv.f, pv.r, pv.c, 11, func(secret, input bool) bool { return secret || input })
	s := pv.s
	mask := s.Const(0xff)
	pv.j = s.And(s.Var("j"), mask)
	pv.h = s.Var("h")
	for w := 0; w < 4; w++ {
		pv.nzV[w] = s.Var("nz" + strconv.Itoa(w))
		pv.negV[w] = s.Var("neg" + strconv.Itoa(w))
	}
	for b := 0; b < pv.K; b++ {
		var bs, cs []*x86.Term
		for p := 0; p < fips202.Rate256; p++ {
			bs = append(bs, s.And(s.Var(fmt.Sprintf("blk%d_%d", b, p)), mask))
		}
		for L := fips202.Rate256 / 8; L < 25; L++ {
			cs = append(cs, make([]*x86.Term, 8)...)
			s.Bytes(s.Var(fmt.Sprintf("cap%d_%d", b, L)), cs[len(cs)-8:])
		}
		pv.blk, pv.capv = append(pv.blk, bs), append(pv.capv, cs)
	}
	seed := m.Region(pv.b.Seed)
	for k := 0; k < pv.seedLen; k += 8 {
		s.Bytes(s.Var(fmt.Sprintf("seed_%d", k/8)), seed.Bytes[k:min(k+8, pv.seedLen)])
	}
	pv.seed = seed.Bytes[:pv.seedLen]
	pv.base = m
}

// start returns the machine at head hd: the base machine's unknowns, and
// what the hypothesis says.
func (pv *ballProver) start(hd *ballHead) *x86.Machine[*x86.Term] {
	s := pv.s
	m := pv.base.CloneCOW()
	if hd == nil {
		return m
	}
	frame := m.Region("frame")
	frame.Own()
	m.GPR[x86.SP] = s.Const(pv.lay.sp)
	m.MXCSR = s.Const(0x1F80)
	for w := 0; w < 4; w++ {
		m.GPR[pv.nz[w]], m.GPR[pv.neg[w]] = pv.nzV[w], pv.negV[w]
	}
	if hd.expand {
		m.PC = pv.expandPC
		return m
	}
	k := hd.key
	m.PC = pv.readPC
	for p := 0; p < fips202.Rate256; p++ {
		v := pv.blk[k.b][p]
		if p == k.pos {
			v = pv.j
		}
		frame.Bytes[pv.state+p] = v
	}
	copy(frame.Bytes[pv.state+fips202.Rate256:pv.state+200], pv.capv[k.b])
	s.Bytes(pv.h, frame.Bytes[pv.signs:pv.signs+8])
	for n, off := range pv.keep {
		s.Bytes(s.Const(pv.kept[k][n]), frame.Bytes[off:off+8])
	}
	return m
}

// ballObs checks every step of a path: addresses are constants, only
// the entry's path writes State (before its CALL), no non-DOIT
// instruction reads data; it keeps the last branch condition.
type ballObs struct {
	pv    *ballProver
	entry bool
	calls *int
	cond  *x86.Term
}

func (o *ballObs) Branch(_ *x86.Machine[*x86.Term], _ *x86.Insn, c *x86.Term) error {
	o.cond = c
	return nil
}

func (o *ballObs) Address(m *x86.Machine[*x86.Term], in *x86.Insn, a *x86.Term, size int, write bool) error {
	addr, ok := o.pv.s.Concrete(a)
	if !ok {
		return fmt.Errorf("%s: the address depends on data", in)
	}
	st := m.Region("frame").Base + uint64(o.pv.state)
	if write && (!o.entry || *o.calls > 0) && addr < st+200 && addr+uint64(size) > st {
		return fmt.Errorf("%s: writes the SHAKE256 state (%s), which only the permutation's CALL may change", in, o.pv.p.State)
	}
	return nil
}

func (o *ballObs) After(_ *x86.Machine[*x86.Term], in *x86.Insn, reads []*x86.Term) error {
	if in.Info().DOIT {
		return nil
	}
	for _, v := range reads {
		if _, ok := o.pv.s.Concrete(v); !ok {
			return fmt.Errorf("%s: %s is not a DOIT instruction and has an operand that may be secret", in, in.Op)
		}
	}
	return nil
}

// ballPath is one path: where it started, its decisions, and its CALLs.
type ballPath struct {
	hd    *ballHead
	dec   []bool
	atoms []atom
	calls int
}

// errDecision asks for the path to be run again with one more decision.
var errDecision = errors.New("decision needed")

// explore runs every path from hd (nil: the entry) and returns the heads
// they reach.
func (pv *ballProver) explore(hd *ballHead, maxSteps int) ([]ballHead, error) {
	st := pv.start(hd)
	var ends []ballHead
	var run func(dec []bool) error
	run = func(dec []bool) error {
		if time.Now().After(pv.deadline) {
			return fmt.Errorf("the proof's %v ran out", ballProofTime)
		}
		pv.paths++
		end, err := pv.path(st, &ballPath{hd: hd, dec: dec}, maxSteps)
		if err == errDecision {
			if len(dec) > 0 {
				return fmt.Errorf("a second branch on data after %v (only the test j > i of the byte read may be one)", dec)
			}
			if err := run([]bool{false}); err != nil {
				return err
			}
			return run([]bool{true})
		}
		if err != nil {
			return fmt.Errorf("%v (decisions %v)", err, dec)
		}
		if end != nil {
			ends = append(ends, *end)
		}
		return nil
	}
	return ends, run(nil)
}

// path runs one path from the machine st and checks where it ends: the
// head it reaches (nil at RET).
func (pv *ballProver) path(st *x86.Machine[*x86.Term], ps *ballPath, maxSteps int) (*ballHead, error) {
	m := st.CloneCOW()
	obs := &ballObs{pv: pv, entry: ps.hd == nil, calls: &ps.calls}
	m.Obs = obs
	env := pv.callEnv(ps)
	m.Call = env.call
	for steps := 0; ; steps++ {
		if steps > maxSteps {
			return nil, fmt.Errorf("no head or RET within %d steps", maxSteps)
		}
		if steps > 0 && (m.PC == pv.readPC || m.PC == pv.expandPC) {
			return pv.arrive(m, ps)
		}
		err := m.Step()
		var bu *x86.BranchUnknown
		if errors.As(err, &bu) {
			k := len(ps.atoms)
			if k >= len(ps.dec) {
				return nil, errDecision
			}
			ps.atoms = append(ps.atoms, atom{obs.cond, ps.dec[k]})
			m.TakeBranch(bu, ps.dec[k])
			continue
		}
		if err != nil {
			return nil, err
		}
		if len(env.Calls) > ps.calls {
			rec := env.Calls[len(env.Calls)-1]
			for _, sp := range rec.Buffers {
				if sp.Region != "frame" || sp.Off != pv.state || sp.N != 200 {
					return nil, fmt.Errorf("CALL %s permutes %s+%d, not the state at %s", rec.Target, sp.Region, sp.Off, pv.p.State)
				}
			}
			ps.calls = len(env.Calls)
		}
		if m.Done {
			return nil, pv.ret(m, ps)
		}
	}
}

// callEnv carries out the CALLs of one path: the discipline of call.go,
// then the permutation's Effect on State (see explore's heads).
func (pv *ballProver) callEnv(ps *ballPath) *callEnv[*x86.Term] {
	s := pv.s
	lay := *pv.lay
	lay.slots = pv.lay.slots.fork(uint64(pv.paths))
	fresh := func() *x86.Term {
		pv.nfresh++
		return s.Var("clobbered" + strconv.Itoa(pv.nfresh))
	}
	return &callEnv[*x86.Term]{caller: pv.c, callees: pv.callees, lay: &lay, rng: rand.New(rand.NewPCG(3, 3)),
		mk: func(v uint64, secret, input bool) *x86.Term {
			if secret || input {
				return fresh()
			}
			return s.Const(v)
		},
		taint: func(v *x86.Term) (bool, bool) {
			_, ok := s.Concrete(v)
			return !ok, !ok
		},
		effect: func(cc *contract.Contract, in map[string][]*x86.Term) (map[string][]*x86.Term, *x86.Term, error) {
			hd := ps.hd
			if cc.Symbol != pv.b.Permutation {
				return nil, nil, fmt.Errorf("calls %s, not the permutation %s", cc.Symbol, pv.b.Permutation)
			}
			if ps.calls > 0 {
				return nil, nil, errors.New("a second block squeezed on one path")
			}
			a := in[cc.Args[0].Name]
			out := make([]*x86.Term, 200)
			switch {
			case hd == nil:
				if err := pv.absorbed(a); err != nil {
					return nil, nil, err
				}
				copy(out, pv.blk[0])
				copy(out[fips202.Rate256:], pv.capv[0])
			case hd.expand:
				return nil, nil, fmt.Errorf("a block squeezed after the loop (%s)", pv.p.Expand)
			case hd.key.pos != fips202.Rate256:
				return nil, nil, fmt.Errorf("a block squeezed with %d bytes of the last one unread", fips202.Rate256-hd.key.pos)
			case hd.key.b+1 >= pv.K:
				return nil, nil, fmt.Errorf("block %d squeezed, beyond the contract's %d", hd.key.b+2, pv.K)
			default:
				// The state is the head's (no step writes it).
				for k := range a {
					if a[k] != pv.stateByte(hd.key, k) {
						return nil, nil, fmt.Errorf("the state's byte %d is not the one at %s", k, pv.p.Read)
					}
				}
				b := hd.key.b + 1
				copy(out, pv.blk[b])
				out[0] = pv.j
				copy(out[fips202.Rate256:], pv.capv[b])
			}
			return map[string][]*x86.Term{cc.Args[0].Name: out}, s.Const(0), nil
		}}
}

// stateByte is byte k of the state at Read (key).
func (pv *ballProver) stateByte(key ballKey, k int) *x86.Term {
	switch {
	case k >= fips202.Rate256:
		return pv.capv[key.b][k-fips202.Rate256]
	case k == key.pos:
		return pv.j
	}
	return pv.blk[key.b][k]
}

// absorbed checks the state the entry's CALL permutes: fips202's PadBlock
// of the seed in the rate (the seed's bytes where it has them, PadBlock's
// constants elsewhere: PadBlock copies the seed and XORs constants in),
// and 0 in the capacity.
func (pv *ballProver) absorbed(a []*x86.Term) error {
	s := pv.s
	mask := s.Const(0xff)
	pad := fips202.PadBlock(make([]byte, pv.seedLen), fips202.Rate256)
	for k := 0; k < 200; k++ {
		c := uint64(0)
		if k < len(pad) {
			c = uint64(pad[k])
		}
		want := s.Const(c)
		if k < pv.seedLen {
			want = s.Xor(pv.seed[k], want)
		}
		got, want := s.And(a[k], mask), s.And(want, mask)
		if got == want {
			continue
		}
		if err := pv.holds(nil, s.Eq(got, want), fmt.Sprintf("the absorbed state's byte %d is PadBlock's of the seed", k)); err != nil {
			return err
		}
	}
	return nil
}

// slot reads 8 frame bytes as a word.
func slot(m *x86.Machine[*x86.Term], off int) *x86.Term {
	return m.D.FromBytes(m.Region("frame").Bytes[off : off+8])
}

// arrive checks a path's end at a head against the head's hypothesis and
// returns the head.
func (pv *ballProver) arrive(m *x86.Machine[*x86.Term], ps *ballPath) (*ballHead, error) {
	s := pv.s
	hd := ps.hd
	expand := m.PC == pv.expandPC
	// Every head starts with SP at the frame's base (start): a path must
	// arrive so (the frame moves at a CALL, SP with it), or the next one
	// would read other slots than the proof's.
	if sp, ok := s.Concrete(m.GPR[x86.SP]); !ok || sp != m.Region("frame").Base {
		return nil, errors.New("a head reached with SP not at the frame")
	}
	var nz, neg [4]*x86.Term
	for w := 0; w < 4; w++ {
		nz[w], neg[w] = m.GPR[pv.nz[w]], m.GPR[pv.neg[w]]
	}
	if hd == nil {
		// Lines 1 to 5: c = 0, h the stream's first 8 bytes, i = 256 − τ.
		switch {
		case expand:
			return nil, fmt.Errorf("the entry reaches %s", pv.p.Expand)
		case ps.calls != 1:
			return nil, fmt.Errorf("the entry reaches %s after %d CALLs of the permutation, not 1", pv.p.Read, ps.calls)
		case len(ps.atoms) > 0:
			return nil, errors.New("a branch on data before the loop")
		}
		if got, want := slot(m, pv.signs), s.FromBytes(pv.blk[0][:8]); got != want {
			if err := pv.holds(nil, s.Eq(got, want), fmt.Sprintf("%s holds the stream's first 8 bytes (line 4)", pv.p.Signs)); err != nil {
				return nil, err
			}
		}
		var goal []*x86.Term
		i0 := 256 - pv.tau
		for k := 0; k < 256; k++ {
			goal = append(goal, s.Eq(ballCoeff[*x86.Term](s, nz, neg, k), s.Const(0)))
		}
		for w := 0; w < 4; w++ {
			hi := s.Const(highBits(i0, w))
			goal = append(goal, s.Eq(s.And(nz[w], hi), s.Const(0)), s.Eq(s.And(neg[w], hi), s.Const(0)))
		}
		if err := pv.holds(nil, conj(s, goal), "the masks read as c = 0 (line 1)"); err != nil {
			return nil, err
		}
		key := ballKey{i: i0, b: 0, pos: 8}
		if err := pv.keepAt(m, key); err != nil {
			return nil, err
		}
		return &ballHead{key: key, read: true}, nil
	}
	if hd.expand {
		return nil, fmt.Errorf("%s reaches a head again", pv.p.Expand)
	}
	k := hd.key
	next, rejected, err := pv.readByte(ps)
	if err != nil {
		return nil, err
	}
	if rejected {
		if expand {
			return nil, fmt.Errorf("%s reached after a rejection at i = %d", pv.p.Expand, k.i)
		}
		for w := 0; w < 4; w++ {
			for _, x := range [][2]*x86.Term{{nz[w], pv.nzV[w]}, {neg[w], pv.negV[w]}} {
				if x[0] != x[1] {
					if err := pv.holds(nil, s.Eq(x[0], x[1]), "a rejected byte leaves the masks unchanged"); err != nil {
						return nil, err
					}
				}
			}
		}
	} else {
		if err := pv.step(k.i, nz, neg); err != nil {
			return nil, err
		}
		next.i++
	}
	switch {
	case next.i == 256 && !expand:
		return nil, fmt.Errorf("iteration 255 done and %s reached, not %s", pv.p.Read, pv.p.Expand)
	case next.i == 256:
		return &ballHead{expand: true}, nil
	case expand:
		return nil, fmt.Errorf("%s reached at i = %d", pv.p.Expand, next.i)
	}
	if got := slot(m, pv.signs); got != pv.h {
		if err := pv.holds(nil, s.Eq(got, pv.h), fmt.Sprintf("%s still holds h", pv.p.Signs)); err != nil {
			return nil, err
		}
	}
	if err := pv.keepAt(m, next); err != nil {
		return nil, err
	}
	return &ballHead{key: next, read: true}, nil
}

// readByte checks that a path from Read read the next byte of the stream
// (squeezing the next block first where the last is read to its end)
// and tested it once, with line 8's test; it returns the stream position
// after the byte (i unchanged) and whether the byte was rejected.
func (pv *ballProver) readByte(ps *ballPath) (ballKey, bool, error) {
	k := ps.hd.key
	next := ballKey{i: k.i, b: k.b, pos: k.pos + 1}
	switch {
	case k.pos < fips202.Rate256 && ps.calls != 0:
		return next, false, errors.New("a CALL before the block is read to its end")
	case k.pos == fips202.Rate256 && ps.calls != 1:
		return next, false, errors.New("a byte read past the block without squeezing the next")
	case k.pos == fips202.Rate256:
		next = ballKey{i: k.i, b: k.b + 1, pos: 1}
	}
	if len(ps.atoms) != 1 {
		return next, false, fmt.Errorf("%d branches on data where the byte read is tested once (line 8)", len(ps.atoms))
	}
	rejected, err := pv.leak(ps.atoms[0], k.i)
	return next, rejected, err
}

// keepAt records the Keep slots' constants where key is first reached and
// checks them at every later arrival.
func (pv *ballProver) keepAt(m *x86.Machine[*x86.Term], key ballKey) error {
	var vs []uint64
	for n, off := range pv.keep {
		v, ok := pv.s.Concrete(slot(m, off))
		if !ok {
			return fmt.Errorf("%s reached with %s not a constant", pv.p.Read, pv.p.Keep[n])
		}
		vs = append(vs, v)
	}
	old, ok := pv.kept[key]
	if !ok {
		pv.kept[key] = vs
		return nil
	}
	for n := range vs {
		if vs[n] != old[n] {
			return fmt.Errorf("%s reached at i = %d, block %d, byte %d with %s = %#x, another path with %#x", pv.p.Read, key.i, key.b, key.pos, pv.p.Keep[n], vs[n], old[n])
		}
	}
	return nil
}

// leak checks that a branch condition is line 8's test j > i on the byte
// read, or its negation, by exhaustion: at each of the byte's 256 values
// the condition must be that constant (a term of j and of nothing else).
// It says whether the branch taken rejects j.
func (pv *ballProver) leak(a atom, i int) (bool, error) {
	key := [2]*x86.Term{a.t, pv.s.Const(uint64(i))}
	neg, ok := pv.leakOf[key]
	if !ok {
		sj := x86.NewSym()
		holds := [2]bool{true, true} // cond = (j > i), cond = (j ≤ i)
		for v := 0; v < 256; v++ {
			ts, err := atJ(sj, v, nil, a.t)
			if err != nil {
				return false, err
			}
			c, ok := sj.Concrete(ts[0])
			if !ok {
				return false, fmt.Errorf("the branch on data at i = %d reads more than the byte j", i)
			}
			rej, err := pv.rejects(i, v)
			if err != nil {
				return false, err
			}
			holds[0] = holds[0] && c == b2u64(rej)
			holds[1] = holds[1] && c == b2u64(!rej)
		}
		switch {
		case holds[0]:
		case holds[1]:
			neg = true
		default:
			return false, fmt.Errorf("the branch on data at i = %d is not j > %d (line 8) for some j", i, i)
		}
		pv.leakOf[key] = neg
		pv.exhausted++
	}
	return a.v != neg, nil
}

func b2u64(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// atJ builds the terms ts again in sj with the variable j replaced by
// the byte v; every other variable becomes sj's variable of its name,
// kept in vars (which may hold some already).
func atJ(sj *x86.Sym, v int, vars map[string]*x86.Term, ts ...*x86.Term) ([]*x86.Term, error) {
	vj := map[string]*x86.Term{"j": sj.Const(uint64(v))}
	for k, x := range vars {
		vj[k] = x
	}
	memo := map[*x86.Term]*x86.Term{}
	out := make([]*x86.Term, len(ts))
	for k, t := range ts {
		u, err := rebuildIn(sj, t, vj, memo)
		if err != nil {
			return nil, err
		}
		out[k] = u
	}
	for k, x := range vj {
		if k != "j" && vars != nil {
			vars[k] = x
		}
	}
	return out, nil
}

// rebuildIn builds t again in s, each variable replaced by vars' term of
// its name (a new variable of s, added to vars, where it has none).
func rebuildIn(s *x86.Sym, t *x86.Term, vars map[string]*x86.Term, memo map[*x86.Term]*x86.Term) (*x86.Term, error) {
	if u, ok := memo[t]; ok {
		return u, nil
	}
	var u *x86.Term
	if t.Op == "var" {
		if u = vars[t.Name]; u == nil {
			u = s.Var(t.Name)
			vars[t.Name] = u
		}
	} else {
		as := make([]*x86.Term, len(t.Args))
		for k, a := range t.Args {
			v, err := rebuildIn(s, a, vars, memo)
			if err != nil {
				return nil, err
			}
			as[k] = v
		}
		var err error
		if u, err = apply(s, t, as); err != nil {
			return nil, err
		}
	}
	memo[t] = u
	return u, nil
}

// step checks an accepted byte's masks nz, neg (terms of the proof's
// variables) at iteration i: for each byte j that Spec/fips204's
// SampleInBallStep accepts (exhaustion), for every c meeting Inv(i) and
// every h, they read as that step's c and meet Inv(i + 1) (one SAT query
// per j, on the terms with j replaced by its value).
func (pv *ballProver) step(i int, nz, neg [4]*x86.Term) error {
	key := [9]*x86.Term{pv.s.Const(uint64(i))}
	copy(key[1:], nz[:])
	copy(key[5:], neg[:])
	if pv.stepOK[key] {
		return nil
	}
	// The masks meeting Inv(i): each word's bits from i on cleared.
	sj := x86.NewSym()
	vars := map[string]*x86.Term{}
	var nzV, negV [4]*x86.Term
	for w := 0; w < 4; w++ {
		low := sj.Const(^highBits(i, w))
		nzV[w], negV[w] = sj.And(sj.Var(pv.nzV[w].Name), low), sj.And(sj.Var(pv.negV[w].Name), low)
		vars[pv.nzV[w].Name], vars[pv.negV[w].Name] = nzV[w], negV[w]
	}
	h := sj.Var(pv.h.Name)
	vars[h.Name] = h
	// c as the masks hold it, a (nonzero, negative) pair of bits per
	// coefficient, and h's bits (line 5: bit k of the little-endian word
	// is h[k], as BytesToBits orders them).
	var c0 [256]ballPair
	for k := range c0 {
		c0[k] = ballPair{ballBit(sj, nzV, k), ballBit(sj, negV, k)}
	}
	hb := make([]*x86.Term, 64)
	for k := range hb {
		hb[k] = sj.And(sj.Shr(h, uint(k)), sj.Const(1))
	}
	sign, err := ballSign(sj)
	if err != nil {
		return err
	}
	for v := 0; v < 256; v++ {
		c := c0
		if fips204.SampleInBallStep(pv.tau, &c, hb, i, v, sign) == i {
			continue // rejected: the path that takes it is checked to leave the masks
		}
		got, err := atJ(sj, v, vars, append(nz[:], neg[:]...)...)
		if err != nil {
			return err
		}
		// The step's c as masks: a coefficient the step left is the
		// masks' bit, one it changed is its pair's bit. Pairs read as the
		// same c_k exactly where their nz bits and nz ∧ neg bits are
		// equal (ballPairs checks that of ballCoeff).
		e0, e1 := nzV, negV
		for k := range c {
			if c[k] == c0[k] {
				continue
			}
			w, keep := k/64, sj.Const(^(uint64(1) << (k % 64)))
			e0[w] = sj.Or(sj.And(e0[w], keep), sj.Shl(c[k].nz, uint(k%64)))
			e1[w] = sj.Or(sj.And(e1[w], keep), sj.Shl(c[k].neg, uint(k%64)))
		}
		var goal []*x86.Term
		for w := 0; w < 4; w++ {
			nw := sj.Const(highBits(i+1, w))
			goal = append(goal,
				sj.Eq(got[w], e0[w]),
				sj.Eq(sj.And(got[w], got[4+w]), sj.And(e0[w], e1[w])),
				sj.Eq(sj.And(got[w], nw), sj.Const(0)),
				sj.Eq(sj.And(got[4+w], nw), sj.Const(0)))
		}
		if err := pv.holds(nil, conj(sj, goal), fmt.Sprintf("an accepted j = %d at i = %d updates the masks as lines 11 and 12", v, i)); err != nil {
			return err
		}
	}
	pv.exhausted++
	pv.stepOK[key] = true
	return nil
}

// rejects is whether Spec/fips204's SampleInBallStep rejects the byte v at
// iteration i, leaving c as it was and i the next iteration; it fails
// where the step does neither that nor take v to iteration i + 1. The
// step is generic in c and h, so this does not depend on their values: it
// runs on coefficients that name their positions.
func (pv *ballProver) rejects(i, v int) (bool, error) {
	var c [256]int
	for k := range c {
		c[k] = k
	}
	h := make([]int, 64)
	next := fips204.SampleInBallStep(pv.tau, &c, h, i, v, func(int) int { return -1 })
	switch {
	case next == i+1:
		return false, nil
	case next != i:
		return false, fmt.Errorf("the Spec step SampleInBallStep takes iteration %d to %d on byte %d", i, next, v)
	}
	for k := range c {
		if c[k] != k {
			return false, fmt.Errorf("the Spec step SampleInBallStep changes c on a byte %d it rejects at iteration %d", v, i)
		}
	}
	return true, nil
}

// ballPair is a coefficient of c as the masks hold it: its nz and neg
// bits, each 0 or 1.
type ballPair struct{ nz, neg *x86.Term }

// ballBit is bit k of a mask, 0 or 1.
func ballBit(s *x86.Sym, m [4]*x86.Term, k int) *x86.Term {
	return s.And(s.Shr(m[k/64], uint(k%64)), s.Const(1))
}

// ballSign is line 12's (−1)^b on a bit b of the proof, as a pair: at each
// of b's two values, the pair that ballCoeff reads as Spec's BallSign(b)
// mod q.
func ballSign(s *x86.Sym) (func(*x86.Term) ballPair, error) {
	var p [2][2]uint64
	for b := range p {
		x := int64(fips204.BallSign(byte(b)))
		want := uint64((x%fips204.Q + fips204.Q) % fips204.Q)
		found := false
		for _, q := range [][2]uint64{{1, 0}, {1, 1}, {0, 0}} {
			if ballValue(q[0], q[1], 0) == want {
				p[b], found = q, true
				break
			}
		}
		for k := 0; k < 256 && found; k++ {
			found = ballValue(p[b][0], p[b][1], k) == want
		}
		if !found {
			return nil, fmt.Errorf("the Spec sign BallSign(%d) = %d, which c's masks cannot hold", b, x)
		}
	}
	return func(b *x86.Term) ballPair {
		return ballPair{s.Ite(b, s.Const(p[1][0]), s.Const(p[0][0])), s.Ite(b, s.Const(p[1][1]), s.Const(p[0][1]))}
	}, nil
}

// ballPairs checks, at each coefficient k and each of the 16 pairs of
// pairs, that ballCoeff reads two pairs as the same coefficient exactly
// where their nz bits and their nz ∧ neg bits are equal, the test step
// makes of the masks.
func ballPairs() error {
	for k := 0; k < 256; k++ {
		for x := 0; x < 16; x++ {
			a0, a1, b0, b1 := uint64(x&1), uint64(x>>1&1), uint64(x>>2&1), uint64(x>>3&1)
			same := ballValue(a0, a1, k) == ballValue(b0, b1, k)
			if same != (a0 == b0 && a0&a1 == b0&b1) {
				return fmt.Errorf("ballCoeff reads the pairs (%d, %d) and (%d, %d) at coefficient %d other than by their nz and nz ∧ neg bits", a0, a1, b0, b1, k)
			}
		}
	}
	return nil
}

// ballValue is ballCoeff at k of masks whose only bits are nz and neg at
// k.
func ballValue(nz, neg uint64, k int) uint64 {
	var m0, m1 [4]uint64
	m0[k/64], m1[k/64] = nz<<(k%64), neg<<(k%64)
	return ballCoeff[uint64](x86.Conc{}, m0, m1, k)
}

// ret checks a RET: 0 from Read at the last block's end, 1 from Expand
// with c Algorithm 29's.
func (pv *ballProver) ret(m *x86.Machine[*x86.Term], ps *ballPath) error {
	res := m.Region("results")
	if res == nil || !res.Written[0] {
		return errors.New("RET without a result")
	}
	v, ok := pv.s.Concrete(res.Bytes[0])
	if !ok {
		return errors.New("RET with a result that is not a constant")
	}
	hd := ps.hd
	switch {
	case hd == nil:
		return errors.New("RET before the loop")
	case ps.calls > 0 || len(ps.atoms) > 0:
		return errors.New("RET after reading a byte")
	case hd.expand && v&0xff == 1:
		return pv.expanded(m)
	case hd.expand:
		return fmt.Errorf("returns %d after the last iteration", v&0xff)
	case v&0xff != 0:
		return fmt.Errorf("returns %d in the loop", v&0xff)
	case hd.key.b != pv.K-1 || hd.key.pos != fips202.Rate256:
		return fmt.Errorf("returns 0 at block %d, byte %d, before the contract's %d blocks are read", hd.key.b, hd.key.pos, pv.K)
	}
	return nil
}

// expanded checks c at RET from Expand: word k is ballCoeff of the masks.
func (pv *ballProver) expanded(m *x86.Machine[*x86.Term]) error {
	s := pv.s
	out := m.Region(pv.b.Out)
	var goal []*x86.Term
	for k := 0; k < 256; k++ {
		got := s.FromBytes(out.Bytes[4*k : 4*k+4])
		goal = append(goal, s.Eq(got, ballCoeff[*x86.Term](s, pv.nzV, pv.negV, k)))
	}
	return pv.holds(nil, conj(s, goal), "c is the masks' coefficients mod q")
}

// holds proves goal nonzero for every value of the variables meeting the
// assumptions, with the SAT solver (its unsat certified); z3 re-asks a
// sample (z3Sample: all would take it hours).
func (pv *ballProver) holds(assume []*x86.Term, goal *x86.Term, what string) error {
	pv.sat++
	r, err := satHolds(assume, goal, pv.deadline)
	if err != nil {
		return fmt.Errorf("%s: SAT encoding: %v", what, err)
	}
	if r != satUnsat {
		return fmt.Errorf("%s: not proven (SAT solver: %v)", what, r)
	}
	if err := pv.z3.holds(assume, goal, pv.deadline); err != nil {
		return fmt.Errorf("%s: %v", what, err)
	}
	return nil
}

// conj is 1 where every term is nonzero (each term 0 or 1).
func conj(s *x86.Sym, ts []*x86.Term) *x86.Term {
	r := s.Const(1)
	for _, t := range ts {
		r = s.And(r, t)
	}
	return r
}

// highBits is the bits of word w at coefficients k ≥ i.
func highBits(i, w int) uint64 {
	switch lo := i - 64*w; {
	case lo <= 0:
		return ^uint64(0)
	case lo >= 64:
		return 0
	default:
		return ^uint64(0) << lo
	}
}

// ballCoeff is coefficient k of c mod q from the masks: 0, 1 or q − 1.
func ballCoeff[V any](d x86.Domain[V], nz, neg [4]V, k int) V {
	one := d.Const(1)
	bit := func(w [4]V) V { return d.And(d.Shr(w[k/64], uint(k%64)), one) }
	return d.Ite(bit(nz), d.Ite(bit(neg), d.Const(fips204.Q-1), one), d.Const(0))
}
