//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func rejNTTPolyx4(a *[4]*ringElement, seeds *[4][34]byte) bool { return rejNTTPolyx4Generic(a, seeds) }
