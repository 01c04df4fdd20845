package mldsa

import "unsafe"

// rejBoundedPolyGeneric is RejBoundedPoly (Algorithm 31): coefficients in [−η, η]
// (stored mod q) from SHAKE256(ρ′ ‖ IntegerToBytes(r, 2)). ρ′ is secret.
// It returns false if the block bound of Appendix C runs out.
func rejBoundedPolyGeneric(a *ringElement, ρPrime *[64]byte, r uint16, η int) bool {
	s := newShake256()
	s.write(ρPrime[:])
	s.writeByte(byte(r))
	s.writeByte(byte(r >> 8))
	n := 0
	for blocks := 0; blocks < rejBoundedPolyBlocks; blocks++ {
		n = rejBoundedPolyParse(a, n, s.block(), η)
		if n == n256 {
			return true
		}
	}
	return false
}

// rejBoundedPolyParse appends to a[n:] the coefficients that the bytes b
// accept (Algorithm 31, lines 4 to 15) and returns the new count. No branch
// depends on an accepted value: each half-byte is converted and written
// whether accepted or not, and only the count advances by the acceptance
// bit. What timing and addresses may reveal is where the rejections fall,
// which FIPS 204 makes independent of the coefficients.
func rejBoundedPolyParse(a *ringElement, n int, b []byte, η int) int {
	for _, z := range b {
		for _, h := range [2]uint32{uint32(z) & 0xF, uint32(z) >> 4} {
			if n == n256 {
				return n
			}
			v, ok := coeffFromHalfByte(h, η)
			declassify(publicRejBounded, unsafe.Pointer(&ok), 4)
			a[n] = v
			n += int(ok)
		}
	}
	return n
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
