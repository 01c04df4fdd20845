package check

import (
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips202"
	"github.com/vg-crypto/vg/Spec/fips204"
	"github.com/vg-crypto/vg/Spec/x86"
)

// This file tests a SampleInBall routine (contract Ball) on chosen
// streams: the CALLs of its permutation are carried out by writing the
// stream's next block into the state's rate (and garbage into the
// capacity) instead of Keccak-f, so the routine reads the chosen bytes as
// SHAKE256's. Random seeds never reach the bound of Appendix C, nor the
// rare bytes j = i; the scenarios do. The twin test checks the declared
// leak on pairs of runs whose streams reject the same bytes. This is
// testing, not proof.

// ballParams is the parameter set of a Ball's τ.
func ballParams(b *contract.Ball) (fips204.Params, error) {
	for _, p := range []fips204.Params{fips204.MLDSA44, fips204.MLDSA65, fips204.MLDSA87} {
		if p.Tau == b.Tau {
			return p, nil
		}
	}
	return fips204.Params{}, fmt.Errorf("no parameter set has τ = %d", b.Tau)
}

// ballRun runs r on input in, the k-th CALL of the permutation giving the
// state block k of stream in its rate; tr, if not nil, records the path.
func ballRun(f *x86.File, r *x86.Routine, c *contract.Contract, callees map[string]*x86.Routine, in contract.Buffers,
	stream []byte, rng *rand.Rand, maxSteps int, tr *trace) (contract.Buffers, byte, error) {
	b := c.Ball
	mk := func(v uint64, _, _ bool) uint64 { return v }
	m, lay := setup[uint64](x86.Conc{}, mk, f, r, c, copyBuffers(in), rng)
	if tr != nil {
		m.Obs = tr
	}
	next := 0
	env := &callEnv[uint64]{caller: c, callees: callees, lay: lay, mk: mk, rng: rng,
		taint: func(uint64) (bool, bool) { return false, false },
		effect: func(cc *contract.Contract, bufs map[string][]uint64) (map[string][]uint64, uint64, error) {
			if cc.Symbol != b.Permutation || len(cc.Args) != 1 || cc.Args[0].Bytes != 200 {
				return nil, 0, fmt.Errorf("calls %s, not the permutation %s", cc.Symbol, b.Permutation)
			}
			if (next+1)*fips202.Rate256 > len(stream) {
				return nil, 0, fmt.Errorf("block %d squeezed, beyond the contract's %d", next+1, b.Blocks)
			}
			out := make([]uint64, 200)
			for i := range out {
				if i < fips202.Rate256 {
					out[i] = uint64(stream[next*fips202.Rate256+i])
				} else {
					out[i] = uint64(rng.Uint32() & 0xff)
				}
			}
			next++
			return map[string][]uint64{cc.Args[0].Name: out}, 0, nil
		}}
	m.Call = env.call
	for !m.Done {
		if m.Steps >= maxSteps {
			return nil, 0, fmt.Errorf("no RET within %d steps", maxSteps)
		}
		if tr != nil {
			tr.pcs = append(tr.pcs, m.PC)
		}
		if err := m.Step(); err != nil {
			return nil, 0, err
		}
	}
	return outputs(m, c)
}

// ballScenario draws a stream of Blocks·136 bytes: the signs, then for
// each i the byte accepted after rej(i) rejected ones (Algorithm 29,
// lines 6 to 10), then random bytes. A byte accepted is acc(i), one
// rejected rej…; the stream may end before the loop does.
type ballScenario struct {
	name string
	// rejections before the byte accepted for iteration i, and the bytes
	rejs func(rng *rand.Rand, i, τ int) int
	acc  func(rng *rand.Rand, i int) byte
	rej  func(rng *rand.Rand, i int) byte
}

func anyBelow(rng *rand.Rand, i int) byte { return byte(rng.IntN(i + 1)) }
func anyAbove(rng *rand.Rand, i int) byte { return byte(i + 1 + rng.IntN(255-i)) }

