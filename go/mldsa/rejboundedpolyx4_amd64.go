//go:build amd64 && !purego

package mldsa

import (
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(rejBoundedPolyx4Routine, "AMD64", rejBoundedPolyx4AMD64, true)
	registerVariant(rejBoundedPolyx4Routine, "AVX2", rejBoundedPolyx4AVX2, cpu.X86.HasAVX2)
	registerVariant(rejBoundedPolyx4Routine, "AVX512", rejBoundedPolyx4AVX512, cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL)
}

func rejBoundedPolyx4(a *[4]*ringElement, ρPrime *[64]byte, r *[4]uint16, η int) bool {
	if useAVX512 {
		return rejBoundedPolyx4AVX512(a, ρPrime, r, η)
	}
	if useAVX2 {
		return rejBoundedPolyx4AVX2(a, ρPrime, r, η)
	}
	return rejBoundedPolyx4AMD64(a, ρPrime, r, η)
}

// rejBoundedPolyx4AMD64 is the four-way sampler without AVX2: a call of
// the baseline routine per lane not left out, all of them made even if
// one runs out.
func rejBoundedPolyx4AMD64(a *[4]*ringElement, ρPrime *[64]byte, r *[4]uint16, η int) bool {
	ok := true
	for j := range a {
		if a[j] != nil {
			ok = rejBoundedPolyAMD64(a[j], ρPrime, r[j], η) && ok
		}
	}
	return ok
}

// rejBoundedPolyx4AVX2 runs the four-way routine; a lane left out (nil)
// samples the seed of the first lane that is not into a scratch
// polynomial, so it runs out exactly when that lane does and the result
// is the lanes' own.
func rejBoundedPolyx4AVX2(a *[4]*ringElement, ρPrime *[64]byte, r *[4]uint16, η int) bool {
	if !distinctLanes(a) {
		return rejBoundedPolyx4AMD64(a, ρPrime, r, η)
	}
	for j := range a {
		if a[j] == nil {
			var scratch [3]ringElement
			out, nonces, some := padLanes(a, r, &scratch)
			if !some {
				return true
			}
			return rejBoundedPolyx4CallAVX2(&out, ρPrime, &nonces, η)
		}
	}
	return rejBoundedPolyx4CallAVX2(a, ρPrime, r, η)
}

// distinctLanes reports whether the lanes not left out (nil) are
// distinct polynomials, none overlapping another.
func distinctLanes(a *[4]*ringElement) bool {
	for i := range a {
		for j := i + 1; j < len(a); j++ {
			if a[i] != nil && a[j] != nil && overlaps(unsafe.Pointer(a[i]), unsafe.Sizeof(*a[i]), unsafe.Pointer(a[j]), unsafe.Sizeof(*a[j])) {
				return false
			}
		}
	}
	return true
}

// padLanes returns the polynomials and nonces of a four-way call on the
// lanes of a, each lane left out (nil) replaced by a scratch polynomial
// with the nonce of the first lane that is not, and whether any lane is
// not left out.
func padLanes(a *[4]*ringElement, r *[4]uint16, scratch *[3]ringElement) (out [4]*ringElement, nonces [4]uint16, some bool) {
	first := -1
	for j := range a {
		if a[j] != nil {
			first = j
			break
		}
	}
	if first < 0 {
		return out, nonces, false
	}
	k := 0
	for j := range a {
		out[j], nonces[j] = a[j], r[j]
		if a[j] == nil {
			out[j], nonces[j] = &scratch[k], r[first]
			k++
		}
	}
	return out, nonces, true
}

// rejBoundedPolyx4CallAVX2 calls the routine of η (public) on four distinct
// polynomials. The routine is //go:noescape, so a, its polynomials and
// the seeds may stay on the stack. Whether the block bound ran out
// follows from where the rejections fell.
func rejBoundedPolyx4CallAVX2(a *[4]*ringElement, ρPrime *[64]byte, r *[4]uint16, η int) bool {
	var seeds [4][66]byte
	for j := range seeds {
		boundedSeed(&seeds[j], ρPrime, r[j])
	}
	var ok bool
	out := (*[4]*[n256]uint32)(unsafe.Pointer(a))
	if η == 2 {
		ok = asm.RejBoundedPolyx4Eta2AVX2(out, &seeds)
	} else {
		ok = asm.RejBoundedPolyx4Eta4AVX2(out, &seeds)
	}
	declassify(publicRejBounded, unsafe.Pointer(&ok), 1)
	return ok
}

// boundedSeed sets s to ρ′ ‖ IntegerToBytes(r, 2) (Algorithm 33, lines 2
// and 5).
func boundedSeed(s *[66]byte, ρPrime *[64]byte, r uint16) {
	copy(s[:64], ρPrime[:])
	s[64], s[65] = byte(r), byte(r>>8)
}

// rejBoundedPolyx4AVX512 is rejBoundedPolyx4AVX2 with the routines that
// squeeze through the AVX-512 permutation.
func rejBoundedPolyx4AVX512(a *[4]*ringElement, ρPrime *[64]byte, r *[4]uint16, η int) bool {
	if !distinctLanes(a) {
		return rejBoundedPolyx4AMD64(a, ρPrime, r, η)
	}
	for j := range a {
		if a[j] == nil {
			var scratch [3]ringElement
			out, nonces, some := padLanes(a, r, &scratch)
			if !some {
				return true
			}
			return rejBoundedPolyx4CallAVX512(&out, ρPrime, &nonces, η)
		}
	}
	return rejBoundedPolyx4CallAVX512(a, ρPrime, r, η)
}

// rejBoundedPolyx4CallAVX512 is rejBoundedPolyx4CallAVX2 on the AVX-512
// routines.
func rejBoundedPolyx4CallAVX512(a *[4]*ringElement, ρPrime *[64]byte, r *[4]uint16, η int) bool {
	var seeds [4][66]byte
	for j := range seeds {
		boundedSeed(&seeds[j], ρPrime, r[j])
	}
	var ok bool
	out := (*[4]*[n256]uint32)(unsafe.Pointer(a))
	if η == 2 {
		ok = asm.RejBoundedPolyx4Eta2AVX512(out, &seeds)
	} else {
		ok = asm.RejBoundedPolyx4Eta4AVX512(out, &seeds)
	}
	declassify(publicRejBounded, unsafe.Pointer(&ok), 1)
	return ok
}
