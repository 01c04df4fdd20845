package mldsa

// zetasInvMont[m] = −ζ^BitRev₈(m) · 2³² mod q, the constants of Algorithm
// 42, line 8, in Montgomery form.
var zetasInvMont = func() (z [n256]uint32) {
	for m := range z {
		z[m] = q - zetasMont[m]
	}
	return z
}()

// nttInverseGeneric is NTT⁻¹ (Algorithm 42). Coefficients in [0, q) in and
// out. The first two layers (len = 1 and 2) go together, four coefficients
// at a time. Layer ℓ (0 to 7) takes inputs below 2^ℓ·q and adds that bound
// before subtracting, so sums stay below 2⁸q < 2³² and products below
// q · 2³².
func nttInverseGeneric(w *ringElement) {
	for g := 0; g < n256/4; g++ {
		c := (*[4]fieldElement)(w[4*g : 4*g+4])
		a0, a1, a2, a3 := uint32(c[0]), uint32(c[1]), uint32(c[2]), uint32(c[3])
		// len = 1: m = 255 − 2g and 254 − 2g; inputs below q.
		a0, a1 = a0+a1, montReduce(uint64(zetasInvMont[255-2*g])*uint64(a0+q-a1))
		a2, a3 = a2+a3, montReduce(uint64(zetasInvMont[254-2*g])*uint64(a2+q-a3))
		// len = 2: m = 127 − g; inputs below 2q.
		z2 := uint64(zetasInvMont[127-g])
		a0, a2 = a0+a2, montReduce(z2*uint64(a0+2*q-a2))
		a1, a3 = a1+a3, montReduce(z2*uint64(a1+2*q-a3))
		c[0], c[1], c[2], c[3] = fieldElement(a0), fieldElement(a1), fieldElement(a2), fieldElement(a3)
	}
	m := n256 / 4
	bound := uint32(4 * q)
	for length := 4; length < n256/2; length *= 2 {
		for start := 0; start < n256; start += 2 * length {
			m--
			z := uint64(zetasInvMont[m])
			lo := w[start : start+length]
			hi := w[start+length : start+2*length]
			hi = hi[:len(lo)]
			for j := range lo {
				a, b := uint32(lo[j]), uint32(hi[j])
				lo[j] = fieldElement(a + b)
				hi[j] = fieldElement(montReduce(z * uint64(a+bound-b)))
			}
		}
		bound *= 2
	}
	// The last layer (len = 128, m = 1, inputs below 128q) with the scaling
	// by 256⁻¹ of line 21 folded in: the upper half multiplies by
	// −ζ^BitRev₈(1)·256⁻¹ at once.
	lo, hi := w[:n256/2], w[n256/2:]
	for j := range lo {
		a, b := uint32(lo[j]), uint32(hi[j])
		lo[j] = montMul(invNTTMul, a+b)
		hi[j] = montMul(lastInvNTTMul, a+bound-b)
	}
}

// lastInvNTTMul = −ζ^BitRev₈(1) · 256⁻¹ · 2³² mod q.
var lastInvNTTMul = uint32(montMul(zetasInvMont[1], invNTTMul))
