//go:build amd64 && !purego

package mldsa

import (
	"sync"

	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

// Verify<set>AMD64 calls the baseline routines; Verify<set>AVX2 the AVX2
// ones, the BMI2 permutation and SampleInBall, so it needs BMI1 and BMI2
// too; Verify<set>AVX512 calls the AVX-512 NTT, NTT⁻¹ and products
// besides, which need AVX512F.
func init() {
	registerVariant(verifyRoutine, "AMD64", verifyAMD64, true)
	registerVariant(verifyRoutine, "AVX2", verifyAVX2, cpu.X86.HasAVX2 && cpu.X86.HasBMI1 && cpu.X86.HasBMI2)
	registerVariant(verifyRoutine, "AVX512", verifyAVX512, cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasBMI1 && cpu.X86.HasBMI2)
}

// verify is Algorithm 8 by one proven routine on each assembly path.
func verify(p *params, sig []byte, μ *[64]byte, aHat, t1Hat []ringElement) bool {
	switch {
	case useAVX512:
		return verifyAVX512(p, sig, μ, aHat, t1Hat)
	case useAVX2 && useBMI2:
		return verifyAVX2(p, sig, μ, aHat, t1Hat)
	}
	return verifyAMD64(p, sig, μ, aHat, t1Hat)
}

// verifyArgs holds copies of σ and μ, and its work space, for a routine, whose declaration lets
// its buffers escape (it calls others, which may move the stack): pooled,
// so that Verify allocates nothing and the caller's buffers stay where
// they are.
type verifyArgs struct {
	sig  [4627]byte // ML-DSA-87's, the largest
	μ    [64]byte
	work [8 + 7 + 4][256]uint32
}

var verifyPool = sync.Pool{New: func() any { return new(verifyArgs) }}

// verifyFits reports whether the buffers have p's sizes.
func verifyFits(p *params, sig []byte, aHat, t1Hat []ringElement) bool {
	return len(sig) == p.sigSize() && len(aHat) == p.k*p.l && len(t1Hat) == p.k
}

// verifyCopies is pooled copies of sig and μ; the caller puts it back.
func verifyCopies(sig []byte, μ *[64]byte) *verifyArgs {
	a := verifyPool.Get().(*verifyArgs)
	copy(a.sig[:], sig)
	a.μ = *μ
	return a
}

// verifyAMD64 is verify by the baseline routine of p; buffers of other
// sizes go to the generic code.
func verifyAMD64(p *params, sig []byte, μ *[64]byte, aHat, t1Hat []ringElement) bool {
	if !verifyFits(p, sig, aHat, t1Hat) {
		return verifyGeneric(p, sig, μ, aHat, t1Hat)
	}
	a := verifyCopies(sig, μ)
	defer verifyPool.Put(a)
	switch p.k {
	case 4:
		return asm.Verify44AMD64((*[2420]byte)(a.sig[:2420]), &a.μ, polys[[16][256]uint32](aHat), polys[[4][256]uint32](t1Hat), (*[12][256]uint32)(a.work[:12]))
	case 6:
		return asm.Verify65AMD64((*[3309]byte)(a.sig[:3309]), &a.μ, polys[[30][256]uint32](aHat), polys[[6][256]uint32](t1Hat), (*[15][256]uint32)(a.work[:15]))
	case 8:
		return asm.Verify87AMD64(&a.sig, &a.μ, polys[[56][256]uint32](aHat), polys[[8][256]uint32](t1Hat), &a.work)
	}
	return verifyGeneric(p, sig, μ, aHat, t1Hat)
}

// verifyAVX2 is verifyAMD64 with the AVX2 routines (and the BMI2
// permutation and SampleInBall: without BMI2 it is the baseline
// routine's).
func verifyAVX2(p *params, sig []byte, μ *[64]byte, aHat, t1Hat []ringElement) bool {
	if !useBMI2 {
		return verifyAMD64(p, sig, μ, aHat, t1Hat)
	}
	if !verifyFits(p, sig, aHat, t1Hat) {
		return verifyGeneric(p, sig, μ, aHat, t1Hat)
	}
	a := verifyCopies(sig, μ)
	defer verifyPool.Put(a)
	switch p.k {
	case 4:
		return asm.Verify44AVX2((*[2420]byte)(a.sig[:2420]), &a.μ, polys[[16][256]uint32](aHat), polys[[4][256]uint32](t1Hat), (*[12][256]uint32)(a.work[:12]))
	case 6:
		return asm.Verify65AVX2((*[3309]byte)(a.sig[:3309]), &a.μ, polys[[30][256]uint32](aHat), polys[[6][256]uint32](t1Hat), (*[15][256]uint32)(a.work[:15]))
	case 8:
		return asm.Verify87AVX2(&a.sig, &a.μ, polys[[56][256]uint32](aHat), polys[[8][256]uint32](t1Hat), &a.work)
	}
	return verifyGeneric(p, sig, μ, aHat, t1Hat)
}

// verifyAVX512 is verifyAVX2 with the AVX-512 NTT, NTT⁻¹ and products;
// without BMI2 it is the generic composition of the AVX-512 routines.
func verifyAVX512(p *params, sig []byte, μ *[64]byte, aHat, t1Hat []ringElement) bool {
	if !useBMI2 || !verifyFits(p, sig, aHat, t1Hat) {
		return verifyGeneric(p, sig, μ, aHat, t1Hat)
	}
	a := verifyCopies(sig, μ)
	defer verifyPool.Put(a)
	switch p.k {
	case 4:
		return asm.Verify44AVX512((*[2420]byte)(a.sig[:2420]), &a.μ, polys[[16][256]uint32](aHat), polys[[4][256]uint32](t1Hat), (*[12][256]uint32)(a.work[:12]))
	case 6:
		return asm.Verify65AVX512((*[3309]byte)(a.sig[:3309]), &a.μ, polys[[30][256]uint32](aHat), polys[[6][256]uint32](t1Hat), (*[15][256]uint32)(a.work[:15]))
	case 8:
		return asm.Verify87AVX512(&a.sig, &a.μ, polys[[56][256]uint32](aHat), polys[[8][256]uint32](t1Hat), &a.work)
	}
	return verifyGeneric(p, sig, μ, aHat, t1Hat)
}
