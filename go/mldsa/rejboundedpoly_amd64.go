//go:build amd64 && !purego

package mldsa

import "github.com/vg-crypto/vg/go/asm"

func init() {
	registerVariant(rejBoundedPolyRoutine, "AMD64", rejBoundedPolyAMD64, true)
}

func rejBoundedPoly(a *ringElement, ρPrime *[64]byte, r uint16, η int) bool {
	return rejBoundedPolyAMD64(a, ρPrime, r, η)
}

// rejBoundedPolyAMD64 runs the baseline routine of η (public).
func rejBoundedPolyAMD64(a *ringElement, ρPrime *[64]byte, r uint16, η int) bool {
	if η == 2 {
		return asm.RejBoundedPolyEta2AMD64(poly32(a), ρPrime, &r)
	}
	return asm.RejBoundedPolyEta4AMD64(poly32(a), ρPrime, &r)
}
