//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func rejBoundedPolyx4(a *[4]*ringElement, ρPrime *[64]byte, r *[4]uint16, η int) bool {
	return rejBoundedPolyx4Generic(a, ρPrime, r, η)
}
