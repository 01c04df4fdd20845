//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(useHintPolyRoutine, "AMD64", useHintPolyAMD64, true)
	registerVariant(useHintPolyRoutine, "AVX2", useHintPolyAVX2, cpu.X86.HasAVX2)
}

func useHintPoly(w1, h, r *ringElement, γ2 uint32) {
	if useAVX2 {
		useHintPolyAVX2(w1, h, r, γ2)
		return
	}
	useHintPolyAMD64(w1, h, r, γ2)
}

// useHintPolyAVX2 and useHintPolyAMD64 copy r when w1 aliases it (the
// generic code allows that; the assembly's buffers must not overlap).
func useHintPolyAVX2(w1, h, r *ringElement, γ2 uint32) {
	if w1 == r {
		c := *r
		r = &c
	}
	switch γ2 {
	case γ2by32:
		asm.UseHint32AVX2(poly32(w1), poly32(h), poly32(r))
	case γ2by88:
		asm.UseHint88AVX2(poly32(w1), poly32(h), poly32(r))
	default:
		useHintPolyGeneric(w1, h, r, γ2)
	}
}

func useHintPolyAMD64(w1, h, r *ringElement, γ2 uint32) {
	if w1 == r {
		c := *r
		r = &c
	}
	switch γ2 {
	case γ2by32:
		asm.UseHint32AMD64(poly32(w1), poly32(h), poly32(r))
	case γ2by88:
		asm.UseHint88AMD64(poly32(w1), poly32(h), poly32(r))
	default:
		useHintPolyGeneric(w1, h, r, γ2)
	}
}
