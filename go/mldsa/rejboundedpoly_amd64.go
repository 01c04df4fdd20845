//go:build amd64 && !purego

package mldsa

import (
	"unsafe"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(rejBoundedPolyRoutine, "AMD64", rejBoundedPolyAMD64, true)
}

func rejBoundedPoly(a *ringElement, ρPrime *[64]byte, r uint16, η int) bool {
	return rejBoundedPolyAMD64(a, ρPrime, r, η)
}

// rejBoundedPolyAMD64 runs the baseline routine of η (public). Whether the
// block bound ran out follows from where the rejections fell.
func rejBoundedPolyAMD64(a *ringElement, ρPrime *[64]byte, r uint16, η int) bool {
	var ok bool
	if η == 2 {
		ok = asm.RejBoundedPolyEta2AMD64(poly32(a), ρPrime, &r)
	} else {
		ok = asm.RejBoundedPolyEta4AMD64(poly32(a), ρPrime, &r)
	}
	declassify(publicRejBounded, unsafe.Pointer(&ok), 1)
	return ok
}
