//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func signAttempt(p *params, cTilde []byte, z, h []ringElement, μ, ρPP *[64]byte, κ int, aHat, s1Hat, s2Hat, t0Hat []ringElement) bool {
	return signAttemptGeneric(p, cTilde, z, h, μ, ρPP, κ, aHat, s1Hat, s2Hat, t0Hat)
}
