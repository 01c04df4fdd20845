package mldsa

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
	// SampleInBall: 3 blocks of SHAKE256 hold 400 bytes after the 8 bytes
	// of signs.
	sampleInBallBlocks = 3
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
