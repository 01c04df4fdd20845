package mldsa

// toMontgomeryPolyGeneric sets w = w·2³² mod q coefficient-wise: the
// Montgomery form in which one factor of each product of T_q is kept.
func toMontgomeryPolyGeneric(w *ringElement) {
	for i := range w {
		w[i] = toMontgomery(w[i])
	}
}
