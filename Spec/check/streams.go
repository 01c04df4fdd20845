package check

import (
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
	"github.com/vg-crypto/vg/Spec/x86"
)

// Injection says where a rejection sampler holds a freshly squeezed block:
// whenever control reaches Label with register Reg equal to 0, the block
// of polynomial Poly sits at Region+Offset. Injections are untrusted
// hints: a wrong one makes the model read bytes other than the ones the
// reference reads, and the stream test fails.
type Injection struct {
	Label, Reg, Region string
	Offset, Poly       int
}

// StreamHints is implemented by hints that know where samplers squeeze.
type StreamHints interface {
	Injections(symbol string) []Injection
}

// streamScenario builds a stream; k counts the streams built before it in
// one StreamTests call.
type streamScenario struct {
	name string
	gen  func(rng *rand.Rand, st *contract.Streams, k int) []byte
}

// group returns the three bytes of a group with value z (and bit 7 of the
// last byte set when hi, which Algorithm 14 ignores).
func group(z uint32, hi bool) [3]byte {
	g := [3]byte{byte(z), byte(z >> 8), byte(z >> 16)}
	if hi {
		g[2] |= 0x80
	}
	return g
}

// fill writes groups into a stream, z(i) for group i.
func fill(st *contract.Streams, rng *rand.Rand, z func(i int) uint32) []byte {
	b := make([]byte, st.Blocks*st.BlockBytes)
	for i := 0; 3*i+3 <= len(b); i++ {
		g := group(z(i), rng.IntN(2) == 0)
		copy(b[3*i:], g[:])
	}
	return b
}

// exactly returns a stream on which the 256th acceptance is group n−1
// (0-based): 255 accepted groups spread over the first n−1, the rest q or
// above.
func exactly(n int) func(rng *rand.Rand, st *contract.Streams, j int) []byte {
	return func(rng *rand.Rand, st *contract.Streams, j int) []byte {
		acc := map[int]bool{n - 1: true}
		for _, i := range rng.Perm(n - 1)[:255] {
			acc[i] = true
		}
		return fill(st, rng, func(i int) uint32 {
			if acc[i] {
				return rng.Uint32N(fips204.Q)
			}
			return fips204.Q + rng.Uint32N(1<<23-fips204.Q)
		})
	}
}

var streamScenarios = []streamScenario{
	{"every group rejected (q or above)", func(rng *rand.Rand, st *contract.Streams, _ int) []byte {
		return fill(st, rng, func(int) uint32 { return fips204.Q + rng.Uint32N(2) })
	}},
	{"the 256th acceptance at the last group the bound allows", func(rng *rand.Rand, st *contract.Streams, j int) []byte {
		return exactly(st.Blocks*st.BlockBytes/3)(rng, st, j)
	}},
	{"the 256th acceptance one group past the bound", func(rng *rand.Rand, st *contract.Streams, j int) []byte {
		b := exactly(st.Blocks*st.BlockBytes/3)(rng, st, j)
		g := group(fips204.Q, true) // the last group rejected: 255 within the bound
		copy(b[len(b)-3:], g[:])
		return b
	}},
	{"values at the edges (0, q − 1, q, q + 1, 2²³ − 1)", func(rng *rand.Rand, st *contract.Streams, _ int) []byte {
		edges := []uint32{0, 1, fips204.Q - 2, fips204.Q - 1, fips204.Q, fips204.Q + 1, 1<<23 - 1}
		return fill(st, rng, func(int) uint32 { return edges[rng.IntN(len(edges))] })
	}},
	// Eight groups are one step of the samplers (24 bytes); successive
	// streams continue the count, so that three streams (or four
	// polynomials of one run) go through all 256 patterns.
	{"every acceptance pattern of eight groups in turn", func(rng *rand.Rand, st *contract.Streams, k int) []byte {
		steps := st.Blocks * st.BlockBytes / 24
		return fill(st, rng, func(i int) uint32 {
			if (i/8+steps*k)&0xff>>(i%8)&1 != 0 {
				return rng.Uint32N(fips204.Q)
			}
			return fips204.Q + rng.Uint32N(1<<23-fips204.Q)
		})
	}},
	{"uniform bytes", func(rng *rand.Rand, st *contract.Streams, _ int) []byte {
		b := make([]byte, st.Blocks*st.BlockBytes)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}},
}

// halfBytes writes a stream whose half-byte i (low half first) is h(i).
func halfBytes(st *contract.Streams, h func(i int) byte) []byte {
	b := make([]byte, st.Blocks*st.BlockBytes)
	for i := range b {
		b[i] = h(2*i)&15 | h(2*i+1)<<4
	}
	return b
}

