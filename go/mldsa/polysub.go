package mldsa

// polySubGeneric sets w = w − b coefficient-wise (the difference in R_q
// and T_q).
func polySubGeneric(w, b *ringElement) {
	for i := range w {
		w[i] = fieldSub(w[i], b[i])
	}
}
