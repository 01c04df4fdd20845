//go:build amd64 && !purego

package mldsa

import (
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

// Dispatch of the routines on amd64 to the generated assembly (go/asm). The
// baseline variants need nothing beyond x86-64; the AVX2 ones run only when
// useAVX2 (cpu_amd64.go) is set.

// The assembly sees a ringElement as [256]uint32: same size, same layout.
var _ [unsafe.Sizeof(ringElement{}) - 4*n256]struct{}
var _ [4*n256 - unsafe.Sizeof(ringElement{})]struct{}

// The assembly variants, for the tests that run every variant. An AVX2
// variant is usable whenever the CPU has AVX2, even if VG_CPU_FEATURES=none
// keeps the dispatch from choosing it.
func init() {
	registerVariant(keccakF1600Routine, "AMD64", asm.KeccakF1600AMD64, true)
	registerVariant(keccakF1600x4Routine, "AMD64", keccakF1600x4AMD64, true)
	registerVariant(keccakF1600x4Routine, "AVX2", asm.KeccakF1600x4AVX2, cpu.X86.HasAVX2)
	registerVariant(rejNTTPolyRoutine, "AMD64", rejNTTPolyAMD64, true)
	registerVariant(rejNTTPolyx4Routine, "AMD64", rejNTTPolyx4AMD64, true)
	registerVariant(rejNTTPolyx4Routine, "AVX2", rejNTTPolyx4AVX2, cpu.X86.HasAVX2)
	registerVariant(nttRoutine, "AVX2", nttAVX2, cpu.X86.HasAVX2)
	registerVariant(nttInverseRoutine, "AVX2", nttInverseAVX2, cpu.X86.HasAVX2)
	registerVariant(multiplyNTTRoutine, "AVX2", multiplyNTTAVX2, cpu.X86.HasAVX2)
	registerVariant(multiplyAccNTTRoutine, "AVX2", multiplyAccNTTAVX2, cpu.X86.HasAVX2)
}

func keccakF1600(a *[25]uint64) { asm.KeccakF1600AMD64(a) }

func keccakF1600x4(a *[100]uint64) {
	if useAVX2 {
		asm.KeccakF1600x4AVX2(a)
		return
	}
	keccakF1600x4AMD64(a)
}

// keccakF1600x4AMD64 is the four-way permutation without AVX2: the states
// de-interleaved, four baseline permutations, interleaved again.
func keccakF1600x4AMD64(a *[100]uint64) {
	var s [4][25]uint64
	for i, v := range a {
		s[i%4][i/4] = v
	}
	for j := range s {
		asm.KeccakF1600AMD64(&s[j])
	}
	for i := range a {
		a[i] = s[i%4][i/4]
	}
}

func rejNTTPoly(a *ringElement, seed *[34]byte) bool {
	return rejNTTPolyAMD64(a, seed)
}

func rejNTTPolyx4(a *[4]*ringElement, seeds *[4][34]byte) bool {
	if useAVX2 {
		return rejNTTPolyx4AVX2(a, seeds)
	}
	return rejNTTPolyx4AMD64(a, seeds)
}

func rejNTTPolyAMD64(a *ringElement, seed *[34]byte) bool {
	return asm.RejNTTPolyAMD64((*[n256]uint32)(unsafe.Pointer(a)), seed)
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

// NTT, NTT⁻¹ and the products of T_q have no baseline assembly yet:
// without AVX2 they are the generic Go code.
func ntt(w *ringElement) {
	if useAVX2 {
		nttAVX2(w)
		return
	}
	nttGeneric(w)
}

func nttInverse(w *ringElement) {
	if useAVX2 {
		nttInverseAVX2(w)
		return
	}
	nttInverseGeneric(w)
}

func nttAVX2(w *ringElement) { asm.NTTAVX2(poly32(w)) }

func nttInverseAVX2(w *ringElement) { asm.NTTInverseAVX2(poly32(w)) }

func multiplyNTT(out, a, b *ringElement) {
	if useAVX2 {
		multiplyNTTAVX2(out, a, b)
		return
	}
	multiplyNTTGeneric(out, a, b)
}

func multiplyAccNTT(out *ringElement, a, b []ringElement) {
	if useAVX2 {
		multiplyAccNTTAVX2(out, a, b)
		return
	}
	multiplyAccNTTGeneric(out, a, b)
}

func multiplyNTTAVX2(out, a, b *ringElement) {
	if out == a || out == b {
		var t ringElement
		asm.MultiplyNTTAVX2(poly32(&t), poly32(a), poly32(b))
		*out = t
		return
	}
	asm.MultiplyNTTAVX2(poly32(out), poly32(a), poly32(b))
}

// multiplyAccNTTAVX2 runs the assembly for the row lengths ℓ of the
// parameter sets (Table 1) and the generic code for any other. The length
// is public.
func multiplyAccNTTAVX2(out *ringElement, a, b []ringElement) {
	b = b[:len(a)]
	if elemsOverlap(out, a) || elemsOverlap(out, b) {
		var t ringElement
		multiplyAccNTTAVX2(&t, a, b)
		*out = t
		return
	}
	switch len(a) {
	case 4:
		asm.MultiplyAccNTT4AVX2(poly32(out), (*[4][n256]uint32)(unsafe.Pointer(&a[0])), (*[4][n256]uint32)(unsafe.Pointer(&b[0])))
	case 5:
		asm.MultiplyAccNTT5AVX2(poly32(out), (*[5][n256]uint32)(unsafe.Pointer(&a[0])), (*[5][n256]uint32)(unsafe.Pointer(&b[0])))
	case 7:
		asm.MultiplyAccNTT7AVX2(poly32(out), (*[7][n256]uint32)(unsafe.Pointer(&a[0])), (*[7][n256]uint32)(unsafe.Pointer(&b[0])))
	default:
		multiplyAccNTTGeneric(out, a, b)
	}
}

// poly32 is the assembly's view of a ringElement.
func poly32(w *ringElement) *[n256]uint32 { return (*[n256]uint32)(unsafe.Pointer(w)) }
