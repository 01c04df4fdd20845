//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(highBitsPolyRoutine, "AMD64", highBitsPolyAMD64, true)
	registerVariant(highBitsPolyRoutine, "AVX2", highBitsPolyAVX2, cpu.X86.HasAVX2)
}

func highBitsPoly(w1, w *ringElement, γ2 uint32) {
	if useAVX2 {
		highBitsPolyAVX2(w1, w, γ2)
		return
	}
	highBitsPolyAMD64(w1, w, γ2)
}

func highBitsPolyAVX2(w1, w *ringElement, γ2 uint32) {
	switch γ2 {
	case γ2by32:
		asm.HighBits32AVX2(poly32(w1), poly32(w))
	case γ2by88:
		asm.HighBits88AVX2(poly32(w1), poly32(w))
	default:
		highBitsPolyGeneric(w1, w, γ2)
	}
}

func highBitsPolyAMD64(w1, w *ringElement, γ2 uint32) {
	switch γ2 {
	case γ2by32:
		asm.HighBits32AMD64(poly32(w1), poly32(w))
	case γ2by88:
		asm.HighBits88AMD64(poly32(w1), poly32(w))
	default:
		highBitsPolyGeneric(w1, w, γ2)
	}
}
