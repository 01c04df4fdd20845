//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func keyGen(p *params, pk, sk []byte, aHat, s1Hat, s2, t, t0 []ringElement, ξ *[32]byte) bool {
	return keyGenGeneric(p, pk, sk, aHat, s1Hat, s2, t, t0, ξ)
}
