package mldsa

// Samplers of FIPS 204, §7.3.

// Appendix C of FIPS 204 gives, for each rejection loop, a number of
// iterations an implementation must allow before it may give up (the chance
// of needing more is below 2⁻²⁵⁶). The bounds below allow at least that many
// and are rounded up to whole blocks of the XOF.
const (
	// RejNTTPoly: 894 iterations of 3 bytes; 16 blocks of SHAKE128 hold 896.
	rejNTTPolyBlocks = 16
	// RejBoundedPoly: 481 iterations of one byte; 4 blocks of SHAKE256 hold 544.
	rejBoundedPolyBlocks = 4
	// SampleInBall: 221 iterations of one byte after the 8 bytes of signs;
	// 2 blocks of SHAKE256 hold 264.
	sampleInBallBlocks = 2
	// ML-DSA.Sign_internal: 814 iterations (Appendix C, Table 3; NIST's
	// errata for FIPS 204 raise the minimum to 821, which we allow).
	signAttempts = 821
)

// rejNTTPolyParse appends to a[n:] the coefficients that one block of
// SHAKE128 output accepts (Algorithm 14, CoeffFromThreeBytes) and returns the
// new count. It branches on the output bytes, which derive from the public
// seed ρ only.
func rejNTTPolyParse(a *ringElement, n int, b []byte) int {
	for i := 0; i+3 <= len(b) && n < n256; i += 3 {
		v := uint32(b[i]) | uint32(b[i+1])<<8 | uint32(b[i+2]&0x7F)<<16
		if v < q {
			a[n] = fieldElement(v)
			n++
		}
	}
	return n
}

// rejNTTPolyGeneric is RejNTTPoly (Algorithm 30): a uniform element of T_q
// from SHAKE128(seed), seed = ρ ‖ s ‖ r. It returns false if the block bound
// of Appendix C runs out (a contains garbage then).
func rejNTTPolyGeneric(a *ringElement, seed *[34]byte) bool {
	s := newShake128()
	s.write(seed[:])
	n := 0
	for blocks := 0; blocks < rejNTTPolyBlocks; blocks++ {
		n = rejNTTPolyParse(a, n, s.block())
		if n == n256 {
			return true
		}
	}
	return false
}

// rejNTTPolyx4Generic runs RejNTTPoly on four seeds with the four-way
// permutation, squeezing all four sponges in step.
func rejNTTPolyx4Generic(a *[4]*ringElement, seeds *[4][34]byte) bool {
	var st [100]uint64
	for j := 0; j < 4; j++ {
		sd := &seeds[j]
		for i := 0; i < 4; i++ {
			st[4*i+j] = leUint64(sd[8*i:])
		}
		// Bytes 32 and 33 of the seed, then the SHAKE padding (FIPS 202,
		// §6.2) at byte 34 and byte 167 of the 168-byte block.
		st[4*4+j] = uint64(sd[32]) | uint64(sd[33])<<8 | 0x1F<<16
		st[4*20+j] = 0x80 << 56
	}
	var n [4]int
	var buf [shake128Rate]byte
	for blocks := 0; blocks < rejNTTPolyBlocks; blocks++ {
		keccakF1600x4(&st)
		done := true
		for j := 0; j < 4; j++ {
			if n[j] == n256 {
				continue
			}
			for i := 0; i < shake128Rate/8; i++ {
				putLEUint64(buf[8*i:], st[4*i+j])
			}
			n[j] = rejNTTPolyParse(a[j], n[j], buf[:])
			if n[j] < n256 {
				done = false
			}
		}
		if done {
			return true
		}
	}
	return false
}
