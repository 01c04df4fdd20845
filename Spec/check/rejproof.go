package check

import (
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

// This file proves a rejection sampler's postcondition for every stream
// of squeezed bytes (ProveRejStreams): ok = 1 exactly when the sampler's
// algorithm accepts 256 coefficients within the contract's blocks, and
// then each polynomial is that algorithm's, whatever the blocks hold. The
// algorithm reads units of its stream in order: three-byte groups for
// RejNTTPoly (Algorithm 30 with CoeffFromThreeBytes, Algorithm 14),
// half-bytes for RejBoundedPoly (Algorithm 31 with CoeffFromHalfByte,
// Algorithm 15: the low half of each byte, then the high half).
//
// The routine is cut at loop heads the hints name: the head over blocks
// (Block) and, per polynomial, the head of the rejection loop (Reject)
// at each offset s = 0, S, 2S, … into the block, S the plan's step
// (RejNTTPoly: 24 bytes, eight groups; RejBoundedPoly: 2 bytes, four
// half-bytes). At every head the state is described by ghosts: B, the
// blocks left (in [1, K], K the contract's bound), and each polynomial's
// count N (accepted so far). The proof's induction hypothesis at a head
// is:
//
//   - stream position: polynomial j has read U·(K − B) + u(s) units (U
//     of a block: 56 groups of 168 bytes, 272 half-bytes of 136; u(s)
//     before offset s: s/3 groups, 2s half-bytes; s = 0 at Block), all
//     of the blocks before the current one;
//   - the first N coefficients of a[j] are the algorithm's first N, and
//     N is the number of units accepted among those read;
//   - at Reject, the current block's bytes sit at the hinted offset of
//     the frame, unchanged.
//
// From each head, for every class of ghost values and every outcome of
// the comparisons on squeezed data (a decision vector: a concrete
// routine run follows exactly one), the routine runs in the model
// (rejdomain.go) until it reaches a head or returns; where the block is
// squeezed (the hinted instruction after the inline Keccak-f), the block
// becomes fresh bytes. Each path must re-establish the hypothesis at the
// head it reaches, with every comparison on data shown to be the
// acceptance test of the next unit of the block in order, each accepted
// unit's coefficient stored at a[j][N], a[j][N+1], …:
//
//   - a group: the comparison is z < q, the compared value Algorithm
//     14's z (SAT), and the stored value is z (SAT);
//   - a half-byte: the comparison, a term of the byte that holds the
//     half-byte and of nothing else, is 1 exactly where the contract's
//     CoeffFromHalfByte (Spec's Algorithm 15) accepts the half-byte, and
//     the stored value's low 32 bits are CoeffFromHalfByte's coefficient
//     mod q wherever it accepts: both by exhaustion, the term evaluated
//     at each of the byte's 256 values (every stream gives the byte one
//     of them). Algorithm 31's test j < 256 (line 12) needs nothing
//     more: no unit is read once the count is 256;
//
// and no access to a[j] below 4N (so the first N stay), no test of a
// unit where the count may be 256, and the blocks counter decreasing by
// one per block. With CompleteAtReject the count at a Reject head may be
// 256 (the pass before completed the polynomial); a path from there then
// reads no unit of it. Returning 1 needs every count at
// 256; returning 0 needs the last block read with a count below 256.
// From the routine's entry, Block must be reached with B = K and every
// count 0. By induction over the heads reached, every run of the routine
// on every stream meets the contract's stream postcondition.
//
// Next heads. A sampler of several polynomials (DoneAtBlock) may name,
// for a polynomial k, the label where it decides whether k reads the
// current block (RejPoly.Next). The hypothesis there is the one at k's
// Reject head at offset 0, but for the count, which is in k's slot and
// may be 256 (k complete): every polynomial before k has read the
// current block to its end or is complete, k and those after it have
// read none of it (their blocks at their offsets, unchanged), every
// count in its slot, B unchanged. A path reaching it must come from a
// polynomial before k (or from Block, every block squeezed) and meet the
// same conditions as at k's Reject head, the count aside; a path from it
// reads for k, as from k's Reject head at offset 0, and may leave k's
// block unread only with k's count 256. The head cuts the paths where a
// polynomial has finished its block, so that the ones after it are
// explored once from there, not again from each of its heads.
//
// What is assumed: that at the squeeze point the block's bytes are the
// next bytes of SHAKE of the seed (the absorb and the inline Keccak-f);
// the proof is for every stream.
//
// A sampler whose contract gives its Sponge squeezes by CALLs instead, and
// then nothing is assumed of the squeeze. The plan names the frame slot
// of its SHAKE state (State, 200 bytes), and the proof also shows:
//
//   - absorb: where the entry reaches Block, the state is fips202's
//     PadBlock of the seed (part j of the Sponge's seed buffer, then part
//     j of its nonce buffer if it names one: ρ′ ‖ IntegerToBytes(r, 2) for
//     RejBoundedPoly; each byte the seed's byte, or PadBlock's constant,
//     SAT) in the rate and 0 in the capacity: S₀;
//   - squeeze: every CALL is of the contract's permutation, with the
//     state as its buffer; a path from Block makes exactly one, before
//     any Reject head, and none other does; the call's Effect gives the
//     rate the block's fresh bytes and the capacity fresh bytes;
//   - no other path step writes the state (only the entry's absorb).
//
// So at Block with B blocks left the state is S_{K−B}, the permutation
// applied K − B times to S₀, and the block read after the call is the
// rate of S_{K−B+1}: the next block of SHAKE of the seed (Algorithm 8 of
// FIPS 202, as fips202.SHAKE's Read squeezes; SHAKE128 or SHAKE256 as the
// rate, 168 or 136 bytes, says), given the callee's contract a =
// Keccak-f[1600](old a), which its own check proves.
//
// Constant time, for a sampler keyed by a secret (SecretControl): the
// paths cover every run of the routine, on every seed, every stream and
// every garbage left in registers and frame, all of them unknowns (data)
// of the proof. On them a branch, or a flag read (ADC), on data is a
// decision, and each decision was shown to be the acceptance test of the
// next unit; every other branch is on constants or ghosts; an address
// that is data fails the path, so each address is a constant or affine in
// a ghost; and no instruction off Intel's DOIT list reads data
// (rejObs.After). The ghosts are functions of the outcomes of the tests
// read so far (N counts the acceptances; B counts blocks, each read to
// its end unless the count reached 256). So the instructions a run
// executes, the addresses it touches and the operands of its non-DOIT
// instructions are a function of where the rejections fall, the leak the
// contract declares (Streams.Twin keeps exactly that), and check.go
// reports constant time proven; the callee's constant time is its own
// check's (vg prove lowers the caller to the callee's level).

// RejPlan is the untrusted description of a sampler's loops.
type RejPlan struct {
	Block   string // label of the loop head over blocks
	Squeeze int    // instruction index at which a block is ready (0 with State)
	// State is the frame slot of the SHAKE state ("frame+8") of a
	// sampler whose contract gives its Sponge.
	State      string
	BlocksSlot string // frame slot of the blocks left ("frame+408")
	// Step is the bytes a polynomial's rejection loop reads per pass: its
	// heads are at offsets 0, Step, 2·Step, … into the block.
	Step int
	// DoneAtBlock says a polynomial may be complete (count 256) at
	// Block: a sampler of several polynomials goes on for the others.
	DoneAtBlock bool
	// CompleteAtReject says a polynomial's count may be 256 at its Reject
	// head (its last pass completed it): the hypothesis there allows 256,
	// and a path from the head may read no unit of a complete polynomial.
	CompleteAtReject bool
	// Keep lists registers ("R12", "Y13") that hold the same constant
	// at every head as when Block is first reached.
	Keep  []string
	Polys []RejPoly
}

// RejPoly describes one polynomial of a sampler.
type RejPoly struct {
	Buffer    string // its coefficients' region ("a", "a[2]")
	Reject    string // label of its rejection loop head
	CountReg  string // register holding the count at Reject
	OffsetReg string // register holding the offset into the block at Reject
	RateReg   string // register holding the block's address at Reject
	PtrReg    string // register holding the buffer's address at Reject
	CountSlot string // frame slot of the count at Block
	// Next, when set, labels where the sampler decides whether the
	// polynomial reads the current block: a head of its own (see
	// "Next heads" above), the count in CountSlot, 256 if complete.
	Next  string
	Lanes []int // frame offsets of the block's lanes at Squeeze
	Rate  int   // frame offset of the block the loop reads
}

// RejHints is implemented by hints that describe samplers.
type RejHints interface {
	RejPlan(r *x86.Routine, c *contract.Contract) (*RejPlan, error)
}

type rejHead struct {
	label string
	poly  int  // -1 for Block
	s     int  // offset at Reject
	next  bool // the polynomial's Next head (s = 0)
}

// seedPart is a buffer a polynomial's seed is read from, per bytes a
// polynomial.
type seedPart struct {
	name string
	per  int
}

// halfCheck is a term checked against Algorithm 15 for half-byte g of
// polynomial j: its test (stored false) or the coefficient stored.
type halfCheck struct {
	t      *x86.Term
	j, g   int
	stored bool
}

type rejProver struct {
	f       *x86.File
	callees map[string]*x86.Routine
	sponge  *contract.Sponge
	state   int        // frame offset of the sponge state
	states  int        // SHAKE states in it, one per polynomial, interleaved
	seeds   []seedPart // the buffers each polynomial's seed is read from
	seedLen int        // bytes of each polynomial's seed
	kepted  bool
	// unknowns holds the proof's unknowns what1, what2, … by what and
	// number (see unknown).
	unknowns map[string][]*x86.Term
	r        *x86.Routine
	c        *contract.Contract
	p        *RejPlan
	s        *x86.Sym
	K        int64
	// The block: its bytes, the units Algorithm 30 or 31 reads in it
	// (three-byte groups or half-bytes), each unit's size in half-bytes.
	blockBytes, units, unitHalves int
	// coeff is Algorithm 15 of a half-byte sampler (nil for groups).
	coeff func(b byte) (int32, bool)
	rate  [][]*x86.Term // per polynomial: the current block's bytes
	z     [][]*x86.Term // per polynomial: Algorithm 14's z of each group
	lab   map[string]int
	// headAt is the head label at each of the heads' PCs (the first of
	// resolve's order where two share one).
	headAt map[int]string
	slot   map[string]int
	// proven caches SAT answers per term pair, exhausted the half-byte
	// terms checked by exhaustion.
	proven    map[[2]*x86.Term]bool
	exhausted map[halfCheck]bool
	exhausts  int
	keep      []loc
	kept      []uint64
	paths     int
	sats      int
	z3        z3Sample
	deadline  time.Time
}

func (pv *rejProver) frameSlot(loc string) (int, error) {
	s, ok := strings.CutPrefix(loc, "frame+")
	n, err := strconv.Atoi(s)
	if !ok || err != nil || n < 0 || n+8 > pv.r.Frame {
		return 0, fmt.Errorf("bad frame slot %q", loc)
	}
	return n, nil
}

func gpr(name string) (x86.Reg, error) {
	r, ok := x86.ParseReg(name)
	if !ok || !r.IsGPR() || r == x86.SP {
		return x86.NoReg, fmt.Errorf("bad register %q", name)
	}
	return r, nil
}

// ProveRejStreams proves the contract's stream postcondition for every
// stream (see above), with the plan from the hints.
func ProveRejStreams(f *x86.File, r *x86.Routine, c *contract.Contract, h Hints, callees map[string]*x86.Routine, maxSteps int) (string, error) {
	rh, ok := h.(RejHints)
	if !ok {
		return "", fmt.Errorf("no sampler plan for %s in the hints", c.Symbol)
	}
	p, err := rh.RejPlan(r, c)
	if err != nil {
		return "", fmt.Errorf("sampler plan: %v", err)
	}
	st := c.Streams
	if st == nil || len(p.Polys) != st.Polys {
		return "", fmt.Errorf("the plan's %d polynomials do not match the contract's streams", len(p.Polys))
	}
	// The work grows with the polynomials: 90 s of wall-clock time each
	// (on a shared machine), at least 2 minutes.
	limit := max(2*time.Minute, time.Duration(len(p.Polys))*90*time.Second)
	pv := &rejProver{f: f, callees: callees, sponge: st.Sponge, r: r, c: c, p: p, s: x86.NewSym(), K: int64(st.Blocks), lab: map[string]int{}, headAt: map[int]string{},
		slot: map[string]int{}, proven: map[[2]*x86.Term]bool{}, exhausted: map[halfCheck]bool{}, unknowns: map[string][]*x86.Term{}, deadline: time.Now().Add(limit)}
	if err := pv.block(st); err != nil {
		return "", err
	}
	if err := pv.resolve(); err != nil {
		return "", err
	}
	if pv.keep, err = keepLocs(p.Keep); err != nil {
		return "", err
	}
	heads := []rejHead{{label: p.Block, poly: -1}}
	for j, pp := range p.Polys {
		if pp.Next != "" {
			heads = append(heads, rejHead{label: pp.Next, poly: j, next: true})
		}
		for s := 0; s < pv.blockBytes; s += p.Step {
			heads = append(heads, rejHead{label: pp.Reject, poly: j, s: s})
		}
	}
	if err := pv.explore(nil, maxSteps); err != nil {
		return "", fmt.Errorf("from the entry: %v", err)
	}
	for _, hd := range heads {
		if err := pv.explore(&hd, maxSteps); err != nil {
			where := hd.label
			if hd.next {
				where = fmt.Sprintf("%s (polynomial %d, before its block)", hd.label, hd.poly)
			} else if hd.poly >= 0 {
				where = fmt.Sprintf("%s (polynomial %d, offset %d)", hd.label, hd.poly, hd.s)
			}
			return "", fmt.Errorf("from %s: %v", where, err)
		}
	}
	tests := fmt.Sprintf("%d SAT queries (%s): Algorithm 14's test, the stored z", pv.sats, pv.z3.note())
	if pv.coeff != nil {
		tests = fmt.Sprintf("%d exhaustions of a byte's 256 values: Algorithm 15's test, the stored coefficient; %d SAT queries (%s)", pv.exhausts, pv.sats, pv.z3.note())
	}
	shake := "SHAKE128"
	if pv.blockBytes == fips202.Rate256 {
		shake = "SHAKE256"
	}
	if pv.sponge != nil {
		return fmt.Sprintf("proven for every seed: the stream postcondition for every stream (%d heads, %d paths over ghost classes and decisions, %s, the absorbed seed), and the stream is %s of the seed: the entry absorbs fips202's PadBlock of it and only the one CALL of %s per block changes the state",
			len(heads)+1, pv.paths, tests, shake, pv.sponge.Permutation), nil
	}
	return fmt.Sprintf("proven for every stream of squeezed bytes (%d heads, %d paths over ghost classes and decisions, %s); the bytes at the squeeze point are assumed to be %s's", len(heads)+1, pv.paths, tests, shake), nil
}

// block reads the contract's units: three-byte groups (Algorithm 30) or
// half-bytes (Algorithm 31), and checks that the plan's step covers whole
// units.
func (pv *rejProver) block(st *contract.Streams) error {
	pv.blockBytes = st.BlockBytes
	switch {
	case st.HalfByteBound > 0 && st.CoeffFromHalfByte != nil:
		pv.unitHalves, pv.coeff = 1, st.CoeffFromHalfByte
	case st.HalfByteBound > 0:
		return fmt.Errorf("a half-byte sampler without Algorithm 15 (CoeffFromHalfByte) in its contract")
	default:
		pv.unitHalves = 6
	}
	if pv.blockBytes <= 0 || pv.blockBytes > 200 || pv.blockBytes%8 != 0 || 2*pv.blockBytes%pv.unitHalves != 0 {
		return fmt.Errorf("a block of %d bytes does not hold whole lanes and units", pv.blockBytes)
	}
	pv.units = 2 * pv.blockBytes / pv.unitHalves
	if st := pv.p.Step; st <= 0 || pv.blockBytes%st != 0 || 2*st%pv.unitHalves != 0 {
		return fmt.Errorf("the plan's step of %d bytes does not cut the block into passes of whole units", st)
	}
	return nil
}

// unitAt is the number of units before byte offset s of the block.
func (pv *rejProver) unitAt(s int) int { return 2 * s / pv.unitHalves }

func (pv *rejProver) resolve() error {
	p := pv.p
	labels := []string{p.Block}
	for _, pp := range p.Polys {
		labels = append(labels, pp.Reject)
		if pp.Next != "" {
			if !p.DoneAtBlock {
				return fmt.Errorf("a Next head (%s) needs DoneAtBlock: a polynomial may be complete there", pp.Next)
			}
			labels = append(labels, pp.Next)
		}
	}
	for _, l := range labels {
		pc, ok := pv.r.Labels[l]
		if !ok {
			return fmt.Errorf("plan names no label %q of the routine", l)
		}
		if _, dup := pv.lab[l]; dup {
			return fmt.Errorf("plan names label %q for two heads", l)
		}
		pv.lab[l] = pc
		if _, ok := pv.headAt[pc]; !ok {
			pv.headAt[pc] = l
		}
	}
	if sp := pv.sponge; sp != nil {
		if p.Squeeze != 0 {
			return fmt.Errorf("a sponge sampler squeezes by its calls: the plan gives a squeeze point")
		}
		if sp.Rate != pv.blockBytes || sp.Rate != fips202.Rate128 && sp.Rate != fips202.Rate256 {
			return fmt.Errorf("the sponge's rate %d is not SHAKE128's or SHAKE256's block of %d bytes", sp.Rate, pv.blockBytes)
		}
		if !contains(pv.c.Calls, sp.Permutation) {
			return fmt.Errorf("the contract's Calls do not name the permutation %s", sp.Permutation)
		}
		// The permutation's contract is Keccak-f[1600] on P states, lane
		// L of state j at a[P·L + j] (keccakproof.go proves it so), one
		// state per polynomial.
		pc := contract.Lookup(sp.Permutation)
		P := len(p.Polys)
		if pc == nil || pc.KeccakStates != P || len(pc.Args) != 1 || pc.Args[0].Bytes != 200*P || !pc.Args[0].Write || pc.Args[0].Indirect != 0 {
			return fmt.Errorf("%s's contract is not Keccak-f[1600] on %d states of 200 bytes", sp.Permutation, P)
		}
		pv.states = P
		names := []string{sp.Seed}
		if sp.Nonce != "" {
			names = append(names, sp.Nonce)
		}
		for _, name := range names {
			per := 0
			for _, a := range pv.c.Args {
				if a.Name == name && a.Read && !a.Write && a.Indirect == 0 && a.Bytes%P == 0 {
					per = a.Bytes / P
				}
			}
			if per == 0 {
				return fmt.Errorf("no read-only seed buffer %q of %d parts in the contract", name, P)
			}
			pv.seeds = append(pv.seeds, seedPart{name, per})
			pv.seedLen += per
		}
		if pv.seedLen >= sp.Rate {
			return fmt.Errorf("a seed of %d bytes does not fit in one block of the rate", pv.seedLen)
		}
		n, err := pv.frameSlot(p.State)
		if err != nil || n+200*P > pv.r.Frame {
			return fmt.Errorf("bad state slot %q", p.State)
		}
		pv.state = n
	} else if p.Squeeze <= 0 || p.Squeeze >= len(pv.r.Insns) {
		return fmt.Errorf("squeeze point %d outside the routine", p.Squeeze)
	}
	n, err := pv.frameSlot(p.BlocksSlot)
	if err != nil {
		return err
	}
	pv.slot[p.BlocksSlot] = n
	for j, pp := range p.Polys {
		n, err := pv.frameSlot(pp.CountSlot)
		if err != nil {
			return err
		}
		pv.slot[pp.CountSlot] = n
		for _, rg := range []string{pp.CountReg, pp.OffsetReg, pp.RateReg, pp.PtrReg} {
			if _, err := gpr(rg); err != nil {
				return err
			}
		}
		if len(pp.Lanes) != pv.blockBytes/8 || pp.Rate < 0 || pp.Rate+pv.blockBytes > pv.r.Frame {
			return fmt.Errorf("polynomial %d: block lanes or offset outside the frame", j)
		}
		for _, o := range pp.Lanes {
			if o < 0 || o+8 > pv.r.Frame {
				return fmt.Errorf("polynomial %d: lane at frame+%d outside the frame", j, o)
			}
		}
		if !hasPolyBuffer(pv.c, pp.Buffer) {
			return fmt.Errorf("polynomial %d: no 1024-byte buffer %q in the contract", j, pp.Buffer)
		}
		// The block's bytes, and Algorithm 14's z of each group (line 1:
		// b2′ = b2 with its top bit cleared; z = 2¹⁶·b2′ + 2⁸·b1 + b0).
		var bs []*x86.Term
		for i := 0; i < pv.blockBytes; i++ {
			bs = append(bs, pv.s.And(pv.s.Var(blockVar(j, i)), pv.s.Const(0xff)))
		}
		pv.rate = append(pv.rate, bs)
		var zs []*x86.Term
		for g := 0; pv.coeff == nil && g < pv.units; g++ {
			zs = append(zs, threeBytesZ[*x86.Term](pv.s, bs[3*g], bs[3*g+1], bs[3*g+2]))
		}
		pv.z = append(pv.z, zs)
	}
	return nil
}

// blockVar names the variable of byte i of polynomial j's block.
func blockVar(j, i int) string { return fmt.Sprintf("blk%d_%d", j, i) }

// rejObs checks every access the paths make: a polynomial's buffer is
// only written, and only at 4N + k (k ≥ 0) for its own count N, so the
// first N coefficients stay and one representative stands for the class.
type rejObs struct {
	pv *rejProver
	d  *rdom
	// absorb: on the entry's path, where the state is written.
	absorb bool
}

func (o *rejObs) Branch(*x86.Machine[rv], *x86.Insn, rv) error { return nil }

// After checks, for a sampler keyed by a secret (SecretControl), that no
// instruction off Intel's DOIT list reads squeezed or seed data: every
// datum of a path is taken as secret.
func (o *rejObs) After(_ *x86.Machine[rv], in *x86.Insn, reads []rv) error {
	if !o.pv.c.SecretControl || in.Info().DOIT {
		return nil
	}
	for _, v := range reads {
		if v.k == rData {
			return fmt.Errorf("%s: %s is not a DOIT instruction and has an operand that may be secret", in, in.Op)
		}
	}
	return nil
}

func (o *rejObs) Address(m *x86.Machine[rv], in *x86.Insn, a rv, size int, write bool) error {
	if o.pv.sponge != nil && write && !o.absorb {
		st := m.Region("frame").Base + uint64(o.pv.state)
		lo, hi := uint64(0), ^uint64(0)
		if bounded(a) {
			l, h := o.d.rng(a)
			lo, hi = uint64(l), uint64(h)
		}
		n := uint64(200 * o.pv.states)
		if lo < st+n && (hi > st+n || hi+uint64(size) > st) {
			return fmt.Errorf("%s: writes the sponge state (frame+%d), which only the permutation's CALL may change", in, o.pv.state)
		}
	}
	for j, pp := range o.pv.p.Polys {
		reg := m.Region(pp.Buffer)
		lo, _ := o.d.Range(a)
		if lo < reg.Base || lo >= reg.Base+uint64(reg.Size()) {
			continue
		}
		if !write {
			return fmt.Errorf("%s: reads %s", in, pp.Buffer)
		}
		if a.k != rAff || int(a.g) != 1+j || a.m != 4 {
			return fmt.Errorf("%s: writes %s at an address that is not 4·count + constant", in, pp.Buffer)
		}
		k := int64(a.c) - int64(reg.Base)
		cl := o.d.box[a.g]
		if k < 0 || 4*cl.hi+k+int64(size) > int64(reg.Size()) {
			return fmt.Errorf("%s: writes %s at 4·count%+d, below the count or past the end", in, pp.Buffer, k)
		}
	}
	return nil
}

// pathState is what a path carries besides the machine.
type pathState struct {
	from     *rejHead // nil: the routine's entry
	injected []bool   // per polynomial: a block squeezed on this path
}

// explore runs every path from head hd (nil: the entry) for every ghost
// class and decision vector.
func (pv *rejProver) explore(hd *rejHead, maxSteps int) error {
	var box []ghostClass
	box = append(box, ghostClass{1, pv.K})
	for j := range pv.p.Polys {
		hi := int64(255)
		if pv.p.DoneAtBlock && (hd == nil || hd.poly != j || hd.next) || pv.p.CompleteAtReject {
			hi = 256
		}
		box = append(box, ghostClass{0, hi})
	}
	// Each decision vector runs over a class of ghost values; one whose
	// run needs a ghost's class split runs again over each part, and so do
	// the vectors that extend it. A run that holds over a class holds for
	// every value in it, so the vectors that never need the split are not
	// run again.
	type work struct {
		b  []ghostClass
		dv []bool
	}
	// The head's state does not depend on the classes (start reads no
	// box): one machine serves every class, each with its own domain.
	head, err := pv.start(hd)
	if err != nil {
		return err
	}
	starts := map[string]*started{}
	stack := []work{{box, nil}}
	for len(stack) > 0 {
		w := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		key := fmt.Sprint(w.b)
		base := starts[key]
		if base == nil {
			base = &started{m: head.m, d: &rdom{s: pv.s, box: w.b}, hd: hd, lay: head.lay}
			starts[key] = base
		}
		pv.paths++
		if pv.paths > 2_000_000 {
			return fmt.Errorf("more than 2,000,000 paths")
		}
		err := pv.path(base, w.dv, maxSteps)
		// The path ran with its vector grown by a false decision
		// wherever it needed one more: each such run with true instead
		// is a path of its own, and so is each part of a split class,
		// with the decisions the run took before the split (a part of
		// the class takes the same steps up to there).
		dec := base.d.dec
		switch e := err.(type) {
		case nil:
		case *splitAt:
			cl := w.b[e.g]
			var parts []ghostClass
			if e.point {
				parts = []ghostClass{{cl.lo, e.at - 1}, {e.at, e.at}, {e.at + 1, cl.hi}}
			} else {
				parts = []ghostClass{{cl.lo, e.at - 1}, {e.at, cl.hi}}
			}
			for _, pc := range parts {
				if pc.lo <= pc.hi {
					nb := append([]ghostClass{}, w.b...)
					nb[e.g] = pc
					stack = append(stack, work{nb, dec})
				}
			}
		default:
			return fmt.Errorf("%v (ghost classes %v, decisions %v)", err, w.b, dec)
		}
		for _, i := range base.d.grown {
			stack = append(stack, work{w.b, append(append([]bool{}, dec[:i]...), true)})
		}
	}
	return nil
}

// started is a head's machine for one ghost class, before any step.
type started struct {
	m   *x86.Machine[rv]
	d   *rdom
	hd  *rejHead
	lay *layout
}

// unknown returns the unknown named what + n, the same term for every
// path that asks for it. Each path is its own proof, over every value of
// its unknowns, and what the prover keeps from one path for others (SAT
// equalities, exhaustions) is a fact about terms that holds for every
// value of their unknowns; so paths may share unknowns, as long as one
// path's are distinct (start numbers them, each path's calls number
// theirs). Shared, the terms built on them are built once: the proof's
// memory does not grow with its paths.
func (pv *rejProver) unknown(what string, n int) *x86.Term {
	us := pv.unknowns[what]
	if n > len(us) {
		us = append(us, make([]*x86.Term, n-len(us))...)
		pv.unknowns[what] = us
	}
	if us[n-1] == nil {
		us[n-1] = pv.s.Var(what + strconv.Itoa(n))
	}
	return us[n-1]
}

// start builds the state at head hd (nil: the entry): everything unknown
// but what the hypothesis says. Its domain has no ghost classes (each path
// runs with its own).
func (pv *rejProver) start(hd *rejHead) (*started, error) {
	d := &rdom{s: pv.s}
	n := 0
	fresh := func() rv {
		n++
		return data(pv.unknown("u", n))
	}
	mk := func(v uint64, secret, input bool) rv {
		if secret || input {
			return fresh()
		}
		return d.Const(v)
	}
	m, lay := setup[rv](d, mk, pv.f, pv.r, pv.c, contract.Buffers{}, rand.New(rand.NewPCG(1, 1)))
	// A buffer's unknown bytes are bytes: FromBytes of a load reads 8 bits
	// of each.
	for _, reg := range m.Regions {
		if reg.Kind != x86.Buffer {
			continue
		}
		for i, b := range reg.Bytes {
			if b.k == rData {
				reg.Bytes[i] = data(pv.s.And(b.t, pv.s.Const(0xff)))
			}
		}
	}
	frame := m.Region("frame")
	putSlot := func(off int, v rv) {
		bs := make([]rv, 8)
		d.Bytes(v, bs)
		copy(frame.Bytes[off:], bs)
	}
	if hd != nil {
		for i := range m.GPR {
			m.GPR[i] = fresh()
		}
		for i := range m.Vec {
			for w := range m.Vec[i] {
				m.Vec[i][w] = fresh()
			}
		}
		for i := range frame.Bytes {
			frame.Bytes[i] = fresh()
		}
		m.GPR[x86.SP] = d.Const(lay.sp)
		if pv.sponge == nil || hd.poly >= 0 {
			if len(pv.keep) > 0 && !pv.kepted {
				return nil, fmt.Errorf("%s explored before the kept registers were seen", hd.label)
			}
			for i, l := range pv.keep {
				writeLoc(m, l, d.Const(pv.kept[i]))
			}
		}
		m.PC = pv.lab[hd.label]
		putSlot(pv.slot[pv.p.BlocksSlot], rv{k: rAff, g: 0, m: 1})
		if hd.poly < 0 {
			for j, pp := range pv.p.Polys {
				putSlot(pv.slot[pp.CountSlot], rv{k: rAff, g: int8(1 + j), m: 1})
			}
		} else if hd.next {
			// Every count in its slot; the blocks of polynomial hd.poly
			// and the ones after it unread, at their offsets.
			for k, q := range pv.p.Polys {
				putSlot(pv.slot[q.CountSlot], rv{k: rAff, g: int8(1 + k), m: 1})
				if k >= hd.poly {
					for i, t := range pv.rate[k] {
						frame.Bytes[q.Rate+i] = data(t)
					}
				}
			}
		} else {
			pp := pv.p.Polys[hd.poly]
			set := func(name string, v rv) {
				r, _ := gpr(name)
				m.GPR[r] = v
			}
			set(pp.CountReg, rv{k: rAff, g: int8(1 + hd.poly), m: 1})
			set(pp.OffsetReg, d.Const(uint64(hd.s)))
			set(pp.RateReg, d.Const(frame.Base+uint64(pp.Rate)))
			set(pp.PtrReg, d.Const(m.Region(pp.Buffer).Base))
			for k, q := range pv.p.Polys {
				if k != hd.poly {
					putSlot(pv.slot[q.CountSlot], rv{k: rAff, g: int8(1 + k), m: 1})
				}
				if k >= hd.poly {
					for i, t := range pv.rate[k] {
						frame.Bytes[q.Rate+i] = data(t)
					}
				}
			}
		}
	}
	// Paths copy the head's regions on write, into the bytes of the paths
	// released before.
	m.Spare()
	return &started{m: m, d: d, hd: hd, lay: lay}, nil
}

// path runs one path from a started head with decision vector dv and
// checks where it ends.
func (pv *rejProver) path(st *started, dv []bool, maxSteps int) error {
	d := st.d
	// The vector grows as the path needs decisions: a copy of its own.
	d.dec, d.atoms, d.seen, d.err, d.grown = append([]bool(nil), dv...), nil, map[*x86.Term]int{}, nil, nil
	// Paths copy the head's regions on write (the head's machine is not
	// written once started).
	hd := st.hd
	m := st.m.CloneCOW()
	defer m.Release()
	m.D = d
	obs := &rejObs{pv: pv, d: d, absorb: hd == nil}
	m.Obs = obs
	frame := m.Region("frame")
	ps := &pathState{from: hd, injected: make([]bool, len(pv.p.Polys))}
	var env *callEnv[rv]
	if pv.sponge != nil {
		env = pv.callEnv(st, ps)
		m.Call = env.call
	}
	calls := 0
	start := true
	for steps := 0; ; steps++ {
		if steps > maxSteps {
			return fmt.Errorf("no head or RET within %d steps", maxSteps)
		}
		if !start {
			if l, ok := pv.headAt[m.PC]; ok {
				return pv.arrive(m, d, ps, l)
			}
		}
		start = false
		if pv.sponge == nil && m.PC == pv.p.Squeeze {
			for j, pp := range pv.p.Polys {
				if ps.injected[j] || hd != nil && hd.poly >= 0 {
					return fmt.Errorf("a block squeezed with the last one not read to its end")
				}
				ps.injected[j] = true
				frame.Own()
				for L, off := range pp.Lanes {
					for i := 0; i < 8; i++ {
						frame.Bytes[off+i] = data(pv.rate[j][8*L+i])
					}
				}
			}
		}
		err := m.Step()
		if d.err != nil {
			return d.err
		}
		if err != nil {
			return err
		}
		if env != nil && len(env.Calls) > calls {
			calls = len(env.Calls)
			rec := env.Calls[calls-1]
			for _, sp := range rec.Buffers {
				if sp.Region != "frame" || sp.Off != pv.state || sp.N != 200*pv.states {
					return fmt.Errorf("CALL %s permutes %s+%d, not the state at frame+%d", rec.Target, sp.Region, sp.Off, pv.state)
				}
			}
		}
		if m.Done {
			return pv.ret(m, d, ps)
		}
	}
}

func slotVal(d *rdom, m *x86.Machine[rv], off int) rv {
	return d.FromBytes(m.Region("frame").Bytes[off : off+8])
}

func sameAff(v rv, g int, c int64) bool {
	return v.k == rAff && int(v.g) == g && v.m == 1 && int64(v.c) == c
}

// consumed checks the path's decisions against Algorithm 30 or 31 on
// poly j's block from unit g0 on, and the accepted values stored from the
// count at the start; it returns the units read and the accepted count.
func (pv *rejProver) consumed(m *x86.Machine[rv], d *rdom, j, g0 int) (int, int, error) {
	acc := 0
	reg := m.Region(pv.p.Polys[j].Buffer)
	n0 := d.box[1+j].lo
	for i, a := range d.atoms {
		g := g0 + i
		if g >= pv.units {
			return 0, 0, fmt.Errorf("a comparison past the block's %d units", pv.units)
		}
		// No unit is tested once the count may be 256, whatever the
		// count in the class (Algorithm 30, line 4; Algorithm 31, lines
		// 4 and 12 use no half-byte past the 256th accepted).
		if d.box[1+j].hi+int64(acc) >= 256 {
			return 0, 0, fmt.Errorf("unit %d of polynomial %d read with its count possibly 256", g, j)
		}
		if err := pv.test(a.t, j, g, i); err != nil {
			return 0, 0, err
		}
		if !a.v {
			continue
		}
		off := 4 * (int(n0) + acc)
		if off+4 > reg.Size() {
			return 0, 0, fmt.Errorf("accepted coefficient past the buffer")
		}
		bs := reg.Bytes[off : off+4]
		ts := make([]*x86.Term, 4)
		for k, b := range bs {
			if b.k == rConc {
				ts[k] = pv.s.Const(b.c)
				continue
			}
			if b.k != rData {
				return 0, 0, fmt.Errorf("coefficient %d+N holds a count", acc)
			}
			ts[k] = b.t
		}
		if err := pv.stored(pv.s.FromBytes(ts), j, g); err != nil {
			return 0, 0, err
		}
		acc++
	}
	return len(d.atoms), acc, nil
}

// threeBytesZ is Algorithm 14's z of the bytes b0, b1, b2 (lines 1 to 5:
// b2′ = b2 with its top bit cleared; z = 2¹⁶·b2′ + 2⁸·b1 + b0), which the
// proof compares with q (line 6). TestThreeBytesZEveryGroup checks it and
// the test z < q against Spec/fips204's CoeffFromThreeBytes at every
// group of three bytes.
func threeBytesZ[V any](d x86.Domain[V], b0, b1, b2 V) V {
	return d.Or(d.Or(b0, d.Shl(b1, 8)), d.Shl(d.And(b2, d.Const(0x7f)), 16))
}

// test checks that comparison i of a path, on data, is the acceptance
// test of unit g of polynomial j's block: Algorithm 14's z < q for a
// group (the compared value z by SAT), Algorithm 15's for a half-byte
// (exhaustion).
func (pv *rejProver) test(t *x86.Term, j, g, i int) error {
	if pv.coeff != nil {
		return pv.halfByte(halfCheck{t: t, j: j, g: g})
	}
	if (t.Op != "ult" && t.Op != "slt") || t.Args[1] != pv.s.Const(fips204.Q) {
		return fmt.Errorf("comparison %d on squeezed data is not z < q", i)
	}
	return pv.equal(t.Args[0], pv.z[j][g], fmt.Sprintf("the value compared with q is z of group %d", g))
}

// stored checks the coefficient v stored for accepted unit g: Algorithm
// 14's z (SAT), or Algorithm 15's coefficient mod q (exhaustion).
func (pv *rejProver) stored(v *x86.Term, j, g int) error {
	if pv.coeff != nil {
		return pv.halfByte(halfCheck{t: v, j: j, g: g, stored: true})
	}
	return pv.equal(v, pv.z[j][g], fmt.Sprintf("the coefficient stored for group %d is its z", g))
}

// halfByte checks a term of half-byte g (g/2 is its byte, low half first)
// against Algorithm 15 by exhaustion: the term may read no variable but
// that byte's, and is evaluated at each of its 256 values. A test must be
// 1 exactly where CoeffFromHalfByte accepts the half-byte; a stored
// coefficient's low 32 bits must be CoeffFromHalfByte's value mod q
// wherever it accepts. Every stream gives the byte one of these values,
// so the check covers every stream.
func (pv *rejProver) halfByte(hc halfCheck) error {
	if pv.exhausted[hc] {
		return nil
	}
	what := fmt.Sprintf("the comparison on half-byte %d", hc.g)
	if hc.stored {
		what = fmt.Sprintf("the coefficient stored for half-byte %d", hc.g)
	}
	name := blockVar(hc.j, hc.g/2)
	fm, err := compileForm(hc.t, func(v string) (uint64, error) {
		if v != name {
			return 0, fmt.Errorf("%s reads %s, not only the byte %s", what, v, name)
		}
		return 0, nil
	})
	if err != nil {
		return err
	}
	prog, err := compile(fm)
	if err != nil {
		return fmt.Errorf("%s: %v", what, err)
	}
	in := make([][256]uint64, 1)
	for x := range in[0] {
		in[0][x] = uint64(x)
	}
	got := prog.run(in, 256, nil)
	pv.exhausts++
	for x := 0; x < 256; x++ {
		h := byte(x) >> (4 * (hc.g % 2)) & 15
		c, ok := pv.coeff(h)
		switch {
		case !hc.stored && got[x] != b2u(ok):
			return fmt.Errorf("%s is not Algorithm 15's test: %d at byte %#02x (half-byte %d)", what, got[x], x, h)
		case hc.stored && ok && uint32(got[x]) != uint32((int64(c)+fips204.Q)%fips204.Q):
			return fmt.Errorf("%s is not Algorithm 15's coefficient mod q: %d at byte %#02x (half-byte %d, coefficient %d)", what, uint32(got[x]), x, h, c)
		}
	}
	pv.exhausted[hc] = true
	return nil
}

// equal proves a = b for every value of the block's bytes.
func (pv *rejProver) equal(a, b *x86.Term, what string) error {
	if a == b || pv.proven[[2]*x86.Term{a, b}] {
		return nil
	}
	pv.sats++
	res, err := satEqual(a, b, pv.deadline)
	if err != nil {
		return fmt.Errorf("%s: SAT encoding: %v", what, err)
	}
	if res != satUnsat {
		return fmt.Errorf("%s: not proven (SAT solver: %v)", what, res)
	}
	if err := pv.z3.equal(a, b, pv.deadline); err != nil {
		return fmt.Errorf("%s: %v", what, err)
	}
	pv.proven[[2]*x86.Term{a, b}] = true
	return nil
}

func hasPolyBuffer(c *contract.Contract, name string) bool {
	for _, a := range c.Args {
		for _, bn := range a.BufferNames() {
			if bn == name && a.Bytes == 1024 && a.Write {
				return true
			}
		}
	}
	return false
}

// keepAt records the plan's Keep registers where they are first seen (the
// entry's arrival at Block, or for a sponge sampler, whose calls leave no
// register kept, the first arrival at a Reject head) and checks them at
// every later arrival there.
func (pv *rejProver) keepAt(m *x86.Machine[rv], label string) error {
	for i, l := range pv.keep {
		v := readLoc(m, l)
		switch {
		case v.k != rConc:
			return fmt.Errorf("%s reached with %s not a constant", label, l)
		case !pv.kepted:
			pv.kept = append(pv.kept, v.c)
		case v.c != pv.kept[i]:
			return fmt.Errorf("%s reached with %s changed", label, l)
		}
	}
	pv.kepted = true
	return nil
}

// keepLocs resolves the plan's Keep registers to 64-bit locations.
func keepLocs(names []string) ([]loc, error) {
	var out []loc
	for _, n := range names {
		r, ok := x86.ParseReg(n)
		switch {
		case !ok || r == x86.SP:
			return nil, fmt.Errorf("bad register %q to keep", n)
		case r.IsGPR():
			out = append(out, loc{kind: 'g', reg: int(r)})
		default:
			words := 4
			if r.IsZ() {
				words = 8
			}
			for w := 0; w < words; w++ {
				out = append(out, loc{kind: 'v', reg: r.Vec(), w: w})
			}
		}
	}
	return out, nil
}

// count is polynomial k's count at the end of a path from hd: N + the
// accepted for the polynomial that read, N for the others.
func (pv *rejProver) count(hd *rejHead, k, acc int) rv {
	c := 0
	if hd != nil && hd.poly == k {
		c = acc
	}
	return rv{k: rAff, g: int8(1 + k), c: uint64(c), m: 1}
}

func (pv *rejProver) done(d *rdom, v rv) bool {
	lo, hi := d.rng(v)
	return lo == 256 && hi == 256
}

// arrive checks the state at a head against its hypothesis.
func (pv *rejProver) arrive(m *x86.Machine[rv], d *rdom, ps *pathState, label string) error {
	hd := ps.from
	blocks := slotVal(d, m, pv.slot[pv.p.BlocksSlot])
	frame := m.Region("frame")
	if hd == nil {
		if label != pv.p.Block || len(d.atoms) != 0 {
			return fmt.Errorf("the entry reaches %s before %s", label, pv.p.Block)
		}
		if blocks.k != rConc || int64(blocks.c) != pv.K {
			return fmt.Errorf("%s reached with %s ≠ %d blocks (the contract's bound)", pv.p.Block, pv.p.BlocksSlot, pv.K)
		}
		for _, pp := range pv.p.Polys {
			if v := slotVal(d, m, pv.slot[pp.CountSlot]); v.k != rConc || v.c != 0 {
				return fmt.Errorf("%s reached with count %s not 0", pv.p.Block, pp.CountSlot)
			}
		}
		if pv.sponge != nil {
			return pv.absorbed(m)
		}
		return pv.keepAt(m, label)
	}
	if pv.sponge == nil || label != pv.p.Block {
		if err := pv.keepAt(m, label); err != nil {
			return err
		}
	}
	j, g0, read, acc := hd.poly, pv.unitAt(hd.s), 0, 0
	if j >= 0 {
		var err error
		if read, acc, err = pv.consumed(m, d, j, g0); err != nil {
			return err
		}
	} else if len(d.atoms) > 0 {
		return fmt.Errorf("comparisons on data before the block is read")
	}
	// Polynomial j leaves its block only when read to the end or complete.
	leaves := func() error {
		if j < 0 {
			return nil
		}
		if g0+read != pv.units && !pv.done(d, pv.count(hd, j, acc)) {
			return fmt.Errorf("polynomial %d leaves its block at unit %d of %d, incomplete", j, g0+read, pv.units)
		}
		if v := slotVal(d, m, pv.slot[pv.p.Polys[j].CountSlot]); !sameAff(v, 1+j, int64(acc)) {
			return fmt.Errorf("polynomial %d leaves its block without its count stored", j)
		}
		return nil
	}
	// Polynomials j < i < k are passed over: they must be complete.
	passed := func(k int) error {
		for i := j + 1; i < k; i++ {
			if !pv.done(d, pv.count(hd, i, acc)) {
				return fmt.Errorf("polynomial %d passed over with its count below 256", i)
			}
		}
		return nil
	}
	others := func(skip int) error {
		for i, pp := range pv.p.Polys {
			if i == j || i == skip {
				continue
			}
			if v := slotVal(d, m, pv.slot[pp.CountSlot]); !sameAff(v, 1+i, 0) {
				return fmt.Errorf("polynomial %d's count changed by another's reading", i)
			}
		}
		return nil
	}
	if label == pv.p.Block {
		if j < 0 {
			return fmt.Errorf("%s reached again without reading a block", label)
		}
		if err := leaves(); err != nil {
			return err
		}
		if err := passed(len(pv.p.Polys)); err != nil {
			return err
		}
		if err := others(-1); err != nil {
			return err
		}
		if !sameAff(blocks, 0, -1) {
			return fmt.Errorf("%s reached with the blocks left not decreased by one", label)
		}
		if lo, _ := d.rng(blocks); lo < 1 {
			return fmt.Errorf("%s reached with no block left", label)
		}
		for k := range pv.p.Polys {
			if _, hi := d.rng(pv.count(hd, k, acc)); hi > 256 || hi > 255 && !pv.p.DoneAtBlock {
				return fmt.Errorf("%s reached with polynomial %d complete", label, k)
			}
		}
		return nil
	}
	// A Reject or Next head.
	k, next := -1, false
	for i, pp := range pv.p.Polys {
		if pp.Reject == label {
			k = i
		}
		if pp.Next != "" && pp.Next == label {
			k, next = i, true
		}
	}
	pp := pv.p.Polys[k]
	switch {
	case j == k && !next:
	case j < k:
		if j >= 0 {
			if err := leaves(); err != nil {
				return err
			}
		} else {
			for i, in := range ps.injected {
				if !in {
					return fmt.Errorf("%s reached without polynomial %d's block squeezed", label, i)
				}
			}
		}
		if err := passed(k); err != nil {
			return err
		}
	default:
		return fmt.Errorf("%s reached after polynomial %d read: a block read twice", label, j)
	}
	if next {
		// Before polynomial k decides to read: every count in its slot
		// (j's with its accepted), the blocks from k on unread.
		if err := others(-1); err != nil {
			return err
		}
		if err := pv.unread(m, label, k); err != nil {
			return err
		}
		if !sameAff(blocks, 0, 0) {
			return fmt.Errorf("%s reached with the blocks left changed", label)
		}
		return nil
	}
	if err := others(k); err != nil {
		return err
	}
	want := 0
	if j == k {
		want = g0 + read
	}
	reg := func(name string) rv { r, _ := gpr(name); return m.GPR[r] }
	off := reg(pp.OffsetReg)
	if off.k != rConc || off.c%uint64(pv.p.Step) != 0 || off.c >= uint64(pv.blockBytes) || 2*int(off.c) != want*pv.unitHalves {
		return fmt.Errorf("%s reached with %s not at the next unread unit (%d)", label, pp.OffsetReg, want)
	}
	if v := reg(pp.RateReg); v.k != rConc || v.c != frame.Base+uint64(pp.Rate) {
		return fmt.Errorf("%s reached with %s not frame+%d", label, pp.RateReg, pp.Rate)
	}
	if v := reg(pp.PtrReg); v.k != rConc || v.c != m.Region(pp.Buffer).Base {
		return fmt.Errorf("%s reached with %s not %s", label, pp.PtrReg, pp.Buffer)
	}
	if err := pv.unread(m, label, k); err != nil {
		return err
	}
	cnt := reg(pp.CountReg)
	if !sameAff(cnt, 1+k, int64(pv.count(hd, k, acc).c)) {
		return fmt.Errorf("%s reached with %s not the count plus the accepted", label, pp.CountReg)
	}
	if _, hi := d.rng(cnt); hi > 256 || hi > 255 && !pv.p.CompleteAtReject {
		return fmt.Errorf("%s reached with a count of %d", label, hi)
	}
	if !sameAff(blocks, 0, 0) {
		return fmt.Errorf("%s reached with the blocks left changed", label)
	}
	return nil
}

// unread checks, at a head reached, that the blocks of polynomial k and
// the ones after it are at their offsets, unchanged.
func (pv *rejProver) unread(m *x86.Machine[rv], label string, k int) error {
	frame := m.Region("frame")
	for i := k; i < len(pv.p.Polys); i++ {
		q := pv.p.Polys[i]
		for b, t := range pv.rate[i] {
			v := frame.Bytes[q.Rate+b]
			if v.k != rData {
				return fmt.Errorf("%s reached with polynomial %d's block byte %d not at frame+%d", label, i, b, q.Rate+b)
			}
			if v.t == t {
				continue
			}
			if err := pv.equal(v.t, t, fmt.Sprintf("%s: polynomial %d's block byte %d at frame+%d", label, i, b, q.Rate+b)); err != nil {
				return err
			}
		}
	}
	return nil
}

// ret checks a RET: 1 with every count at 256, or 0 with the last block
// read and some count below 256.
func (pv *rejProver) ret(m *x86.Machine[rv], d *rdom, ps *pathState) error {
	res := m.Region("results")
	if res == nil || !res.Written[0] || res.Bytes[0].k != rConc {
		return fmt.Errorf("RET without a concrete result")
	}
	hd := ps.from
	if hd == nil {
		return fmt.Errorf("RET before %s", pv.p.Block)
	}
	j, read, acc := hd.poly, 0, 0
	if j >= 0 {
		var err error
		if read, acc, err = pv.consumed(m, d, j, pv.unitAt(hd.s)); err != nil {
			return err
		}
	} else if len(d.atoms) > 0 {
		return fmt.Errorf("comparisons on data before the block is read")
	}
	switch res.Bytes[0].c & 0xff {
	case 1:
		for k := range pv.p.Polys {
			if v := pv.count(hd, k, acc); !pv.done(d, v) {
				lo, hi := d.rng(v)
				return fmt.Errorf("returns 1 with polynomial %d's count at %d..%d, not 256", k, lo, hi)
			}
		}
	case 0:
		if b := d.box[0]; b.hi != 1 {
			return fmt.Errorf("returns 0 with %d..%d blocks left", b.lo, b.hi)
		}
		if j >= 0 && pv.unitAt(hd.s)+read != pv.units && !pv.done(d, pv.count(hd, j, acc)) {
			return fmt.Errorf("returns 0 with polynomial %d's block read to unit %d", j, pv.unitAt(hd.s)+read)
		}
		short := false
		for k := range pv.p.Polys {
			v := pv.count(hd, k, acc)
			if k > j && !pv.done(d, v) {
				return fmt.Errorf("returns 0 with polynomial %d's last block unread", k)
			}
			if _, hi := d.rng(v); hi <= 255 {
				short = true
			}
		}
		if !short {
			return fmt.Errorf("returns 0 with every count possibly 256")
		}
	default:
		return fmt.Errorf("returns %d", res.Bytes[0].c&0xff)
	}
	return nil
}

// callEnv carries out a sponge sampler's CALLs on one path: the
// discipline of call.go, then the permutation's Effect on the state, the
// next block of the stream in the rate and fresh bytes in the capacity.
func (pv *rejProver) callEnv(st *started, ps *pathState) *callEnv[rv] {
	lay := *st.lay
	lay.slots = st.lay.slots.fork(uint64(pv.paths))
	n := 0
	fresh := func(what string) rv {
		n++
		return data(pv.unknown(what, n))
	}
	return &callEnv[rv]{caller: pv.c, callees: pv.callees, lay: &lay, rng: rand.New(rand.NewPCG(3, 3)),
		mk: func(v uint64, _, input bool) rv {
			if input {
				return fresh("garbage")
			}
			return st.d.Const(v)
		},
		taint: func(v rv) (bool, bool) { return false, v.k != rConc },
		effect: func(cc *contract.Contract, in map[string][]rv) (map[string][]rv, rv, error) {
			hd := ps.from
			switch {
			case cc.Symbol != pv.sponge.Permutation:
				return nil, rv{}, fmt.Errorf("calls %s, not the sponge's permutation %s", cc.Symbol, pv.sponge.Permutation)
			case hd == nil:
				return nil, rv{}, fmt.Errorf("a block squeezed before %s", pv.p.Block)
			case hd.poly >= 0 || ps.injected[0]:
				return nil, rv{}, fmt.Errorf("a block squeezed with the last one not read to its end")
			}
			P := pv.states
			out := make([]rv, 200*P)
			for j := 0; j < P; j++ {
				ps.injected[j] = true
				for i := 0; i < 200; i++ {
					o := pv.stateByte(j, i)
					if i < pv.blockBytes {
						out[o] = data(pv.rate[j][i])
					} else {
						out[o] = fresh("capacity")
					}
				}
			}
			return map[string][]rv{cc.Args[0].BufferNames()[0]: out}, st.d.Const(0), nil
		}}
}

// absorbed checks the state where the entry reaches Block: fips202's
// PadBlock of the seed in the rate (the seed's bytes where it has them,
// PadBlock's constants elsewhere: PadBlock copies the seed and XORs
// constants in), and 0 in the capacity.
func (pv *rejProver) absorbed(m *x86.Machine[rv]) error {
	n := pv.seedLen
	pad := fips202.PadBlock(make([]byte, n), pv.sponge.Rate)
	frame := m.Region("frame")
	mask := pv.s.Const(0xff)
	for j := 0; j < pv.states; j++ {
		// State j's seed: part j of each seed buffer, in order.
		var seed []rv
		for _, sp := range pv.seeds {
			seed = append(seed, m.Region(sp.name).Bytes[sp.per*j:sp.per*(j+1)]...)
		}
		for i := 0; i < 200; i++ {
			c := uint64(0)
			if i < len(pad) {
				c = uint64(pad[i])
			}
			want := pv.s.Const(c)
			if i < n {
				b := seed[i]
				if b.k != rData {
					return fmt.Errorf("seed %d byte %d is not an unknown of the proof", j, i)
				}
				want = pv.s.Xor(b.t, want)
			}
			v := frame.Bytes[pv.state+pv.stateByte(j, i)]
			switch v.k {
			case rConc:
				if i < n || v.c&0xff != c {
					return fmt.Errorf("%s reached with state %d byte %d = %#x, not the padded seed's", pv.p.Block, j, i, v.c&0xff)
				}
			case rData:
				if err := pv.equal(pv.s.And(v.t, mask), pv.s.And(want, mask), fmt.Sprintf("%s: state %d byte %d is the padded seed's", pv.p.Block, j, i)); err != nil {
					return err
				}
			default:
				return fmt.Errorf("%s reached with state %d byte %d a count", pv.p.Block, j, i)
			}
		}
	}
	return nil
}

// stateByte is the offset of byte i of state j in the interleaved states:
// lane L of state j is word P·L + j.
func (pv *rejProver) stateByte(j, i int) int {
	return 8*(pv.states*(i/8)+j) + i%8
}
