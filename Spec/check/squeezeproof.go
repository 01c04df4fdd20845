package check

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips202"
	"github.com/vg-crypto/vg/Spec/x86"
)

// The proof of a routine composed of a sponge and an unpacking
// (contract.Squeeze), for every seed. The routine has fixed control flow
// and addresses (the caller checks, from its taint run), so one symbolic
// run covers every input: the seeds are variables (one per eight bytes of
// each seed), every other byte the routine starts with (frame, registers,
// the outputs' old bytes) and every register a call clobbers a fresh
// variable, and each CALL, once call.go has checked its discipline, is
// replaced as follows.
//
//   - The i-th call of the permutation, on P interleaved states (lane L of
//     state j at word P·L + j, as its contract has them): for i = 0 each
//     state j must be fips202's PadBlock of seed j in the rate (each byte
//     the seed's byte or PadBlock's constant) and 0 in the capacity; for
//     i > 0 exactly what call i − 1 returned. Each byte is matched by term
//     identity, or else by SAT. The call returns fresh variables: S_{i+1}.
//   - A call of the unpacker: its output buffer must be buffer j of Out
//     (whole), and byte t of its input byte t mod rate of state j as
//     permutation call ⌊t/rate⌋, made before it, returned it. The call
//     returns fresh variables.
//
// At the end each buffer j of Out must hold exactly (term identity) what
// the last unpacker call on it returned, and every j must have one.
//
// So, with the permutation's contract (a = Keccak-f[1600](old a) per
// state, which its own check proves), state j after call i is f^{i+1}
// applied to PadBlock(seed j) ‖ 0: a write to the state between calls
// would have made the next call's input differ from the last output. The
// rate of f^{i+1}(S₀) is output block i of SHAKE (FIPS 202, Algorithm 8,
// as fips202's Read squeezes; TestPadBlockSqueeze), so the unpacker reads
// the first bytes of SHAKE(seed j), and with its contract buffer j of Out
// is its Effect on them: the postcondition contract.Squeeze states. The
// variables stand for any values the callees may return, and each match
// holds for every value of every variable; every garbage value is a
// variable of its own, so nothing left unwritten can match by chance.

// squeezeProofTime bounds the proof of one routine.
const squeezeProofTime = 60 * time.Second

// squeezeShape is what the contracts say of a Squeeze routine.
type squeezeShape struct {
	sq      *contract.Squeeze
	perm    *contract.Contract
	unpack  *contract.Contract
	outs    []string // Out's buffers, one per state
	seedLen int      // bytes of each seed
	n       int      // bytes the unpacker reads
}

// squeezeShapeOf checks that c's Squeeze names what the proof needs.
func squeezeShapeOf(c *contract.Contract) (*squeezeShape, error) {
	sq := c.Squeeze
	if sq.Rate != fips202.Rate128 && sq.Rate != fips202.Rate256 {
		return nil, fmt.Errorf("rate %d is not SHAKE128's or SHAKE256's", sq.Rate)
	}
	if !contains(c.Calls, sq.Permutation) || !contains(c.Calls, sq.Unpack) {
		return nil, fmt.Errorf("the contract's Calls do not name %s and %s", sq.Permutation, sq.Unpack)
	}
	sh := &squeezeShape{sq: sq, perm: contract.Lookup(sq.Permutation), unpack: contract.Lookup(sq.Unpack)}
	pc, uc := sh.perm, sh.unpack
	if pc == nil || pc.KeccakStates < 1 || len(pc.Args) != 1 || pc.Args[0].Bytes != 200*pc.KeccakStates || !pc.Args[0].Write || pc.Args[0].Indirect != 0 {
		return nil, fmt.Errorf("%s's contract is not Keccak-f[1600] on interleaved states of 200 bytes", sq.Permutation)
	}
	P := pc.KeccakStates
	if uc == nil || len(uc.Args) != 2 || uc.Result != "" || !uc.Args[0].Write || uc.Args[0].Indirect != 0 ||
		!uc.Args[1].Read || uc.Args[1].Write || uc.Args[1].Indirect != 0 {
		return nil, fmt.Errorf("%s's contract does not write its first buffer from its second, read-only one", sq.Unpack)
	}
	sh.n = uc.Args[1].Bytes
	if c.Result != "" {
		return nil, fmt.Errorf("the routine has a result, which Squeeze does not give")
	}
	for _, a := range c.Args {
		switch {
		case a.Name == sq.Out:
			sh.outs = a.BufferNames()
			if len(sh.outs) != P || a.Bytes != uc.Args[0].Bytes || !a.Write {
				return nil, fmt.Errorf("%s is not %d writable buffers of %d bytes", a.Name, P, uc.Args[0].Bytes)
			}
		case a.Write:
			return nil, fmt.Errorf("%s is writable, and Squeeze says nothing of it", a.Name)
		case a.Name == sq.Seed && a.Read && a.Indirect == 0 && a.Bytes%P == 0 && a.Bytes/P < sq.Rate:
			sh.seedLen = a.Bytes / P
		}
	}
	if sh.outs == nil || sh.seedLen == 0 {
		return nil, fmt.Errorf("no output %q or read-only seed buffer %q of %d seeds shorter than the rate", sq.Out, sq.Seed, P)
	}
	return sh, nil
}

