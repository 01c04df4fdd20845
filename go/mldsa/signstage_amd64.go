//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

// SignZ/R0/Hint<set>AMD64 call the baseline routines; the AVX2 ones the
// AVX2 routines, and SignZ the BMI2 permutation and SampleInBall, so they
// need BMI1 and BMI2 too; the AVX512 ones the AVX-512 NTT, NTT⁻¹,
// products and ExpandMask besides (SignZ44AVX512's four-way one needs
// AVX512VL).
func init() {
	registerVariant(signZRoutine, "AMD64", signZAMD64, true)
	registerVariant(signZRoutine, "AVX2", signZAVX2, cpu.X86.HasAVX2 && cpu.X86.HasBMI1 && cpu.X86.HasBMI2)
	registerVariant(signR0Routine, "AMD64", signR0AMD64, true)
	registerVariant(signR0Routine, "AVX2", signR0AVX2, cpu.X86.HasAVX2 && cpu.X86.HasBMI1 && cpu.X86.HasBMI2)
	registerVariant(signHintRoutine, "AMD64", signHintAMD64, true)
	registerVariant(signHintRoutine, "AVX2", signHintAVX2, cpu.X86.HasAVX2 && cpu.X86.HasBMI1 && cpu.X86.HasBMI2)
	registerVariant(signZRoutine, "AVX512", signZAVX512, cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL && cpu.X86.HasBMI1 && cpu.X86.HasBMI2)
	registerVariant(signR0Routine, "AVX512", signR0AVX512, cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL && cpu.X86.HasBMI1 && cpu.X86.HasBMI2)
	registerVariant(signHintRoutine, "AVX512", signHintAVX512, cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL && cpu.X86.HasBMI1 && cpu.X86.HasBMI2)
}

// The stages are proven routines on every path. Their declarations let
// the buffers escape (they call other routines, which may move the
// stack): signInternal passes pooled ones.
func signZ(p *params, cTilde []byte, cHat *ringElement, w, z []ringElement, in *[130]byte, aHat, s1Hat, work []ringElement) bool {
	switch {
	case useAVX512:
		return signZAVX512(p, cTilde, cHat, w, z, in, aHat, s1Hat, work)
	case useAVX2 && useBMI2:
		return signZAVX2(p, cTilde, cHat, w, z, in, aHat, s1Hat, work)
	}
	return signZAMD64(p, cTilde, cHat, w, z, in, aHat, s1Hat, work)
}

func signR0(p *params, w []ringElement, cHat *ringElement, s2Hat []ringElement, work *ringElement) bool {
	switch {
	case useAVX512:
		return signR0AVX512(p, w, cHat, s2Hat, work)
	case useAVX2 && useBMI2:
		return signR0AVX2(p, w, cHat, s2Hat, work)
	}
	return signR0AMD64(p, w, cHat, s2Hat, work)
}

func signHint(p *params, h, wcs2 []ringElement, cHat *ringElement, t0Hat []ringElement, work *ringElement) bool {
	switch {
	case useAVX512:
		return signHintAVX512(p, h, wcs2, cHat, t0Hat, work)
	case useAVX2 && useBMI2:
		return signHintAVX2(p, h, wcs2, cHat, t0Hat, work)
	}
	return signHintAMD64(p, h, wcs2, cHat, t0Hat, work)
}

// signZFits reports whether signZ's buffers have p's sizes.
func signZFits(p *params, cTilde []byte, w, z, aHat, s1Hat, work []ringElement) bool {
	k, l := p.k, p.l
	return len(cTilde) == p.cTildeSize() && len(w) == k && len(z) == l && len(aHat) == k*l && len(s1Hat) == l && len(work) == signZWork(p)
}

// signZAMD64 is signZ by the baseline routine of p; buffers of other
// sizes go to the generic code.
func signZAMD64(p *params, cTilde []byte, cHat *ringElement, w, z []ringElement, in *[130]byte, aHat, s1Hat, work []ringElement) bool {
	if !signZFits(p, cTilde, w, z, aHat, s1Hat, work) {
		return signZGeneric(p, cTilde, cHat, w, z, in, aHat, s1Hat, work)
	}
	c := poly32(cHat)
	switch p.k {
	case 4:
		return asm.SignZ44AMD64((*[32]byte)(cTilde), c, polys[[4][256]uint32](w), polys[[4][256]uint32](z), in,
			polys[[16][256]uint32](aHat), polys[[4][256]uint32](s1Hat), polys[[6][256]uint32](work))
	case 6:
		return asm.SignZ65AMD64((*[48]byte)(cTilde), c, polys[[6][256]uint32](w), polys[[5][256]uint32](z), in,
			polys[[30][256]uint32](aHat), polys[[5][256]uint32](s1Hat), polys[[10][256]uint32](work))
	case 8:
		return asm.SignZ87AMD64((*[64]byte)(cTilde), c, polys[[8][256]uint32](w), polys[[7][256]uint32](z), in,
			polys[[56][256]uint32](aHat), polys[[7][256]uint32](s1Hat), polys[[10][256]uint32](work))
	}
	return signZGeneric(p, cTilde, cHat, w, z, in, aHat, s1Hat, work)
}

