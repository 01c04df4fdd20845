package mldsa

// The hint packings of FIPS 204, §7.2 (Algorithms 20 and 21); the
// polynomial packings are in bitpack.go and bitunpack.go.

// hintBitPack is HintBitPack (Algorithm 20) into ω + k bytes. The hint is
// only packed for the signature that is returned, so it is public here.
func hintBitPack(out []byte, h []ringElement, ω int) {
	clear(out[:ω+len(h)])
	index := 0
	for i := range h {
		for j, v := range h[i] {
			if v != 0 {
				out[index] = byte(j)
				index++
			}
		}
		out[ω+i] = byte(index)
	}
}

// hintBitUnpack is HintBitUnpack (Algorithm 21); false means ⊥ (a malformed
// hint: counts out of order or above ω, indices not increasing, or nonzero
// padding). The signature is public.
func hintBitUnpack(h []ringElement, y []byte, ω int) bool {
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
