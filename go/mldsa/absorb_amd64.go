//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

// SHAKE256AbsorbBlockAMD64 calls KeccakF1600AMD64; SHAKE256AbsorbBlockBMI2
// calls KeccakF1600BMI2, which needs BMI1 and BMI2.
func init() {
	registerVariant(shake256AbsorbBlockRoutine, "AMD64", asm.SHAKE256AbsorbBlockAMD64, true)
	registerVariant(shake256AbsorbBlockRoutine, "BMI2", asm.SHAKE256AbsorbBlockBMI2, cpu.X86.HasBMI1 && cpu.X86.HasBMI2)
}

func shake256AbsorbBlock(a *[25]uint64, block *[136]byte) {
	if useBMI2 {
		asm.SHAKE256AbsorbBlockBMI2(a, block)
		return
	}
	asm.SHAKE256AbsorbBlockAMD64(a, block)
}
