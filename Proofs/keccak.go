package proofs

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/check"
	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips202"
	"github.com/vg-crypto/vg/Spec/x86"
)

// KeccakCuts implements check.KeccakHints. It runs the routine once on a
// random input over the taint domain and, for each round i = 1..24, cuts
// after the first instruction at which every lane of Spec's state after i
// rounds (or its complement) sits in some input-dependent location; the
// input-independent locations there are claimed constant, and those that
// hold the XOR of two or more lanes of one column (θ's parity of the next
// round, accumulated as the lanes are computed, whole or partial) are
// claimed so. A value that matches by chance makes a wrong claim, which
// the checker's proof of that segment rejects.
func (Hints) KeccakCuts(f *x86.File, r *x86.Routine, c *contract.Contract, maxSteps int) ([]check.Cut, error) {
	n := c.KeccakStates
	if n <= 0 {
		return nil, fmt.Errorf("%s has no Keccak states", c.Symbol)
	}
	in := c.Gen(rand.New(rand.NewPCG(3, 4)))
	// Spec's states after each round, per interleaved state.
	spec := make([][25][25]uint64, n) // [j][i][lane]
	for j := 0; j < n; j++ {
		for L := 0; L < 25; L++ {
			spec[j][0][L] = binary.LittleEndian.Uint64(in["a"][8*(n*L+j):])
		}
		for i := 1; i <= 24; i++ {
			spec[j][i] = fips202.Rnd(spec[j][i-1], i-1)
		}
	}
	type ref struct {
		i, lane, j int
		comp       bool
		xor        []int // further lanes XORed in: a column parity
	}
	index := map[uint64][]ref{}
	for j := 0; j < n; j++ {
		for i := 1; i <= 24; i++ {
			for L := 0; L < 25; L++ {
				v := spec[j][i][L]
				index[v] = append(index[v], ref{i, L, j, false, nil})
				index[^v] = append(index[^v], ref{i, L, j, true, nil})
			}
			// Every XOR of two or more lanes of a column x: rows y in mask.
			for x := 0; x < 5; x++ {
				for mask := 0; mask < 32; mask++ {
					if bits.OnesCount(uint(mask)) < 2 {
						continue
					}
					var ls []int
					var v uint64
					for y := 0; y < 5; y++ {
						if mask>>y&1 == 1 {
							ls = append(ls, x+5*y)
							v ^= spec[j][i][x+5*y]
						}
					}
					index[v] = append(index[v], ref{i, ls[0], j, false, ls[1:]})
					index[^v] = append(index[^v], ref{i, ls[0], j, true, ls[1:]})
				}
			}
		}
	}
	var cuts []check.Cut
	next := 1
	err := check.TaintTrace(f, r, c, in, 3, maxSteps, func(steps, pc int, locs []string, vals []uint64, input []bool) bool {
		found := map[[2]int]bool{}
		var hits []check.LaneAt
		for k, l := range locs {
			if !input[k] {
				continue
			}
			for _, rf := range index[vals[k]] {
				if rf.i == next {
					if rf.xor == nil {
						found[[2]int{rf.lane, rf.j}] = true
					}
					hits = append(hits, check.LaneAt{Loc: l, Lane: rf.lane, State: rf.j, Comp: rf.comp, Xor: rf.xor})
				}
			}
		}
		if len(found) < 25*n {
			return true
		}
		cu := check.Cut{Step: steps, PC: pc, Lanes: hits}
		for k, l := range locs {
			if !input[k] {
				cu.Consts = append(cu.Consts, check.ConstAt{Loc: l, V: vals[k]})
			}
		}
		cuts = append(cuts, cu)
		next++
		return next <= 24
	})
	if err != nil {
		return nil, err
	}
	if next <= 24 {
		return nil, fmt.Errorf("state after round %d never fully present in registers or memory", next)
	}
	return cuts, nil
}
