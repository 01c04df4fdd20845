package mldsa

// Samplers of FIPS 204, §7.3.

// Appendix C of FIPS 204 gives, for each rejection loop, a number of
// iterations an implementation must allow before it may give up (Table 3;
// the chance of needing more is below 2⁻²⁵⁶): 814 for ML-DSA.Sign_internal,
// 221 for SampleInBall, and 481 and 894 for RejBoundedPoly and RejNTTPoly.
// We could not check which of the last two numbers goes with which sampler
// (the table text was not at hand), so both samplers allow at least 894
// iterations, the larger, counted in bytes or in three-byte groups; allowing
// more than the minimum is always permitted. Bounds are rounded up to whole
// blocks of the XOF.
const (
	// RejNTTPoly: 16 blocks of SHAKE128 hold 896 three-byte groups.
	rejNTTPolyBlocks = 16
	// RejBoundedPoly: 7 blocks of SHAKE256 hold 952 bytes.
	rejBoundedPolyBlocks = 7
	// SampleInBall: 2 blocks of SHAKE256 hold 264 bytes after the 8 bytes
	// of signs.
	sampleInBallBlocks = 2
	// ML-DSA.Sign_internal: 814 attempts (NIST's errata for FIPS 204 raise
	// the minimum to 821, which we allow).
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

// expandATrace, when set by a test, records every sampler call of expandA:
// the seeds and the entries written. It holds values only, so that
// expandA's seeds stay on the stack.
var expandATrace *[]expandACall

type expandACall struct {
	four    bool // rejNTTPolyx4 (else rejNTTPoly)
	seeds   [4][34]byte
	entries [4]*ringElement
}

// expandA is ExpandA (Algorithm 32): Â[r][s] = RejNTTPoly(ρ ‖ s ‖ r), stored
// row-major in a (entry e = ℓr + s). Entries go in ⌊kℓ/4⌋ groups of four
// through the four-way sampler, the last kℓ mod 4 one at a time; key
// generation, signing and verification all sample Â here. The coefficients
// come out plain, in [0, q).
func expandA(a []ringElement, ρ *[32]byte, k, l int) error {
	total := k * l
	var seeds [4][34]byte
	for j := range seeds {
		copy(seeds[j][:], ρ[:])
	}
	e := 0
	for ; e+4 <= total; e += 4 {
		var ptrs [4]*ringElement
		for j := 0; j < 4; j++ {
			seeds[j][32] = byte((e + j) % l)
			seeds[j][33] = byte((e + j) / l)
			ptrs[j] = &a[e+j]
		}
		if expandATrace != nil {
			*expandATrace = append(*expandATrace, expandACall{four: true, seeds: seeds, entries: ptrs})
		}
		if !rejNTTPolyx4(&ptrs, &seeds) {
			return errSamplerExhausted
		}
	}
	for ; e < total; e++ {
		seeds[0][32] = byte(e % l)
		seeds[0][33] = byte(e / l)
		if expandATrace != nil {
			*expandATrace = append(*expandATrace, expandACall{seeds: [4][34]byte{seeds[0]}, entries: [4]*ringElement{&a[e]}})
		}
		if !rejNTTPoly(&a[e], &seeds[0]) {
			return errSamplerExhausted
		}
	}
	return nil
}

// rejBoundedPolyGeneric is RejBoundedPoly (Algorithm 31): coefficients in [−η, η]
// (stored mod q) from SHAKE256(ρ′ ‖ IntegerToBytes(r, 2)). ρ′ is secret. No
// branch depends on an accepted value: each half-byte is converted and
// written whether accepted or not, and only the count advances by the
// acceptance bit. What timing and addresses may reveal is where the
// rejections fall, which FIPS 204 makes independent of the coefficients.
// It returns false if the block bound of Appendix C runs out.
func rejBoundedPolyGeneric(a *ringElement, ρPrime *[64]byte, r uint16, η int) bool {
	s := newShake256()
	s.write(ρPrime[:])
	s.writeByte(byte(r))
	s.writeByte(byte(r >> 8))
	n := 0
	for blocks := 0; blocks < rejBoundedPolyBlocks; blocks++ {
		for _, z := range s.block() {
			for _, b := range [2]uint32{uint32(z) & 0xF, uint32(z) >> 4} {
				if n == n256 {
					return true
				}
				v, ok := coeffFromHalfByte(b, η)
				a[n] = v
				n += int(ok)
			}
		}
		if n == n256 {
			return true
		}
	}
	return false
}

// coeffFromHalfByte is CoeffFromHalfByte (Algorithm 15) without branches:
// the coefficient mod q and 1 if b is accepted, 0 if not.
func coeffFromHalfByte(b uint32, η int) (fieldElement, uint32) {
	if η == 2 {
		// b mod 5 = b − 5⌊b·205/1024⌋ for b < 16.
		m5 := b - 5*(b*205>>10)
		return fieldSub(2, fieldElement(m5)), (b - 15) >> 31
	}
	return fieldSub(4, fieldElement(b)), (b - 9) >> 31
}

// expandS is ExpandS (Algorithm 33).
func expandS(s1, s2 []ringElement, ρPrime *[64]byte, η int) error {
	for r := range s1 {
		if !rejBoundedPoly(&s1[r], ρPrime, uint16(r), η) {
			return errSamplerExhausted
		}
	}
	for r := range s2 {
		if !rejBoundedPoly(&s2[r], ρPrime, uint16(r+len(s1)), η) {
			return errSamplerExhausted
		}
	}
	return nil
}

// expandMaskGeneric is ExpandMask (Algorithm 34): y[r] = BitUnpack(SHAKE256(ρ″ ‖
// IntegerToBytes(μ + r, 2)), γ1 − 1, γ1), coefficients mod q. No rejection.
func expandMaskGeneric(y []ringElement, ρPrimePrime *[64]byte, μ int, γ1Bits int) {
	c := γ1Bits + 1 // 1 + bitlen(γ1 − 1)
	var buf [32 * 20]byte
	for r := range y {
		s := newShake256()
		s.write(ρPrimePrime[:])
		s.writeByte(byte(μ + r))
		s.writeByte(byte((μ + r) >> 8))
		v := buf[:32*c]
		s.read(v)
		bitUnpackSigned(&y[r], v, c, 1<<γ1Bits)
	}
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
			if j <= uint32(i) {
				break
			}
		}
		// c_i ← c_j (line 9). i is public, j is not.
		nzj, negj := bit256(&nonzero, j), bit256(&negative, j)
		nonzero[i>>6] |= nzj << (i & 63)
		negative[i>>6] |= negj << (i & 63)
		// c_j ← (−1)^h[i+τ−256] (line 10).
		h := signs >> (i + τ - n256) & 1
		setBit256(&nonzero, j, 1)
		setBit256(&negative, j, h)
	}
	for i := range c {
		nz := uint32(nonzero[i>>6] >> (i & 63) & 1)
		neg := uint32(negative[i>>6] >> (i & 63) & 1)
		// 0, 1 or q − 1.
		c[i] = fieldElement(nz * (1 + neg*(q-2)))
	}
	return true
}

// bit256 returns bit j of the 256-bit mask w, reading every word.
func bit256(w *[4]uint64, j uint32) uint64 {
	var v uint64
	for k := uint32(0); k < 4; k++ {
		v |= w[k] & uint64(int64(int32(ctEq(k, j>>6))))
	}
	return v >> (j & 63) & 1
}

// setBit256 sets bit j of w to b ∈ {0, 1}, writing every word.
func setBit256(w *[4]uint64, j uint32, b uint64) {
	bit := uint64(1) << (j & 63)
	for k := uint32(0); k < 4; k++ {
		sel := uint64(int64(int32(ctEq(k, j>>6))))
		w[k] = w[k]&^(bit&sel) | (b<<(j&63))&sel
	}
}
