package mldsa

// useHint is UseHint (Algorithm 40), for h ∈ {0, 1}.
func useHint(h uint32, r fieldElement, γ2 uint32) uint32 {
	m := (q - 1) / (2 * γ2)
	r1, r0 := decompose(r, γ2)
	// r0 > 0 exactly when −r0 is negative (|r0| ≤ γ2, no overflow).
	pos := uint32(-r0 >> 31)
	delta := (pos&1 | ^pos&(m-1)) & -h
	r1 += delta
	// r1 < 2m: subtract m once if needed.
	t := r1 - m
	return t + uint32(int32(t)>>31)&m
}

// useHintPolyGeneric is UseHint (Algorithm 40) on every coefficient, for
// h ∈ {0, 1}: w1 = UseHint(h, r). w1 may alias r.
func useHintPolyGeneric(w1, h, r *ringElement, γ2 uint32) {
	for i := range r {
		w1[i] = fieldElement(useHint(uint32(h[i]), r[i], γ2))
	}
}
