//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func multiplyAccNTT(out *ringElement, a, b []ringElement) { multiplyAccNTTGeneric(out, a, b) }
