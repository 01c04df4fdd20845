//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func normExceeds(w *ringElement, bound uint32) uint32 { return normExceedsGeneric(w, bound) }
