package mldsa

// expandMaskGeneric is ExpandMask (Algorithm 34): y[r] = BitUnpack(SHAKE256(ρ″ ‖
// IntegerToBytes(μ + r, 2)), γ1 − 1, γ1), coefficients mod q. No rejection.
// The first fourWayCount(ℓ) polynomials come from the four-way sponge, four
// at a time; the others one at a time.
func expandMaskGeneric(y []ringElement, ρPrimePrime *[64]byte, μ int, γ1Bits int) {
	four := fourWayCount(len(y))
	for r := 0; r < four; r += 4 {
		var ptrs [4]*ringElement // nil past the end: lanes left out
		var nonces [4]uint16
		for j := 0; j < 4 && r+j < four; j++ {
			ptrs[j], nonces[j] = &y[r+j], uint16(μ+r+j)
		}
		expandMaskPolyx4(&ptrs, ρPrimePrime, &nonces, γ1Bits)
	}
	for r := four; r < len(y); r++ {
		expandMaskPoly(&y[r], ρPrimePrime, uint16(μ+r), γ1Bits)
	}
}

// expandMaskPoly is one polynomial of ExpandMask (Algorithm 34, lines 3
// to 5): y = BitUnpack(SHAKE256(ρ″ ‖ IntegerToBytes(nonce, 2)), γ1 − 1, γ1).
// ρ″ is secret: nothing here branches on it or indexes by it.
func expandMaskPoly(y *ringElement, ρPrimePrime *[64]byte, nonce uint16, γ1Bits int) {
	c := γ1Bits + 1 // 1 + bitlen(γ1 − 1)
	var buf [32 * 20]byte
	s := newShake256()
	s.write(ρPrimePrime[:])
	s.writeByte(byte(nonce))
	s.writeByte(byte(nonce >> 8))
	v := buf[:32*c]
	s.read(v)
	bitUnpackSigned(y, v, c, 1<<γ1Bits)
}

// expandMaskPolyx4 is expandMaskPoly for four nonces at once, on the
// four-way sponge: y[j] gets what expandMaskPoly gives for nonces[j]. A
// nil y[j] is a lane left out (padding of a group of fewer than four).
func expandMaskPolyx4(y *[4]*ringElement, ρPrimePrime *[64]byte, nonces *[4]uint16, γ1Bits int) {
	c := γ1Bits + 1
	var buf [4][32 * 20]byte
	var s shake256x4
	s.absorbSeedNonces(ρPrimePrime, nonces)
	v := 32 * c
	s.read(buf[0][:v], buf[1][:v], buf[2][:v], buf[3][:v])
	for j := range y {
		if y[j] != nil {
			bitUnpackSigned(y[j], buf[j][:v], c, 1<<γ1Bits)
		}
	}
}
