//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(polyAddRoutine, "AMD64", polyAddAMD64, true)
	registerVariant(polyAddRoutine, "AVX2", polyAddAVX2, cpu.X86.HasAVX2)
}

func polyAdd(w, b *ringElement) {
	if useAVX2 {
		polyAddAVX2(w, b)
		return
	}
	polyAddAMD64(w, b)
}

func polyAddAMD64(w, b *ringElement) { asm.PolyAddAMD64(poly32(w), poly32(apart(w, b))) }

func polyAddAVX2(w, b *ringElement) { asm.PolyAddAVX2(poly32(w), poly32(apart(w, b))) }
