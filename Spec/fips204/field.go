package fips204

// Poly is an element of R or R_q: its 256 coefficients w_0, ..., w_255 of
// w = Σ w_i X^i (§2.3). An element of T_q (the NTT domain) is also a Poly.
type Poly [256]int32

// modQ is r mod q, in [0, q) (§2.3).
func modQ(r int64) int32 {
	r %= Q
	if r < 0 {
		r += Q
	}
	return int32(r)
}

// modPM is m mod± α: the unique m′ ≡ m (mod α) in (−⌈α/2⌉, ⌊α/2⌋]
// (§2.3), for α even or odd.
func modPM(m int64, alpha int64) int64 {
	r := m % alpha
	if r < 0 {
		r += alpha
	}
	if r > alpha/2 {
		r -= alpha
	}
	return r
}

// infNorm is ‖w‖∞ = max |w_i mod± q| (§2.3), for w in R_q or R.
func infNorm(w Poly) int64 {
	var m int64
	for _, c := range w {
		m = max(m, CoeffNorm(c))
	}
	return m
}

// CoeffNorm is |c mod± q|, one coefficient's part of ‖w‖∞ (§2.3).
func CoeffNorm(c int32) int64 {
	v := modPM(int64(c), Q)
	if v < 0 {
		v = -v
	}
	return v
}

// vecInfNorm is ‖v‖∞ of a vector: the largest ‖v[i]‖∞.
func vecInfNorm(v []Poly) int64 {
	var m int64
	for _, w := range v {
		m = max(m, infNorm(w))
	}
	return m
}

// zetas[m] = ζ^BitRev8(m) mod q, the constants of Algorithms 41 and 42,
// computed here (Appendix B lists them).
var zetas = func() [256]int32 {
	var z [256]int32
	for m := 0; m < 256; m++ {
		z[m] = powMod(Zeta, int64(BitRev8(uint8(m))))
	}
	return z
}()

func powMod(b, e int64) int32 {
	r := int64(1)
	for ; e > 0; e-- {
		r = r * b % Q
	}
	return int32(r)
}

// NTT computes ŵ = NTT(w) (§2.5) with coefficients in [0, q).
//
// It implements NTT, according to FIPS 204, Algorithm 41.
func NTT(w Poly) Poly {
	var wh Poly
	for j := 0; j < 256; j++ { // lines 1–3
		wh[j] = modQ(int64(w[j]))
	}
	m := 0                                        // line 4
	for length := 128; length >= 1; length /= 2 { // lines 5, 6, 18
		for start := 0; start < 256; start += 2 * length { // lines 7, 8, 16
			m++                                     // line 9
			z := zetas[m]                           // line 10
			for j := start; j < start+length; j++ { // line 11
				t := modQ(int64(z) * int64(wh[j+length]))    // line 12
				wh[j+length] = modQ(int64(wh[j]) - int64(t)) // line 13
				wh[j] = modQ(int64(wh[j]) + int64(t))        // line 14
			}
		}
	}
	return wh // line 20
}

// NTTInverse computes w = NTT⁻¹(ŵ) with coefficients in [0, q).
//
// It implements NTT⁻¹, according to FIPS 204, Algorithm 42.
func NTTInverse(wh Poly) Poly {
	var w Poly
	for j := 0; j < 256; j++ { // lines 1–3
		w[j] = modQ(int64(wh[j]))
	}
	m := 256                                     // line 4
	for length := 1; length < 256; length *= 2 { // lines 5, 6, 19
		for start := 0; start < 256; start += 2 * length { // lines 7, 8, 17
			m--                                     // line 9
			z := -int64(zetas[m])                   // line 10
			for j := start; j < start+length; j++ { // line 11
				t := int64(w[j])                           // line 12
				w[j] = modQ(t + int64(w[j+length]))        // line 13
				w[j+length] = modQ(t - int64(w[j+length])) // line 14
				w[j+length] = modQ(z * int64(w[j+length])) // line 15
			}
		}
	}
	const f = 8347681          // line 21: f = 256⁻¹ mod q
	for j := 0; j < 256; j++ { // lines 22–24
		w[j] = modQ(f * int64(w[j]))
	}
	return w // line 25
}

// BitRev8 returns the integer whose 8-bit binary representation is that of
// m reversed.
//
// It implements BitRev8, according to FIPS 204, Algorithm 43.
func BitRev8(m uint8) uint8 {
	b := IntegerToBits(int(m), 8) // b ← IntegerToBits(m, 8)
	var brev [8]byte
	for i := 0; i < 8; i++ {
		brev[i] = b[7-i] // brev[i] ← b[7 − i]
	}
	return uint8(BitsToInteger(brev[:], 8)) // return BitsToInteger(brev, 8)
}

// AddNTT returns â + b̂ in T_q.
//
// It implements AddNTT, according to FIPS 204, Algorithm 44.
func AddNTT(a, b Poly) Poly {
	var c Poly
	for i := 0; i < 256; i++ { // lines 1–3
		c[i] = modQ(int64(a[i]) + int64(b[i]))
	}
	return c
}

