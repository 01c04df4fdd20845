//go:build !amd64 || purego

package mldsa

// Without assembly the routines are their generic Go implementations.
func nttInverse(w *ringElement) { nttInverseGeneric(w) }

func nttInverseMont(w *ringElement) { nttInverseMontGeneric(w) }
