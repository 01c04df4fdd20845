//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(nttRoutine, "AMD64", nttAMD64, true)
	registerVariant(nttRoutine, "AVX2", nttAVX2, cpu.X86.HasAVX2)
	registerVariant(nttRoutine, "AVX512", nttAVX512, cpu.X86.HasAVX2 && cpu.X86.HasAVX512F)
}

func ntt(w *ringElement) {
	if useAVX512 {
		nttAVX512(w)
		return
	}
	if useAVX2 {
		nttAVX2(w)
		return
	}
	nttAMD64(w)
}

func nttAMD64(w *ringElement) { asm.NTTAMD64(poly32(w)) }

func nttAVX2(w *ringElement) { asm.NTTAVX2(poly32(w)) }

func nttAVX512(w *ringElement) { asm.NTTAVX512(poly32(w)) }
