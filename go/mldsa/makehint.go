package mldsa

// makeHint is MakeHint (Algorithm 39): 1 if adding z changes the high bits
// of r.
func makeHint(z, r fieldElement, γ2 uint32) uint32 {
	return ctNeq(highBits(r, γ2), highBits(fieldAdd(r, z), γ2))
}

// makeHintPolyGeneric is MakeHint (Algorithm 39) on every coefficient:
// h = MakeHint(z, r). It returns the number of ones, counted without
// branches.
func makeHintPolyGeneric(h, z, r *ringElement, γ2 uint32) uint32 {
	var count uint32
	for i := range h {
		b := makeHint(z[i], r[i], γ2)
		h[i] = fieldElement(b)
		count += b
	}
	return count
}
