//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func expandA(a []ringElement, ρ *[32]byte, k, l int) error { return expandAGeneric(a, ρ, k, l) }
