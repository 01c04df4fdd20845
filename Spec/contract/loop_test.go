package contract

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"
)

// A Loop routine's Step, folded on bytes over the first n units, meets
// its Check for every n ≤ Max, and leaves the input for n > Max; its
// buffers are the ones the checker takes.
func TestLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	found := 0
	for _, c := range All() {
		lp := c.Loop
		if lp == nil {
			continue
		}
		found++
		if p := Lookup(lp.Permutation); p == nil || p.Effect == nil || p.KeccakStates != 1 || !slices.Contains(c.Calls, lp.Permutation) {
			t.Fatalf("%s: %s is not a callee permuting one state with an Effect", c.Symbol, lp.Permutation)
		}
		for n := 0; n <= lp.Max+2; n++ {
			in := c.Gen(rng)
			binary.LittleEndian.PutUint64(in[lp.Count], uint64(n))
			if n == lp.Max+2 {
				binary.LittleEndian.PutUint64(in[lp.Count], 1<<63)
			}
			out := Buffers{}
			for k, v := range in {
				out[k] = bytes.Clone(v)
			}
			if n <= lp.Max {
				carry := anyOf(in[lp.Carry])
				for k := 0; k < n; k++ {
					carry = lp.Step(anyValues{}, carry, anyOf(in[lp.Over][lp.Unit*k:lp.Unit*(k+1)]))
				}
				for i, v := range carry {
					out[lp.Carry][i] = v.(byte)
				}
			}
			if err := c.Check(in, out, 0); err != nil {
				t.Fatalf("%s: Step folded %d times on bytes: %v", c.Symbol, n, err)
			}
			out[lp.Carry][0] ^= 1
			if c.Check(in, out, 0) == nil {
				t.Fatalf("%s: Check accepts a flipped bit (n = %d)", c.Symbol, n)
			}
		}
	}
	if found != 2 {
		t.Errorf("%d contracts with Loop, want SHAKE256Absorb's 2", found)
	}
}
