//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func shake256Finish(a *[25]uint64, tail *[136]byte, n *uint64, out *[64]byte) {
	shake256FinishGeneric(a, tail, n, out)
}
