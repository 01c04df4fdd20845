//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func hintBitPack(out []byte, h []ringElement, ω int) { hintBitPackGeneric(out, h, ω) }
