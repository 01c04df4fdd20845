//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(nttRoutine, "AVX2", nttAVX2, cpu.X86.HasAVX2)
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

func nttAVX2(w *ringElement) { asm.NTTAVX2(poly32(w)) }
