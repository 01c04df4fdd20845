//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func shake256Absorb(a *[25]uint64, in *[1088]byte, n *uint64) {
	shake256AbsorbGeneric(a, in, n)
}
