//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func polyAdd(w, b *ringElement) { polyAddGeneric(w, b) }
