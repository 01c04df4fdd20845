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
// bound (t = montReduce(…) < 2q, and a + t, a + 2q − t), so values stay
// below 17q < 2³² and one reduction ends it; products z·b stay below
// q·17q < q·2³². The eight layers go two at a time (len = 128 and 64, 32
// and 16, 8 and 4, 2 and 1): four coefficients are loaded once and stored
// once for four butterflies.
func nttGeneric(w *ringElement) {
	// Layers len = L and L/2. In the b-th block of 2L, Algorithm 41 takes
	// ζ^BitRev₈(m) with m = 128/L + b for len = L (line 4: m counts the
	// blocks of all layers), and 2m, 2m + 1 for its two halves at len = L/2.
	m := 1
	for L := 128; L >= 8; L /= 4 {
		for s := 0; s < n256; s += 2 * L {
			nttButterflies4(w[s:s+2*L], uint64(zetasMont[m]), uint64(zetasMont[2*m]), uint64(zetasMont[2*m+1]))
			m++
		}
		m *= 2 // the blocks of len = L/2 counted
	}
	// len = 2 and 1 (L = 2: m = 64 + g, then 128 + 2g and 129 + 2g), with
	// the final reduction.
	for g := 0; g < n256/4; g++ {
		c := (*[4]fieldElement)(w[4*g : 4*g+4])
		z1 := uint64(zetasMont[64+g])
		a0, a1, a2, a3 := uint32(c[0]), uint32(c[1]), uint32(c[2]), uint32(c[3])
		t := montReduce(z1 * uint64(a2))
		a0, a2 = a0+t, a0+2*q-t
		t = montReduce(z1 * uint64(a3))
		a1, a3 = a1+t, a1+2*q-t
		t = montReduce(uint64(zetasMont[128+2*g]) * uint64(a1))
		a0, a1 = a0+t, a0+2*q-t
		t = montReduce(uint64(zetasMont[129+2*g]) * uint64(a3))
		a2, a3 = a2+t, a2+2*q-t
		c[0], c[1], c[2], c[3] = reduce(a0), reduce(a1), reduce(a2), reduce(a3)
	}
}

// nttButterflies4 runs two layers of NTT (Algorithm 41, lines 5 to 10) on
// a block of one len = L layer, in quarters a0 ‖ a1 ‖ a2 ‖ a3 (a0 ‖ a1 and
// a2 ‖ a3 its halves of len = L/2), with z1 = ζ^BitRev₈(m)·2³² mod q for
// len = L and z2, z3 for the halves. Each layer adds at most 2q to the
// bound.
func nttButterflies4(block []fieldElement, z1, z2, z3 uint64) {
	h := len(block) / 4
	a0, a1, a2, a3 := block[:h], block[h:2*h], block[2*h:3*h], block[3*h:4*h]
	a1, a2, a3 = a1[:len(a0)], a2[:len(a0)], a3[:len(a0)]
	for j := range a0 {
		x0, x1, x2, x3 := uint32(a0[j]), uint32(a1[j]), uint32(a2[j]), uint32(a3[j])
		t := montReduce(z1 * uint64(x2))
		x0, x2 = x0+t, x0+2*q-t
		t = montReduce(z1 * uint64(x3))
		x1, x3 = x1+t, x1+2*q-t
		t = montReduce(z2 * uint64(x1))
		x0, x1 = x0+t, x0+2*q-t
		t = montReduce(z3 * uint64(x3))
		x2, x3 = x2+t, x2+2*q-t
		a0[j], a1[j], a2[j], a3[j] = fieldElement(x0), fieldElement(x1), fieldElement(x2), fieldElement(x3)
	}
}
