//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func rejNTTPolyx8(a *[8]*ringElement, seeds *[8][34]byte) bool { return rejNTTPolyx8Generic(a, seeds) }
