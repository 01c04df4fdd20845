//go:build amd64 && !purego

package mldsa

import (
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

// Sign<set>AMD64 calls the baseline stages; Sign<set>AVX2 the AVX2 ones
// and the BMI2 permutation, so it needs BMI1 and BMI2 too;
// Sign<set>AVX512 the AVX-512 stages besides (Sign44AVX512's SignZ the
// four-way ExpandMask, which needs AVX512VL).
func init() {
	registerVariant(signRoutine, "AMD64", signAMD64, true)
	registerVariant(signRoutine, "AVX2", signAVX2, cpu.X86.HasAVX2 && cpu.X86.HasBMI1 && cpu.X86.HasBMI2)
	registerVariant(signRoutine, "AVX512", signAVX512, cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL && cpu.X86.HasBMI1 && cpu.X86.HasBMI2)
}

// sign is Algorithm 7 from line 7 by one proven routine on each assembly
// path. Its declaration lets the buffers escape (it calls other routines,
// which may move the stack): μ and rnd go in as copies in the pooled
// scratch.
func sign(p *params, sig []byte, key, rnd *[32]byte, μ *[64]byte, aHat, s1Hat, s2Hat, t0Hat []ringElement, scratch *signScratch) bool {
	switch {
	case useAVX512:
		return signAVX512(p, sig, key, rnd, μ, aHat, s1Hat, s2Hat, t0Hat, scratch)
	case useAVX2 && useBMI2:
		return signAVX2(p, sig, key, rnd, μ, aHat, s1Hat, s2Hat, t0Hat, scratch)
	}
	return signAMD64(p, sig, key, rnd, μ, aHat, s1Hat, s2Hat, t0Hat, scratch)
}

// signFits reports whether the buffers have p's sizes.
func signFits(p *params, sig []byte, aHat, s1Hat, s2Hat, t0Hat []ringElement) bool {
	k, l := p.k, p.l
	return len(sig) == p.sigSize() && len(aHat) == k*l && len(s1Hat) == l && len(s2Hat) == k && len(t0Hat) == k
}

// signBuffers copies K, rnd and μ into s's seed and gives the routines'
// acc, seed and scratch.
func signBuffers(s *signScratch, key, rnd *[32]byte, μ *[64]byte) (*[signAccBytes]byte, *[128]byte, *[signWorkBytes]byte) {
	copy(s.seed[:32], key[:])
	copy(s.seed[32:64], rnd[:])
	copy(s.seed[64:], μ[:])
	return (*[signAccBytes]byte)(unsafe.Pointer(&s.acc)), &s.seed, (*[signWorkBytes]byte)(unsafe.Pointer(&s.signWork))
}

// signAMD64 is sign by the baseline routine of p; buffers of other sizes
// go to the generic code.
func signAMD64(p *params, sig []byte, key, rnd *[32]byte, μ *[64]byte, aHat, s1Hat, s2Hat, t0Hat []ringElement, s *signScratch) bool {
	if !signFits(p, sig, aHat, s1Hat, s2Hat, t0Hat) {
		return signGeneric(p, sig, key, rnd, μ, aHat, s1Hat, s2Hat, t0Hat, s)
	}
	acc, seed, work := signBuffers(s, key, rnd, μ)
	switch p.k {
	case 4:
		return asm.Sign44AMD64((*[2420]byte)(sig), acc, seed, polys[[16][256]uint32](aHat), polys[[4][256]uint32](s1Hat), polys[[4][256]uint32](s2Hat), polys[[4][256]uint32](t0Hat), work)
	case 6:
		return asm.Sign65AMD64((*[3309]byte)(sig), acc, seed, polys[[30][256]uint32](aHat), polys[[5][256]uint32](s1Hat), polys[[6][256]uint32](s2Hat), polys[[6][256]uint32](t0Hat), work)
	case 8:
		return asm.Sign87AMD64((*[4627]byte)(sig), acc, seed, polys[[56][256]uint32](aHat), polys[[7][256]uint32](s1Hat), polys[[8][256]uint32](s2Hat), polys[[8][256]uint32](t0Hat), work)
	}
	return signGeneric(p, sig, key, rnd, μ, aHat, s1Hat, s2Hat, t0Hat, s)
}

// signAVX2 is signAMD64 with the AVX2 routines (and the BMI2
// permutation: without BMI2 it is the baseline routine's).
func signAVX2(p *params, sig []byte, key, rnd *[32]byte, μ *[64]byte, aHat, s1Hat, s2Hat, t0Hat []ringElement, s *signScratch) bool {
	if !useBMI2 {
		return signAMD64(p, sig, key, rnd, μ, aHat, s1Hat, s2Hat, t0Hat, s)
	}
	if !signFits(p, sig, aHat, s1Hat, s2Hat, t0Hat) {
		return signGeneric(p, sig, key, rnd, μ, aHat, s1Hat, s2Hat, t0Hat, s)
	}
	acc, seed, work := signBuffers(s, key, rnd, μ)
	switch p.k {
	case 4:
		return asm.Sign44AVX2((*[2420]byte)(sig), acc, seed, polys[[16][256]uint32](aHat), polys[[4][256]uint32](s1Hat), polys[[4][256]uint32](s2Hat), polys[[4][256]uint32](t0Hat), work)
	case 6:
		return asm.Sign65AVX2((*[3309]byte)(sig), acc, seed, polys[[30][256]uint32](aHat), polys[[5][256]uint32](s1Hat), polys[[6][256]uint32](s2Hat), polys[[6][256]uint32](t0Hat), work)
	case 8:
		return asm.Sign87AVX2((*[4627]byte)(sig), acc, seed, polys[[56][256]uint32](aHat), polys[[7][256]uint32](s1Hat), polys[[8][256]uint32](s2Hat), polys[[8][256]uint32](t0Hat), work)
	}
	return signGeneric(p, sig, key, rnd, μ, aHat, s1Hat, s2Hat, t0Hat, s)
}

// signAVX512 is signAMD64 with the AVX-512 routines.
func signAVX512(p *params, sig []byte, key, rnd *[32]byte, μ *[64]byte, aHat, s1Hat, s2Hat, t0Hat []ringElement, s *signScratch) bool {
	if !useBMI2 || !signFits(p, sig, aHat, s1Hat, s2Hat, t0Hat) {
		return signGeneric(p, sig, key, rnd, μ, aHat, s1Hat, s2Hat, t0Hat, s)
	}
	acc, seed, work := signBuffers(s, key, rnd, μ)
	switch p.k {
	case 4:
		return asm.Sign44AVX512((*[2420]byte)(sig), acc, seed, polys[[16][256]uint32](aHat), polys[[4][256]uint32](s1Hat), polys[[4][256]uint32](s2Hat), polys[[4][256]uint32](t0Hat), work)
	case 6:
		return asm.Sign65AVX512((*[3309]byte)(sig), acc, seed, polys[[30][256]uint32](aHat), polys[[5][256]uint32](s1Hat), polys[[6][256]uint32](s2Hat), polys[[6][256]uint32](t0Hat), work)
	case 8:
		return asm.Sign87AVX512((*[4627]byte)(sig), acc, seed, polys[[56][256]uint32](aHat), polys[[7][256]uint32](s1Hat), polys[[8][256]uint32](s2Hat), polys[[8][256]uint32](t0Hat), work)
	}
	return signGeneric(p, sig, key, rnd, μ, aHat, s1Hat, s2Hat, t0Hat, s)
}

// The sizes of the routines' acc and scratch (contract.SignAccBytes and
// SignScratchLen; TestSignScratchLayout).
const (
	signAccBytes  = int(unsafe.Sizeof(signAcc{}))
	signWorkBytes = int(unsafe.Sizeof(signWork{}))
)
