package mldsa

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/vg-crypto/vg/Spec/fips204"
)

func TestSamplersAgainstSpec(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for _, ps := range allParams {
		p, sp := ps.p.p, ps.spec
		for it := 0; it < 10; it++ {
			var seed [34]byte
			copy(seed[:], randBytes(rng, 34))
			var a ringElement
			if !rejNTTPoly(&a, &seed) || a != fromSpec(fips204.RejNTTPoly(seed[:])) {
				t.Fatal("RejNTTPoly differs from Spec")
			}
			var ρPrime [64]byte
			copy(ρPrime[:], randBytes(rng, 64))
			r := uint16(rng.Uint32())
			if !rejBoundedPoly(&a, &ρPrime, r, p.η) {
				t.Fatal("RejBoundedPoly ran out")
			}
			specSeed := append(ρPrime[:], byte(r), byte(r>>8))
			if a != fromSpec(fips204.RejBoundedPoly(sp, specSeed)) {
				t.Fatalf("%s: RejBoundedPoly differs from Spec", p.name)
			}
			s1, s2 := make([]ringElement, p.l), make([]ringElement, p.k)
			if err := expandS(s1, s2, &ρPrime, p.η); err != nil {
				t.Fatal(err)
			}
			w1, w2 := fips204.ExpandS(sp, ρPrime[:])
			for j := range s1 {
				if s1[j] != fromSpec(w1[j]) {
					t.Fatal("ExpandS s1 differs from Spec")
				}
			}
			for i := range s2 {
				if s2[i] != fromSpec(w2[i]) {
					t.Fatal("ExpandS s2 differs from Spec")
				}
			}
			κ := rng.IntN(1 << 15)
			y := make([]ringElement, p.l)
			expandMask(y, &ρPrime, κ, p.γ1Bits)
			wy := fips204.ExpandMask(sp, ρPrime[:], κ)
			for j := range y {
				if y[j] != fromSpec(wy[j]) {
					t.Fatal("ExpandMask differs from Spec")
				}
			}
			cTilde := randBytes(rng, p.cTildeSize())
			if !sampleInBall(&a, cTilde, p.τ) || a != fromSpec(fips204.SampleInBall(sp, cTilde)) {
				t.Fatalf("%s: SampleInBall differs from Spec", p.name)
			}
		}
		var ρ [32]byte
		copy(ρ[:], randBytes(rng, 32))
		aHat := make([]ringElement, p.k*p.l)
		if err := expandA(aHat, &ρ, p.k, p.l); err != nil {
			t.Fatal(err)
		}
		want := fips204.ExpandA(sp, ρ[:])
		for r := 0; r < p.k; r++ {
			for s := 0; s < p.l; s++ {
				if aHat[r*p.l+s] != fromSpec(want[r][s]) {
					t.Fatalf("%s: ExpandA entry (%d, %d) differs from Spec", p.name, r, s)
				}
			}
		}
	}
}

// TestCoeffFromHalfByte checks all 16 half-bytes for both values of η.
func TestCoeffFromHalfByte(t *testing.T) {
	for _, sp := range []fips204.Params{fips204.MLDSA44, fips204.MLDSA65} {
		for b := uint32(0); b < 16; b++ {
			got, ok := coeffFromHalfByte(b, sp.Eta)
			want, wantOK := fips204.CoeffFromHalfByte(sp, byte(b))
			if (ok == 1) != wantOK || (wantOK && got != modQ(int64(want))) {
				t.Errorf("η = %d, b = %d: got %d, %d; Spec %d, %v", sp.Eta, b, got, ok, want, wantOK)
			}
		}
	}
}

