package fips204

// SignOps are the operations ML-DSA.Sign_internal (Algorithm 7) runs on
// beyond Verify_internal's: a polynomial of ExpandMask and its counter,
// − in R_q, HighBits, LowBits, MakeHint, the count of a hint's ones,
// mod± q, HintBitPack, and the outcome of an attempt made public. A truth
// value is a byte B: 1 for true, 0 for false. Values is this package's own
// instance; SignInternal runs SignOver over it, so that every vector tests
// the steps a checker runs over symbolic values.
type SignOps[B, P any] interface {
	VerifyOps[B, P]
	ExpandMaskPoly(seed []B) P // Algorithm 34, lines 4 and 5, for ρ′ = seed
	Plus(x []B, r int) []B     // IntegerToBytes(x + r, |x|), x given as its |x| bytes (Algorithm 11)
	Sub(a, b P) P              // − in R_q
	Neg(a P) P                 // −a in R_q
	HighBits(r P) P            // Algorithm 37, on each coefficient
	LowBits(r P) P             // Algorithm 38, on each coefficient
	MakeHint(z, r P) P         // Algorithm 39, on each coefficient: 1 for true, 0 for false
	OnesAtMost(h []P, n int) B // the number of 1's in h is at most n
	ModPM(w P) P               // w mod± q, on each coefficient (§2.3)
	HintBitPack(h []P) []B     // Algorithm 20, for h with at most ω ones
	Reveal(b B) bool           // b made public: whether an attempt ended the loop of Algorithm 7
}

func (Values) Sub(a, b Poly) Poly              { return zipCoeffs([]Poly{a}, []Poly{b}, subQ)[0] }
func (v Values) HintBitPack(h []Poly) []byte   { return HintBitPack(v.P, h) }
func (Values) OnesAtMost(h []Poly, n int) byte { return b2b(countOnes(h) <= n) }
func (Values) Reveal(b byte) bool              { return b == 1 }
func (Values) Neg(a Poly) Poly                 { return mapOne(a, func(c int32) int32 { return subQ(0, c) }) }
func (Values) ModPM(w Poly) Poly {
	return mapOne(w, func(c int32) int32 { return int32(modPM(int64(c), Q)) })
}
func (v Values) HighBits(r Poly) Poly {
	return mapOne(r, func(c int32) int32 { return HighBits(v.P, c) })
}
func (v Values) LowBits(r Poly) Poly {
	return mapOne(r, func(c int32) int32 { return LowBits(v.P, c) })
}
func (v Values) ExpandMaskPoly(seed []byte) Poly { return expandMaskPoly(v.P, seed) }
func (v Values) MakeHint(z, r Poly) Poly {
	return zipCoeffs([]Poly{z}, []Poly{r}, func(z, r int32) int32 { return int32(b2b(MakeHint(v.P, z, r))) })[0]
}

// Plus is IntegerToBytes(x + r, |x|), x the integer whose |x| bytes
// IntegerToBytes gives (little-endian); κ + r of ExpandMask's line 3.
func (Values) Plus(x []byte, r int) []byte {
	n := 0
	for i := len(x) - 1; i >= 0; i-- {
		n = 256*n + int(x[i])
	}
	return IntegerToBytes(n+r, len(x))
}

// mapOne is f on each coefficient of w.
func mapOne(w Poly, f func(int32) int32) Poly { return mapCoeffs([]Poly{w}, f)[0] }

// expandMaskPoly is lines 4 and 5 of ExpandMask (Algorithm 34) for
// ρ′ = seed: BitUnpack(H(ρ′, 32c), γ1 − 1, γ1).
func expandMaskPoly(p Params, seed []byte) Poly {
	c := 1 + bitlen(p.Gamma1-1)                               // line 1
	return BitUnpack(hashH(seed, 32*c), p.Gamma1-1, p.Gamma1) // lines 4 and 5
}

// SignOver is ML-DSA.Sign_internal (Algorithm 7) over o, from the forms
// of the private key an implementation keeps, K (line 1), ŝ1, ŝ2 and t̂0
// (lines 2 to 4) and Â (line 5), and μ (line 6) and rnd: σ and true, or
// false where none of SignIterations attempts ends the loop (Appendix C).
// Lines 1 to 6 make what it takes. It is SignLoopOver with Spec's own
// stages.
func SignOver[B, P any](o SignOps[B, P], p Params, aHat [][]P, s1Hat, s2Hat, t0Hat []P, key, mu, rnd []B) ([]B, bool) {
	return SignLoopOver(o, SpecStages[B, P]{o, p}, p, aHat, s1Hat, s2Hat, t0Hat, key, mu, rnd)
}

