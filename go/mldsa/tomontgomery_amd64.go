//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(toMontgomeryPolyRoutine, "AMD64", toMontgomeryPolyAMD64, true)
	registerVariant(toMontgomeryPolyRoutine, "AVX2", toMontgomeryPolyAVX2, cpu.X86.HasAVX2)
	registerVariant(toMontgomeryT1PolyRoutine, "AMD64", toMontgomeryT1PolyAMD64, true)
	registerVariant(toMontgomeryT1PolyRoutine, "AVX2", toMontgomeryT1PolyAVX2, cpu.X86.HasAVX2)
	registerVariant(fromMontgomeryPolyRoutine, "AMD64", fromMontgomeryPolyAMD64, true)
	registerVariant(fromMontgomeryPolyRoutine, "AVX2", fromMontgomeryPolyAVX2, cpu.X86.HasAVX2)
}

func toMontgomeryPoly(w *ringElement) {
	if useAVX2 {
		toMontgomeryPolyAVX2(w)
		return
	}
	toMontgomeryPolyAMD64(w)
}

func toMontgomeryPolyAMD64(w *ringElement) { asm.ToMontgomeryPolyAMD64(poly32(w)) }

func toMontgomeryPolyAVX2(w *ringElement) { asm.ToMontgomeryPolyAVX2(poly32(w)) }

func toMontgomeryT1Poly(w *ringElement) {
	if useAVX2 {
		toMontgomeryT1PolyAVX2(w)
		return
	}
	toMontgomeryT1PolyAMD64(w)
}

func toMontgomeryT1PolyAMD64(w *ringElement) { asm.ToMontgomeryT1PolyAMD64(poly32(w)) }

func toMontgomeryT1PolyAVX2(w *ringElement) { asm.ToMontgomeryT1PolyAVX2(poly32(w)) }

func fromMontgomeryPoly(w *ringElement) {
	if useAVX2 {
		fromMontgomeryPolyAVX2(w)
		return
	}
	fromMontgomeryPolyAMD64(w)
}

func fromMontgomeryPolyAMD64(w *ringElement) { asm.FromMontgomeryPolyAMD64(poly32(w)) }

func fromMontgomeryPolyAVX2(w *ringElement) { asm.FromMontgomeryPolyAVX2(poly32(w)) }
