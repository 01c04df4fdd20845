//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func keyGenSeed(seed *[128]byte, ξ *[32]byte, k, l int) { keyGenSeedGeneric(seed, ξ, k, l) }
