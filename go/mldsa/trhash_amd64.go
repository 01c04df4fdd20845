//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

// TrHash<set>AMD64 calls KeccakF1600AMD64; TrHash<set>BMI2 calls
// KeccakF1600BMI2, which needs BMI1 and BMI2.
func init() {
	registerVariant(trHashRoutine, "AMD64", trHashAMD64, true)
	registerVariant(trHashRoutine, "BMI2", trHashBMI2, cpu.X86.HasBMI1 && cpu.X86.HasBMI2)
}

func trHash(tr *[64]byte, pk []byte) {
	if useBMI2 {
		trHashBMI2(tr, pk)
		return
	}
	trHashAMD64(tr, pk)
}

// trHashAMD64 is tr = H(pk, 64) by the routine of pk's parameter set; a
// length of no parameter set goes to the generic code.
func trHashAMD64(tr *[64]byte, pk []byte) {
	switch len(pk) {
	case 1312:
		asm.TrHash44AMD64(tr, (*[1312]byte)(pk))
	case 1952:
		asm.TrHash65AMD64(tr, (*[1952]byte)(pk))
	case 2592:
		asm.TrHash87AMD64(tr, (*[2592]byte)(pk))
	default:
		trHashGeneric(tr, pk)
	}
}

// trHashBMI2 is trHashAMD64 with the BMI2 routines.
func trHashBMI2(tr *[64]byte, pk []byte) {
	switch len(pk) {
	case 1312:
		asm.TrHash44BMI2(tr, (*[1312]byte)(pk))
	case 1952:
		asm.TrHash65BMI2(tr, (*[1952]byte)(pk))
	case 2592:
		asm.TrHash87BMI2(tr, (*[2592]byte)(pk))
	default:
		trHashGeneric(tr, pk)
	}
}