// TestExpandACalls records the sampler calls of the generic ExpandA (the
// assembly's calls are the checker's: Proofs/stagea.go): ⌊kℓ/4⌋ four-way
// calls then kℓ mod 4 single ones, every entry e = ℓr + s once, with seed
// ρ ‖ s ‖ r.
func TestExpandACalls(t *testing.T) {
	want := map[string][2]int{"ML-DSA-44": {4, 0}, "ML-DSA-65": {7, 2}, "ML-DSA-87": {14, 0}}
	for _, ps := range allParams {
		p := ps.p.p
		var calls []expandACall
		expandATrace = &calls
		var ρ [32]byte
		for i := range ρ {
			ρ[i] = byte(i + 1)
		}
		a := make([]ringElement, p.k*p.l)
		err := expandAGeneric(a, &ρ, p.k, p.l)
		expandATrace = nil
		if err != nil {
			t.Fatal(err)
		}
		fours, singles := 0, 0
		seen := make([]int, p.k*p.l)
		for ci, c := range calls {
			n := 1
			if c.four {
				n = 4
				fours++
				if singles > 0 {
					t.Errorf("%s: four-way call %d after a single call", p.name, ci)
				}
			} else {
				singles++
			}
			for j := 0; j < n; j++ {
				e := -1
				for i := range a {
					if c.entries[j] == &a[i] {
						e = i
					}
				}
				if e < 0 {
					t.Fatalf("%s: call %d writes outside Â", p.name, ci)
				}
				seen[e]++
				r, s := e/p.l, e%p.l
				if !bytes.Equal(c.seeds[j][:32], ρ[:]) || c.seeds[j][32] != byte(s) || c.seeds[j][33] != byte(r) {
					t.Errorf("%s: entry %d sampled with seed %x, want ρ ‖ %d ‖ %d", p.name, e, c.seeds[j][32:], s, r)
				}
			}
		}
		if got := [2]int{fours, singles}; got != want[p.name] {
			t.Errorf("%s: %d four-way and %d single calls, want %v", p.name, fours, singles, want[p.name])
		}
		for e, n := range seen {
			if n != 1 {
				t.Errorf("%s: entry %d sampled %d times", p.name, e, n)
			}
		}
	}
}

// TestSampleInBallBound drives SampleInBall past its Appendix C bound with
// τ = 256 (about 1,500 bytes expected, more than the 400 allowed): it must
// report failure, not loop or return a partial c as valid.
func TestSampleInBallBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for it := 0; it < 20; it++ {
		var c ringElement
		if sampleInBall(&c, randBytes(rng, 32), 256) {
			t.Fatal("SampleInBall with τ = 256 succeeded within 400 bytes")
		}
	}
}

// TestRejNTTPolyLanes feeds RejNTTPoly's parser blocks whose three-byte
// groups are often at or above q (q − 1, q, 2²³ − 1, the top bit of the
// third byte set, random) and compares what it accepts with Spec's
// Algorithm 30 on the same byte stream.
func TestRejNTTPolyLanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for it := 0; it < 200; it++ {
		var stream []byte
		var buf rejNTTPolyBuf
		n := 0
		for n < n256 {
			var blk [shake128Rate]byte
			for g := 0; g+3 <= len(blk); g += 3 {
				v := rng.Uint32()
				switch rng.IntN(6) {
				case 0:
					v = q - 1
				case 1:
					v = q
				case 2:
					v = 1<<23 - 1
				case 3:
					v |= 1 << 23
				}
				if it%2 == 1 && rng.IntN(2) == 0 {
					v = q + rng.Uint32()%(1<<23-q) // rejected: many blocks
				}
				blk[g], blk[g+1], blk[g+2] = byte(v), byte(v>>8), byte(v>>16)
			}
			stream = append(stream, blk[:]...)
			var st [25]uint64
			for i := 0; i < shake128Rate/8; i++ {
				st[i] = leUint64(blk[8*i:])
			}
			m := rejNTTPolyLanes(&buf, n, &st)
			if m < n || m > n+shake128Rate/3 {
				t.Fatalf("count %d after %d", m, n)
			}
			n = m
		}
		want := fips204.RejNTTPolyFrom(func(b []byte) {
			copy(b, stream)
			stream = stream[len(b):]
		})
		for i := 0; i < n256; i++ {
			if buf[i] != fieldElement(want[i]) {
				t.Fatalf("iteration %d: coefficient %d is %d, Spec %d", it, i, buf[i], want[i])
			}
		}
	}
}
