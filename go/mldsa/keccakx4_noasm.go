//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func keccakF1600x4(a *[100]uint64) { keccakF1600x4Generic(a) }
