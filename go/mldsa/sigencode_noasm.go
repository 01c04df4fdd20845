//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func sigEncode(sig, cTilde []byte, z, h []ringElement, γ1Bits, ω int) {
	sigEncodeGeneric(sig, cTilde, z, h, γ1Bits, ω)
}
