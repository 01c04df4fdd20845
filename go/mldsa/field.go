package mldsa

// The ring R_q = ℤ_q[X]/(X²⁵⁶ + 1), its NTT domain T_q (FIPS 204, §2.3,
// §7.5) and the coefficient maps of §7.4. Everything here is constant time:
// no branch and no memory address depends on a coefficient.

const (
	n256 = 256
	q    = 1<<23 - 1<<13 + 1 // 2²³ − 2¹³ + 1 = 8380417
	d    = 13                // dropped bits of t (Table 1)
	ζ    = 1753              // 512th root of unity mod q (§2.5)

	// Montgomery arithmetic with R = 2³².
	qNegInv   = 4236238847 // −q⁻¹ mod 2³²
	rModQ     = 4193792    // 2³² mod q
	r2ModQ    = 2365951    // 2⁶⁴ mod q
	invNTTMul = 16382      // 256⁻¹ · 2³² mod q: the scaling of Algorithm 42, line 21, in Montgomery form
)

// fieldElement is an element of ℤ_q, in [0, q) unless a comment says
// otherwise.
type fieldElement uint32

// ringElement is an element of R_q or T_q: 256 coefficients.
type ringElement [n256]fieldElement

// reduceOnce maps [0, 2q) to [0, q).
func reduceOnce(x uint32) fieldElement {
	y := x - q
	y += uint32(int32(y)>>31) & q
	return fieldElement(y)
}

// reduce maps any uint32 to [0, q). x>>23 is ⌊x/q⌋ or one less, because
// q < 2²³ and x < 2³²; so x − (x>>23)·q lies in [0, 2q).
func reduce(x uint32) fieldElement {
	return reduceOnce(x - (x>>23)*q)
}

func fieldAdd(a, b fieldElement) fieldElement { return reduceOnce(uint32(a + b)) }
func fieldSub(a, b fieldElement) fieldElement { return reduceOnce(uint32(a + q - b)) }

// montReduce returns x · 2⁻³² mod q in [0, 2q), for x < q · 2³².
func montReduce(x uint64) uint32 {
	m := uint32(x) * qNegInv
	return uint32((x + uint64(m)*q) >> 32)
}

// montMul returns a · b · 2⁻³² mod q in [0, q), for a · b < q · 2³².
func montMul(a, b uint32) fieldElement {
	return reduceOnce(montReduce(uint64(a) * uint64(b)))
}

// toMontgomery returns a · 2³² mod q: the form in which one factor of every
// product is kept, so that a single Montgomery reduction yields the plain
// product.
func toMontgomery(a fieldElement) fieldElement {
	return montMul(uint32(a), r2ModQ)
}

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

// multiplyNTTGeneric is MultiplyNTT (Algorithm 45): out = a ∘ b, with a in
// Montgomery form and b plain; out is plain, in [0, q).
func multiplyNTTGeneric(out, a, b *ringElement) {
	for i := range out {
		out[i] = montMul(uint32(a[i]), uint32(b[i]))
	}
}

// multiplyAccNTTGeneric is one row of MatrixVectorNTT (Algorithm 48):
// out = Σⱼ a[j] ∘ b[j], with every a[j] plain and b[j] in Montgomery form
// (the product is symmetric: one factor of each pair must be).
// Products are summed in 64 bits and reduced once: len(a) ≤ 8 keeps the
// sum below 8q² < q · 2³².
func multiplyAccNTTGeneric(out *ringElement, a, b []ringElement) {
	var acc [n256]uint64
	b = b[:len(a)]
	for j := range a {
		aj, bj := &a[j], &b[j]
		for i := range acc {
			acc[i] += uint64(aj[i]) * uint64(bj[i])
		}
	}
	for i := range out {
		out[i] = reduceOnce(montReduce(acc[i]))
	}
}

// Coefficient maps (§7.4). Each works on one coefficient r ∈ [0, q).

// power2Round is Power2Round (Algorithm 35): r = r1·2ᵈ + r0 with r0 in
// (−2ᵈ⁻¹, 2ᵈ⁻¹]. r0 is returned mod q.
func power2Round(r fieldElement) (r1 uint32, r0 fieldElement) {
	r1 = (uint32(r) + 1<<(d-1) - 1) >> d
	r0 = fieldSub(r, fieldElement(r1<<d))
	return r1, r0
}

// decompose is Decompose (Algorithm 36): r = r1·2γ2 + r0 with r0 in
// (−γ2, γ2], except that r1·2γ2 = q − 1 becomes r1 = 0, r0 − 1.
// r1 = ⌊(r + γ2 − 1)/(2γ2)⌋, computed as a product with a reciprocal that is
// exact on [0, q + γ2) (checked exhaustively by the tests).
func decompose(r fieldElement, γ2 uint32) (r1 uint32, r0 int32) {
	x := uint64(uint32(r) + γ2 - 1)
	if γ2 == (q-1)/32 {
		r1 = uint32(x * reciprocal32 >> 48)
	} else {
		r1 = uint32(x * reciprocal88 >> 48)
	}
	r0 = int32(uint32(r) - r1*2*γ2)
	// r1·2γ2 = q − 1 exactly when r1 = (q−1)/(2γ2).
	top := ctEq(r1, (q-1)/(2*γ2))
	r1 &^= top
	r0 -= int32(top & 1)
	return r1, r0
}

