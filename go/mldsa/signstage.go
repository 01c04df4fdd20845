package mldsa

// An attempt of ML-DSA.Sign_internal (Algorithm 7, lines 11 to 28) runs in
// three stages, as Spec's SignOver does, and signInternal branches between
// them where Algorithm 7 does: signZ (lines 11 to 18 and 20, and the
// ‖z‖∞ check of line 23), then signR0 (lines 19 and 21, the ‖r0‖∞ check)
// and signHint (lines 25 to 28). Each computes its checks over every
// coefficient without a branch and returns their AND, which the caller
// makes public.

// signZWork is the number of polynomials of signZ's work space: NTT(y),
// cs1 and w1, and the padding lanes of the routines' four-way ExpandMask
// (Spec/contract's SignZWork; 10 for ML-DSA-65 and -87).
func signZWork(p *params) int { return p.l + 2 + (4-p.l%4)%4 }

// maxSignZWork is signZWork's largest value.
const maxSignZWork = 10

// signZGeneric is the first stage of an attempt of ML-DSA.Sign_internal
// (Algorithm 7, lines 11 to 18 and 20) from in = μ ‖ ρ″ ‖
// IntegerToBytes(κ, 2), Â (k·ℓ entries, row-major, as sampled) and
// NTT(s1) in Montgomery form. It sets c̃ (λ/4 bytes), ĉ = NTT(c), w and z
// (mod q), and reports whether ‖z‖∞ < γ1 − β (line 23); false too if
// SampleInBall runs out of its bound (Appendix C), or for buffers of other
// sizes than p's. work is its space (signZWork(p) polynomials).
func signZGeneric(p *params, cTilde []byte, cHat *ringElement, w, z []ringElement, in *[130]byte, aHat, s1Hat, work []ringElement) bool {
	k, l := p.k, p.l
	if len(cTilde) != p.cTildeSize() || len(w) != k || len(z) != l || len(aHat) != k*l || len(s1Hat) != l || len(work) != signZWork(p) {
		return false
	}
	γ2 := p.γ2
	// cs1 is a local: Go compiles the products into it faster than into
	// work, which may alias the other buffers.
	var cs ringElement
	_ = cHat[0] // as in signR0Generic
	yHat, w1 := work[:l], &work[l+1]
	// Line 11: y ← ExpandMask(ρ″, κ), kept in z.
	expandMask(z, (*[64]byte)(in[64:128]), int(in[128])|int(in[129])<<8, p.γ1Bits)
	// Line 12: w ← NTT⁻¹(Â ∘ NTT(y)); NTT(y) stays plain, and the NTT⁻¹
	// scales by 2³² what the Montgomery products leave times 2⁻³².
	for j := 0; j < l; j++ {
		yHat[j] = z[j]
		ntt(&yHat[j])
	}
	// Lines 13 and 15: w1 ← HighBits(w), c̃ ← H(μ ‖ w1Encode(w1), λ/4).
	var w1Enc [maxK * 32 * 6]byte
	w1Size := 32 * p.w1Bits
	for i := 0; i < k; i++ {
		multiplyAccNTT(&w[i], aHat[i*l:(i+1)*l], yHat)
		nttInverseMont(&w[i])
		highBitsPoly(w1, &w[i], γ2)
		simpleBitPack(w1Enc[i*w1Size:], w1, p.w1Bits)
	}
	// One write of w1Encode(w1): the sponge absorbs whole lanes then.
	hc := newShake256()
	hc.write(in[:64])
	hc.write(w1Enc[:k*w1Size])
	hc.read(cTilde)
	// Lines 16 and 17: c ← SampleInBall(c̃), ĉ ← NTT(c).
	ok := b2u32(sampleInBall(cHat, cTilde, p.τ))
	ntt(cHat)
	// Lines 18, 20 and 23: z ← y + ⟨⟨cs1⟩⟩, ‖z‖∞ < γ1 − β.
	reject := uint32(0)
	for j := 0; j < l; j++ {
		multiplyNTT(&cs, &s1Hat[j], cHat)
		nttInverse(&cs)
		polyAdd(&z[j], &cs)
		reject |= normExceeds(&z[j], p.γ1()-p.β())
	}
	return ok&^reject == 1
}

// signR0Generic is the second stage of an attempt (Algorithm 7, lines 19
// and 21): from ĉ and NTT(s2) in Montgomery form it sets w to w − ⟨⟨cs2⟩⟩
// and reports whether ‖LowBits(w − ⟨⟨cs2⟩⟩)‖∞ < γ2 − β (line 23); false
// for buffers of other sizes than p's. work is the routines' space; the
// Go code keeps cs2 in a local.
func signR0Generic(p *params, w []ringElement, cHat *ringElement, s2Hat []ringElement, work *ringElement) bool {
	if len(w) != p.k || len(s2Hat) != p.k {
		return false
	}
	var cs2 ringElement // a local, as cs1 in signZGeneric
	_ = cHat[0]         // one nil check, not one in each product's loop
	reject := uint32(0)
	for i := range w {
		multiplyNTT(&cs2, &s2Hat[i], cHat)
		nttInverse(&cs2)
		polySub(&w[i], &cs2)
		reject |= lowBitsExceed(&w[i], p.γ2-p.β(), p.γ2)
	}
	return reject == 0
}

// signHintGeneric is the third stage of an attempt (Algorithm 7, lines 25
// to 28): from w − ⟨⟨cs2⟩⟩, ĉ and NTT(t0) in Montgomery form it sets
// h ← MakeHint(−ct0, w − cs2 + ct0) and reports whether ‖ct0‖∞ < γ2 and h
// has at most ω ones (line 28); false for buffers of other sizes than
// p's. work is the routines' space; the Go code keeps ct0 in a local.
func signHintGeneric(p *params, h, wcs2 []ringElement, cHat *ringElement, t0Hat []ringElement, work *ringElement) bool {
	if len(h) != p.k || len(wcs2) != p.k || len(t0Hat) != p.k {
		return false
	}
	var ct0 ringElement // a local, as cs1 in signZGeneric
	_ = cHat[0]         // as in signR0Generic
	reject, hints := uint32(0), uint32(0)
	for i := range h {
		// Line 25: ⟨⟨ct0⟩⟩ ← NTT⁻¹(ĉ ∘ t̂0); line 28: ‖ct0‖∞ ≥ γ2.
		multiplyNTT(&ct0, &t0Hat[i], cHat)
		nttInverse(&ct0)
		reject |= normExceeds(&ct0, p.γ2)
		// Line 26: MakeHint(z, r) is HighBits(r) ≠ HighBits(r + z)
		// (Algorithm 39), the same with r and r + z exchanged: here
		// r + z = w − cs2, so h is MakeHint(ct0, w − cs2), which needs
		// neither the sum nor −ct0.
		hints += makeHintPoly(&h[i], &ct0, &wcs2[i], p.γ2)
	}
	// Line 28: at most ω ones in h.
	reject |= (uint32(p.ω) - hints) >> 31
	return reject == 0
}

// b2u32 is 1 for true, 0 for false.
func b2u32(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}
