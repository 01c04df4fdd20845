package mldsa

// zetasMont[k] = ζ^BitRev₈(k) · 2³² mod q, the constants of Algorithms 41
// and 42 (Appendix B lists ζ^BitRev₈(k)) in Montgomery form.
var zetasMont = func() (z [n256]uint32) {
	for k := range z {
		var brv int
		for b := 0; b < 8; b++ {
			brv |= (k >> b & 1) << (7 - b)
		}
		x := uint64(rModQ)
		for i := 0; i < brv; i++ {
			x = x * ζ % q
		}
		z[k] = uint32(x)
	}
	return z
}()

// nttGeneric is NTT (Algorithm 41). Coefficients in [0, q) in and out.
// Inside, butterflies do not reduce: each layer adds at most 2q to the
// bound, so values stay below 17q < 2³² and one reduction ends it. The last
// two layers (len = 2 and 1) go together, four coefficients at a time.
func nttGeneric(w *ringElement) {
	m := 0
	for length := 128; length >= 4; length /= 2 {
		for start := 0; start < n256; start += 2 * length {
			m++
			z := uint64(zetasMont[m])
			lo := w[start : start+length]
			hi := w[start+length : start+2*length]
			hi = hi[:len(lo)]
			for j := range lo {
				t := montReduce(z * uint64(hi[j])) // < 2q
				a := uint32(lo[j])
				hi[j] = fieldElement(a + 2*q - t)
				lo[j] = fieldElement(a + t)
			}
		}
	}
	// Here m = 63: len = 2 uses ζ entries 64 to 127, len = 1 128 to 255.
	for g := 0; g < n256/4; g++ {
		c := (*[4]fieldElement)(w[4*g : 4*g+4])
		z2 := uint64(zetasMont[64+g])
		a0, a1, a2, a3 := uint32(c[0]), uint32(c[1]), uint32(c[2]), uint32(c[3])
		t := montReduce(z2 * uint64(a2))
		a0, a2 = a0+t, a0+2*q-t
		t = montReduce(z2 * uint64(a3))
		a1, a3 = a1+t, a1+2*q-t
		t = montReduce(uint64(zetasMont[128+2*g]) * uint64(a1))
		a0, a1 = a0+t, a0+2*q-t
		t = montReduce(uint64(zetasMont[129+2*g]) * uint64(a3))
		a2, a3 = a2+t, a2+2*q-t
		c[0], c[1], c[2], c[3] = reduce(a0), reduce(a1), reduce(a2), reduce(a3)
	}
}