// runSym runs m, as symSetup gives it, to its end, each CALL replaced by
// effect once call.go has checked its discipline (a value is taken as
// input-dependent unless it is a constant, and as secret too unless
// public is set: a composition leaves what may be secret to the taint
// run, so that a callee may get a value the routine computes, like ρ);
// it returns the calls made.
func runSym(s *x86.Sym, m *x86.Machine[*x86.Term], c *contract.Contract, callees map[string]*x86.Routine, lay *layout, mk maker[*x86.Term], rng *rand.Rand,
	effect func(cc *contract.Contract, in map[string][]*x86.Term) (map[string][]*x86.Term, *x86.Term, error), maxSteps int, public bool) ([]callRecord, error) {
	taint := func(t *x86.Term) (bool, bool) {
		_, konst := s.Concrete(t)
		return !konst && !public, !konst
	}
	env := &callEnv[*x86.Term]{caller: c, callees: callees, lay: lay, mk: mk, rng: rng, taint: taint, effect: effect}
	m.Call = env.call
	if err := m.Run(maxSteps); err != nil {
		return nil, fmt.Errorf("symbolic run: %v", err)
	}
	return env.Calls, nil
}

// symSetup sets routine r up under contract c on the symbolic domain,
// every buffer zero (a proof then puts its variables where it needs them):
// each value setup makes for which garbage(secret, input) holds is a fresh
// variable (garbageN), every other a constant. The maker and random source
// serve the calls' environment.
func symSetup(f *x86.File, r *x86.Routine, c *contract.Contract, seed uint64, garbage func(secret, input bool) bool) (
	*x86.Sym, maker[*x86.Term], *x86.Machine[*x86.Term], *layout, *rand.Rand) {
	s := x86.NewSym()
	n := 0
	mk := func(v uint64, secret, input bool) *x86.Term {
		if garbage(secret, input) {
			n++
			return s.Var(fmt.Sprintf("garbage%d", n))
		}
		return s.Const(v)
	}
	in := contract.Buffers{}
	for _, a := range c.Args {
		for _, bn := range a.BufferNames() {
			in[bn] = make([]byte, a.Bytes)
		}
	}
	rng := rand.New(rand.NewPCG(1, seed))
	m, lay := setup[*x86.Term](s, mk, f, r, c, in, rng)
	return s, mk, m, lay, rng
}

// unpackCall is one call of the unpacker: its input bytes and output
// variables, and how many permutation calls came before it.
type unpackCall struct {
	v, w  []*x86.Term
	perms int
}

