//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func keyGenPk(pk []byte, t0, t []ringElement, ρ *[32]byte) { keyGenPkGeneric(pk, t0, t, ρ) }
