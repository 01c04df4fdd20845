//go:build amd64 && !purego

package mldsa

import (
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(rejNTTPolyx8Routine, "AMD64", rejNTTPolyx8AMD64, true)
	registerVariant(rejNTTPolyx8Routine, "AVX2", rejNTTPolyx8AVX2, cpu.X86.HasAVX2)
	registerVariant(rejNTTPolyx8Routine, "AVX512", rejNTTPolyx8AVX512, cpu.X86.HasAVX2 && cpu.X86.HasAVX512F)
}

func rejNTTPolyx8(a *[8]*ringElement, seeds *[8][34]byte) bool {
	if useAVX512 {
		return rejNTTPolyx8AVX512(a, seeds)
	}
	if useAVX2 {
		return rejNTTPolyx8AVX2(a, seeds)
	}
	return rejNTTPolyx8AMD64(a, seeds)
}

// halves8 splits eight outputs and seeds into two groups of four.
func halves8(a *[8]*ringElement, seeds *[8][34]byte) (a0, a1 *[4]*ringElement, s0, s1 *[4][34]byte) {
	return (*[4]*ringElement)(a[:4]), (*[4]*ringElement)(a[4:]), (*[4][34]byte)(seeds[:4]), (*[4][34]byte)(seeds[4:])
}

// rejNTTPolyx8AMD64 is the eight-way sampler without AVX2: eight calls of
// the baseline routine, all made even if one runs out.
func rejNTTPolyx8AMD64(a *[8]*ringElement, seeds *[8][34]byte) bool {
	ok := true
	for j := range seeds {
		ok = rejNTTPolyAMD64(a[j], &seeds[j]) && ok
	}
	return ok
}

// rejNTTPolyx8AVX2 is two four-way AVX2 samplers.
func rejNTTPolyx8AVX2(a *[8]*ringElement, seeds *[8][34]byte) bool {
	a0, a1, s0, s1 := halves8(a, seeds)
	ok := rejNTTPolyx4AVX2(a0, s0)
	return rejNTTPolyx4AVX2(a1, s1) && ok
}

// rejNTTPolyx8AVX512 runs the eight-way routine, whose squeezes go through
// the eight-way AVX-512 permutation; with outputs that overlap it runs the
// baseline routine.
func rejNTTPolyx8AVX512(a *[8]*ringElement, seeds *[8][34]byte) bool {
	for i := range a {
		for j := i + 1; j < len(a); j++ {
			if overlaps(unsafe.Pointer(a[i]), unsafe.Sizeof(*a[i]), unsafe.Pointer(a[j]), unsafe.Sizeof(*a[j])) {
				return rejNTTPolyx8AMD64(a, seeds)
			}
		}
	}
	return asm.RejNTTPolyx8AVX512((*[8]*[n256]uint32)(unsafe.Pointer(a)), seeds)
}
