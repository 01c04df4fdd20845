//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

// KeccakF1600AMD64 needs nothing beyond x86-64; KeccakF1600BMI2 needs BMI1
// and BMI2.
func init() {
	registerVariant(keccakF1600Routine, "AMD64", asm.KeccakF1600AMD64, true)
	registerVariant(keccakF1600Routine, "BMI2", asm.KeccakF1600BMI2, cpu.X86.HasBMI1 && cpu.X86.HasBMI2)
}

func keccakF1600(a *[25]uint64) {
	if useBMI2 {
		asm.KeccakF1600BMI2(a)
		return
	}
	asm.KeccakF1600AMD64(a)
}
