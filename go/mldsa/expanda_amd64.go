//go:build amd64 && !purego

package mldsa

import (
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(expandARoutine, "AMD64", expandAAMD64, true)
	registerVariant(expandARoutine, "AVX2", expandAAVX2, cpu.X86.HasAVX2)
	registerVariant(expandARoutine, "AVX512", expandAAVX512, cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL)
}

func expandA(a []ringElement, ρ *[32]byte, k, l int) error {
	if useAVX512 {
		return expandAAVX512(a, ρ, k, l)
	}
	if useAVX2 {
		return expandAAVX2(a, ρ, k, l)
	}
	return expandAAMD64(a, ρ, k, l)
}

// expandAAVX2 samples Â with the assembly routine of the parameter set,
// which calls the four-way sampler for groups of four entries (ML-DSA-65's
// last group the last four, two of them sampled again). a must be on the
// heap: the routine's declaration lets its arguments escape, since a
// sampler may move the stack.
func expandAAVX2(a []ringElement, ρ *[32]byte, k, l int) error {
	if len(a) < k*l {
		return errBadMatrix
	}
	var ok bool
	p := unsafe.Pointer(&a[0])
	switch {
	case k == 4 && l == 4:
		ok = asm.ExpandA44AVX2((*[16][n256]uint32)(p), ρ)
	case k == 6 && l == 5:
		ok = asm.ExpandA65AVX2((*[30][n256]uint32)(p), ρ)
	case k == 8 && l == 7:
		ok = asm.ExpandA87AVX2((*[56][n256]uint32)(p), ρ)
	default:
		return expandAGeneric(a, ρ, k, l)
	}
	if !ok {
		return errSamplerExhausted
	}
	return nil
}

// expandAAVX512 is expandAAVX2 with the routines that call the AVX-512
// eight-way sampler (ML-DSA-65's last group the last eight entries, two of
// them sampled again).
func expandAAVX512(a []ringElement, ρ *[32]byte, k, l int) error {
	if len(a) < k*l {
		return errBadMatrix
	}
	var ok bool
	p := unsafe.Pointer(&a[0])
	switch {
	case k == 4 && l == 4:
		ok = asm.ExpandA44AVX512((*[16][n256]uint32)(p), ρ)
	case k == 6 && l == 5:
		ok = asm.ExpandA65AVX512((*[30][n256]uint32)(p), ρ)
	case k == 8 && l == 7:
		ok = asm.ExpandA87AVX512((*[56][n256]uint32)(p), ρ)
	default:
		return expandAGeneric(a, ρ, k, l)
	}
	if !ok {
		return errSamplerExhausted
	}
	return nil
}

// expandAAMD64 is expandAAVX2 without AVX2: the baseline routine calls
// the single sampler for every entry.
func expandAAMD64(a []ringElement, ρ *[32]byte, k, l int) error {
	if len(a) < k*l {
		return errBadMatrix
	}
	var ok bool
	p := unsafe.Pointer(&a[0])
	switch {
	case k == 4 && l == 4:
		ok = asm.ExpandA44AMD64((*[16][n256]uint32)(p), ρ)
	case k == 6 && l == 5:
		ok = asm.ExpandA65AMD64((*[30][n256]uint32)(p), ρ)
	case k == 8 && l == 7:
		ok = asm.ExpandA87AMD64((*[56][n256]uint32)(p), ρ)
	default:
		return expandAGeneric(a, ρ, k, l)
	}
	if !ok {
		return errSamplerExhausted
	}
	return nil
}