// signZAVX2 is signZAMD64 with the AVX2 routines (and the BMI2
// permutation and SampleInBall: without BMI2 it is the baseline
// routine's).
func signZAVX2(p *params, cTilde []byte, cHat *ringElement, w, z []ringElement, in *[130]byte, aHat, s1Hat, work []ringElement) bool {
	if !useBMI2 {
		return signZAMD64(p, cTilde, cHat, w, z, in, aHat, s1Hat, work)
	}
	if !signZFits(p, cTilde, w, z, aHat, s1Hat, work) {
		return signZGeneric(p, cTilde, cHat, w, z, in, aHat, s1Hat, work)
	}
	c := poly32(cHat)
	switch p.k {
	case 4:
		return asm.SignZ44AVX2((*[32]byte)(cTilde), c, polys[[4][256]uint32](w), polys[[4][256]uint32](z), in,
			polys[[16][256]uint32](aHat), polys[[4][256]uint32](s1Hat), polys[[6][256]uint32](work))
	case 6:
		return asm.SignZ65AVX2((*[48]byte)(cTilde), c, polys[[6][256]uint32](w), polys[[5][256]uint32](z), in,
			polys[[30][256]uint32](aHat), polys[[5][256]uint32](s1Hat), polys[[10][256]uint32](work))
	case 8:
		return asm.SignZ87AVX2((*[64]byte)(cTilde), c, polys[[8][256]uint32](w), polys[[7][256]uint32](z), in,
			polys[[56][256]uint32](aHat), polys[[7][256]uint32](s1Hat), polys[[10][256]uint32](work))
	}
	return signZGeneric(p, cTilde, cHat, w, z, in, aHat, s1Hat, work)
}

// signR0AMD64 is signR0 by the baseline routine of p; buffers of other
// sizes go to the generic code.
func signR0AMD64(p *params, w []ringElement, cHat *ringElement, s2Hat []ringElement, work *ringElement) bool {
	if len(w) != p.k || len(s2Hat) != p.k {
		return signR0Generic(p, w, cHat, s2Hat, work)
	}
	c, t := poly32(cHat), poly32(work)
	switch p.k {
	case 4:
		return asm.SignR044AMD64(polys[[4][256]uint32](w), c, polys[[4][256]uint32](s2Hat), t)
	case 6:
		return asm.SignR065AMD64(polys[[6][256]uint32](w), c, polys[[6][256]uint32](s2Hat), t)
	case 8:
		return asm.SignR087AMD64(polys[[8][256]uint32](w), c, polys[[8][256]uint32](s2Hat), t)
	}
	return signR0Generic(p, w, cHat, s2Hat, work)
}

// signR0AVX2 is signR0AMD64 with the AVX2 routines.
func signR0AVX2(p *params, w []ringElement, cHat *ringElement, s2Hat []ringElement, work *ringElement) bool {
	if !useBMI2 {
		return signR0AMD64(p, w, cHat, s2Hat, work)
	}
	if len(w) != p.k || len(s2Hat) != p.k {
		return signR0Generic(p, w, cHat, s2Hat, work)
	}
	c, t := poly32(cHat), poly32(work)
	switch p.k {
	case 4:
		return asm.SignR044AVX2(polys[[4][256]uint32](w), c, polys[[4][256]uint32](s2Hat), t)
	case 6:
		return asm.SignR065AVX2(polys[[6][256]uint32](w), c, polys[[6][256]uint32](s2Hat), t)
	case 8:
		return asm.SignR087AVX2(polys[[8][256]uint32](w), c, polys[[8][256]uint32](s2Hat), t)
	}
	return signR0Generic(p, w, cHat, s2Hat, work)
}

// signHintAMD64 is signHint by the baseline routine of p; buffers of
// other sizes go to the generic code.
func signHintAMD64(p *params, h, wcs2 []ringElement, cHat *ringElement, t0Hat []ringElement, work *ringElement) bool {
	if len(h) != p.k || len(wcs2) != p.k || len(t0Hat) != p.k {
		return signHintGeneric(p, h, wcs2, cHat, t0Hat, work)
	}
	c, t := poly32(cHat), poly32(work)
	switch p.k {
	case 4:
		return asm.SignHint44AMD64(polys[[4][256]uint32](h), polys[[4][256]uint32](wcs2), c, polys[[4][256]uint32](t0Hat), t)
	case 6:
		return asm.SignHint65AMD64(polys[[6][256]uint32](h), polys[[6][256]uint32](wcs2), c, polys[[6][256]uint32](t0Hat), t)
	case 8:
		return asm.SignHint87AMD64(polys[[8][256]uint32](h), polys[[8][256]uint32](wcs2), c, polys[[8][256]uint32](t0Hat), t)
	}
	return signHintGeneric(p, h, wcs2, cHat, t0Hat, work)
}

