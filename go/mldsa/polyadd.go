package mldsa

// polyAddGeneric sets w = w + b coefficient-wise (AddNTT, Algorithm 44;
// the sum in R_q is the same).
func polyAddGeneric(w, b *ringElement) {
	for i := range w {
		w[i] = fieldAdd(w[i], b[i])
	}
}
