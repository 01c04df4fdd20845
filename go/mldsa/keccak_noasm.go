//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func keccakF1600(a *[25]uint64) { keccakF1600Generic(a) }
