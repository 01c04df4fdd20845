package mldsa

import "crypto/subtle"

// verifyGeneric is ML-DSA.Verify_internal (Algorithm 8) from μ and the
// forms of the public key: Â (k·ℓ entries, row-major, as sampled) and
// NTT(t1·2ᵈ) in Montgomery form. It reports whether sig is valid; false
// too if SampleInBall runs out of its bound (Appendix C), or for buffers
// of other sizes than p's. Everything it handles is public.
func verifyGeneric(p *params, sig []byte, μ *[64]byte, aHat, t1Hat []ringElement) bool {
	k, l := p.k, p.l
	if len(sig) != p.sigSize() || len(aHat) != k*l || len(t1Hat) != k {
		return false
	}
	// Line 2: (c̃, z, h) ← sigDecode(σ).
	cTildeSize := p.cTildeSize()
	cTilde := sig[:cTildeSize]
	var z [maxL]ringElement
	var hint [maxK]ringElement
	off := cTildeSize
	for j := 0; j < l; j++ {
		bitUnpackSigned(&z[j], sig[off:], p.γ1Bits+1, fieldElement(p.γ1()))
		off += p.zSize()
	}
	// Line 3: h = ⊥.
	if !hintBitUnpack(hint[:k], sig[off:], p.ω) {
		return false
	}
	// Line 13: ‖z‖∞ < γ1 − β (checked first: it needs no hashing).
	for j := 0; j < l; j++ {
		if normExceeds(&z[j], p.γ1()-p.β()) != 0 {
			return false
		}
	}
	// Line 8: c ← SampleInBall(c̃).
	var c ringElement
	if !sampleInBall(&c, cTilde, p.τ) {
		return false
	}
	ntt(&c)
	// Line 9: w′Approx ← NTT⁻¹(Â ∘ NTT(z) − NTT(c) ∘ NTT(t1·2ᵈ)). NTT(z)
	// stays plain, so the Montgomery products leave Â ∘ NTT(z) times 2⁻³²;
	// NTT(c) times 2⁻³² makes the other product as much (t1Hat is in
	// Montgomery form), and the NTT⁻¹ scales the difference by 2³².
	fromMontgomeryPoly(&c)
	for j := 0; j < l; j++ {
		ntt(&z[j])
	}
	var w1Enc [maxK * 32 * 6]byte
	w1Size := 32 * p.w1Bits
	// Declared once (Go zeroes a variable at each iteration it is declared
	// in); every call writes its output whole.
	var w, ct1, w1 ringElement
	for i := 0; i < k; i++ {
		multiplyAccNTT(&w, aHat[i*l:(i+1)*l], z[:l])
		multiplyNTT(&ct1, &t1Hat[i], &c)
		polySub(&w, &ct1)
		nttInverseMont(&w)
		// Line 10: w1′ ← UseHint(h, w′Approx).
		useHintPoly(&w1, &hint[i], &w, p.γ2)
		simpleBitPack(w1Enc[i*w1Size:], &w1, p.w1Bits)
	}
	// Line 12: c̃′ ← H(μ ‖ w1Encode(w1′), λ/4).
	var cTildePrime [64]byte
	h := newShake256()
	h.write(μ[:])
	h.write(w1Enc[:k*w1Size])
	h.read(cTildePrime[:cTildeSize])
	// Line 13: c̃ = c̃′.
	return subtle.ConstantTimeCompare(cTilde, cTildePrime[:cTildeSize]) == 1
}

// verifyError is the error for a signature of p's size that verify
// rejected: which of Algorithm 8's checks it fails, for the message (the
// verdict is verify's).
func verifyError(p *params, sig []byte) error {
	off := p.cTildeSize() + p.l*p.zSize()
	var hint [maxK]ringElement
	if !hintBitUnpack(hint[:p.k], sig[off:], p.ω) {
		return errInvalidHint
	}
	var z ringElement
	for j := 0; j < p.l; j++ {
		bitUnpackSigned(&z, sig[p.cTildeSize()+j*p.zSize():], p.γ1Bits+1, fieldElement(p.γ1()))
		if normExceeds(&z, p.γ1()-p.β()) != 0 {
			return errSignatureNorm
		}
	}
	var c ringElement
	if !sampleInBall(&c, sig[:p.cTildeSize()], p.τ) {
		return errVerifySamplerExhausted
	}
	return errInvalidSignature
}
