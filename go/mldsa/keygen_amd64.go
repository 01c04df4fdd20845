//go:build amd64 && !purego

package mldsa

import (
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

// KeyGen<set>AMD64 calls the baseline routines; KeyGen<set>AVX2 the AVX2
// ones and the BMI2 permutation, so it needs BMI1 and BMI2 too;
// KeyGen<set>AVX512 calls the AVX-512 ExpandA, four-way sampler, NTT,
// NTT⁻¹ and product besides, which need AVX512F and AVX512VL.
func init() {
	registerVariant(keyGenRoutine, "AMD64", keyGenAMD64, true)
	registerVariant(keyGenRoutine, "AVX2", keyGenAVX2, cpu.X86.HasAVX2 && cpu.X86.HasBMI1 && cpu.X86.HasBMI2)
	registerVariant(keyGenRoutine, "AVX512", keyGenAVX512, cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL && cpu.X86.HasBMI1 && cpu.X86.HasBMI2)
}

// keyGen is Algorithm 6 by one proven routine on each assembly path.
func keyGen(p *params, pk, sk []byte, aHat, s1Hat, s2, t, t0 []ringElement, ξ *[32]byte) bool {
	switch {
	case useAVX512:
		return keyGenAVX512(p, pk, sk, aHat, s1Hat, s2, t, t0, ξ)
	case useAVX2 && useBMI2:
		return keyGenAVX2(p, pk, sk, aHat, s1Hat, s2, t, t0, ξ)
	}
	return keyGenAMD64(p, pk, sk, aHat, s1Hat, s2, t, t0, ξ)
}

// keyGenFits reports whether the buffers have p's sizes.
func keyGenFits(p *params, pk, sk []byte, aHat, s1Hat, s2, t, t0 []ringElement) bool {
	k, l := p.k, p.l
	return len(pk) == p.pkSize() && len(sk) == p.skSize() && len(aHat) == k*l && len(s1Hat) == l && len(s2) == k && len(t) == k && len(t0) == k
}

// keyGenDone declares public what FIPS 204 makes public of a key
// generation: pk (ρ and t1), Â = ExpandA(ρ), tr = H(pk, 64) in sk, and
// whether a sampler ran out, which depends only on where the samplers'
// rejections fall.
func keyGenDone(pk, sk []byte, aHat []ringElement, ok bool) bool {
	declassify(publicRejBounded, unsafe.Pointer(&ok), 1)
	declassify(publicT1, unsafe.Pointer(&pk[0]), uintptr(len(pk)))
	declassify(publicRho, unsafe.Pointer(&aHat[0]), uintptr(len(aHat))*unsafe.Sizeof(aHat[0]))
	declassify(publicTr, unsafe.Pointer(&sk[64]), 64)
	return ok
}

// keyGenAMD64 is keyGen by the baseline routine of p; buffers of other
// sizes go to the generic code.
func keyGenAMD64(p *params, pk, sk []byte, aHat, s1Hat, s2, t, t0 []ringElement, ξ *[32]byte) bool {
	if !keyGenFits(p, pk, sk, aHat, s1Hat, s2, t, t0) {
		return keyGenGeneric(p, pk, sk, aHat, s1Hat, s2, t, t0, ξ)
	}
	var ok bool
	switch p.k {
	case 4:
		ok = asm.KeyGen44AMD64((*[1312]byte)(pk), (*[2560]byte)(sk), polys[[16][256]uint32](aHat), polys[[4][256]uint32](s1Hat),
			polys[[4][256]uint32](s2), polys[[4][256]uint32](t), polys[[4][256]uint32](t0), ξ)
	case 6:
		ok = asm.KeyGen65AMD64((*[1952]byte)(pk), (*[4032]byte)(sk), polys[[30][256]uint32](aHat), polys[[5][256]uint32](s1Hat),
			polys[[6][256]uint32](s2), polys[[6][256]uint32](t), polys[[6][256]uint32](t0), ξ)
	case 8:
		ok = asm.KeyGen87AMD64((*[2592]byte)(pk), (*[4896]byte)(sk), polys[[56][256]uint32](aHat), polys[[7][256]uint32](s1Hat),
			polys[[8][256]uint32](s2), polys[[8][256]uint32](t), polys[[8][256]uint32](t0), ξ)
	default:
		return keyGenGeneric(p, pk, sk, aHat, s1Hat, s2, t, t0, ξ)
	}
	return keyGenDone(pk, sk, aHat, ok)
}

// keyGenAVX2 is keyGenAMD64 with the AVX2 routines (and the BMI2
// permutation: without BMI2 it is the baseline routine's).
func keyGenAVX2(p *params, pk, sk []byte, aHat, s1Hat, s2, t, t0 []ringElement, ξ *[32]byte) bool {
	if !useBMI2 {
		return keyGenAMD64(p, pk, sk, aHat, s1Hat, s2, t, t0, ξ)
	}
	if !keyGenFits(p, pk, sk, aHat, s1Hat, s2, t, t0) {
		return keyGenGeneric(p, pk, sk, aHat, s1Hat, s2, t, t0, ξ)
	}
	var ok bool
	switch p.k {
	case 4:
		ok = asm.KeyGen44AVX2((*[1312]byte)(pk), (*[2560]byte)(sk), polys[[16][256]uint32](aHat), polys[[4][256]uint32](s1Hat),
			polys[[4][256]uint32](s2), polys[[4][256]uint32](t), polys[[4][256]uint32](t0), ξ)
	case 6:
		ok = asm.KeyGen65AVX2((*[1952]byte)(pk), (*[4032]byte)(sk), polys[[30][256]uint32](aHat), polys[[5][256]uint32](s1Hat),
			polys[[6][256]uint32](s2), polys[[6][256]uint32](t), polys[[6][256]uint32](t0), ξ)
	case 8:
		ok = asm.KeyGen87AVX2((*[2592]byte)(pk), (*[4896]byte)(sk), polys[[56][256]uint32](aHat), polys[[7][256]uint32](s1Hat),
			polys[[8][256]uint32](s2), polys[[8][256]uint32](t), polys[[8][256]uint32](t0), ξ)
	default:
		return keyGenGeneric(p, pk, sk, aHat, s1Hat, s2, t, t0, ξ)
	}
	return keyGenDone(pk, sk, aHat, ok)
}

// keyGenAVX512 is keyGenAVX2 with the AVX-512 ExpandA, four-way sampler,
// NTT, NTT⁻¹ and product; without BMI2 it is the generic composition of
// the AVX-512 routines.
func keyGenAVX512(p *params, pk, sk []byte, aHat, s1Hat, s2, t, t0 []ringElement, ξ *[32]byte) bool {
	if !useBMI2 || !keyGenFits(p, pk, sk, aHat, s1Hat, s2, t, t0) {
		return keyGenGeneric(p, pk, sk, aHat, s1Hat, s2, t, t0, ξ)
	}
	var ok bool
	switch p.k {
	case 4:
		ok = asm.KeyGen44AVX512((*[1312]byte)(pk), (*[2560]byte)(sk), polys[[16][256]uint32](aHat), polys[[4][256]uint32](s1Hat),
			polys[[4][256]uint32](s2), polys[[4][256]uint32](t), polys[[4][256]uint32](t0), ξ)
	case 6:
		ok = asm.KeyGen65AVX512((*[1952]byte)(pk), (*[4032]byte)(sk), polys[[30][256]uint32](aHat), polys[[5][256]uint32](s1Hat),
			polys[[6][256]uint32](s2), polys[[6][256]uint32](t), polys[[6][256]uint32](t0), ξ)
	case 8:
		ok = asm.KeyGen87AVX512((*[2592]byte)(pk), (*[4896]byte)(sk), polys[[56][256]uint32](aHat), polys[[7][256]uint32](s1Hat),
			polys[[8][256]uint32](s2), polys[[8][256]uint32](t), polys[[8][256]uint32](t0), ξ)
	default:
		return keyGenGeneric(p, pk, sk, aHat, s1Hat, s2, t, t0, ξ)
	}
	return keyGenDone(pk, sk, aHat, ok)
}
