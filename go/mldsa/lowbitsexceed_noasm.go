//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func lowBitsExceed(w *ringElement, bound, γ2 uint32) uint32 {
	return lowBitsExceedGeneric(w, bound, γ2)
}
