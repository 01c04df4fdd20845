//go:build amd64 && !purego

package mldsa

import (
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(rejNTTPolyx4Routine, "AMD64", rejNTTPolyx4AMD64, true)
	registerVariant(rejNTTPolyx4Routine, "AVX2", rejNTTPolyx4AVX2, cpu.X86.HasAVX2)
	registerVariant(rejNTTPolyx4Routine, "AVX512", rejNTTPolyx4AVX512, cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL)
}

func rejNTTPolyx4(a *[4]*ringElement, seeds *[4][34]byte) bool {
	if useAVX512 {
		return rejNTTPolyx4AVX512(a, seeds)
	}
	if useAVX2 {
		return rejNTTPolyx4AVX2(a, seeds)
	}
	return rejNTTPolyx4AMD64(a, seeds)
}

// rejNTTPolyx4AMD64 is the four-way sampler without AVX2: four calls of the
// baseline routine, all four made even if one runs out.
func rejNTTPolyx4AMD64(a *[4]*ringElement, seeds *[4][34]byte) bool {
	ok := true
	for j := range seeds {
		ok = rejNTTPolyAMD64(a[j], &seeds[j]) && ok
	}
	return ok
}

func rejNTTPolyx4AVX2(a *[4]*ringElement, seeds *[4][34]byte) bool {
	if !distinctOutputs(a) {
		return rejNTTPolyx4AMD64(a, seeds)
	}
	return asm.RejNTTPolyx4AVX2((*[4]*[n256]uint32)(unsafe.Pointer(a)), seeds)
}

// rejNTTPolyx4AVX512 is rejNTTPolyx4AVX2 with the routine that squeezes
// through the AVX-512 permutation.
func rejNTTPolyx4AVX512(a *[4]*ringElement, seeds *[4][34]byte) bool {
	if !distinctOutputs(a) {
		return rejNTTPolyx4AMD64(a, seeds)
	}
	return asm.RejNTTPolyx4AVX512((*[4]*[n256]uint32)(unsafe.Pointer(a)), seeds)
}
