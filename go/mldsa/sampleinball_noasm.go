//go:build !amd64 || purego

package mldsa

// Without assembly the routine is its generic Go implementation.
func sampleInBall(c *ringElement, ρ []byte, τ int) bool { return sampleInBallGeneric(c, ρ, τ) }
