//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func multiplyNTT(out, a, b *ringElement) { multiplyNTTGeneric(out, a, b) }
