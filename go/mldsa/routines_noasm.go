//go:build !amd64 || purego

package mldsa

// Without assembly the coefficient maps are their generic Go
// implementations (the other routines with assembly: <stem>_noasm.go).

func power2RoundPoly(t1, t0, t *ringElement)     { power2RoundPolyGeneric(t1, t0, t) }
func highBitsPoly(w1, w *ringElement, γ2 uint32) { highBitsPolyGeneric(w1, w, γ2) }
func lowBitsExceed(w *ringElement, bound, γ2 uint32) uint32 {
	return lowBitsExceedGeneric(w, bound, γ2)
}
func makeHintPoly(h, z, r *ringElement, γ2 uint32) uint32 { return makeHintPolyGeneric(h, z, r, γ2) }
func useHintPoly(w1, h, r *ringElement, γ2 uint32)        { useHintPolyGeneric(w1, h, r, γ2) }
func normExceeds(w *ringElement, bound uint32) uint32     { return normExceedsGeneric(w, bound) }
