package mldsa

import "unsafe"

// keyGenGeneric is ML-DSA.KeyGen_internal (Algorithm 6) from ξ for p: the
// encodings pk and sk, Â as sampled into aHat (k·ℓ entries, row-major),
// ŝ1 = NTT(s1) in Montgomery form into s1Hat, and s2, t and t0 (r0 mod
// q). It returns false if a sampler ran out of its bound (Appendix C).
// Buffers of other sizes than p's give false too.
func keyGenGeneric(p *params, pk, sk []byte, aHat, s1Hat, s2, t, t0 []ringElement, ξ *[32]byte) bool {
	k, l := p.k, p.l
	if len(pk) != p.pkSize() || len(sk) != p.skSize() || len(aHat) != k*l || len(s1Hat) != l || len(s2) != k || len(t) != k || len(t0) != k {
		return false
	}
	// Line 1: (ρ, ρ′, K) ← H(ξ ‖ IntegerToBytes(k, 1) ‖ IntegerToBytes(ℓ, 1), 128).
	var seed [128]byte
	keyGenSeed(&seed, ξ, k, l)
	// ρ and ρ′ go to the assembly samplers, whose declarations let them
	// escape (they call the permutation, which may move the stack): one
	// allocation holds both.
	seeds := new(struct {
		ρ      [32]byte
		ρPrime [64]byte
	})
	copy(seeds.ρ[:], seed[:32])
	declassify(publicRho, unsafe.Pointer(&seeds.ρ), 32)
	copy(seeds.ρPrime[:], seed[32:96])
	// Line 3: Â ← ExpandA(ρ).
	if expandA(aHat, &seeds.ρ, k, l) != nil {
		return false
	}
	// Line 4: (s1, s2) ← ExpandS(ρ′), packed as skEncode (Algorithm 24)
	// writes them.
	if expandS(s1Hat, s2, &seeds.ρPrime, p.η) != nil {
		return false
	}
	off := 128
	for _, s := range [][]ringElement{s1Hat, s2} {
		for i := range s {
			bitPackSigned(sk[off:], &s[i], p.ηBits, fieldElement(p.η))
			off += 32 * p.ηBits
		}
	}
	// Line 5: t ← NTT⁻¹(Â ∘ NTT(s1)) + s2, with ŝ1 in Montgomery form.
	keyGenT(t, s1Hat, s2, aHat)
	// Lines 6 and 8: (t1, t0) ← Power2Round(t), pk ← pkEncode(ρ, t1).
	keyGenPk(pk, t0, t, &seeds.ρ)
	for i := range t0 {
		bitPackSigned(sk[off+32*d*i:], &t0[i], d, 1<<(d-1))
	}
	// Lines 9 and 10: tr ← H(pk, 64), sk ← ρ ‖ K ‖ tr ‖ ….
	copy(sk, seed[:32])
	copy(sk[32:], seed[96:])
	trHash((*[64]byte)(sk[64:128]), pk)
	return true
}
