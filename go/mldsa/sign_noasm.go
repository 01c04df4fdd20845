//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func sign(p *params, sig []byte, key, rnd *[32]byte, μ *[64]byte, aHat, s1Hat, s2Hat, t0Hat []ringElement, scratch *signScratch) bool {
	return signGeneric(p, sig, key, rnd, μ, aHat, s1Hat, s2Hat, t0Hat, scratch)
}
