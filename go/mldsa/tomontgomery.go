package mldsa

// toMontgomeryPolyGeneric sets w = w·2³² mod q coefficient-wise: the
// Montgomery form in which one factor of each product of T_q is kept.
func toMontgomeryPolyGeneric(w *ringElement) {
	for i := range w {
		w[i] = toMontgomery(w[i])
	}
}

// toMontgomeryT1PolyGeneric sets w = w·2ᵈ·2³² mod q coefficient-wise: from
// NTT(t1), the Montgomery form of NTT(t1·2ᵈ) (Algorithm 8, line 9).
func toMontgomeryT1PolyGeneric(w *ringElement) {
	for i := range w {
		w[i] = montMul(uint32(w[i]), r2dModQ)
	}
}

// fromMontgomeryPolyGeneric sets w = w·2⁻³² mod q coefficient-wise: NTT(c)
// scaled as the Montgomery products of plain operands are (Algorithm 8,
// line 9).
func fromMontgomeryPolyGeneric(w *ringElement) {
	for i := range w {
		w[i] = reduceOnce(montReduce(uint64(w[i])))
	}
}
