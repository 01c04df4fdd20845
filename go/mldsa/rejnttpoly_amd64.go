//go:build amd64 && !purego

package mldsa

import (
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(rejNTTPolyRoutine, "AMD64", rejNTTPolyAMD64, true)
	registerVariant(rejNTTPolyRoutine, "BMI2", rejNTTPolyBMI2, cpu.X86.HasBMI1 && cpu.X86.HasBMI2)
}

func rejNTTPoly(a *ringElement, seed *[34]byte) bool {
	if useBMI2 {
		return rejNTTPolyBMI2(a, seed)
	}
	return rejNTTPolyAMD64(a, seed)
}

func rejNTTPolyAMD64(a *ringElement, seed *[34]byte) bool {
	return asm.RejNTTPolyAMD64((*[n256]uint32)(unsafe.Pointer(a)), seed)
}

// rejNTTPolyBMI2 is rejNTTPolyAMD64 on the permutation with ANDN and RORX.
func rejNTTPolyBMI2(a *ringElement, seed *[34]byte) bool {
	return asm.RejNTTPolyBMI2((*[n256]uint32)(unsafe.Pointer(a)), seed)
}
