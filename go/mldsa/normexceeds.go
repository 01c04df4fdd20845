package mldsa

// infinityNorm returns |r| for r taken mod± q, in [0, (q−1)/2].
func infinityNorm(r fieldElement) uint32 {
	x := uint32(r)
	// x > (q−1)/2 exactly when (q−1)/2 − x is negative.
	neg := uint32(int32((q-1)/2-x) >> 31)
	return x ^ (x^(q-x))&neg
}

// normExceedsGeneric reports, as 1 or 0, whether ‖w‖∞ ≥ bound (the norm
// checks of Algorithm 7, lines 23 and 28, and Algorithm 8, line 13). It
// looks at every coefficient, so its time reveals nothing about which one
// exceeds.
func normExceedsGeneric(w *ringElement, bound uint32) uint32 {
	var v uint32
	for _, r := range w {
		// |r| ≥ bound exactly when bound − 1 − |r| is negative.
		v |= (bound - 1 - infinityNorm(r)) >> 31
	}
	return v
}
