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
// out. Layer ℓ (len = 2^ℓ, ℓ = 0 to 7) takes inputs below 2^ℓ·q (and at
// least 2q, what montReduce returns) and adds that bound before
// subtracting, so sums stay below 2⁸q < 2³² and products below q·2⁸q <
// q·2³². The layers go two at a time (len = 1 and 2, 4 and 8, 16 and 32,
// 64 and 128): four coefficients are loaded once and stored once for four
// butterflies.
func nttInverseGeneric(w *ringElement) { nttInverseScaled(w, invNTTMul, lastInvNTTMul) }

// nttInverseMontGeneric is NTT⁻¹ (Algorithm 42) with its result times 2³²
// mod q: the scaling of line 21 by 256⁻¹·2³², so that a product of two
// plain operands in T_q (which Montgomery reduction leaves times 2⁻³²)
// comes back as Algorithm 42 gives the plain product.
func nttInverseMontGeneric(w *ringElement) {
	nttInverseScaled(w, invNTTMontMul, lastInvNTTMontMul)
}

// nttInverseScaled is NTT⁻¹ with the last layer's multipliers mul (the
// lower half) and lastMul (the upper half, −ζ^BitRev₈(1) folded in).
func nttInverseScaled(w *ringElement, mul, lastMul uint32) {
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
	// len = L and 2L. In the B-th block of 4L, Algorithm 42 takes
	// −ζ^BitRev₈(m) with m = 256/L − 1 − 2B and 256/L − 2 − 2B for its two
	// halves at len = L (line 4: m counts down over the blocks of all
	// layers), then m = 128/L − 1 − B for len = 2L.
	bound := uint32(4 * q)
	for L := 4; L <= 16; L *= 4 {
		mL, m2L := 256/L-1, 128/L-1
		for s := 0; s < n256; s += 4 * L {
			nttInverseButterflies4(w[s:s+4*L], uint64(zetasInvMont[mL]), uint64(zetasInvMont[mL-1]), uint64(zetasInvMont[m2L]), bound)
			mL -= 2
			m2L--
		}
		bound *= 4
	}
	// len = 64 (m = 3 and 2; inputs below 64q) and the last layer (len =
	// 128, m = 1, inputs below 128q) with the scaling by 256⁻¹ of line 21
	// folded in: the upper half multiplies by −ζ^BitRev₈(1)·256⁻¹ at once.
	a0, a1, a2, a3 := w[0:64], w[64:128], w[128:192], w[192:256]
	zA, zB := uint64(zetasInvMont[3]), uint64(zetasInvMont[2])
	const b64, b128 = 64 * q, 128 * q
	for j := range a0 {
		x0, x1, x2, x3 := uint32(a0[j]), uint32(a1[j]), uint32(a2[j]), uint32(a3[j])
		x0, x1 = x0+x1, montReduce(zA*uint64(x0+b64-x1))
		x2, x3 = x2+x3, montReduce(zB*uint64(x2+b64-x3))
		a0[j], a2[j] = montMul(mul, x0+x2), montMul(lastMul, x0+b128-x2)
		a1[j], a3[j] = montMul(mul, x1+x3), montMul(lastMul, x1+b128-x3)
	}
}

// nttInverseButterflies4 runs two layers of NTT⁻¹ (Algorithm 42, lines 5
// to 10) on a block of one len = 2L layer, in quarters a0 ‖ a1 ‖ a2 ‖ a3
// (a0 ‖ a1 and a2 ‖ a3 its halves of len = L), with zA, zB =
// −ζ^BitRev₈(m)·2³² mod q for the halves at len = L and zC for len = 2L.
// Inputs are below bound, outputs below 4·bound.
func nttInverseButterflies4(block []fieldElement, zA, zB, zC uint64, bound uint32) {
	h := len(block) / 4
	a0, a1, a2, a3 := block[:h], block[h:2*h], block[2*h:3*h], block[3*h:4*h]
	a1, a2, a3 = a1[:len(a0)], a2[:len(a0)], a3[:len(a0)]
	bound2 := 2 * bound
	for j := range a0 {
		x0, x1, x2, x3 := uint32(a0[j]), uint32(a1[j]), uint32(a2[j]), uint32(a3[j])
		x0, x1 = x0+x1, montReduce(zA*uint64(x0+bound-x1))
		x2, x3 = x2+x3, montReduce(zB*uint64(x2+bound-x3))
		x0, x2 = x0+x2, montReduce(zC*uint64(x0+bound2-x2))
		x1, x3 = x1+x3, montReduce(zC*uint64(x1+bound2-x3))
		a0[j], a1[j], a2[j], a3[j] = fieldElement(x0), fieldElement(x1), fieldElement(x2), fieldElement(x3)
	}
}

// lastInvNTTMul = −ζ^BitRev₈(1) · 256⁻¹ · 2³² mod q.
var lastInvNTTMul = uint32(montMul(zetasInvMont[1], invNTTMul))

// invNTTMontMul and lastInvNTTMontMul are invNTTMul and lastInvNTTMul
// times 2³² mod q.
var (
	invNTTMontMul     = uint32(toMontgomery(invNTTMul))
	lastInvNTTMontMul = uint32(toMontgomery(fieldElement(lastInvNTTMul)))
)