// proveSqueeze proves contract c's postcondition for routine r for every
// seed, given its callees' contracts.
func proveSqueeze(f *x86.File, r *x86.Routine, c *contract.Contract, callees map[string]*x86.Routine, maxSteps int) (string, error) {
	deadline := time.Now().Add(squeezeProofTime)
	sh, err := squeezeShapeOf(c)
	if err != nil {
		return "", err
	}
	sq, P, rate := sh.sq, sh.perm.KeccakStates, sh.sq.Rate
	// Every value that may be secret or come from the input is a variable.
	s, mk, m, lay, rng := symSetup(f, r, c, 10, func(secret, input bool) bool { return secret || input })
	// Seed j's bytes: a variable per eight of them, counted from its start.
	seeds := make([][]*x86.Term, P)
	seedReg := m.Region(sq.Seed)
	for j := range seeds {
		seeds[j] = seedReg.Bytes[sh.seedLen*j : sh.seedLen*(j+1)]
		for k := 0; k < sh.seedLen; k += 8 {
			s.Bytes(s.Var(fmt.Sprintf("seed%d_%d", j, k/8)), seeds[j][k:min(k+8, sh.seedLen)])
		}
	}
	// byteOf is byte i of state j in the permutation's buffer.
	byteOf := func(j, i int) int { return 8*(P*(i/8)+j) + i%8 }
	sats := 0
	var z3s z3Sample
	same := func(got, want *x86.Term) error {
		if got == want {
			return nil
		}
		sats++
		mask := s.Const(0xff)
		return sameBits(s.And(got, mask), s.And(want, mask), deadline, &z3s)
	}
	pad := fips202.PadBlock(make([]byte, sh.seedLen), rate)
	var states [][][]*x86.Term // [call][state] the 200 bytes it returned
	var unpacks []unpackCall
	effect := func(cc *contract.Contract, bufs map[string][]*x86.Term) (map[string][]*x86.Term, *x86.Term, error) {
		switch cc.Symbol {
		case sq.Permutation:
			i := len(states)
			a := bufs[cc.Args[0].Name]
			out := make([]*x86.Term, len(a))
			for w := 0; w < len(a)/8; w++ {
				s.Bytes(s.Var(fmt.Sprintf("perm%d_%d", i, w)), out[8*w:8*w+8])
			}
			st := make([][]*x86.Term, P)
			for j := 0; j < P; j++ {
				st[j] = make([]*x86.Term, 200)
				for b := 0; b < 200; b++ {
					var want *x86.Term
					switch {
					case i > 0:
						want = states[i-1][j][b]
					case b < sh.seedLen:
						want = s.Xor(seeds[j][b], s.Const(uint64(pad[b])))
					case b < rate:
						want = s.Const(uint64(pad[b]))
					default:
						want = s.Const(0)
					}
					if err := same(a[byteOf(j, b)], want); err != nil {
						what := "what the call before returned"
						if i == 0 {
							what = "PadBlock of the seed (0 in the capacity)"
						}
						return nil, nil, fmt.Errorf("permutation call %d: byte %d of state %d is not %s: %v", i, b, j, what, err)
					}
					st[j][b] = out[byteOf(j, b)]
				}
			}
			states = append(states, st)
			return map[string][]*x86.Term{cc.Args[0].Name: out}, s.Const(0), nil
		case sq.Unpack:
			i := len(unpacks)
			w := make([]*x86.Term, cc.Args[0].Bytes)
			for k := 0; k < len(w)/8; k++ {
				s.Bytes(s.Var(fmt.Sprintf("unpack%d_%d", i, k)), w[8*k:8*k+8])
			}
			unpacks = append(unpacks, unpackCall{v: bufs[cc.Args[1].Name], w: w, perms: len(states)})
			return map[string][]*x86.Term{cc.Args[0].Name: w}, s.Const(0), nil
		}
		return nil, nil, fmt.Errorf("%s is neither the permutation nor the unpacker", cc.Symbol)
	}
	made, err := runSym(s, m, c, callees, lay, mk, rng, effect, maxSteps, false)
	if err != nil {
		return "", err
	}
	// Each unpacker call: its output is buffer j of Out, its input the
	// first bytes of stream j.
	last := map[string][]*x86.Term{}
	u := 0
	for _, rec := range made {
		if rec.Target != sq.Unpack {
			continue
		}
		uk := unpacks[u]
		sp := rec.Buffers[sh.unpack.Args[0].Name]
		j := -1
		for k, o := range sh.outs {
			if sp.Region == o && sp.Off == 0 && sp.N == len(uk.w) {
				j = k
			}
		}
		if j < 0 {
			return "", fmt.Errorf("unpacker call %d writes %s+%d, not a whole buffer of %s", u, sp.Region, sp.Off, sq.Out)
		}
		for t, b := range uk.v {
			blk := t / rate
			if blk >= uk.perms {
				return "", fmt.Errorf("unpacker call %d (%s): byte %d is in block %d, but only %d permutation calls come before it", u, sh.outs[j], t, blk, uk.perms)
			}
			if err := same(b, states[blk][j][t%rate]); err != nil {
				return "", fmt.Errorf("unpacker call %d (%s): byte %d is not byte %d of block %d of stream %d: %v", u, sh.outs[j], t, t%rate, blk, j, err)
			}
		}
		last[sh.outs[j]] = uk.w
		u++
	}
	for _, o := range sh.outs {
		w := last[o]
		if w == nil {
			return "", fmt.Errorf("no unpacker call writes %s", o)
		}
		reg := m.Region(o)
		for k, b := range reg.Bytes {
			if b != w[k] {
				return "", fmt.Errorf("byte %d of %s is not what the last unpacker call on it wrote", k, o)
			}
		}
	}
	shape := "one state"
	if P > 1 {
		shape = fmt.Sprintf("%d interleaved states", P)
	}
	return fmt.Sprintf("proven for every seed: %d CALLs of %s (%s), the first on PadBlock of the seeds, each next on what the one before returned; %d CALLs of %s, each on the first %d bytes of its seed's stream in order, whose outputs the routine returns (one symbolic run, %d SAT queries; %s); so, given the callees' contracts, each output is %s of SHAKE (rate %d) of its seed",
		len(states), sq.Permutation, shape, len(unpacks), sq.Unpack, sh.n, sats, z3s.note(), sq.Unpack, rate), nil
}
