//go:build amd64 && !purego

package mldsa

import "github.com/vg-crypto/vg/go/asm"

// KeccakF1600AMD64 needs nothing beyond x86-64.
func init() {
	registerVariant(keccakF1600Routine, "AMD64", asm.KeccakF1600AMD64, true)
}

func keccakF1600(a *[25]uint64) { asm.KeccakF1600AMD64(a) }
