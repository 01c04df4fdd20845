package mldsa

import (
	"bytes"
	"crypto/sha3"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/vg-crypto/vg/Spec/fips204"
)

// TestSHAKE256x4 compares the four-way sponge with four ×1 sponges (and
// crypto/sha3) on every input length 0..300, absorbed in up to three
// pieces and squeezed over several blocks in uneven pieces.
func TestSHAKE256x4(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	const outLen = 5*shake256Rate + 7
	for n := 0; n <= 300; n++ {
		var in [4][]byte
		for j := range in {
			in[j] = randBytes(rng, n)
		}
		var s shake256x4
		for off := 0; off < n; {
			k := min(rng.IntN(n+1), n-off)
			if rng.IntN(4) == 0 {
				k = 0 // empty writes change nothing
			}
			s.write(in[0][off:off+k], in[1][off:off+k], in[2][off:off+k], in[3][off:off+k])
			off += k
		}
		var out [4][outLen]byte
		for off := 0; off < outLen; {
			k := min(rng.IntN(2*shake256Rate), outLen-off)
			s.read(out[0][off:off+k], out[1][off:off+k], out[2][off:off+k], out[3][off:off+k])
			off += k
		}
		for j := range in {
			one := newShake256()
			one.write(in[j])
			want := make([]byte, outLen)
			one.read(want)
			if !bytes.Equal(out[j][:], want) {
				t.Fatalf("length %d, sponge %d: differs from the ×1 sponge", n, j)
			}
			if !bytes.Equal(want, sha3.SumSHAKE256(in[j], outLen)) {
				t.Fatalf("length %d, sponge %d: ×1 sponge differs from crypto/sha3", n, j)
			}
		}
	}
}

// TestSHAKE256x4Lanes checks that each sponge depends on its own input
// only: changing one input changes that output alone.
func TestSHAKE256x4Lanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	in := [4][]byte{randBytes(rng, 66), randBytes(rng, 66), randBytes(rng, 66), randBytes(rng, 66)}
	sum := func(in [4][]byte) (out [4][200]byte) {
		var s shake256x4
		s.write(in[0], in[1], in[2], in[3])
		s.read(out[0][:], out[1][:], out[2][:], out[3][:])
		return out
	}
	base := sum(in)
	for j := range in {
		mod := in
		mod[j] = bytes.Clone(in[j])
		mod[j][rng.IntN(66)] ^= 1
		got := sum(mod)
		for i := range got {
			if (got[i] != base[i]) != (i == j) {
				t.Fatalf("changing input %d: output %d changed %v", j, i, got[i] != base[i])
			}
		}
	}
}

// rejBoundedPolyBlocksNeeded is how many SHAKE256 blocks RejBoundedPoly
// (Algorithm 31) reads for seed: half-bytes below 15 (η = 2) or 9 (η = 4)
// are accepted, until 256 are.
func rejBoundedPolyBlocksNeeded(seed []byte, η int) int {
	limit := byte(15)
	if η == 4 {
		limit = 9
	}
	stream := sha3.SumSHAKE256(seed, 20*shake256Rate)
	n := 0
	for i, z := range stream {
		for _, h := range []byte{z & 0xF, z >> 4} {
			if n < n256 && h < limit {
				n++
			}
		}
		if n == n256 {
			return i/shake256Rate + 1
		}
	}
	panic("more than 20 blocks")
}

