//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func verify(p *params, sig []byte, μ *[64]byte, aHat, t1Hat []ringElement) bool {
	return verifyGeneric(p, sig, μ, aHat, t1Hat)
}
