//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func trHash(tr *[64]byte, pk []byte) { trHashGeneric(tr, pk) }
