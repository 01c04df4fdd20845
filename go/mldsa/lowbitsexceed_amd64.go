//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(lowBitsExceedRoutine, "AMD64", lowBitsExceedAMD64, true)
	registerVariant(lowBitsExceedRoutine, "AVX2", lowBitsExceedAVX2, cpu.X86.HasAVX2)
}

func lowBitsExceed(w *ringElement, bound, γ2 uint32) uint32 {
	if useAVX2 {
		return lowBitsExceedAVX2(w, bound, γ2)
	}
	return lowBitsExceedAMD64(w, bound, γ2)
}

func lowBitsExceedAVX2(w *ringElement, bound, γ2 uint32) uint32 {
	switch {
	case γ2 == γ2by32 && bound < 1<<31:
		var exceeds uint32
		asm.LowBitsExceed32AVX2(poly32(w), &bound, &exceeds)
		return exceeds
	case γ2 == γ2by88 && bound < 1<<31:
		var exceeds uint32
		asm.LowBitsExceed88AVX2(poly32(w), &bound, &exceeds)
		return exceeds
	}
	return lowBitsExceedGeneric(w, bound, γ2)
}

func lowBitsExceedAMD64(w *ringElement, bound, γ2 uint32) uint32 {
	switch {
	case γ2 == γ2by32 && bound < 1<<31:
		var exceeds uint32
		asm.LowBitsExceed32AMD64(poly32(w), &bound, &exceeds)
		return exceeds
	case γ2 == γ2by88 && bound < 1<<31:
		var exceeds uint32
		asm.LowBitsExceed88AMD64(poly32(w), &bound, &exceeds)
		return exceeds
	}
	return lowBitsExceedGeneric(w, bound, γ2)
}
