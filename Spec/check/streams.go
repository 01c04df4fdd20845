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

// StreamTests runs a sampler on chosen squeezed bytes: every scenario for
// every polynomial alike, and, with several polynomials, each scenario for
// one polynomial with uniform bytes for the others. It returns how many
// runs passed, or the first failure.
func StreamTests(f *x86.File, r *x86.Routine, c *contract.Contract, injs []Injection, seed uint64, maxSteps int) (int, error) {
	st := c.Streams
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
			if err := streamRun(f, r, c, injs, streams, rng, maxSteps); err != nil {
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

func streamRun(f *x86.File, r *x86.Routine, c *contract.Contract, injs []Injection, streams [][]byte,
	rng *rand.Rand, maxSteps int) error {
	st := c.Streams
	in := c.Gen(rng)
	m, _ := setup[uint64](x86.Conc{}, func(v uint64, _, _ bool) uint64 { return v }, f, r, c, copyBuffers(in), rng)
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
			return fmt.Errorf("injection hint %+v names no label, register, region or polynomial of the routine", inj)
		}
		pts = append(pts, point{pc, reg, inj})
	}
	next := make([]int, st.Polys) // blocks injected per polynomial
	for !m.Done {
		if m.Steps >= maxSteps {
			return fmt.Errorf("no RET within %d steps", maxSteps)
		}
		for _, p := range pts {
			if m.PC != p.pc || m.GPR[p.reg] != 0 {
				continue
			}
			j := p.inj.Poly
			if next[j] >= st.Blocks {
				return fmt.Errorf("polynomial %d: block %d squeezed, beyond the contract's %d", j, next[j]+1, st.Blocks)
			}
			reg := m.Region(p.inj.Region)
			blk := streams[j][next[j]*st.BlockBytes : (next[j]+1)*st.BlockBytes]
			if p.inj.Offset < 0 || p.inj.Offset+len(blk) > reg.Size() {
				return fmt.Errorf("injection hint %+v outside its region", p.inj)
			}
			for i, b := range blk {
				reg.Bytes[p.inj.Offset+i] = uint64(b)
			}
			next[j]++
		}
		if err := m.Step(); err != nil {
			return err
		}
	}
	for j, n := range next {
		if n == 0 {
			return fmt.Errorf("polynomial %d: no block injected (the hint's point was never reached)", j)
		}
	}
	out, ret, err := outputs(m, c)
	if err != nil {
		return err
	}
	return st.Check(streams, out, ret)
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
	n, err := StreamTests(f, r, c, injs, opt.Seed, opt.MaxSteps)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d runs on chosen squeezed bytes (%d scenarios: every group rejected, the bound met exactly, missed by one group, edge values, every acceptance pattern, uniform) give Spec's Algorithm 30 on those bytes and its ok", n, len(streamScenarios)), nil
}