// TestRejBoundedPolyx4 compares the four-way RejBoundedPoly with Spec and
// the single sampler lane by lane, and, with bounds of one to three blocks,
// checks that it fails exactly when some lane needs more blocks than the
// bound while the lanes that finish are still right. Lanes left out (nil)
// are never written and never make it fail.
func TestRejBoundedPolyx4(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 46))
	fails, passes := 0, 0
	for it := 0; it < 200; it++ {
		sp := []fips204.Params{fips204.MLDSA44, fips204.MLDSA65}[it%2]
		η := sp.Eta
		var ρ [64]byte
		copy(ρ[:], randBytes(rng, 64))
		var r [4]uint16
		for j := range r {
			r[j] = uint16(rng.Uint32())
		}
		if it%3 == 0 {
			r[rng.IntN(4)] = r[rng.IntN(4)] // equal nonces in two lanes
		}
		seed := func(j int) []byte { return append(bytes.Clone(ρ[:]), byte(r[j]), byte(r[j]>>8)) }

		var got [4]ringElement
		ptrs := [4]*ringElement{&got[0], &got[1], &got[2], &got[3]}
		if !rejBoundedPolyx4(&ptrs, &ρ, &r, η) {
			t.Fatal("ran out")
		}
		for j := range r {
			var single ringElement
			if !rejBoundedPoly(&single, &ρ, r[j], η) {
				t.Fatal("single ran out")
			}
			if got[j] != single || single != fromSpec(fips204.RejBoundedPoly(sp, seed(j))) {
				t.Fatalf("η = %d, lane %d: differs", η, j)
			}
		}

		bound := 1 + it%3
		var small [4]ringElement
		ptrs = [4]*ringElement{&small[0], &small[1], &small[2], &small[3]}
		left := 0 // lanes left out, a bit mask
		if it%2 == 1 {
			left = rng.IntN(16)
		}
		for j := range ptrs {
			if left>>j&1 == 1 {
				ptrs[j] = nil
			}
		}
		ok := rejBoundedPolyx4Within(&ptrs, &ρ, &r, η, bound)
		wantOK := true
		for j := range r {
			if left>>j&1 == 1 {
				if small[j] != (ringElement{}) {
					t.Fatalf("lane %d left out but written", j)
				}
			} else if rejBoundedPolyBlocksNeeded(seed(j), η) <= bound {
				if small[j] != got[j] {
					t.Fatalf("bound %d, lane %d finishes within the bound but differs", bound, j)
				}
			} else {
				wantOK = false
			}
		}
		if ok != wantOK {
			t.Fatalf("bound %d: got %v, want %v", bound, ok, wantOK)
		}
		if ok {
			passes++
		} else {
			fails++
		}
	}
	if fails == 0 || passes == 0 {
		t.Errorf("bounded runs: %d failed, %d passed; want both outcomes", fails, passes)
	}
}

// withFourWayMin runs f with every fourWayMin: one at a time (5), groups
// of four and the rest one at a time (4), or a last group padded from 3, 2
// or 1 samplers on.
func withFourWayMin(t *testing.T, f func(t *testing.T)) {
	saved := fourWayMin
	defer func() { fourWayMin = saved }()
	for _, v := range []int{1, 2, 3, 4, 5} {
		fourWayMin = v
		t.Run(fmt.Sprintf("fourWayMin%d", v), f)
	}
}

// TestFourWayCount checks the grouping for the ℓ and ℓ + k of the
// parameter sets (4, 5, 7; 8, 11, 15) and a few more.
func TestFourWayCount(t *testing.T) {
	saved := fourWayMin
	defer func() { fourWayMin = saved }()
	// want[n][m-1]: four-way samplers of n with fourWayMin = m.
	want := map[int][5]int{
		0: {0, 0, 0, 0, 0}, 1: {1, 0, 0, 0, 0}, 2: {2, 2, 0, 0, 0}, 3: {3, 3, 3, 0, 0},
		4: {4, 4, 4, 4, 0}, 5: {5, 4, 4, 4, 0}, 7: {7, 7, 7, 4, 0},
		8: {8, 8, 8, 8, 0}, 11: {11, 11, 11, 8, 0}, 15: {15, 15, 15, 12, 0},
	}
	for n, w := range want {
		for m := 1; m <= 5; m++ {
			fourWayMin = m
			if got := fourWayCount(n); got != w[m-1] {
				t.Errorf("fourWayCount(%d) with fourWayMin %d = %d, want %d", n, m, got, w[m-1])
			}
		}
	}
}

