//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func useHintPoly(w1, h, r *ringElement, γ2 uint32) { useHintPolyGeneric(w1, h, r, γ2) }
