package mldsa

// infinityNorm returns |r| for r taken mod± q, in [0, (q−1)/2].
func infinityNorm(r fieldElement) uint32 {
	x := uint32(r)
	// x > (q−1)/2 exactly when (q−1)/2 − x is negative.
	neg := uint32(int32((q-1)/2-x) >> 31)
	return x ^ (x^(q-x))&neg
}

// normExceedsGeneric reports, as 1 or 0, whether ‖w‖∞ ≥ bound (the norm
// checks of Algorithm 7, lines 23 and 28, and Algorithm 8, line 13), for
// bound < 2³¹. It looks at every coefficient, so its time reveals nothing
// about which one exceeds.
func normExceedsGeneric(w *ringElement, bound uint32) uint32 {
	// |r| ≥ bound exactly when r ∈ [bound, q − bound], that is when
	// r − bound, taken mod 2³², is below q + 1 − 2·bound: a 64-bit
	// difference of the two is negative. No r has |r| > (q−1)/2.
	width := int64(q+1) - 2*int64(bound)
	if width <= 0 {
		return 0
	}
	var v uint64
	for _, r := range w {
		v |= uint64(uint32(r)-bound) - uint64(width)
	}
	return uint32(v >> 63)
}