// SignLoopOver is Algorithm 7 from line 7 over o, an attempt's stages
// those of st: ρ″, then the attempts for κ = 0, ℓ, 2ℓ, … (Attempts).
func SignLoopOver[B, P any](o SignOps[B, P], st SignStages[B, P], p Params, aHat [][]P, s1Hat, s2Hat, t0Hat []P, key, mu, rnd []B) ([]B, bool) {
	rhoPP := SignRhoOver(o, key, rnd, mu)
	return Attempts(SignIterations*p.L, p.L, func(kappa int) ([]B, bool) {
		return SignAttemptOver(o, st, aHat, s1Hat, s2Hat, t0Hat, mu, rhoPP, bytesOver(o, IntegerToBytes(kappa, 2)))
	})
}

// SignRhoOver is line 7 of Algorithm 7 over o: ρ″ = H(K ‖ rnd ‖ μ, 64).
func SignRhoOver[B, P any](o SignOps[B, P], key, rnd, mu []B) []B {
	return H(o, cat(key, rnd, mu), 64)
}

// Attempts is the loop of Algorithm 7 (lines 8, 10 and 31) bounded as
// Appendix C allows: attempt for κ = 0, step, 2·step, … while κ < bound,
// in order, until one returns true; its result and true, else false.
func Attempts[T any](bound, step int, attempt func(kappa int) (T, bool)) (T, bool) {
	for kappa := 0; kappa < bound; kappa += step {
		if t, ok := attempt(kappa); ok {
			return t, true
		}
	}
	var none T
	return none, false
}

// SignAttemptOver is one attempt of Algorithm 7 (lines 11 to 30 and, when
// it ends the loop, 33 and 34) over o, for κ given as IntegerToBytes(κ, 2):
// its three stages, branching where Algorithm 7 does, after the ‖z‖∞
// check and after the ‖r0‖∞ check (line 23's "if … then (z, h) ← ⊥", its
// "or" read left to right) and after the checks of line 28. Each stage's
// check is made public (Reveal) before the branch; nothing else of a
// rejected attempt is. It returns σ and true, or false for (z, h) = ⊥.
func SignAttemptOver[B, P any](o SignOps[B, P], st SignStages[B, P], aHat [][]P, s1Hat, s2Hat, t0Hat []P, mu, rhoPP, kappa []B) ([]B, bool) {
	cTilde, cHat, w, z, okZ := st.Z(aHat, s1Hat, mu, rhoPP, kappa)
	if !o.Reveal(okZ) { // line 23: ‖z‖∞ ≥ γ1 − β, (z, h) ← ⊥
		return nil, false
	}
	wcs2, okR0 := st.R0(s2Hat, cHat, w)
	if !o.Reveal(okR0) { // line 23: ‖r0‖∞ ≥ γ2 − β, (z, h) ← ⊥
		return nil, false
	}
	h, okH := st.Hint(t0Hat, cHat, wcs2)
	if !o.Reveal(okH) { // line 28: (z, h) ← ⊥
		return nil, false
	}
	return st.Encode(cTilde, z, h), true // lines 10, 33 and 34
}

// SignStages are an attempt's stages and sigEncode as SignAttemptOver
// runs them. SpecStages are Spec's own; a checker proving a routine that
// calls proven stage routines gives their results instead.
type SignStages[B, P any] interface {
	Z(aHat [][]P, s1Hat []P, mu, rhoPP, kappa []B) (cTilde []B, cHat P, w, z []P, okZ B)
	R0(s2Hat []P, cHat P, w []P) (wcs2 []P, okR0 B)
	Hint(t0Hat []P, cHat P, wcs2 []P) (h []P, okH B)
	Encode(cTilde []B, z, h []P) []B
}

// SpecStages are SignZOver, SignR0Over, SignHintOver and SignEncodeOver
// over O for the parameter set P.
type SpecStages[B, P any] struct {
	O SignOps[B, P]
	P Params
}

func (s SpecStages[B, P]) Z(aHat [][]P, s1Hat []P, mu, rhoPP, kappa []B) ([]B, P, []P, []P, B) {
	return SignZOver(s.O, s.P, aHat, s1Hat, mu, rhoPP, kappa)
}
func (s SpecStages[B, P]) R0(s2Hat []P, cHat P, w []P) ([]P, B) {
	return SignR0Over(s.O, s.P, s2Hat, cHat, w)
}
func (s SpecStages[B, P]) Hint(t0Hat []P, cHat P, wcs2 []P) ([]P, B) {
	return SignHintOver(s.O, s.P, t0Hat, cHat, wcs2)
}
func (s SpecStages[B, P]) Encode(cTilde []B, z, h []P) []B {
	return SignEncodeOver(s.O, s.P, cTilde, z, h)
}

