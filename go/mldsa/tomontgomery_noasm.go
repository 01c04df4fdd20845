//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func toMontgomeryPoly(w *ringElement)   { toMontgomeryPolyGeneric(w) }
func toMontgomeryT1Poly(w *ringElement) { toMontgomeryT1PolyGeneric(w) }
func fromMontgomeryPoly(w *ringElement) { fromMontgomeryPolyGeneric(w) }
