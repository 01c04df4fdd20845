//go:build !amd64 || purego

package mldsa

// Without assembly the stages are their generic Go implementations.
func signZ(p *params, cTilde []byte, cHat *ringElement, w, z []ringElement, in *[130]byte, aHat, s1Hat, work []ringElement) bool {
	return signZGeneric(p, cTilde, cHat, w, z, in, aHat, s1Hat, work)
}

func signR0(p *params, w []ringElement, cHat *ringElement, s2Hat []ringElement, work *ringElement) bool {
	return signR0Generic(p, w, cHat, s2Hat, work)
}

func signHint(p *params, h, wcs2 []ringElement, cHat *ringElement, t0Hat []ringElement, work *ringElement) bool {
	return signHintGeneric(p, h, wcs2, cHat, t0Hat, work)
}
