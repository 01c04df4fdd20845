package mldsa

// keyGenTGeneric is Algorithm 6, line 5: t ← NTT⁻¹(Â ∘ NTT(s1)) + s2,
// with s1 in s1Hat, which it turns into ŝ1 = NTT(s1) in Montgomery form
// (the form of the products' second factor, kept for signing); Â is
// k×ℓ by rows, k = len(t), ℓ = len(s1Hat).
func keyGenTGeneric(t, s1Hat, s2, aHat []ringElement) {
	l := len(s1Hat)
	for j := range s1Hat {
		ntt(&s1Hat[j])
	}
	toMontgomeryVec(s1Hat)
	for i := range t {
		multiplyAccNTT(&t[i], aHat[i*l:(i+1)*l], s1Hat)
		nttInverse(&t[i])
		polyAdd(&t[i], &s2[i])
	}
}
