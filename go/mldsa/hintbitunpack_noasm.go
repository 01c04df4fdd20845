//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func hintBitUnpack(h []ringElement, y []byte, ω int) bool { return hintBitUnpackGeneric(h, y, ω) }
