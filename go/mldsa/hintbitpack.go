package mldsa

// hintBitPackGeneric is HintBitPack (Algorithm 20) into ω + k bytes. The
// hint is only packed for the signature that is returned, so it is public
// here.
func hintBitPackGeneric(out []byte, h []ringElement, ω int) {
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
