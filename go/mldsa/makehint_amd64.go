//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(makeHintPolyRoutine, "AMD64", makeHintPolyAMD64, true)
	registerVariant(makeHintPolyRoutine, "AVX2", makeHintPolyAVX2, cpu.X86.HasAVX2)
}

func makeHintPoly(h, z, r *ringElement, γ2 uint32) uint32 {
	if useAVX2 {
		return makeHintPolyAVX2(h, z, r, γ2)
	}
	return makeHintPolyAMD64(h, z, r, γ2)
}

func makeHintPolyAVX2(h, z, r *ringElement, γ2 uint32) uint32 {
	var count uint32
	switch γ2 {
	case γ2by32:
		asm.MakeHint32AVX2(poly32(h), poly32(z), poly32(r), &count)
	case γ2by88:
		asm.MakeHint88AVX2(poly32(h), poly32(z), poly32(r), &count)
	default:
		return makeHintPolyGeneric(h, z, r, γ2)
	}
	return count
}

func makeHintPolyAMD64(h, z, r *ringElement, γ2 uint32) uint32 {
	var count uint32
	switch γ2 {
	case γ2by32:
		asm.MakeHint32AMD64(poly32(h), poly32(z), poly32(r), &count)
	case γ2by88:
		asm.MakeHint88AMD64(poly32(h), poly32(z), poly32(r), &count)
	default:
		return makeHintPolyGeneric(h, z, r, γ2)
	}
	return count
}
