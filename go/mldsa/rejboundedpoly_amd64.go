//go:build amd64 && !purego

package mldsa

import (
	"unsafe"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(rejBoundedPolyRoutine, "AMD64", rejBoundedPolyAMD64, true)
	for r := range boundedNonces {
		boundedNonces[r] = uint16(r)
	}
}

func rejBoundedPoly(a *ringElement, ρPrime *[64]byte, r uint16, η int) bool {
	return rejBoundedPolyAMD64(a, ρPrime, r, η)
}

// boundedNonces[r] = r for the nonces ExpandS uses (r < ℓ + k ≤ 15). The
// routines call the permutation, which may move the goroutine's stack, so
// their declarations let their arguments escape (a, ρ′ and the nonce live
// on the heap); a nonce read from here needs no allocation.
var boundedNonces [16]uint16

// boundedNonce returns the address of r on the heap: in boundedNonces,
// or else a new one.
func boundedNonce(r uint16) *uint16 {
	if int(r) < len(boundedNonces) {
		return &boundedNonces[r]
	}
	n := r
	return &n
}

// rejBoundedPolyAMD64 runs the baseline routine of η (public). Whether the
// block bound ran out follows from where the rejections fell.
func rejBoundedPolyAMD64(a *ringElement, ρPrime *[64]byte, r uint16, η int) bool {
	nonce := boundedNonce(r)
	var ok bool
	if η == 2 {
		ok = asm.RejBoundedPolyEta2AMD64(poly32(a), ρPrime, nonce)
	} else {
		ok = asm.RejBoundedPolyEta4AMD64(poly32(a), ρPrime, nonce)
	}
	declassify(publicRejBounded, unsafe.Pointer(&ok), 1)
	return ok
}
