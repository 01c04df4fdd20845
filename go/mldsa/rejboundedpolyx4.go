package mldsa

// rejBoundedPolyx4Generic runs RejBoundedPoly on four nonces r[j] with one
// ρ′, squeezing the four sponges in step: a[j] gets what rejBoundedPoly
// gives for r[j]. Each sampler keeps its own Appendix C bound of
// rejBoundedPolyBlocks blocks; one that is done ignores the blocks the
// others still need, so its output does not depend on them. A nil a[j] is
// a lane left out (padding of a group of fewer than four), done from the
// start. It returns false if any of the four runs out.
func rejBoundedPolyx4Generic(a *[4]*ringElement, ρPrime *[64]byte, r *[4]uint16, η int) bool {
	return rejBoundedPolyx4Within(a, ρPrime, r, η, rejBoundedPolyBlocks)
}

// rejBoundedPolyx4Within is rejBoundedPolyx4Generic with a bound of
// maxBlocks blocks per sampler, so that tests can make samplers run out.
func rejBoundedPolyx4Within(a *[4]*ringElement, ρPrime *[64]byte, r *[4]uint16, η int, maxBlocks int) bool {
	var s shake256x4
	s.absorbSeedNonces(ρPrime, r)
	var n [4]int
	for j := range a {
		if a[j] == nil {
			n[j] = n256
		}
	}
	var out [4][shake256Rate]byte
	var bufs [4]rejBoundedBuf
	var lanes [shake256Rate / 8]uint64
	for blocks := 0; blocks < maxBlocks; blocks++ {
		s.read(out[0][:], out[1][:], out[2][:], out[3][:])
		done := true
		for j := range a {
			if n[j] < n256 {
				for i := range lanes {
					lanes[i] = leUint64(out[j][8*i:])
				}
				n[j] = rejBoundedPolyLanes(&bufs[j], n[j], lanes[:], η)
				if n[j] >= n256 {
					copy(a[j][:], bufs[j][:n256])
				}
			}
			done = done && n[j] >= n256
		}
		if done {
			return true
		}
	}
	return false
}
