//go:build amd64 && !purego

package mldsa

import (
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(multiplyAccNTTRoutine, "AMD64", multiplyAccNTTAMD64, true)
	registerVariant(multiplyAccNTTRoutine, "AVX2", multiplyAccNTTAVX2, cpu.X86.HasAVX2)
	registerVariant(multiplyAccNTTRoutine, "AVX512", multiplyAccNTTAVX512, cpu.X86.HasAVX2 && cpu.X86.HasAVX512F)
}

func multiplyAccNTT(out *ringElement, a, b []ringElement) {
	if useAVX512 {
		multiplyAccNTTAVX512(out, a, b)
		return
	}
	if useAVX2 {
		multiplyAccNTTAVX2(out, a, b)
		return
	}
	multiplyAccNTTAMD64(out, a, b)
}

// multiplyAccNTTAMD64, multiplyAccNTTAVX2 and multiplyAccNTTAVX512 run
// the assembly for the row lengths ℓ of the parameter sets (Table 1) and
// the generic code for any other. The length is public. Each path keeps
// its own function, which names its CPU features for check_arch_gates,
// and calls its assembly directly: through a function value the
// arguments would escape and the callers' polynomials move to the heap.

// rowsOverlap reports whether out overlaps the first len(a) elements of a
// or b: the assembly's buffers must not overlap, so the output then goes
// through a temporary.
func rowsOverlap(out *ringElement, a, b []ringElement) bool {
	return elemsOverlap(out, a) || elemsOverlap(out, b[:len(a)])
}

// rows is the assembly's view of the elements of a, nil if there are none.
func rows(a []ringElement) unsafe.Pointer {
	if len(a) == 0 {
		return nil
	}
	return unsafe.Pointer(&a[0])
}

func multiplyAccNTTAMD64(out *ringElement, a, b []ringElement) {
	if rowsOverlap(out, a, b) {
		var t ringElement
		multiplyAccNTTAMD64(&t, a, b)
		*out = t
		return
	}
	switch x, y := rows(a), rows(b); len(a) {
	case 4:
		asm.MultiplyAccNTT4AMD64(poly32(out), (*[4][n256]uint32)(x), (*[4][n256]uint32)(y))
	case 5:
		asm.MultiplyAccNTT5AMD64(poly32(out), (*[5][n256]uint32)(x), (*[5][n256]uint32)(y))
	case 7:
		asm.MultiplyAccNTT7AMD64(poly32(out), (*[7][n256]uint32)(x), (*[7][n256]uint32)(y))
	default:
		multiplyAccNTTGeneric(out, a, b)
	}
}

func multiplyAccNTTAVX2(out *ringElement, a, b []ringElement) {
	if rowsOverlap(out, a, b) {
		var t ringElement
		multiplyAccNTTAVX2(&t, a, b)
		*out = t
		return
	}
	switch x, y := rows(a), rows(b); len(a) {
	case 4:
		asm.MultiplyAccNTT4AVX2(poly32(out), (*[4][n256]uint32)(x), (*[4][n256]uint32)(y))
	case 5:
		asm.MultiplyAccNTT5AVX2(poly32(out), (*[5][n256]uint32)(x), (*[5][n256]uint32)(y))
	case 7:
		asm.MultiplyAccNTT7AVX2(poly32(out), (*[7][n256]uint32)(x), (*[7][n256]uint32)(y))
	default:
		multiplyAccNTTGeneric(out, a, b)
	}
}

func multiplyAccNTTAVX512(out *ringElement, a, b []ringElement) {
	if rowsOverlap(out, a, b) {
		var t ringElement
		multiplyAccNTTAVX512(&t, a, b)
		*out = t
		return
	}
	switch x, y := rows(a), rows(b); len(a) {
	case 4:
		asm.MultiplyAccNTT4AVX512(poly32(out), (*[4][n256]uint32)(x), (*[4][n256]uint32)(y))
	case 5:
		asm.MultiplyAccNTT5AVX512(poly32(out), (*[5][n256]uint32)(x), (*[5][n256]uint32)(y))
	case 7:
		asm.MultiplyAccNTT7AVX512(poly32(out), (*[7][n256]uint32)(x), (*[7][n256]uint32)(y))
	default:
		multiplyAccNTTGeneric(out, a, b)
	}
}
