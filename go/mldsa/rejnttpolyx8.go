package mldsa

// rejNTTPolyx8Generic runs RejNTTPoly on eight seeds, one after the other.
func rejNTTPolyx8Generic(a *[8]*ringElement, seeds *[8][34]byte) bool {
	ok := true
	for j := range a {
		ok = rejNTTPolyGeneric(a[j], &seeds[j]) && ok
	}
	return ok
}
