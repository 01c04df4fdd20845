//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(normExceedsRoutine, "AMD64", normExceedsAMD64, true)
	registerVariant(normExceedsRoutine, "AVX2", normExceedsAVX2, cpu.X86.HasAVX2)
}

func normExceeds(w *ringElement, bound uint32) uint32 {
	if useAVX2 {
		return normExceedsAVX2(w, bound)
	}
	return normExceedsAMD64(w, bound)
}

func normExceedsAVX2(w *ringElement, bound uint32) uint32 {
	if bound >= 1<<31 {
		return normExceedsGeneric(w, bound)
	}
	var exceeds uint32
	asm.NormExceedsAVX2(poly32(w), &bound, &exceeds)
	return exceeds
}

func normExceedsAMD64(w *ringElement, bound uint32) uint32 {
	if bound >= 1<<31 {
		return normExceedsGeneric(w, bound)
	}
	var exceeds uint32
	asm.NormExceedsAMD64(poly32(w), &bound, &exceeds)
	return exceeds
}
