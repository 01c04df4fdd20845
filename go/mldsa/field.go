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

// Decompose works on one coefficient r ∈ [0, q), for the two values of γ2
// (Table 1), each with a form of its own (xFor32 for γ2 = (q−1)/32, xFor88
// for (q−1)/88) that the compiler inlines with its constants: callers on a
// polynomial choose the form once.
const (
	γ2For32 = (q - 1) / 32 // ML-DSA-65 and ML-DSA-87
	γ2For88 = (q - 1) / 88 // ML-DSA-44
)

// r1Raw32 is ⌊(r + γ2 − 1)/(2γ2)⌋ for γ2 = (q−1)/32 and r ∈ [0, q): in
// [0, 16], 16 exactly when r1·2γ2 = q − 1 (r ≥ q − γ2), where Decompose
// (Algorithm 36, lines 3 and 4) takes r1 = 0 instead. It divides by 2γ2 =
// 2⁹·1023 as the reference implementation does; exact on [0, q) (checked
// exhaustively by the tests).
func r1Raw32(r uint32) uint32 { return (((r+127)>>7)*1025 + 1<<21) >> 22 }

// r1Raw88 is r1Raw32 for γ2 = (q−1)/88 (2γ2 = 2⁷·1488): in [0, 44].
func r1Raw88(r uint32) uint32 { return (((r+127)>>7)*11275 + 1<<23) >> 24 }

// decompose is Decompose (Algorithm 36): r = r1·2γ2 + r0 with r0 in
// (−γ2, γ2], except that r1·2γ2 = q − 1 becomes r1 = 0, r0 − 1.
func decompose(r fieldElement, γ2 uint32) (r1 uint32, r0 int32) {
	if γ2 == γ2For32 {
		return decomposeFor32(uint32(r))
	}
	return decomposeFor88(uint32(r))
}

// decomposeFor32 and decomposeFor88 are decompose for each γ2.
func decomposeFor32(r uint32) (r1 uint32, r0 int32) {
	raw := r1Raw32(r)
	top := (15 - raw) >> 31 // 1 when raw = 16
	return raw & 15, int32(r-raw*(2*γ2For32)) - int32(top)
}

func decomposeFor88(r uint32) (r1 uint32, r0 int32) {
	raw := r1Raw88(r)
	top := (43 - raw) >> 31 // 1 when raw = 44
	return raw &^ -top, int32(r-raw*(2*γ2For88)) - int32(top)
}

// highBitsFor32 and highBitsFor88 are HighBits (Algorithm 37).
func highBitsFor32(r uint32) uint32 { return r1Raw32(r) & 15 }

func highBitsFor88(r uint32) uint32 {
	raw := r1Raw88(r)
	return raw &^ -((43 - raw) >> 31)
}

// useHintFor32 is UseHint (Algorithm 40) for h ∈ {0, 1}: r1 ± h mod 16,
// + when r0 > 0 (lines 3 and 4). With raw r1 = 16, r0 = r − (q − 1) ≤ 0
// as Decompose's r0 − 1 is, so the raw r1 serves for the sign, and mod 16
// is a mask.
func useHintFor32(h, r uint32) uint32 {
	raw := r1Raw32(r)
	pos := (raw*(2*γ2For32) - r) >> 31 // r0 > 0; both terms below 2³¹
	return (raw + (2*pos-1)&-h) & 15
}

// useHintFor88 is useHintFor32 for m = 44: r1 ± h lies in [−1, 44] (raw
// r1 = 44 has r0 ≤ 0), brought into [0, 44).
func useHintFor88(h, r uint32) uint32 {
	raw := r1Raw88(r)
	pos := (raw*(2*γ2For88) - r) >> 31
	t := raw + (2*pos-1)&-h
	t += uint32(int32(t)>>31) & 44
	return t - (43-t)>>31*44
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
