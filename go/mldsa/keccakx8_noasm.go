//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func keccakF1600x8(a *[200]uint64) { keccakF1600x8Generic(a) }
