package mldsa

// rejNTTPolyx4Generic runs RejNTTPoly on four seeds. Without a vector unit
// the four-way permutation is four single ones and a transposition, so the
// four samplers run one after the other, each squeezing only the blocks it
// needs.
func rejNTTPolyx4Generic(a *[4]*ringElement, seeds *[4][34]byte) bool {
	ok := true
	for j := range a {
		ok = rejNTTPolyGeneric(a[j], &seeds[j]) && ok
	}
	return ok
}
