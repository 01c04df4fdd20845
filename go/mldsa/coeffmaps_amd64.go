//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

// The coefficient maps of §7.4 and the norm checks in assembly: one symbol
// per γ2 of Table 1 where the map depends on it. γ2 and the bounds are
// public; a γ2 of no parameter set falls back to the generic code.

func init() {
	registerVariant(power2RoundPolyRoutine, "AMD64", power2RoundPolyAMD64, true)
	registerVariant(power2RoundPolyRoutine, "AVX2", power2RoundPolyAVX2, cpu.X86.HasAVX2)
	registerVariant(highBitsPolyRoutine, "AMD64", highBitsPolyAMD64, true)
	registerVariant(highBitsPolyRoutine, "AVX2", highBitsPolyAVX2, cpu.X86.HasAVX2)
	registerVariant(lowBitsExceedRoutine, "AMD64", lowBitsExceedAMD64, true)
	registerVariant(lowBitsExceedRoutine, "AVX2", lowBitsExceedAVX2, cpu.X86.HasAVX2)
	registerVariant(makeHintPolyRoutine, "AMD64", makeHintPolyAMD64, true)
	registerVariant(makeHintPolyRoutine, "AVX2", makeHintPolyAVX2, cpu.X86.HasAVX2)
	registerVariant(useHintPolyRoutine, "AMD64", useHintPolyAMD64, true)
	registerVariant(useHintPolyRoutine, "AVX2", useHintPolyAVX2, cpu.X86.HasAVX2)
	registerVariant(normExceedsRoutine, "AMD64", normExceedsAMD64, true)
	registerVariant(normExceedsRoutine, "AVX2", normExceedsAVX2, cpu.X86.HasAVX2)
}

const (
	γ2by32 = (q - 1) / 32 // ML-DSA-65 and -87
	γ2by88 = (q - 1) / 88 // ML-DSA-44
)

func power2RoundPoly(t1, t0, t *ringElement) {
	if useAVX2 {
		power2RoundPolyAVX2(t1, t0, t)
		return
	}
	power2RoundPolyAMD64(t1, t0, t)
}

func highBitsPoly(w1, w *ringElement, γ2 uint32) {
	if useAVX2 {
		highBitsPolyAVX2(w1, w, γ2)
		return
	}
	highBitsPolyAMD64(w1, w, γ2)
}

func lowBitsExceed(w *ringElement, bound, γ2 uint32) uint32 {
	if useAVX2 {
		return lowBitsExceedAVX2(w, bound, γ2)
	}
	return lowBitsExceedAMD64(w, bound, γ2)
}

func makeHintPoly(h, z, r *ringElement, γ2 uint32) uint32 {
	if useAVX2 {
		return makeHintPolyAVX2(h, z, r, γ2)
	}
	return makeHintPolyAMD64(h, z, r, γ2)
}

func useHintPoly(w1, h, r *ringElement, γ2 uint32) {
	if useAVX2 {
		useHintPolyAVX2(w1, h, r, γ2)
		return
	}
	useHintPolyAMD64(w1, h, r, γ2)
}

func normExceeds(w *ringElement, bound uint32) uint32 {
	if useAVX2 {
		return normExceedsAVX2(w, bound)
	}
	return normExceedsAMD64(w, bound)
}

// The routines' buffers must not overlap; t may alias t0 in the generic
// code, so a shared buffer goes through a copy.
func power2RoundPolyAVX2(t1, t0, t *ringElement) {
	if t == t0 || t == t1 {
		c := *t
		t = &c
	}
	asm.Power2RoundPolyAVX2(poly32(t1), poly32(t0), poly32(t))
}

func power2RoundPolyAMD64(t1, t0, t *ringElement) {
	if t == t0 || t == t1 {
		c := *t
		t = &c
	}
	asm.Power2RoundPolyAMD64(poly32(t1), poly32(t0), poly32(t))
}

func highBitsPolyAVX2(w1, w *ringElement, γ2 uint32) {
	switch γ2 {
	case γ2by32:
		asm.HighBits32AVX2(poly32(w1), poly32(w))
	case γ2by88:
		asm.HighBits88AVX2(poly32(w1), poly32(w))
	default:
		highBitsPolyGeneric(w1, w, γ2)
	}
}

func highBitsPolyAMD64(w1, w *ringElement, γ2 uint32) {
	switch γ2 {
	case γ2by32:
		asm.HighBits32AMD64(poly32(w1), poly32(w))
	case γ2by88:
		asm.HighBits88AMD64(poly32(w1), poly32(w))
	default:
		highBitsPolyGeneric(w1, w, γ2)
	}
}

func lowBitsExceedAVX2(w *ringElement, bound, γ2 uint32) uint32 {
	switch {
	case γ2 == γ2by32 && bound < 1<<31:
		var exceeds uint32
		asm.LowBitsExceed32AVX2(poly32(w), &bound, &exceeds)
		return exceeds
	case γ2 == γ2by88 && bound < 1<<31:
		var exceeds uint32
		asm.LowBitsExceed88AVX2(poly32(w), &bound, &exceeds)
		return exceeds
	}
	return lowBitsExceedGeneric(w, bound, γ2)
}

func lowBitsExceedAMD64(w *ringElement, bound, γ2 uint32) uint32 {
	switch {
	case γ2 == γ2by32 && bound < 1<<31:
		var exceeds uint32
		asm.LowBitsExceed32AMD64(poly32(w), &bound, &exceeds)
		return exceeds
	case γ2 == γ2by88 && bound < 1<<31:
		var exceeds uint32
		asm.LowBitsExceed88AMD64(poly32(w), &bound, &exceeds)
		return exceeds
	}
	return lowBitsExceedGeneric(w, bound, γ2)
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
