package mldsa

// hintBitUnpackGeneric is HintBitUnpack (Algorithm 21); false means ⊥ (a
// malformed hint: counts out of order or above ω, indices not increasing,
// or nonzero padding). The signature is public.
func hintBitUnpackGeneric(h []ringElement, y []byte, ω int) bool {
	index := 0
	for i := range h {
		h[i] = ringElement{}
		end := int(y[ω+i])
		if end < index || end > ω {
			return false
		}
		first := index
		for ; index < end; index++ {
			if index > first && y[index-1] >= y[index] {
				return false
			}
			h[i][y[index]] = 1
		}
	}
	for ; index < ω; index++ {
		if y[index] != 0 {
			return false
		}
	}
	return true
}
