//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

// SimpleBitPack and BitPack (FIPS 204, Algorithms 16 and 17) in assembly:
// one symbol per width of Table 1 (and per b, for BitPack). Widths and b
// are public; any other pair falls back to the generic code.

func init() {
	registerVariant(simpleBitPackRoutine, "AMD64", simpleBitPackAMD64, true)
	registerVariant(simpleBitPackRoutine, "AVX2", simpleBitPackAVX2, cpu.X86.HasAVX2)
	registerVariant(bitPackSignedRoutine, "AMD64", bitPackSignedAMD64, true)
	registerVariant(bitPackSignedRoutine, "AVX2", bitPackSignedAVX2, cpu.X86.HasAVX2)
}

func simpleBitPack(out []byte, w *ringElement, width int) {
	if useAVX2 {
		simpleBitPackAVX2(out, w, width)
		return
	}
	simpleBitPackAMD64(out, w, width)
}

func bitPackSigned(out []byte, w *ringElement, width int, b fieldElement) {
	if useAVX2 {
		bitPackSignedAVX2(out, w, width, b)
		return
	}
	bitPackSignedAMD64(out, w, width, b)
}

func simpleBitPackAVX2(out []byte, w *ringElement, width int) {
	switch width {
	case 4:
		asm.SimpleBitPack4AVX2((*[128]byte)(out), poly32(w))
	case 6:
		asm.SimpleBitPack6AVX2((*[192]byte)(out), poly32(w))
	case 10:
		asm.SimpleBitPack10AVX2((*[320]byte)(out), poly32(w))
	default:
		simpleBitPackGeneric(out, w, width)
	}
}

func simpleBitPackAMD64(out []byte, w *ringElement, width int) {
	switch width {
	case 4:
		asm.SimpleBitPack4AMD64((*[128]byte)(out), poly32(w))
	case 6:
		asm.SimpleBitPack6AMD64((*[192]byte)(out), poly32(w))
	case 10:
		asm.SimpleBitPack10AMD64((*[320]byte)(out), poly32(w))
	default:
		simpleBitPackGeneric(out, w, width)
	}
}

func bitPackSignedAVX2(out []byte, w *ringElement, width int, b fieldElement) {
	switch {
	case width == 3 && b == 2:
		asm.BitPack3AVX2((*[96]byte)(out), poly32(w))
	case width == 4 && b == 4:
		asm.BitPack4AVX2((*[128]byte)(out), poly32(w))
	case width == 13 && b == 1<<12:
		asm.BitPack13AVX2((*[416]byte)(out), poly32(w))
	case width == 18 && b == 1<<17:
		asm.BitPack18AVX2((*[576]byte)(out), poly32(w))
	case width == 20 && b == 1<<19:
		asm.BitPack20AVX2((*[640]byte)(out), poly32(w))
	default:
		bitPackSignedGeneric(out, w, width, b)
	}
}

func bitPackSignedAMD64(out []byte, w *ringElement, width int, b fieldElement) {
	switch {
	case width == 3 && b == 2:
		asm.BitPack3AMD64((*[96]byte)(out), poly32(w))
	case width == 4 && b == 4:
		asm.BitPack4AMD64((*[128]byte)(out), poly32(w))
	case width == 13 && b == 1<<12:
		asm.BitPack13AMD64((*[416]byte)(out), poly32(w))
	case width == 18 && b == 1<<17:
		asm.BitPack18AMD64((*[576]byte)(out), poly32(w))
	case width == 20 && b == 1<<19:
		asm.BitPack20AMD64((*[640]byte)(out), poly32(w))
	default:
		bitPackSignedGeneric(out, w, width, b)
	}
}
