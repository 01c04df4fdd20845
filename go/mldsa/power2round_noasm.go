//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func power2RoundPoly(t1, t0, t *ringElement) { power2RoundPolyGeneric(t1, t0, t) }
