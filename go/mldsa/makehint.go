package mldsa

// makeHint is MakeHint (Algorithm 39): 1 if adding z changes the high bits
// of r.
func makeHint(z, r fieldElement, γ2 uint32) uint32 {
	if γ2 == γ2For32 {
		return makeHintFor32(uint32(z), uint32(r))
	}
	return makeHintFor88(uint32(z), uint32(r))
}

// makeHintFor32 and makeHintFor88 are makeHint for each γ2.
func makeHintFor32(z, r uint32) uint32 {
	return ctNeq(highBitsFor32(r), highBitsFor32(uint32(fieldAdd(fieldElement(r), fieldElement(z)))))
}

func makeHintFor88(z, r uint32) uint32 {
	return ctNeq(highBitsFor88(r), highBitsFor88(uint32(fieldAdd(fieldElement(r), fieldElement(z)))))
}

// makeHintPolyGeneric is MakeHint (Algorithm 39) on every coefficient:
// h = MakeHint(z, r). It returns the number of ones, counted without
// branches.
func makeHintPolyGeneric(h, z, r *ringElement, γ2 uint32) uint32 {
	var count uint32
	if γ2 == γ2For32 {
		for i := range h {
			b := makeHintFor32(uint32(z[i]), uint32(r[i]))
			h[i] = fieldElement(b)
			count += b
		}
		return count
	}
	for i := range h {
		b := makeHintFor88(uint32(z[i]), uint32(r[i]))
		h[i] = fieldElement(b)
		count += b
	}
	return count
}
