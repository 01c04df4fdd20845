//go:build !amd64 || purego

package mldsa

// Without assembly every routine is its generic Go implementation.

func keccakF1600(a *[25]uint64)                                { keccakF1600Generic(a) }
func keccakF1600x4(a *[100]uint64)                             { keccakF1600x4Generic(a) }
func rejNTTPoly(a *ringElement, seed *[34]byte) bool           { return rejNTTPolyGeneric(a, seed) }
func rejNTTPolyx4(a *[4]*ringElement, seeds *[4][34]byte) bool { return rejNTTPolyx4Generic(a, seeds) }
func ntt(w *ringElement)                                       { nttGeneric(w) }
func nttInverse(w *ringElement)                                { nttInverseGeneric(w) }
func multiplyNTT(out, a, b *ringElement)                       { multiplyNTTGeneric(out, a, b) }
func multiplyAccNTT(out *ringElement, a, b []ringElement)      { multiplyAccNTTGeneric(out, a, b) }
func power2RoundPoly(t1, t0, t *ringElement)                   { power2RoundPolyGeneric(t1, t0, t) }
func highBitsPoly(w1, w *ringElement, γ2 uint32)               { highBitsPolyGeneric(w1, w, γ2) }
func lowBitsExceed(w *ringElement, bound, γ2 uint32) uint32 {
	return lowBitsExceedGeneric(w, bound, γ2)
}
func makeHintPoly(h, z, r *ringElement, γ2 uint32) uint32 { return makeHintPolyGeneric(h, z, r, γ2) }
func useHintPoly(w1, h, r *ringElement, γ2 uint32)        { useHintPolyGeneric(w1, h, r, γ2) }
func normExceeds(w *ringElement, bound uint32) uint32     { return normExceedsGeneric(w, bound) }
