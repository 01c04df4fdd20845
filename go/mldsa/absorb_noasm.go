//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func shake256AbsorbBlock(a *[25]uint64, block *[136]byte) {
	shake256AbsorbBlockGeneric(a, block)
}