// TestExpandMaskx4 compares the four-way ExpandMask with the single
// polynomial one (which TestSamplersAgainstSpec compares with Spec), for
// every ℓ up to 9 and every fourWayMin, including nonces that
// wrap around 2¹⁶.
func TestExpandMaskx4(t *testing.T) {
	withFourWayMin(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(47, 48))
		for it := 0; it < 20; it++ {
			var ρ [64]byte
			copy(ρ[:], randBytes(rng, 64))
			γ1Bits := []int{17, 19}[it%2]
			μ := rng.IntN(1 << 16)
			if it < 4 {
				μ = 1<<16 - it - 1
			}
			var four [4]ringElement
			ptrs := [4]*ringElement{&four[0], &four[1], &four[2], &four[3]}
			nonces := [4]uint16{uint16(μ), uint16(rng.Uint32()), uint16(μ), 0xFFFF}
			left := rng.IntN(16) // lanes left out, a bit mask
			for j := range ptrs {
				if left>>j&1 == 1 {
					ptrs[j] = nil
				}
			}
			expandMaskPolyx4(&ptrs, &ρ, &nonces, γ1Bits)
			for j := range nonces {
				var single ringElement
				if left>>j&1 == 0 {
					expandMaskPoly(&single, &ρ, nonces[j], γ1Bits)
				}
				if four[j] != single {
					t.Fatalf("expandMaskPolyx4 lane %d (left out: %v) differs", j, left>>j&1 == 1)
				}
			}
			for l := 0; l <= 9; l++ {
				y := make([]ringElement, l+1)
				sentinel := randomPoly(rng)
				y[l] = sentinel
				expandMask(y[:l], &ρ, μ, γ1Bits)
				for r := 0; r < l; r++ {
					var single ringElement
					expandMaskPoly(&single, &ρ, uint16(μ+r), γ1Bits)
					if y[r] != single {
						t.Fatalf("ℓ = %d, μ = %d: y[%d] differs", l, μ, r)
					}
				}
				if y[l] != sentinel {
					t.Fatalf("ℓ = %d: wrote past y", l)
				}
			}
		}
	})
}

// TestExpandSx4 compares ExpandS, in groups of four, with the single
// sampler for every ℓ + k of the parameter sets and a few more, and every
// fourWayMin.
func TestExpandSx4(t *testing.T) {
	withFourWayMin(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(49, 50))
		for _, lk := range [][2]int{{4, 4}, {5, 6}, {7, 8}, {1, 0}, {0, 2}, {3, 2}, {1, 6}} {
			for _, η := range []int{2, 4} {
				var ρ [64]byte
				copy(ρ[:], randBytes(rng, 64))
				s := make([]ringElement, lk[0]+lk[1]+1)
				sentinel := randomPoly(rng)
				s[len(s)-1] = sentinel
				s1, s2 := s[:lk[0]:lk[0]], s[lk[0]:len(s)-1]
				if err := expandS(s1, s2, &ρ, η); err != nil {
					t.Fatal(err)
				}
				for r := range s[:len(s)-1] {
					var single ringElement
					if !rejBoundedPoly(&single, &ρ, uint16(r), η) {
						t.Fatal("ran out")
					}
					if s[r] != single {
						t.Fatalf("ℓ, k = %v, η = %d: polynomial %d differs", lk, η, r)
					}
				}
				if s[len(s)-1] != sentinel {
					t.Fatalf("ℓ, k = %v: wrote past s2", lk)
				}
			}
		}
	})
}

// TestSamplersDoNotAllocate checks that ExpandS and ExpandMask, four-way
// or not, and SampleInBall keep their sponges and buffers on the stack:
// signing runs ExpandMask and SampleInBall in every attempt.
func TestSamplersDoNotAllocate(t *testing.T) {
	// c and c̃ are the caller's locals, as in signing and verifying: a
	// routine whose arguments escaped would move them to the heap.
	for _, p := range []Parameters{MLDSA44(), MLDSA65(), MLDSA87()} {
		τ, n := p.p.τ, p.p.cTildeSize()
		if got := testing.AllocsPerRun(5, func() {
			var c ringElement
			var cTilde [64]byte
			_ = sampleInBall(&c, cTilde[:n], τ)
		}); got != 0 {
			t.Errorf("SampleInBall, τ = %d: %v allocations", τ, got)
		}
	}
	withFourWayMin(t, func(t *testing.T) {
		var ρ [64]byte
		var s [15]ringElement
		for _, lk := range [][2]int{{4, 4}, {5, 6}, {7, 8}} {
			l, k := lk[0], lk[1]
			if n := testing.AllocsPerRun(5, func() { expandMask(s[:l], &ρ, 7, 19) }); n != 0 {
				t.Errorf("ExpandMask, ℓ = %d: %v allocations", l, n)
			}
			if n := testing.AllocsPerRun(5, func() { _ = expandS(s[:l], s[l:l+k], &ρ, 2) }); n != 0 {
				t.Errorf("ExpandS, ℓ + k = %d: %v allocations", l+k, n)
			}
		}
	})
}
