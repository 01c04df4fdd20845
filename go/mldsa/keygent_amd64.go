//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

// KeyGenT<set>AMD64 calls the baseline routines, KeyGenT<set>AVX2 the
// AVX2 ones.
func init() {
	registerVariant(keyGenTRoutine, "AMD64", keyGenTAMD64, true)
	registerVariant(keyGenTRoutine, "AVX2", keyGenTAVX2, cpu.X86.HasAVX2)
}

func keyGenT(t, s1Hat, s2, aHat []ringElement) {
	if useAVX2 {
		keyGenTAVX2(t, s1Hat, s2, aHat)
		return
	}
	keyGenTAMD64(t, s1Hat, s2, aHat)
}

// keyGenTShape says whether (k, ℓ) = (len(t), len(s1Hat)) is a parameter
// set's and the buffers fit it; others go to the generic code.
func keyGenTShape(t, s1Hat, s2, aHat []ringElement) bool {
	k, l := len(t), len(s1Hat)
	return len(s2) == k && len(aHat) == k*l && (k == 4 && l == 4 || k == 6 && l == 5 || k == 8 && l == 7)
}

// keyGenTAMD64 is keyGenT by the baseline routine of (k, ℓ).
func keyGenTAMD64(t, s1Hat, s2, aHat []ringElement) {
	if !keyGenTShape(t, s1Hat, s2, aHat) {
		keyGenTGeneric(t, s1Hat, s2, aHat)
		return
	}
	switch len(t) {
	case 4:
		asm.KeyGenT44AMD64(polys[[4][256]uint32](t), polys[[4][256]uint32](s1Hat), polys[[4][256]uint32](s2), polys[[16][256]uint32](aHat))
	case 6:
		asm.KeyGenT65AMD64(polys[[6][256]uint32](t), polys[[5][256]uint32](s1Hat), polys[[6][256]uint32](s2), polys[[30][256]uint32](aHat))
	case 8:
		asm.KeyGenT87AMD64(polys[[8][256]uint32](t), polys[[7][256]uint32](s1Hat), polys[[8][256]uint32](s2), polys[[56][256]uint32](aHat))
	}
}

// keyGenTAVX2 is keyGenTAMD64 with the AVX2 routines.
func keyGenTAVX2(t, s1Hat, s2, aHat []ringElement) {
	if !keyGenTShape(t, s1Hat, s2, aHat) {
		keyGenTGeneric(t, s1Hat, s2, aHat)
		return
	}
	switch len(t) {
	case 4:
		asm.KeyGenT44AVX2(polys[[4][256]uint32](t), polys[[4][256]uint32](s1Hat), polys[[4][256]uint32](s2), polys[[16][256]uint32](aHat))
	case 6:
		asm.KeyGenT65AVX2(polys[[6][256]uint32](t), polys[[5][256]uint32](s1Hat), polys[[6][256]uint32](s2), polys[[30][256]uint32](aHat))
	case 8:
		asm.KeyGenT87AVX2(polys[[8][256]uint32](t), polys[[7][256]uint32](s1Hat), polys[[8][256]uint32](s2), polys[[56][256]uint32](aHat))
	}
}