// signHintAVX2 is signHintAMD64 with the AVX2 routines.
func signHintAVX2(p *params, h, wcs2 []ringElement, cHat *ringElement, t0Hat []ringElement, work *ringElement) bool {
	if !useBMI2 {
		return signHintAMD64(p, h, wcs2, cHat, t0Hat, work)
	}
	if len(h) != p.k || len(wcs2) != p.k || len(t0Hat) != p.k {
		return signHintGeneric(p, h, wcs2, cHat, t0Hat, work)
	}
	c, t := poly32(cHat), poly32(work)
	switch p.k {
	case 4:
		return asm.SignHint44AVX2(polys[[4][256]uint32](h), polys[[4][256]uint32](wcs2), c, polys[[4][256]uint32](t0Hat), t)
	case 6:
		return asm.SignHint65AVX2(polys[[6][256]uint32](h), polys[[6][256]uint32](wcs2), c, polys[[6][256]uint32](t0Hat), t)
	case 8:
		return asm.SignHint87AVX2(polys[[8][256]uint32](h), polys[[8][256]uint32](wcs2), c, polys[[8][256]uint32](t0Hat), t)
	}
	return signHintGeneric(p, h, wcs2, cHat, t0Hat, work)
}

// signZAVX512 is signZAVX2 with the AVX-512 ExpandMask, NTT, NTT⁻¹ and
// products (without BMI2 it is the generic code's, as the AVX-512 path
// ran before).
func signZAVX512(p *params, cTilde []byte, cHat *ringElement, w, z []ringElement, in *[130]byte, aHat, s1Hat, work []ringElement) bool {
	if !useBMI2 || !signZFits(p, cTilde, w, z, aHat, s1Hat, work) {
		return signZGeneric(p, cTilde, cHat, w, z, in, aHat, s1Hat, work)
	}
	c := poly32(cHat)
	switch p.k {
	case 4:
		return asm.SignZ44AVX512((*[32]byte)(cTilde), c, polys[[4][256]uint32](w), polys[[4][256]uint32](z), in,
			polys[[16][256]uint32](aHat), polys[[4][256]uint32](s1Hat), polys[[6][256]uint32](work))
	case 6:
		return asm.SignZ65AVX512((*[48]byte)(cTilde), c, polys[[6][256]uint32](w), polys[[5][256]uint32](z), in,
			polys[[30][256]uint32](aHat), polys[[5][256]uint32](s1Hat), polys[[10][256]uint32](work))
	case 8:
		return asm.SignZ87AVX512((*[64]byte)(cTilde), c, polys[[8][256]uint32](w), polys[[7][256]uint32](z), in,
			polys[[56][256]uint32](aHat), polys[[7][256]uint32](s1Hat), polys[[10][256]uint32](work))
	}
	return signZGeneric(p, cTilde, cHat, w, z, in, aHat, s1Hat, work)
}

// signR0AVX512 is signR0AVX2 with the AVX-512 NTT⁻¹ and product.
func signR0AVX512(p *params, w []ringElement, cHat *ringElement, s2Hat []ringElement, work *ringElement) bool {
	if !useBMI2 || len(w) != p.k || len(s2Hat) != p.k {
		return signR0Generic(p, w, cHat, s2Hat, work)
	}
	c, t := poly32(cHat), poly32(work)
	switch p.k {
	case 4:
		return asm.SignR044AVX512(polys[[4][256]uint32](w), c, polys[[4][256]uint32](s2Hat), t)
	case 6:
		return asm.SignR065AVX512(polys[[6][256]uint32](w), c, polys[[6][256]uint32](s2Hat), t)
	case 8:
		return asm.SignR087AVX512(polys[[8][256]uint32](w), c, polys[[8][256]uint32](s2Hat), t)
	}
	return signR0Generic(p, w, cHat, s2Hat, work)
}

// signHintAVX512 is signHintAVX2 with the AVX-512 NTT⁻¹ and product.
func signHintAVX512(p *params, h, wcs2 []ringElement, cHat *ringElement, t0Hat []ringElement, work *ringElement) bool {
	if !useBMI2 || len(h) != p.k || len(wcs2) != p.k || len(t0Hat) != p.k {
		return signHintGeneric(p, h, wcs2, cHat, t0Hat, work)
	}
	c, t := poly32(cHat), poly32(work)
	switch p.k {
	case 4:
		return asm.SignHint44AVX512(polys[[4][256]uint32](h), polys[[4][256]uint32](wcs2), c, polys[[4][256]uint32](t0Hat), t)
	case 6:
		return asm.SignHint65AVX512(polys[[6][256]uint32](h), polys[[6][256]uint32](wcs2), c, polys[[6][256]uint32](t0Hat), t)
	case 8:
		return asm.SignHint87AVX512(polys[[8][256]uint32](h), polys[[8][256]uint32](wcs2), c, polys[[8][256]uint32](t0Hat), t)
	}
	return signHintGeneric(p, h, wcs2, cHat, t0Hat, work)
}
