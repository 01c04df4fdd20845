//go:build amd64 && !purego

package mldsa

import (
	"sync"

	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

// SignAttempt<set>AMD64 calls the baseline routines; SignAttempt<set>AVX2
// the AVX2 ones, the BMI2 permutation and SampleInBall, so it needs BMI1
// and BMI2 too.
func init() {
	registerVariant(signAttemptRoutine, "AMD64", signAttemptAMD64, true)
	registerVariant(signAttemptRoutine, "AVX2", signAttemptAVX2, cpu.X86.HasAVX2 && cpu.X86.HasBMI1 && cpu.X86.HasBMI2)
}

// signAttempt is one attempt by one proven routine on the AVX2 and
// baseline paths; the AVX-512 path keeps the generic composition.
func signAttempt(p *params, cTilde []byte, z, h []ringElement, μ, ρPP *[64]byte, κ int, aHat, s1Hat, s2Hat, t0Hat []ringElement) bool {
	switch {
	case useAVX512:
		return signAttemptGeneric(p, cTilde, z, h, μ, ρPP, κ, aHat, s1Hat, s2Hat, t0Hat)
	case useAVX2 && useBMI2:
		return signAttemptAVX2(p, cTilde, z, h, μ, ρPP, κ, aHat, s1Hat, s2Hat, t0Hat)
	}
	return signAttemptAMD64(p, cTilde, z, h, μ, ρPP, κ, aHat, s1Hat, s2Hat, t0Hat)
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

// putSignAttemptArgs returns a to the pool zeroed: ρ″, c̃, z, h and the
// work space are secret, and pooled memory outlives the call.
func putSignAttemptArgs(a *signAttemptArgs) {
	*a = signAttemptArgs{}
	signAttemptPool.Put(a)
}

// signAttemptFits reports whether the buffers have p's sizes and κ fits
// its two bytes.
func signAttemptFits(p *params, cTilde []byte, z, h []ringElement, κ int, aHat, s1Hat, s2Hat, t0Hat []ringElement) bool {
	k, l := p.k, p.l
	return len(cTilde) == p.cTildeSize() && len(z) == l && len(h) == k && len(aHat) == k*l && len(s1Hat) == l && len(s2Hat) == k && len(t0Hat) == k &&
		κ >= 0 && κ <= 0xffff
}

// signAttemptCopies is the pooled buffers with μ ‖ ρ″ ‖ κ; the caller
// puts them back with putSignAttemptArgs.
func signAttemptCopies(μ, ρPP *[64]byte, κ int) *signAttemptArgs {
	a := signAttemptPool.Get().(*signAttemptArgs)
	copy(a.in[:64], μ[:])
	copy(a.in[64:128], ρPP[:])
	a.in[128], a.in[129] = byte(κ), byte(κ>>8)
	return a
}

// signAttemptOut copies the routine's c̃, z and h out.
func signAttemptOut(p *params, a *signAttemptArgs, cTilde []byte, z, h []ringElement) {
	copy(cTilde, a.cTilde[:])
	copy(z, a.z[:p.l])
	copy(h, a.h[:p.k])
}

// signAttemptAMD64 is signAttempt by the baseline routine of p; buffers of
// other sizes go to the generic code.
func signAttemptAMD64(p *params, cTilde []byte, z, h []ringElement, μ, ρPP *[64]byte, κ int, aHat, s1Hat, s2Hat, t0Hat []ringElement) bool {
	if !signAttemptFits(p, cTilde, z, h, κ, aHat, s1Hat, s2Hat, t0Hat) {
		return signAttemptGeneric(p, cTilde, z, h, μ, ρPP, κ, aHat, s1Hat, s2Hat, t0Hat)
	}
	a := signAttemptCopies(μ, ρPP, κ)
	defer putSignAttemptArgs(a)
	var ok bool
	switch p.k {
	case 4:
		ok = asm.SignAttempt44AMD64((*[32]byte)(a.cTilde[:32]), polys[[4][256]uint32](a.z[:]), polys[[4][256]uint32](a.h[:]), &a.in, polys[[16][256]uint32](aHat),
			polys[[4][256]uint32](s1Hat), polys[[4][256]uint32](s2Hat), polys[[4][256]uint32](t0Hat), polys[[12][256]uint32](a.work[:]))
	case 6:
		ok = asm.SignAttempt65AMD64((*[48]byte)(a.cTilde[:48]), polys[[5][256]uint32](a.z[:]), polys[[6][256]uint32](a.h[:]), &a.in, polys[[30][256]uint32](aHat),
			polys[[5][256]uint32](s1Hat), polys[[6][256]uint32](s2Hat), polys[[6][256]uint32](t0Hat), polys[[18][256]uint32](a.work[:]))
	case 8:
		ok = asm.SignAttempt87AMD64(&a.cTilde, polys[[7][256]uint32](a.z[:]), polys[[8][256]uint32](a.h[:]), &a.in, polys[[56][256]uint32](aHat),
			polys[[7][256]uint32](s1Hat), polys[[8][256]uint32](s2Hat), polys[[8][256]uint32](t0Hat), polys[[20][256]uint32](a.work[:]))
	default:
		return signAttemptGeneric(p, cTilde, z, h, μ, ρPP, κ, aHat, s1Hat, s2Hat, t0Hat)
	}
	signAttemptOut(p, a, cTilde, z, h)
	return ok
}

// signAttemptAVX2 is signAttemptAMD64 with the AVX2 routines (and the BMI2
// permutation and SampleInBall: without BMI2 it is the baseline
// routine's).
func signAttemptAVX2(p *params, cTilde []byte, z, h []ringElement, μ, ρPP *[64]byte, κ int, aHat, s1Hat, s2Hat, t0Hat []ringElement) bool {
	if !useBMI2 {
		return signAttemptAMD64(p, cTilde, z, h, μ, ρPP, κ, aHat, s1Hat, s2Hat, t0Hat)
	}
	if !signAttemptFits(p, cTilde, z, h, κ, aHat, s1Hat, s2Hat, t0Hat) {
		return signAttemptGeneric(p, cTilde, z, h, μ, ρPP, κ, aHat, s1Hat, s2Hat, t0Hat)
	}
	a := signAttemptCopies(μ, ρPP, κ)
	defer putSignAttemptArgs(a)
	var ok bool
	switch p.k {
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
	signAttemptOut(p, a, cTilde, z, h)
	return ok
}