// accepted and rejected draw a half-byte Algorithm 15 accepts or rejects.
func accepted(rng *rand.Rand, st *contract.Streams) byte { return byte(rng.IntN(st.HalfByteBound)) }
func rejected(rng *rand.Rand, st *contract.Streams) byte {
	return byte(st.HalfByteBound + rng.IntN(16-st.HalfByteBound))
}

// halfExactly returns a stream on which the 256th acceptance is half-byte
// n−1 (0-based): 255 accepted half-bytes spread over the first n−1.
func halfExactly(rng *rand.Rand, st *contract.Streams, n int) []byte {
	acc := map[int]bool{n - 1: true}
	for _, i := range rng.Perm(n - 1)[:255] {
		acc[i] = true
	}
	return halfBytes(st, func(i int) byte {
		if acc[i] {
			return accepted(rng, st)
		}
		return rejected(rng, st)
	})
}

// halfByteScenarios are the scenarios of a half-byte sampler (Algorithm
// 31), as streamScenarios are those of Algorithm 30.
var halfByteScenarios = []streamScenario{
	{"every half-byte rejected", func(rng *rand.Rand, st *contract.Streams, _ int) []byte {
		return halfBytes(st, func(int) byte { return rejected(rng, st) })
	}},
	{"the 256th acceptance at the last half-byte the bound allows", func(rng *rand.Rand, st *contract.Streams, _ int) []byte {
		return halfExactly(rng, st, 2*st.Blocks*st.BlockBytes)
	}},
	{"the 256th acceptance in the low half of the last byte the bound allows", func(rng *rand.Rand, st *contract.Streams, _ int) []byte {
		return halfExactly(rng, st, 2*st.Blocks*st.BlockBytes-1)
	}},
	{"the 256th acceptance one half-byte past the bound", func(rng *rand.Rand, st *contract.Streams, _ int) []byte {
		b := halfExactly(rng, st, 2*st.Blocks*st.BlockBytes)
		b[len(b)-1] = b[len(b)-1]&15 | rejected(rng, st)<<4
		return b
	}},
	{"values at the edges (0, bound − 1, bound, 15)", func(rng *rand.Rand, st *contract.Streams, _ int) []byte {
		edges := []byte{0, byte(st.HalfByteBound - 1), byte(st.HalfByteBound), 15}
		return halfBytes(st, func(int) byte { return edges[rng.IntN(len(edges))] })
	}},
	{"every value of every half-byte in turn", func(rng *rand.Rand, st *contract.Streams, k int) []byte {
		return halfBytes(st, func(i int) byte { return byte(i + k) })
	}},
	{"every acceptance pattern of eight half-bytes in turn", func(rng *rand.Rand, st *contract.Streams, k int) []byte {
		steps := st.Blocks * st.BlockBytes / 4
		return halfBytes(st, func(i int) byte {
			if (i/8+steps*k)&0xff>>(i%8)&1 != 0 {
				return accepted(rng, st)
			}
			return rejected(rng, st)
		})
	}},
	{"uniform bytes", func(rng *rand.Rand, st *contract.Streams, _ int) []byte {
		b := make([]byte, st.Blocks*st.BlockBytes)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}},
}

// scenarios returns the scenarios of the contract's kind of sampler.
func scenarios(st *contract.Streams) []streamScenario {
	if st.HalfByteBound > 0 {
		return halfByteScenarios
	}
	return streamScenarios
}

// StreamTests runs a sampler on chosen squeezed bytes: every scenario for
// every polynomial alike, and, with several polynomials, each scenario for
// one polynomial with uniform bytes for the others. It returns how many
// runs passed, or the first failure.
func StreamTests(f *x86.File, r *x86.Routine, c *contract.Contract, injs []Injection, callees map[string]*x86.Routine, seed uint64, maxSteps int) (int, error) {
	st := c.Streams
	streamScenarios := scenarios(st)
	rng := rand.New(rand.NewPCG(seed, 77))
	var plans [][]int // scenario per polynomial
	for s := range streamScenarios {
		all := make([]int, st.Polys)
		for j := range all {
			all[j] = s
		}
		plans = append(plans, all)
		for j := 0; st.Polys > 1 && j < st.Polys; j++ {
			one := make([]int, st.Polys)
			for k := range one {
				one[k] = len(streamScenarios) - 1
			}
			one[j] = s
			plans = append(plans, one)
		}
	}
	runs, made := 0, 0
	for _, plan := range plans {
		for rep := 0; rep < 3; rep++ {
			streams := make([][]byte, st.Polys)
			for j := range streams {
				streams[j] = streamScenarios[plan[j]].gen(rng, st, made)
				made++
			}
			if err := streamRun(f, r, c, injs, callees, streams, rng, maxSteps); err != nil {
				names := ""
				for j, s := range plan {
					names += fmt.Sprintf("; polynomial %d: %s", j, streamScenarios[s].name)
				}
				return runs, fmt.Errorf("chosen squeezed bytes%s: %v", names, err)
			}
			runs++
		}
	}
	return runs, nil
}

