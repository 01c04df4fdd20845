//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

// SHAKE256FinishAMD64 calls KeccakF1600AMD64; SHAKE256FinishBMI2 calls
// KeccakF1600BMI2, which needs BMI1 and BMI2.
func init() {
	registerVariant(shake256FinishRoutine, "AMD64", asm.SHAKE256FinishAMD64, true)
	registerVariant(shake256FinishRoutine, "BMI2", asm.SHAKE256FinishBMI2, cpu.X86.HasBMI1 && cpu.X86.HasBMI2)
}

func shake256Finish(a *[25]uint64, tail *[136]byte, n *uint64, out *[64]byte) {
	if useBMI2 {
		asm.SHAKE256FinishBMI2(a, tail, n, out)
		return
	}
	asm.SHAKE256FinishAMD64(a, tail, n, out)
}
