//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func expandMask(y []ringElement, ρPrimePrime *[64]byte, μ int, γ1Bits int) {
	expandMaskGeneric(y, ρPrimePrime, μ, γ1Bits)
}