// ⌈2⁴⁸/(2γ2)⌉ for γ2 = (q−1)/32 and (q−1)/88.
const (
	reciprocal32 = (1<<48 + (q-1)/16 - 1) / ((q - 1) / 16)
	reciprocal88 = (1<<48 + (q-1)/44 - 1) / ((q - 1) / 44)
)

// highBits is HighBits (Algorithm 37).
func highBits(r fieldElement, γ2 uint32) uint32 {
	r1, _ := decompose(r, γ2)
	return r1
}

// lowBits is LowBits (Algorithm 38).
func lowBits(r fieldElement, γ2 uint32) int32 {
	_, r0 := decompose(r, γ2)
	return r0
}

// makeHint is MakeHint (Algorithm 39): 1 if adding z changes the high bits
// of r.
func makeHint(z, r fieldElement, γ2 uint32) uint32 {
	return ctNeq(highBits(r, γ2), highBits(fieldAdd(r, z), γ2))
}

// useHint is UseHint (Algorithm 40), for h ∈ {0, 1}.
func useHint(h uint32, r fieldElement, γ2 uint32) uint32 {
	m := (q - 1) / (2 * γ2)
	r1, r0 := decompose(r, γ2)
	// r0 > 0 exactly when −r0 is negative (|r0| ≤ γ2, no overflow).
	pos := uint32(-r0 >> 31)
	delta := (pos&1 | ^pos&(m-1)) & -h
	r1 += delta
	// r1 < 2m: subtract m once if needed.
	t := r1 - m
	return t + uint32(int32(t)>>31)&m
}

// infinityNorm returns |r| for r taken mod± q, in [0, (q−1)/2].
func infinityNorm(r fieldElement) uint32 {
	x := uint32(r)
	// x > (q−1)/2 exactly when (q−1)/2 − x is negative.
	neg := uint32(int32((q-1)/2-x) >> 31)
	return x ^ (x^(q-x))&neg
}

// normExceedsGeneric reports, as 1 or 0, whether ‖w‖∞ ≥ bound (the norm
// checks of Algorithm 7, lines 23 and 28, and Algorithm 8, line 13). It
// looks at every coefficient, so its time reveals nothing about which one
// exceeds.
func normExceedsGeneric(w *ringElement, bound uint32) uint32 {
	var v uint32
	for _, r := range w {
		// |r| ≥ bound exactly when bound − 1 − |r| is negative.
		v |= (bound - 1 - infinityNorm(r)) >> 31
	}
	return v
}

// lowBitsExceedGeneric reports, as 1 or 0, whether ‖LowBits(w)‖∞ ≥ bound
// (Algorithm 7, line 23).
func lowBitsExceedGeneric(w *ringElement, bound, γ2 uint32) uint32 {
	var v uint32
	for _, r := range w {
		r0 := lowBits(r, γ2)
		abs := uint32(r0 ^ r0>>31 - r0>>31)
		v |= (bound - 1 - abs) >> 31
	}
	return v
}

// ctEq returns 0xFFFFFFFF if a == b and 0 otherwise.
func ctEq(a, b uint32) uint32 {
	x := a ^ b
	// x | −x has its top bit set exactly when x ≠ 0.
	return ((x | -x) >> 31) - 1
}

// ctNeq returns 1 if a ≠ b and 0 otherwise.
func ctNeq(a, b uint32) uint32 {
	x := a ^ b
	return (x | -x) >> 31
}

// Vector helpers over slices of ring elements.

func polyAdd(out, a, b *ringElement) {
	for i := range out {
		out[i] = fieldAdd(a[i], b[i])
	}
}

func polySub(out, a, b *ringElement) {
	for i := range out {
		out[i] = fieldSub(a[i], b[i])
	}
}

// Polynomial forms of the coefficient maps: the routines that signing and
// verification call, one coefficient map applied to all 256.

// power2RoundPolyGeneric is Power2Round (Algorithm 35) on every
// coefficient: t = t1·2ᵈ + t0, t0 mod q. t may alias t0.
func power2RoundPolyGeneric(t1, t0, t *ringElement) {
	for i := range t {
		r1, r0 := power2Round(t[i])
		t1[i], t0[i] = fieldElement(r1), r0
	}
}

// highBitsPolyGeneric is HighBits (Algorithm 37) on every coefficient.
func highBitsPolyGeneric(w1, w *ringElement, γ2 uint32) {
	for i := range w {
		w1[i] = fieldElement(highBits(w[i], γ2))
	}
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

// useHintPolyGeneric is UseHint (Algorithm 40) on every coefficient, for
// h ∈ {0, 1}: w1 = UseHint(h, r). w1 may alias r.
func useHintPolyGeneric(w1, h, r *ringElement, γ2 uint32) {
	for i := range r {
		w1[i] = fieldElement(useHint(uint32(h[i]), r[i], γ2))
	}
}
