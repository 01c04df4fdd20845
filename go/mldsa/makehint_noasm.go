//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func makeHintPoly(h, z, r *ringElement, γ2 uint32) uint32 { return makeHintPolyGeneric(h, z, r, γ2) }
