package mldsa

// signAttemptGeneric is one attempt of ML-DSA.Sign_internal (Algorithm 7,
// lines 11 to 30) for κ, from μ, ρ″ and the forms of the private key:
// Â (k·ℓ entries, row-major, as sampled) and NTT(s1), NTT(s2) and
// NTT(t0) in Montgomery form. It sets c̃ (λ/4 bytes), z (mod q) and h, and
// reports whether (z, h) ≠ ⊥ after line 28; false too if SampleInBall
// runs out of its bound (Appendix C), or for buffers of other sizes than
// p's. Every check is computed and ANDed, as the routines do: nothing
// branches on a secret.
func signAttemptGeneric(p *params, cTilde []byte, z, h []ringElement, μ, ρPP *[64]byte, κ int, aHat, s1Hat, s2Hat, t0Hat []ringElement) bool {
	k, l := p.k, p.l
	if len(cTilde) != p.cTildeSize() || len(z) != l || len(h) != k || len(aHat) != k*l || len(s1Hat) != l || len(s2Hat) != k || len(t0Hat) != k {
		return false
	}
	γ2 := p.γ2
	// Line 11: y ← ExpandMask(ρ″, κ), kept in z.
	expandMask(z, ρPP, κ, p.γ1Bits)
	// Line 12: w ← NTT⁻¹(Â ∘ NTT(y)).
	var yHat [maxL]ringElement
	for j := 0; j < l; j++ {
		yHat[j] = z[j]
		ntt(&yHat[j])
	}
	toMontgomeryVec(yHat[:l])
	var w [maxK]ringElement
	var w1Enc [maxK * 32 * 6]byte
	w1Size := 32 * p.w1Bits
	var w1 ringElement
	for i := 0; i < k; i++ {
		multiplyAccNTT(&w[i], aHat[i*l:(i+1)*l], yHat[:l])
		nttInverse(&w[i])
		// Line 13: w1 ← HighBits(w), into w1Encode.
		highBitsPoly(&w1, &w[i], γ2)
		simpleBitPack(w1Enc[i*w1Size:], &w1, p.w1Bits)
	}
	// Line 15: c̃ ← H(μ ‖ w1Encode(w1), λ/4).
	hc := newShake256()
	hc.write(μ[:])
	hc.write(w1Enc[:k*w1Size])
	hc.read(cTilde)
	// Lines 16 and 17.
	var c ringElement
	ok := b2u32(sampleInBall(&c, cTilde, p.τ))
	ntt(&c)
	// Lines 18, 20 and 23: z ← y + ⟨⟨cs1⟩⟩, ‖z‖∞ < γ1 − β.
	var cs, ct0 ringElement
	reject := uint32(0)
	for j := 0; j < l; j++ {
		multiplyNTT(&cs, &s1Hat[j], &c)
		nttInverse(&cs)
		polyAdd(&z[j], &cs)
		reject |= normExceeds(&z[j], p.γ1()-p.β())
	}
	hints := uint32(0)
	for i := 0; i < k; i++ {
		// Lines 19, 21 and 23: ‖LowBits(w − ⟨⟨cs2⟩⟩)‖∞ < γ2 − β.
		multiplyNTT(&cs, &s2Hat[i], &c)
		nttInverse(&cs)
		polySub(&w[i], &cs)
		reject |= lowBitsExceed(&w[i], γ2-p.β(), γ2)
		// Lines 25, 26 and 28: ‖ct0‖∞ < γ2; h ← MakeHint(−ct0, w − cs2 + ct0),
		// which is MakeHint(ct0, w − cs2) (Algorithm 39).
		multiplyNTT(&ct0, &t0Hat[i], &c)
		nttInverse(&ct0)
		reject |= normExceeds(&ct0, γ2)
		hints += makeHintPoly(&h[i], &ct0, &w[i], γ2)
	}
	// Line 28: at most ω ones in h.
	reject |= (uint32(p.ω) - hints) >> 31
	return ok&^reject == 1
}

// b2u32 is 1 for true, 0 for false.
func b2u32(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}