// MultiplyNTT returns â ∘ b̂, the coefficient-wise product in T_q.
//
// It implements MultiplyNTT, according to FIPS 204, Algorithm 45.
func MultiplyNTT(a, b Poly) Poly {
	var c Poly
	for i := 0; i < 256; i++ { // lines 1–3
		c[i] = modQ(int64(a[i]) * int64(b[i]))
	}
	return c
}

// AddVectorNTT returns v̂ + ŵ for vectors of T_q.
//
// It implements AddVectorNTT, according to FIPS 204, Algorithm 46.
func AddVectorNTT(v, w []Poly) []Poly {
	u := make([]Poly, len(v))
	for i := range v { // lines 1–3
		u[i] = AddNTT(v[i], w[i])
	}
	return u
}

// ScalarVectorNTT returns ĉ ∘ v̂ for c in T_q and v̂ a vector of T_q.
//
// It implements ScalarVectorNTT, according to FIPS 204, Algorithm 47.
func ScalarVectorNTT(c Poly, v []Poly) []Poly {
	w := make([]Poly, len(v))
	for i := range v { // lines 1–3
		w[i] = MultiplyNTT(c, v[i])
	}
	return w
}

// MatrixVectorNTT returns M̂ ∘ v̂, for M̂ a k×ℓ matrix and v̂ a vector of
// length ℓ over T_q.
//
// It implements MatrixVectorNTT, according to FIPS 204, Algorithm 48.
func MatrixVectorNTT(m [][]Poly, v []Poly) []Poly {
	return matrixVectorNTTOver[byte, Poly](Values{}, m, v)
}

// addQ and subQ are + and − in ℤq.
func addQ(a, b int32) int32 { return modQ(int64(a) + int64(b)) }
func subQ(a, b int32) int32 { return modQ(int64(a) - int64(b)) }

// mapCoeffs applies f to every coefficient of a vector.
func mapCoeffs(v []Poly, f func(int32) int32) []Poly {
	w := make([]Poly, len(v))
	for i := range v {
		for j := range v[i] {
			w[i][j] = f(v[i][j])
		}
	}
	return w
}

// zipCoeffs applies f to the coefficients of two vectors, pairwise.
func zipCoeffs(a, b []Poly, f func(x, y int32) int32) []Poly {
	w := make([]Poly, len(a))
	for i := range a {
		for j := range a[i] {
			w[i][j] = f(a[i][j], b[i][j])
		}
	}
	return w
}

// vecNTT and vecNTTInverse apply NTT and NTT⁻¹ to each entry (§2.5).
func vecNTT(v []Poly) []Poly {
	w := make([]Poly, len(v))
	for i := range v {
		w[i] = NTT(v[i])
	}
	return w
}

func vecNTTInverse(v []Poly) []Poly {
	w := make([]Poly, len(v))
	for i := range v {
		w[i] = NTTInverse(v[i])
	}
	return w
}

// Power2Round decomposes r into (r1, r0) with r ≡ r1·2^d + r0 (mod q).
//
// It implements Power2Round, according to FIPS 204, Algorithm 35.
func Power2Round(r int32) (r1, r0 int32) {
	rPlus := int64(modQ(int64(r)))               // line 1
	r0l := modPM(rPlus, 1<<D)                    // line 2
	return int32((rPlus - r0l) >> D), int32(r0l) // line 3
}

// Decompose decomposes r into (r1, r0) with r ≡ r1·(2γ2) + r0 (mod q).
//
// It implements Decompose, according to FIPS 204, Algorithm 36.
func Decompose(p Params, r int32) (r1, r0 int32) {
	rPlus := int64(modQ(int64(r)))         // line 1
	r0l := modPM(rPlus, int64(2*p.Gamma2)) // line 2
	if rPlus-r0l == Q-1 {                  // line 3
		return 0, int32(r0l - 1) // lines 4–5
	}
	return int32((rPlus - r0l) / int64(2*p.Gamma2)), int32(r0l) // lines 6, 8
}

// HighBits returns r1 of Decompose(r).
//
// It implements HighBits, according to FIPS 204, Algorithm 37.
func HighBits(p Params, r int32) int32 {
	r1, _ := Decompose(p, r) // line 1
	return r1                // line 2
}

// LowBits returns r0 of Decompose(r).
//
// It implements LowBits, according to FIPS 204, Algorithm 38.
func LowBits(p Params, r int32) int32 {
	_, r0 := Decompose(p, r) // line 1
	return r0                // line 2
}

// MakeHint returns whether adding z to r changes the high bits of r.
//
// It implements MakeHint, according to FIPS 204, Algorithm 39.
func MakeHint(p Params, z, r int32) bool {
	r1 := HighBits(p, r)                       // line 1
	v1 := HighBits(p, modQ(int64(r)+int64(z))) // line 2
	return r1 != v1                            // line 3
}

// UseHint returns the high bits of r adjusted according to the hint h.
//
// It implements UseHint, according to FIPS 204, Algorithm 40.
func UseHint(p Params, h bool, r int32) int32 {
	m := int32((Q - 1) / (2 * p.Gamma2)) // line 1
	r1, r0 := Decompose(p, r)            // line 2
	if h && r0 > 0 {                     // line 3
		return (r1 + 1) % m
	}
	if h && r0 <= 0 { // line 4
		return ((r1-1)%m + m) % m
	}
	return r1 // line 5
}
