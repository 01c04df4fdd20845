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
	if γ2 == γ2For32 {
		for _, r := range w {
			_, r0 := decomposeFor32(uint32(r))
			v |= absExceeds(r0, bound)
		}
		return v
	}
	for _, r := range w {
		_, r0 := decomposeFor88(uint32(r))
		v |= absExceeds(r0, bound)
	}
	return v
}

// absExceeds returns 1 if |r0| ≥ bound and 0 otherwise, for |r0|, bound <
// 2³¹.
func absExceeds(r0 int32, bound uint32) uint32 {
	abs := uint32(r0 ^ r0>>31 - r0>>31)
	return (bound - 1 - abs) >> 31
}
