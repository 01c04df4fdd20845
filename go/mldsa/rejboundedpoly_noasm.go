//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func rejBoundedPoly(a *ringElement, ρPrime *[64]byte, r uint16, η int) bool {
	return rejBoundedPolyGeneric(a, ρPrime, r, η)
}
