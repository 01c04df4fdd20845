//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(nttInverseRoutine, "AMD64", nttInverseAMD64, true)
	registerVariant(nttInverseRoutine, "AVX2", nttInverseAVX2, cpu.X86.HasAVX2)
	registerVariant(nttInverseRoutine, "AVX512", nttInverseAVX512, cpu.X86.HasAVX2 && cpu.X86.HasAVX512F)
	registerVariant(nttInverseMontRoutine, "AVX2", nttInverseMontAVX2, cpu.X86.HasAVX2)
}

func nttInverse(w *ringElement) {
	if useAVX512 {
		nttInverseAVX512(w)
		return
	}
	if useAVX2 {
		nttInverseAVX2(w)
		return
	}
	nttInverseAMD64(w)
}

func nttInverseAMD64(w *ringElement) { asm.NTTInverseAMD64(poly32(w)) }

func nttInverseAVX2(w *ringElement) { asm.NTTInverseAVX2(poly32(w)) }

func nttInverseAVX512(w *ringElement) { asm.NTTInverseAVX512(poly32(w)) }

func nttInverseMont(w *ringElement) {
	if useAVX2 {
		nttInverseMontAVX2(w)
		return
	}
	nttInverseMontGeneric(w)
}

func nttInverseMontAVX2(w *ringElement) { asm.NTTInverseMontAVX2(poly32(w)) }
