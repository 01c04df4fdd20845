package mldsa

// power2Round is Power2Round (Algorithm 35): r = r1·2ᵈ + r0 with r0 in
// (−2ᵈ⁻¹, 2ᵈ⁻¹]. r0 is returned mod q.
func power2Round(r fieldElement) (r1 uint32, r0 fieldElement) {
	r1 = (uint32(r) + 1<<(d-1) - 1) >> d
	r0 = fieldSub(r, fieldElement(r1<<d))
	return r1, r0
}

// power2RoundPolyGeneric is Power2Round (Algorithm 35) on every
// coefficient: t = t1·2ᵈ + t0, t0 mod q. t may alias t0.
func power2RoundPolyGeneric(t1, t0, t *ringElement) {
	for i := range t {
		r1, r0 := power2Round(t[i])
		t1[i], t0[i] = fieldElement(r1), r0
	}
}