func streamRun(f *x86.File, r *x86.Routine, c *contract.Contract, injs []Injection, callees map[string]*x86.Routine, streams [][]byte,
	rng *rand.Rand, maxSteps int) error {
	m, err := injectedRun(f, r, c, injs, callees, c.Gen(rng), streams, rng, maxSteps, nil)
	if err != nil {
		return err
	}
	out, ret, err := outputs(m, c)
	if err != nil {
		return err
	}
	return c.Streams.Check(streams, out, ret)
}

// trace records a run's path: the instruction of every step and the
// address of every access.
type trace struct {
	pcs   []int
	addrs []uint64
}

func (t *trace) Branch(*x86.Machine[uint64], *x86.Insn, uint64) error  { return nil }
func (t *trace) After(*x86.Machine[uint64], *x86.Insn, []uint64) error { return nil }
func (t *trace) Address(_ *x86.Machine[uint64], _ *x86.Insn, a uint64, _ int, _ bool) error {
	t.addrs = append(t.addrs, a)
	return nil
}

// injectedRun runs r on input in, the blocks of streams replacing the
// squeezed ones at the injection points, and records its path in tr (if
// not nil). rng draws the garbage of the initial state.
func injectedRun(f *x86.File, r *x86.Routine, c *contract.Contract, injs []Injection, callees map[string]*x86.Routine, in contract.Buffers,
	streams [][]byte, rng *rand.Rand, maxSteps int, tr *trace) (*x86.Machine[uint64], error) {
	st := c.Streams
	m, lay := setup[uint64](x86.Conc{}, func(v uint64, _, _ bool) uint64 { return v }, f, r, c, copyBuffers(in), rng)
	concCalls(m, c, lay, callees, rng)
	if tr != nil {
		m.Obs = tr
	}
	type point struct {
		pc  int
		reg x86.Reg
		inj Injection
	}
	var pts []point
	for _, inj := range injs {
		pc, ok := r.Labels[inj.Label]
		reg, okr := x86.ParseReg(inj.Reg)
		if !ok || !okr || m.Region(inj.Region) == nil || inj.Poly < 0 || inj.Poly >= st.Polys {
			return nil, fmt.Errorf("injection hint %+v names no label, register, region or polynomial of the routine", inj)
		}
		pts = append(pts, point{pc, reg, inj})
	}
	next := make([]int, st.Polys) // blocks injected per polynomial
	for !m.Done {
		if m.Steps >= maxSteps {
			return nil, fmt.Errorf("no RET within %d steps", maxSteps)
		}
		if tr != nil {
			tr.pcs = append(tr.pcs, m.PC)
		}
		for _, p := range pts {
			if m.PC != p.pc || m.GPR[p.reg] != 0 {
				continue
			}
			j := p.inj.Poly
			if next[j] >= st.Blocks {
				return nil, fmt.Errorf("polynomial %d: block %d squeezed, beyond the contract's %d", j, next[j]+1, st.Blocks)
			}
			reg := m.Region(p.inj.Region)
			blk := streams[j][next[j]*st.BlockBytes : (next[j]+1)*st.BlockBytes]
			if p.inj.Offset < 0 || p.inj.Offset+len(blk) > reg.Size() {
				return nil, fmt.Errorf("injection hint %+v outside its region", p.inj)
			}
			for i, b := range blk {
				reg.Bytes[p.inj.Offset+i] = uint64(b)
			}
			next[j]++
		}
		if err := m.Step(); err != nil {
			return nil, err
		}
	}
	for j, n := range next {
		if n == 0 {
			return nil, fmt.Errorf("polynomial %d: no block injected (the hint's point was never reached)", j)
		}
	}
	return m, nil
}

