//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(nttInverseRoutine, "AVX2", nttInverseAVX2, cpu.X86.HasAVX2)
}

func nttInverse(w *ringElement) {
	if useAVX2 {
		nttInverseAVX2(w)
		return
	}
	nttInverseGeneric(w)
}

func nttInverseAVX2(w *ringElement) { asm.NTTInverseAVX2(poly32(w)) }
