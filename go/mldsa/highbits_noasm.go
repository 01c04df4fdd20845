//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func highBitsPoly(w1, w *ringElement, γ2 uint32) { highBitsPolyGeneric(w1, w, γ2) }
