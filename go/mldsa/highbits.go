package mldsa

// highBits is HighBits (Algorithm 37).
func highBits(r fieldElement, γ2 uint32) uint32 {
	if γ2 == γ2For32 {
		return highBitsFor32(uint32(r))
	}
	return highBitsFor88(uint32(r))
}

// highBitsPolyGeneric is HighBits (Algorithm 37) on every coefficient.
func highBitsPolyGeneric(w1, w *ringElement, γ2 uint32) {
	if γ2 == γ2For32 {
		for i := range w {
			w1[i] = fieldElement(highBitsFor32(uint32(w[i])))
		}
		return
	}
	for i := range w {
		w1[i] = fieldElement(highBitsFor88(uint32(w[i])))
	}
}
