package mldsa

// sigEncodeGeneric is Algorithm 7, lines 33 and 34: σ ← sigEncode(c̃, z
// mod± q, h) (Algorithm 26), with ℓ = len(z), k = len(h), γ1 = 2^γ1Bits
// and σ of len(c̃) + 32ℓ(γ1Bits + 1) + ω + k bytes. z's coefficients are
// mod q with z mod± q in [−γ1 + 1, γ1], h's 0 or 1 with at most ω ones.
// Only the signature returned is encoded: c̃, z and h are public here.
func sigEncodeGeneric(sig, cTilde []byte, z, h []ringElement, γ1Bits, ω int) {
	copy(sig, cTilde)
	off := len(cTilde)
	for j := range z {
		bitPackSignedGeneric(sig[off:], &z[j], γ1Bits+1, fieldElement(1<<γ1Bits))
		off += 32 * (γ1Bits + 1)
	}
	hintBitPackGeneric(sig[off:], h, ω)
}
