//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func keyGenT(t, s1Hat, s2, aHat []ringElement) { keyGenTGeneric(t, s1Hat, s2, aHat) }
