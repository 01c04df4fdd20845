//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func rejNTTPoly(a *ringElement, seed *[34]byte) bool { return rejNTTPolyGeneric(a, seed) }
