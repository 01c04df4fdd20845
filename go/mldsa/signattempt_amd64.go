//go:build amd64 && !purego

package mldsa

import (
	"sync"

	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

// SignAttempt<set>AVX2 calls the AVX2 routines, the BMI2 permutation and
// SampleInBall, so it needs BMI1 and BMI2 too. The baseline routines are
// not written yet.
func init() {
	registerVariant(signAttemptRoutine, "AVX2", signAttemptAVX2, cpu.X86.HasAVX2 && cpu.X86.HasBMI1 && cpu.X86.HasBMI2)
}

// signAttempt is one attempt by the proven routine on the AVX2 path, else
// by the generic composition.
func signAttempt(p *params, cTilde []byte, z, h []ringElement, μ, ρPP *[64]byte, κ int, aHat, s1Hat, s2Hat, t0Hat []ringElement) bool {
	if useAVX2 && useBMI2 && !useAVX512 {
		return signAttemptAVX2(p, cTilde, z, h, μ, ρPP, κ, aHat, s1Hat, s2Hat, t0Hat)
	}
	return signAttemptGeneric(p, cTilde, z, h, μ, ρPP, κ, aHat, s1Hat, s2Hat, t0Hat)
}

// signAttemptArgs holds a routine's buffers: μ ‖ ρ″ ‖ κ, c̃, z, h and its
// work space (ML-DSA-87's sizes, the largest), pooled, since the
// routine's declaration lets them escape (it calls others, which may move
// the stack).
type signAttemptArgs struct {
	in     [130]byte
	cTilde [64]byte
	z      [maxL]ringElement
	h      [maxK]ringElement
	work   [7 + 8 + 4 + 1]ringElement
}

var signAttemptPool = sync.Pool{New: func() any { return new(signAttemptArgs) }}

// signAttemptAVX2 is signAttempt by SignAttempt<set>AVX2 for buffers of
// p's sizes; anything else goes to the generic code.
func signAttemptAVX2(p *params, cTilde []byte, z, h []ringElement, μ, ρPP *[64]byte, κ int, aHat, s1Hat, s2Hat, t0Hat []ringElement) bool {
	k, l := p.k, p.l
	if !useBMI2 || len(cTilde) != p.cTildeSize() || len(z) != l || len(h) != k || len(aHat) != k*l || len(s1Hat) != l || len(s2Hat) != k || len(t0Hat) != k || κ < 0 || κ > 0xffff {
		return signAttemptGeneric(p, cTilde, z, h, μ, ρPP, κ, aHat, s1Hat, s2Hat, t0Hat)
	}
	a := signAttemptPool.Get().(*signAttemptArgs)
	defer signAttemptPool.Put(a)
	copy(a.in[:64], μ[:])
	copy(a.in[64:128], ρPP[:])
	a.in[128], a.in[129] = byte(κ), byte(κ>>8)
	var ok bool
	switch k {
	case 4:
		ok = asm.SignAttempt44AVX2((*[32]byte)(a.cTilde[:32]), polys[[4][256]uint32](a.z[:]), polys[[4][256]uint32](a.h[:]), &a.in, polys[[16][256]uint32](aHat),
			polys[[4][256]uint32](s1Hat), polys[[4][256]uint32](s2Hat), polys[[4][256]uint32](t0Hat), polys[[12][256]uint32](a.work[:]))
	case 6:
		ok = asm.SignAttempt65AVX2((*[48]byte)(a.cTilde[:48]), polys[[5][256]uint32](a.z[:]), polys[[6][256]uint32](a.h[:]), &a.in, polys[[30][256]uint32](aHat),
			polys[[5][256]uint32](s1Hat), polys[[6][256]uint32](s2Hat), polys[[6][256]uint32](t0Hat), polys[[18][256]uint32](a.work[:]))
	case 8:
		ok = asm.SignAttempt87AVX2(&a.cTilde, polys[[7][256]uint32](a.z[:]), polys[[8][256]uint32](a.h[:]), &a.in, polys[[56][256]uint32](aHat),
			polys[[7][256]uint32](s1Hat), polys[[8][256]uint32](s2Hat), polys[[8][256]uint32](t0Hat), polys[[20][256]uint32](a.work[:]))
	default:
		return signAttemptGeneric(p, cTilde, z, h, μ, ρPP, κ, aHat, s1Hat, s2Hat, t0Hat)
	}
	copy(cTilde, a.cTilde[:])
	copy(z, a.z[:l])
	copy(h, a.h[:k])
	return ok
}
