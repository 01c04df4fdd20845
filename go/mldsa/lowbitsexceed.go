package mldsa

// lowBits is LowBits (Algorithm 38).
func lowBits(r fieldElement, γ2 uint32) int32 {
	_, r0 := decompose(r, γ2)
	return r0
}

// lowBitsExceedGeneric reports, as 1 or 0, whether ‖LowBits(w)‖∞ ≥ bound
// (Algorithm 7, line 23).
func lowBitsExceedGeneric(w *ringElement, bound, γ2 uint32) uint32 {
	var v uint32
	for _, r := range w {
		r0 := lowBits(r, γ2)
		abs := uint32(r0 ^ r0>>31 - r0>>31)
		v |= (bound - 1 - abs) >> 31
	}
	return v
}
