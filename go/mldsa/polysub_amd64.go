//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(polySubRoutine, "AMD64", polySubAMD64, true)
	registerVariant(polySubRoutine, "AVX2", polySubAVX2, cpu.X86.HasAVX2)
}

func polySub(w, b *ringElement) {
	if useAVX2 {
		polySubAVX2(w, b)
		return
	}
	polySubAMD64(w, b)
}

func polySubAMD64(w, b *ringElement) { asm.PolySubAMD64(poly32(w), poly32(apart(w, b))) }

func polySubAVX2(w, b *ringElement) { asm.PolySubAVX2(poly32(w), poly32(apart(w, b))) }
