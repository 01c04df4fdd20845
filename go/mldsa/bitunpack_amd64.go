//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

// SimpleBitUnpack and BitUnpack (FIPS 204, Algorithms 18 and 19) in
// assembly: one symbol per width (and b) that ML-DSA decodes. Widths, b
// and the checked maximum are public; any other combination falls back to
// the generic code.

func init() {
	registerVariant(simpleBitUnpackRoutine, "AMD64", simpleBitUnpackAMD64, true)
	registerVariant(simpleBitUnpackRoutine, "AVX2", simpleBitUnpackAVX2, cpu.X86.HasAVX2)
	registerVariant(bitUnpackSignedRoutine, "AMD64", bitUnpackSignedAMD64, true)
	registerVariant(bitUnpackSignedRoutine, "AVX2", bitUnpackSignedAVX2, cpu.X86.HasAVX2)
	registerVariant(bitUnpackSignedCheckedRoutine, "AMD64", bitUnpackSignedCheckedAMD64, true)
	registerVariant(bitUnpackSignedCheckedRoutine, "AVX2", bitUnpackSignedCheckedAVX2, cpu.X86.HasAVX2)
}

func simpleBitUnpack(w *ringElement, in []byte, width int) {
	if useAVX2 {
		simpleBitUnpackAVX2(w, in, width)
		return
	}
	simpleBitUnpackAMD64(w, in, width)
}

func bitUnpackSigned(w *ringElement, in []byte, width int, b fieldElement) {
	if useAVX2 {
		bitUnpackSignedAVX2(w, in, width, b)
		return
	}
	bitUnpackSignedAMD64(w, in, width, b)
}

func bitUnpackSignedChecked(w *ringElement, in []byte, width int, b fieldElement, max uint32) uint32 {
	if useAVX2 {
		return bitUnpackSignedCheckedAVX2(w, in, width, b, max)
	}
	return bitUnpackSignedCheckedAMD64(w, in, width, b, max)
}

func simpleBitUnpackAVX2(w *ringElement, in []byte, width int) {
	if width != 10 {
		simpleBitUnpackGeneric(w, in, width)
		return
	}
	asm.SimpleBitUnpack10AVX2(poly32(w), (*[320]byte)(in))
}

func simpleBitUnpackAMD64(w *ringElement, in []byte, width int) {
	if width != 10 {
		simpleBitUnpackGeneric(w, in, width)
		return
	}
	asm.SimpleBitUnpack10AMD64(poly32(w), (*[320]byte)(in))
}

func bitUnpackSignedAVX2(w *ringElement, in []byte, width int, b fieldElement) {
	switch {
	case width == 13 && b == 1<<12:
		asm.BitUnpack13AVX2(poly32(w), (*[416]byte)(in))
	case width == 18 && b == 1<<17:
		asm.BitUnpack18AVX2(poly32(w), (*[576]byte)(in))
	case width == 20 && b == 1<<19:
		asm.BitUnpack20AVX2(poly32(w), (*[640]byte)(in))
	default:
		bitUnpackSignedGeneric(w, in, width, b)
	}
}

func bitUnpackSignedAMD64(w *ringElement, in []byte, width int, b fieldElement) {
	switch {
	case width == 13 && b == 1<<12:
		asm.BitUnpack13AMD64(poly32(w), (*[416]byte)(in))
	case width == 18 && b == 1<<17:
		asm.BitUnpack18AMD64(poly32(w), (*[576]byte)(in))
	case width == 20 && b == 1<<19:
		asm.BitUnpack20AMD64(poly32(w), (*[640]byte)(in))
	default:
		bitUnpackSignedGeneric(w, in, width, b)
	}
}

func bitUnpackSignedCheckedAVX2(w *ringElement, in []byte, width int, b fieldElement, max uint32) uint32 {
	var bad uint32
	switch {
	case width == 3 && b == 2 && max == 4:
		asm.BitUnpack3AVX2(poly32(w), (*[96]byte)(in), &bad)
	case width == 4 && b == 4 && max == 8:
		asm.BitUnpack4AVX2(poly32(w), (*[128]byte)(in), &bad)
	default:
		return bitUnpackSignedCheckedGeneric(w, in, width, b, max)
	}
	return bad
}

func bitUnpackSignedCheckedAMD64(w *ringElement, in []byte, width int, b fieldElement, max uint32) uint32 {
	var bad uint32
	switch {
	case width == 3 && b == 2 && max == 4:
		asm.BitUnpack3AMD64(poly32(w), (*[96]byte)(in), &bad)
	case width == 4 && b == 4 && max == 8:
		asm.BitUnpack4AMD64(poly32(w), (*[128]byte)(in), &bad)
	default:
		return bitUnpackSignedCheckedGeneric(w, in, width, b, max)
	}
	return bad
}
