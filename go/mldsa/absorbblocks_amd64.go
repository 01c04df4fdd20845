//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

// SHAKE256AbsorbAMD64 calls KeccakF1600AMD64; SHAKE256AbsorbBMI2 calls
// KeccakF1600BMI2, which needs BMI1 and BMI2.
func init() {
	registerVariant(shake256AbsorbRoutine, "AMD64", asm.SHAKE256AbsorbAMD64, true)
	registerVariant(shake256AbsorbRoutine, "BMI2", asm.SHAKE256AbsorbBMI2, cpu.X86.HasBMI1 && cpu.X86.HasBMI2)
}

func shake256Absorb(a *[25]uint64, in *[1088]byte, n *uint64) {
	if useBMI2 {
		asm.SHAKE256AbsorbBMI2(a, in, n)
		return
	}
	asm.SHAKE256AbsorbAMD64(a, in, n)
}
