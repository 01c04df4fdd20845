package mldsa

// useHint is UseHint (Algorithm 40), for h ∈ {0, 1}.
func useHint(h uint32, r fieldElement, γ2 uint32) uint32 {
	if γ2 == γ2For32 {
		return useHintFor32(h, uint32(r))
	}
	return useHintFor88(h, uint32(r))
}

// useHintPolyGeneric is UseHint (Algorithm 40) on every coefficient, for
// h ∈ {0, 1}: w1 = UseHint(h, r). w1 may alias r.
func useHintPolyGeneric(w1, h, r *ringElement, γ2 uint32) {
	if γ2 == γ2For32 {
		for i := range r {
			w1[i] = fieldElement(useHintFor32(uint32(h[i]), uint32(r[i])))
		}
		return
	}
	for i := range r {
		w1[i] = fieldElement(useHintFor88(uint32(h[i]), uint32(r[i])))
	}
}