// SignZOver is the first stage of an attempt of Algorithm 7 over o, for
// κ given as IntegerToBytes(κ, 2): lines 11 to 18 and 20, c̃, ĉ = NTT(c)
// (line 17), w (line 12) and z, and okZ = 1 where ‖z‖∞ < γ1 − β, the
// first half of line 23's check.
func SignZOver[B, P any](o SignOps[B, P], p Params, aHat [][]P, s1Hat []P, mu, rhoPP, kappa []B) (cTilde []B, cHat P, w, z []P, okZ B) {
	y := expandMaskOver(o, p, rhoPP, kappa) // line 11
	yHat := make([]P, p.L)
	for j := range yHat {
		yHat[j] = o.NTT(y[j])
	}
	ay := matrixVectorNTTOver(o, aHat, yHat)
	w, w1 := make([]P, p.K), make([]P, p.K)
	for i := range w {
		w[i] = o.NTTInverse(ay[i]) // line 12
		w1[i] = o.HighBits(w[i])   // line 13
	}
	cTilde = H(o, cat(mu, w1EncodeOver(o, p, w1)), p.Lambda/4) // line 15
	c := o.SampleInBall(cTilde)                                // line 16
	cHat = o.NTT(c)                                            // line 17
	okZ = o.Byte(1)
	z = make([]P, p.L)
	for j := range z {
		cs1 := o.NTTInverse(o.MultiplyNTT(cHat, s1Hat[j]))   // line 18
		z[j] = o.Add(y[j], cs1)                              // line 20
		okZ = o.And(okZ, o.NormBelow(z[j], p.Gamma1-p.Beta)) // line 23: ‖z‖∞ < γ1 − β
	}
	return cTilde, cHat, w, z, okZ
}

// SignR0Over is the second stage of an attempt of Algorithm 7 over o,
// after the ‖z‖∞ check passed: lines 19 and 21, w − ⟨⟨cs2⟩⟩ (which lines
// 21 and 26 use), and okR0 = 1 where ‖r0‖∞ < γ2 − β, the second half of
// line 23's check.
func SignR0Over[B, P any](o SignOps[B, P], p Params, s2Hat []P, cHat P, w []P) (wcs2 []P, okR0 B) {
	okR0 = o.Byte(1)
	wcs2 = make([]P, p.K)
	for i := range wcs2 {
		cs2 := o.NTTInverse(o.MultiplyNTT(cHat, s2Hat[i]))   // line 19
		wcs2[i] = o.Sub(w[i], cs2)                           // w − ⟨⟨cs2⟩⟩, lines 21 and 26
		r0 := o.LowBits(wcs2[i])                             // line 21
		okR0 = o.And(okR0, o.NormBelow(r0, p.Gamma2-p.Beta)) // line 23: ‖r0‖∞ < γ2 − β
	}
	return wcs2, okR0
}

// SignHintOver is the third stage of an attempt of Algorithm 7 over o,
// after line 23's checks passed (its else branch): lines 25 to 28, h,
// and okH = 1 where ‖ct0‖∞ < γ2 and h has at most ω 1's (line 28).
func SignHintOver[B, P any](o SignOps[B, P], p Params, t0Hat []P, cHat P, wcs2 []P) (h []P, okH B) {
	okH = o.Byte(1)
	h = make([]P, p.K)
	for i := range h {
		ct0 := o.NTTInverse(o.MultiplyNTT(cHat, t0Hat[i])) // line 25
		h[i] = o.MakeHint(o.Neg(ct0), o.Add(wcs2[i], ct0)) // line 26
		okH = o.And(okH, o.NormBelow(ct0, p.Gamma2))       // line 28: ‖ct0‖∞ < γ2
	}
	return h, o.And(okH, o.OnesAtMost(h, p.Omega)) // line 28: at most ω 1's in h
}

// expandMaskOver is ExpandMask over o (Algorithm 34), for μ given as
// IntegerToBytes(μ, 2).
func expandMaskOver[B, P any](o SignOps[B, P], p Params, rho, mu []B) []P {
	y := make([]P, p.L)
	for r := 0; r < p.L; r++ { // line 2
		y[r] = o.ExpandMaskPoly(cat(rho, o.Plus(mu, r))) // lines 3 to 5
	}
	return y // line 7
}

// SignEncodeOver is lines 33 and 34 of Algorithm 7 over o: σ =
// sigEncode(c̃, z mod± q, h), for the z and h of the attempt that ended
// the loop.
func SignEncodeOver[B, P any](o SignOps[B, P], p Params, cTilde []B, z, h []P) []B {
	zPM := make([]P, p.L)
	for j := range zPM {
		zPM[j] = o.ModPM(z[j]) // line 33: z mod± q
	}
	return sigEncodeOver(o, p, cTilde, zPM, h) // lines 33 and 34
}

// sigEncodeOver is sigEncode over o (Algorithm 26).
func sigEncodeOver[B, P any](o SignOps[B, P], p Params, cTilde []B, z, h []P) []B {
	sigma := cat(cTilde)       // line 1
	for i := 0; i < p.L; i++ { // line 2
		sigma = cat(sigma, o.BitPack(z[i], p.Gamma1-1, p.Gamma1)) // line 3
	}
	return cat(sigma, o.HintBitPack(h)) // lines 5 and 6
}
