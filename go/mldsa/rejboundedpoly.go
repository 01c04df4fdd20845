package mldsa

import "unsafe"

// rejBoundedPolyGeneric is RejBoundedPoly (Algorithm 31): coefficients in [−η, η]
// (stored mod q) from SHAKE256(ρ′ ‖ IntegerToBytes(r, 2)). ρ′ is secret.
// It returns false if the block bound of Appendix C runs out.
func rejBoundedPolyGeneric(a *ringElement, ρPrime *[64]byte, r uint16, η int) bool {
	// ρ′ ‖ r absorbed (lines 2 and 3) and padded in one block of the state:
	// the SHAKE padding (FIPS 202, §6.2) at byte 66 and byte 135.
	var st [25]uint64
	for i := 0; i < 8; i++ {
		st[i] = leUint64(ρPrime[8*i:])
	}
	st[8] = uint64(r) | 0x1F<<16
	st[shake256Rate/8-1] = 0x80 << 56
	var buf rejBoundedBuf
	n := 0
	for blocks := 0; blocks < rejBoundedPolyBlocks; blocks++ {
		keccakF1600(&st)
		n = rejBoundedPolyLanes(&buf, n, st[:shake256Rate/8], η)
		if n >= n256 {
			copy(a[:], buf[:n256])
			return true
		}
	}
	return false
}

// rejBoundedBuf holds the coefficients a sampler has accepted: a lane
// appends at most 16 to fewer than 256, and indices are taken mod 512, so
// that no bounds check is needed.
type rejBoundedBuf [512]fieldElement

// rejBoundedPolyLanes appends to buf[n:] the coefficients that the lanes of
// SHAKE256 output (little-endian, 16 half-bytes each, the low half of each
// byte first) accept (Algorithm 31, lines 4 to 15), lane by lane while
// n < 256, and returns the new count. No branch or address depends on an
// accepted value: every half-byte is converted and written, and the count
// advances by its acceptance bit. The bits of a lane are declared public
// together (what FIPS 204 makes independent of the coefficients: where the
// rejections fall; past the 256th coefficient, half-bytes that are no part
// of the key).
func rejBoundedPolyLanes(buf *rejBoundedBuf, n int, lanes []uint64, η int) int {
	// A half-byte b is accepted when b < 15 (η = 2) or b < 9 (η = 4)
	// (Algorithm 15): when adding 1 or 7 to it carries out of four bits.
	add := uint64(0x0101010101010101)
	if η == 4 {
		add *= 7
	}
	const nibbles = 0x0F0F0F0F0F0F0F0F
	for _, x := range lanes {
		if n >= n256 {
			break
		}
		// Bit 4i of ok: half-byte i of x accepted.
		const carries = 0x1010101010101010
		rejected := ((x&nibbles+add)&carries)>>4 | (x>>4&nibbles+add)&carries
		ok := rejected ^ 0x1111111111111111
		declassify(publicRejBounded, unsafe.Pointer(&ok), 8)
		n = appendHalfBytes(buf, n, x, ok, η)
	}
	return n
}

// appendHalfBytes writes the coefficients of the 16 half-bytes of x at
// buf[n], buf[n+1], ..., the count advancing by bit 4i of ok for half-byte
// i, and returns the count.
func appendHalfBytes(buf *rejBoundedBuf, n int, x, ok uint64, η int) int {
	for i := 0; i < 8; i++ {
		lo, hi := uint32(x)&0xF, uint32(x)>>4&0xF
		var v0, v1 fieldElement
		if η == 2 {
			v0, v1 = coeffFromHalfByteEta2(lo), coeffFromHalfByteEta2(hi)
		} else {
			v0, v1 = coeffFromHalfByteEta4(lo), coeffFromHalfByteEta4(hi)
		}
		buf[n&(len(buf)-1)] = v0
		n += int(ok & 1)
		buf[n&(len(buf)-1)] = v1
		n += int(ok >> 4 & 1)
		x, ok = x>>8, ok>>8
	}
	return n
}

// coeffFromHalfByte is CoeffFromHalfByte (Algorithm 15) without branches:
// the coefficient mod q and 1 if b is accepted, 0 if not.
func coeffFromHalfByte(b uint32, η int) (fieldElement, uint32) {
	if η == 2 {
		return coeffFromHalfByteEta2(b), (b - 15) >> 31
	}
	return coeffFromHalfByteEta4(b), (b - 9) >> 31
}

// coeffFromHalfByteEta2 is 2 − (b mod 5) mod q, Algorithm 15's value for
// η = 2 and b < 15; b mod 5 = b − 5⌊b·205/1024⌋ for b < 16.
func coeffFromHalfByteEta2(b uint32) fieldElement {
	return fieldElement(subMod(2, fieldElement(b-5*(b*205>>10))))
}

// coeffFromHalfByteEta4 is 4 − b mod q, Algorithm 15's value for η = 4 and
// b < 9.
func coeffFromHalfByteEta4(b uint32) fieldElement {
	return fieldElement(subMod(4, fieldElement(b)))
}
