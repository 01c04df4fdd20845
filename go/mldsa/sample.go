package mldsa

import "unsafe"

// Samplers of FIPS 204, §7.3.

// Each rejection loop gives up after a bound that FIPS 204, Appendix C,
// Table 3 allows (its figures, and what about them is uncertain, are stated
// once, at RejNTTPolyBlocks in Spec/contract/contract.go). Allowing more
// than the minimum is always permitted; bounds are rounded up to whole
// blocks of the XOF. spec_test.go checks the copies below against Spec.
const (
	// RejNTTPoly: 16 blocks of SHAKE128 hold 896 three-byte groups.
	rejNTTPolyBlocks = 16
	// RejBoundedPoly: 7 blocks of SHAKE256 hold 952 bytes.
	rejBoundedPolyBlocks = 7
	// SampleInBall: 2 blocks of SHAKE256 hold 264 bytes after the 8 bytes
	// of signs.
	sampleInBallBlocks = 2
	// ML-DSA.Sign_internal: 814 attempts, as Spec's Algorithm 7 (Appendix C,
	// Table 3).
	signAttempts = 814
)

// fourWayMin is the fewest samplers that ExpandS and ExpandMask put in a
// group of the four-way sampler, padding it with lanes left out (nil); 5
// means none. Its value depends on the code path (fourWayMinDefault);
// tests set others.
var fourWayMin = fourWayMinDefault()

// fourWayCount is how many of n samplers go four-way: the first ones, in
// groups of four, the last group perhaps smaller. The others run one at a
// time.
func fourWayCount(n int) int {
	if fourWayMin > 4 {
		return 0
	}
	if n%4 >= fourWayMin {
		return n
	}
	return n - n%4
}

// expandS is ExpandS (Algorithm 33): s1[r] = RejBoundedPoly(ρ′ ‖ r) for
// r < ℓ, s2[r−ℓ] likewise for ℓ ≤ r < ℓ + k. The first fourWayCount(ℓ + k)
// samplers go through the four-way sampler, four at a time; the others run
// one at a time.
func expandS(s1, s2 []ringElement, ρPrime *[64]byte, η int) error {
	l, total := len(s1), len(s1)+len(s2)
	poly := func(r int) *ringElement {
		if r < l {
			return &s1[r]
		}
		return &s2[r-l]
	}
	four := fourWayCount(total)
	for r := 0; r < four; r += 4 {
		var ptrs [4]*ringElement // nil past the end: lanes left out
		var nonces [4]uint16
		for j := 0; j < 4 && r+j < four; j++ {
			ptrs[j], nonces[j] = poly(r+j), uint16(r+j)
		}
		if !rejBoundedPolyx4(&ptrs, ρPrime, &nonces, η) {
			return errSamplerExhausted
		}
	}
	for r := four; r < total; r++ {
		if !rejBoundedPoly(poly(r), ρPrime, uint16(r), η) {
			return errSamplerExhausted
		}
	}
	return nil
}

// sampleInBallGeneric is SampleInBall (Algorithm 29): c with τ coefficients ±1
// from SHAKE256(ρ). The rejection of j > i branches on hash output (public
// for the signature returned; for an attempt that signing rejects, it
// reveals which of these bytes were too large). The positions and signs
// never choose a branch or an address: c is built in two 256-bit masks
// (nonzero, negative) updated with shifts and selects over all four words.
// It returns false if the block bound of Appendix C runs out.
func sampleInBallGeneric(c *ringElement, ρ []byte, τ int) bool {
	s := newShake256()
	s.write(ρ)
	blk := s.block()
	signs := leUint64(blk)
	blk = blk[8:]
	var nonzero, negative [4]uint64
	blocks := 1
	for i := n256 - τ; i < n256; i++ {
		var j uint32
		for {
			if len(blk) == 0 {
				if blocks == sampleInBallBlocks {
					return false
				}
				blk = s.block()
				blocks++
			}
			j = uint32(blk[0])
			blk = blk[1:]
			accept := j <= uint32(i)
			declassify(publicSampleInBall, unsafe.Pointer(&accept), 1)
			if accept {
				break
			}
		}
		// c_i ← c_j (line 9). i is public, j is not: every word is read
		// and written, through the masks that select j's word.
		sel := wordSelectors(j)
		bit := uint64(1) << (j & 63)
		var nzj, negj uint64
		for k := range sel {
			nzj |= nonzero[k] & sel[k]
			negj |= negative[k] & sel[k]
		}
		nonzero[i>>6] |= (nzj >> (j & 63) & 1) << (i & 63)
		negative[i>>6] |= (negj >> (j & 63) & 1) << (i & 63)
		// c_j ← (−1)^h[i+τ−256] (line 10).
		h := signs >> (i + τ - n256) & 1
		for k := range sel {
			nonzero[k] |= bit & sel[k]
			negative[k] = negative[k]&^(bit&sel[k]) | (h<<(j&63))&sel[k]
		}
	}
	// 0, 1 or q − 1 (a negative coefficient is nonzero).
	for k := range nonzero {
		nz, neg := nonzero[k], negative[k]
		w := (*[64]fieldElement)(c[64*k:])
		for b := range w {
			w[b] = fieldElement(nz&1 + neg&1*(q-2))
			nz, neg = nz>>1, neg>>1
		}
	}
	return true
}

// wordSelectors returns, for each word k of a 256-bit mask, all ones if bit
// j lies in it (k = ⌊j/64⌋) and zero otherwise, without a branch.
func wordSelectors(j uint32) [4]uint64 {
	var sel [4]uint64
	for k := range sel {
		sel[k] = uint64(int64(int32(ctEq(uint32(k), j>>6))))
	}
	return sel
}
