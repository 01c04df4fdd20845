//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func polySub(w, b *ringElement) { polySubGeneric(w, b) }