// TwinTests checks a SecretControl contract's declared leak on pairs of
// runs: for every stream scenario, a run on a random input and streams,
// and a run on another input (its secret buffers redrawn, its public ones
// kept) and the streams' twins (Streams.Twin: what the leak reveals kept,
// the rest redrawn). The two must execute the same instructions and access
// the same addresses, step for step. It returns how many pairs passed, or
// the first difference.
func TwinTests(f *x86.File, r *x86.Routine, c *contract.Contract, injs []Injection, callees map[string]*x86.Routine, seed uint64, maxSteps int) (int, error) {
	st := c.Streams
	if st == nil || st.Twin == nil {
		return 0, fmt.Errorf("the contract declares secret control flow but no twin streams")
	}
	rng := rand.New(rand.NewPCG(seed, 78))
	pairs := 0
	for s, sc := range scenarios(st) {
		for rep := 0; rep < 3; rep++ {
			streams, twins := make([][]byte, st.Polys), make([][]byte, st.Polys)
			for j := range streams {
				streams[j] = sc.gen(rng, st, s*3+rep)
				twins[j] = st.Twin(rng, streams[j])
			}
			in := c.Gen(rng)
			other := c.Gen(rng)
			for _, a := range c.Args {
				for _, bn := range a.BufferNames() {
					if !a.Secret {
						other[bn] = in[bn]
					}
				}
			}
			g := rng.Uint64()
			var ta, tb trace
			if _, err := injectedRun(f, r, c, injs, callees, in, streams, rand.New(rand.NewPCG(g, 1)), maxSteps, &ta); err != nil {
				return pairs, fmt.Errorf("%s: %v", sc.name, err)
			}
			if _, err := injectedRun(f, r, c, injs, callees, other, twins, rand.New(rand.NewPCG(g, 1)), maxSteps, &tb); err != nil {
				return pairs, fmt.Errorf("%s, twin: %v", sc.name, err)
			}
			if err := sameTrace(r, &ta, &tb); err != nil {
				return pairs, fmt.Errorf("%s: %v", sc.name, err)
			}
			pairs++
		}
	}
	return pairs, nil
}

func sameTrace(r *x86.Routine, a, b *trace) error {
	for i := 0; i < len(a.pcs) && i < len(b.pcs); i++ {
		if a.pcs[i] != b.pcs[i] {
			return fmt.Errorf("paths differ at step %d: %s against %s", i, r.Insns[a.pcs[i]], r.Insns[b.pcs[i]])
		}
	}
	if len(a.pcs) != len(b.pcs) {
		return fmt.Errorf("paths of %d and %d steps", len(a.pcs), len(b.pcs))
	}
	for i := 0; i < len(a.addrs) && i < len(b.addrs); i++ {
		if a.addrs[i] != b.addrs[i] {
			return fmt.Errorf("access %d at %#x against %#x", i, a.addrs[i], b.addrs[i])
		}
	}
	if len(a.addrs) != len(b.addrs) {
		return fmt.Errorf("%d and %d accesses", len(a.addrs), len(b.addrs))
	}
	return nil
}

// runTwins runs the twin tests with the hints' injection points.
func runTwins(f *x86.File, r *x86.Routine, c *contract.Contract, opt Options) (string, error) {
	sh, ok := opt.Hints.(StreamHints)
	var injs []Injection
	if ok {
		injs = sh.Injections(c.Symbol)
	}
	if len(injs) == 0 {
		return "", fmt.Errorf("no injection points for %s in the hints", c.Symbol)
	}
	n, err := TwinTests(f, r, c, injs, opt.Callees, opt.Seed, opt.MaxSteps)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d pairs of runs on inputs with other secrets and on twin squeezed bytes (Streams.Twin) take the same path and addresses", n), nil
}

// runStreams runs the stream tests with the injection points the hints
// give; without them it fails, since the contract asks for the test.
func runStreams(f *x86.File, r *x86.Routine, c *contract.Contract, opt Options) (string, error) {
	sh, ok := opt.Hints.(StreamHints)
	var injs []Injection
	if ok {
		injs = sh.Injections(c.Symbol)
	}
	if len(injs) == 0 {
		return "", fmt.Errorf("no injection points for %s in the hints", c.Symbol)
	}
	n, err := StreamTests(f, r, c, injs, opt.Callees, opt.Seed, opt.MaxSteps)
	if err != nil {
		return "", err
	}
	if c.Streams.HalfByteBound > 0 {
		return fmt.Sprintf("%d runs on chosen squeezed bytes (%d scenarios: every half-byte rejected, the bound met exactly in either half of the last byte, missed by one, edge values, every value, every acceptance pattern, uniform) give Spec's Algorithm 31 on those bytes and its ok", n, len(halfByteScenarios)), nil
	}
	return fmt.Sprintf("%d runs on chosen squeezed bytes (%d scenarios: every group rejected, the bound met exactly, missed by one group, edge values, every acceptance pattern, uniform) give Spec's Algorithm 30 on those bytes and its ok", n, len(streamScenarios)), nil
}
