package mldsa

// The ring R_q = ℤ_q[X]/(X²⁵⁶ + 1), its NTT domain T_q (FIPS 204, §2.3,
// §7.5) and Decompose (§7.4), which several coefficient maps share. Each
// routine with assembly has its generic implementation in <stem>.go
// (ntt.go, highbits.go, ...). Everything here is constant time: no branch
// and no memory address depends on a coefficient.

const (
	n256 = 256
	q    = 1<<23 - 1<<13 + 1 // 2²³ − 2¹³ + 1 = 8380417
	d    = 13                // dropped bits of t (Table 1)
	ζ    = 1753              // 512th root of unity mod q (§2.5)

	// Montgomery arithmetic with R = 2³².
	qNegInv   = 4236238847 // −q⁻¹ mod 2³²
	rModQ     = 4193792    // 2³² mod q
	r2ModQ    = 2365951    // 2⁶⁴ mod q
	r2dModQ   = 6346488    // 2⁶⁴ · 2ᵈ mod q: the factor 2ᵈ of t1·2ᵈ in Montgomery form
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

// Decompose works on one coefficient r ∈ [0, q).

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
