package mldsa

// highBits is HighBits (Algorithm 37).
func highBits(r fieldElement, γ2 uint32) uint32 {
	r1, _ := decompose(r, γ2)
	return r1
}

// highBitsPolyGeneric is HighBits (Algorithm 37) on every coefficient.
func highBitsPolyGeneric(w1, w *ringElement, γ2 uint32) {
	for i := range w {
		w1[i] = fieldElement(highBits(w[i], γ2))
	}
}