// spread puts n rejections before the loop's iterations, one run each,
// all but the last: at i = 255 no byte is rejected.
func spread(n int) func(rng *rand.Rand, i, τ int) int {
	return func(rng *rand.Rand, i, τ int) int {
		if i == 255 {
			return 0
		}
		k, m := i-(256-τ), τ-1
		return n/m + b2i(k < n%m)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func ballScenarios(blocks int) []ballScenario {
	room := blocks*fips202.Rate256 - 8 // bytes the loop may read
	return []ballScenario{
		{"uniform", func(*rand.Rand, int, int) int { return 0 },
			func(rng *rand.Rand, _ int) byte { return byte(rng.Uint32()) }, anyAbove},
		{"j = i at every iteration", func(*rand.Rand, int, int) int { return 0 },
			func(_ *rand.Rand, i int) byte { return byte(i) }, anyAbove},
		{"j = 0 at every iteration", func(*rand.Rand, int, int) int { return 0 },
			func(*rand.Rand, int) byte { return 0 }, anyAbove},
		{"rejections of j = i + 1", spread(100),
			anyBelow, func(_ *rand.Rand, i int) byte { return byte(i + 1) }},
		{"the bound met exactly", func(rng *rand.Rand, i, τ int) int { return spread(room-τ)(rng, i, τ) }, anyBelow, anyAbove},
		{"the bound missed by one byte", func(rng *rand.Rand, i, τ int) int { return spread(room-τ+1)(rng, i, τ) }, anyBelow, anyAbove},
		{"every byte rejected", func(*rand.Rand, int, int) int { return room },
			anyBelow, func(*rand.Rand, int) byte { return 0xff }},
		{"the last block's first byte accepted last", func(rng *rand.Rand, i, τ int) int {
			return spread(fips202.Rate256*(blocks-1)-8-τ+1)(rng, i, τ)
		}, anyBelow, anyAbove},
	}
}

// ballStream draws one stream of a scenario and its twin: each byte the
// loop reads (Algorithm 29, lines 7 and 9) redrawn on the same side of
// its i, the signs and the bytes past the loop redrawn.
func ballStream(rng *rand.Rand, sc ballScenario, τ, blocks int) ([]byte, []byte) {
	n := blocks * fips202.Rate256
	stream := make([]byte, n)
	for k := range stream {
		stream[k] = byte(rng.Uint32())
	}
	pos := 8
	// No byte exceeds 255: the last iteration rejects none.
	for i := 256 - τ; i < 256 && pos < n; i++ {
		for r := sc.rejs(rng, i, τ); r > 0 && i < 255 && pos < n; r-- {
			stream[pos] = sc.rej(rng, i)
			pos++
		}
		if pos < n {
			stream[pos] = sc.acc(rng, i)
			pos++
		}
	}
	twin := make([]byte, n)
	for k := range twin {
		twin[k] = byte(rng.Uint32())
	}
	pos = 8
	for i := 256 - τ; i < 256 && pos < n; i++ {
		for ; pos < n; pos++ {
			if int(stream[pos]) > i {
				twin[pos] = anyAbove(rng, i)
				continue
			}
			twin[pos] = anyBelow(rng, i)
			pos++
			break
		}
	}
	return stream, twin
}

// BallStreamTests runs a SampleInBall routine on every scenario's
// streams (three each): its output and result must be Algorithm 29's on
// those bytes (contract.CheckBallFrom) and its ok; with twin, also the
// twin test: a run on another seed and the twin stream must execute the
// same instructions and access the same addresses, step for step.
func BallStreamTests(f *x86.File, r *x86.Routine, c *contract.Contract, callees map[string]*x86.Routine, seed uint64, maxSteps int, twin bool) (int, error) {
	b := c.Ball
	p, err := ballParams(b)
	if err != nil {
		return 0, err
	}
	rng := rand.New(rand.NewPCG(seed, 79))
	runs := 0
	for _, sc := range ballScenarios(b.Blocks) {
		for rep := 0; rep < 3; rep++ {
			stream, tw := ballStream(rng, sc, b.Tau, b.Blocks)
			in, other := c.Gen(rng), c.Gen(rng)
			for _, a := range c.Args {
				if !a.Secret {
					other[a.Name] = in[a.Name]
				}
			}
			g := rng.Uint64()
			var ta, tb trace
			out, ret, err := ballRun(f, r, c, callees, in, stream, rand.New(rand.NewPCG(g, 1)), maxSteps, &ta)
			if err != nil {
				return runs, fmt.Errorf("%s: %v", sc.name, err)
			}
			ok, err := contract.CheckBallFrom(p, fromStream(stream), out[b.Out])
			if err == nil && ret != b2b(ok) {
				err = fmt.Errorf("returned %d, Algorithm 29 on the stream gives ok = %v", ret, ok)
			}
			if err != nil {
				return runs, fmt.Errorf("%s: %v", sc.name, err)
			}
			runs++
			if !twin {
				continue
			}
			if _, _, err := ballRun(f, r, c, callees, other, tw, rand.New(rand.NewPCG(g, 1)), maxSteps, &tb); err != nil {
				return runs, fmt.Errorf("%s, twin: %v", sc.name, err)
			}
			if err := sameTrace(r, &ta, &tb); err != nil {
				return runs, fmt.Errorf("%s, twin: %v", sc.name, err)
			}
		}
	}
	return runs, nil
}

// fromStream reads b, then zeros.
func fromStream(b []byte) func([]byte) {
	rest := b
	return func(p []byte) {
		n := copy(p, rest)
		rest = rest[n:]
		clear(p[n:])
	}
}

func b2b(b bool) byte {
	if b {
		return 1
	}
	return 0
}
