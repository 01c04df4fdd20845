package mldsa

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
