//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(expandMaskRoutine, "AMD64", expandMaskAMD64, true)
	registerVariant(expandMaskRoutine, "BMI2", expandMaskBMI2, cpu.X86.HasBMI1 && cpu.X86.HasBMI2)
	registerVariant(expandMaskRoutine, "AVX2", expandMaskAVX2, cpu.X86.HasAVX2)
	registerVariant(expandMaskRoutine, "AVX512", expandMaskAVX512, cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL)
}

func expandMask(y []ringElement, ρPrimePrime *[64]byte, μ int, γ1Bits int) {
	if useAVX512 {
		expandMaskAVX512(y, ρPrimePrime, μ, γ1Bits)
		return
	}
	if useAVX2 {
		expandMaskAVX2(y, ρPrimePrime, μ, γ1Bits)
		return
	}
	if useBMI2 {
		expandMaskBMI2(y, ρPrimePrime, μ, γ1Bits)
		return
	}
	expandMaskAMD64(y, ρPrimePrime, μ, γ1Bits)
}

// expandMaskSeed returns ρ″ ‖ IntegerToBytes(nonce, 2) (Algorithm 34, line 3).
func expandMaskSeed(s *[66]byte, ρPrimePrime *[64]byte, nonce int) {
	copy(s[:64], ρPrimePrime[:])
	s[64], s[65] = byte(nonce), byte(nonce>>8)
}

// expandMaskAMD64 is ExpandMask with the baseline routine, one polynomial
// at a time; a γ1 of no parameter set goes to the generic code.
func expandMaskAMD64(y []ringElement, ρPrimePrime *[64]byte, μ int, γ1Bits int) {
	if γ1Bits != 17 && γ1Bits != 19 {
		expandMaskGeneric(y, ρPrimePrime, μ, γ1Bits)
		return
	}
	var seed [66]byte
	for r := range y {
		expandMaskSeed(&seed, ρPrimePrime, μ+r)
		if γ1Bits == 17 {
			asm.ExpandMask17AMD64(poly32(&y[r]), &seed)
		} else {
			asm.ExpandMask19AMD64(poly32(&y[r]), &seed)
		}
	}
}

// expandMaskBMI2 is expandMaskAMD64 with the routines that call
// KeccakF1600BMI2.
func expandMaskBMI2(y []ringElement, ρPrimePrime *[64]byte, μ int, γ1Bits int) {
	if γ1Bits != 17 && γ1Bits != 19 {
		expandMaskGeneric(y, ρPrimePrime, μ, γ1Bits)
		return
	}
	var seed [66]byte
	for r := range y {
		expandMaskSeed(&seed, ρPrimePrime, μ+r)
		if γ1Bits == 17 {
			asm.ExpandMask17BMI2(poly32(&y[r]), &seed)
		} else {
			asm.ExpandMask19BMI2(poly32(&y[r]), &seed)
		}
	}
}

// expandMaskAVX2 is ExpandMask as the generic code groups it: the first
// fourWayCount(len(y)) polynomials four at a time (a last, smaller group
// padded with scratch polynomials), the others one at a time.
func expandMaskAVX2(y []ringElement, ρPrimePrime *[64]byte, μ int, γ1Bits int) {
	if γ1Bits != 17 && γ1Bits != 19 {
		expandMaskGeneric(y, ρPrimePrime, μ, γ1Bits)
		return
	}
	four := fourWayCount(len(y))
	var scratch [3]ringElement
	for r := 0; r < four; r += 4 {
		var seeds [4][66]byte
		out := expandMaskGroup(&seeds, &scratch, y[r:four], ρPrimePrime, μ+r)
		expandMaskx4AVX2(&out, &seeds, γ1Bits)
	}
	if four == len(y) {
		return
	}
	if !useBMI2 {
		// The polynomials after the four-way groups, one at a time
		// through the baseline Keccak.
		expandMaskAMD64(y[four:], ρPrimePrime, μ+four, γ1Bits)
		return
	}
	// One at a time through the BMI2 Keccak and the AVX2 unpacker.
	var seed [66]byte
	for r := four; r < len(y); r++ {
		expandMaskSeed(&seed, ρPrimePrime, μ+r)
		if γ1Bits == 17 {
			asm.ExpandMask17AVX2(poly32(&y[r]), &seed)
		} else {
			asm.ExpandMask19AVX2(poly32(&y[r]), &seed)
		}
	}
}

// expandMaskGroup sets the seeds of one four-way call on the first four
// polynomials of y, nonces μ to μ+3, and returns its outputs; when y
// holds fewer, the missing outputs are scratch polynomials.
func expandMaskGroup(seeds *[4][66]byte, scratch *[3]ringElement, y []ringElement, ρPrimePrime *[64]byte, μ int) (out [4]*[n256]uint32) {
	for j := range seeds {
		expandMaskSeed(&seeds[j], ρPrimePrime, μ+j)
		if j < len(y) {
			out[j] = poly32(&y[j])
		} else {
			out[j] = poly32(&scratch[j-1])
		}
	}
	return out
}

// expandMaskx4AVX2 calls the four-way routine of γ1 = 2^γ1Bits (17 or 19).
func expandMaskx4AVX2(out *[4]*[n256]uint32, seeds *[4][66]byte, γ1Bits int) {
	if γ1Bits == 17 {
		asm.ExpandMask17x4AVX2(out, seeds)
	} else {
		asm.ExpandMask19x4AVX2(out, seeds)
	}
}

// expandMaskAVX512 is expandMaskAVX2 with the AVX-512 routines: ℓ = 4
// (ML-DSA-44) in one four-way call, ℓ = 5 and 7 in one eight-way call
// whose last outputs are scratch polynomials (an eight-way squeeze costs
// less than a four-way one and one to three single ones).
func expandMaskAVX512(y []ringElement, ρPrimePrime *[64]byte, μ int, γ1Bits int) {
	if γ1Bits != 17 && γ1Bits != 19 {
		expandMaskGeneric(y, ρPrimePrime, μ, γ1Bits)
		return
	}
	if len(y) > 4 && len(y) <= 8 {
		var seeds [8][66]byte
		var scratch [3]ringElement
		var out [8]*[n256]uint32
		for j := range seeds {
			expandMaskSeed(&seeds[j], ρPrimePrime, μ+j)
			if j < len(y) {
				out[j] = poly32(&y[j])
			} else {
				out[j] = poly32(&scratch[j-len(y)])
			}
		}
		if γ1Bits == 17 {
			asm.ExpandMask17x8AVX512(&out, &seeds)
		} else {
			asm.ExpandMask19x8AVX512(&out, &seeds)
		}
		return
	}
	four := fourWayCount(len(y))
	var scratch [3]ringElement
	for r := 0; r < four; r += 4 {
		var seeds [4][66]byte
		out := expandMaskGroup(&seeds, &scratch, y[r:four], ρPrimePrime, μ+r)
		expandMaskx4AVX512(&out, &seeds, γ1Bits)
	}
	if four < len(y) {
		if useBMI2 {
			expandMaskBMI2(y[four:], ρPrimePrime, μ+four, γ1Bits)
		} else {
			expandMaskAMD64(y[four:], ρPrimePrime, μ+four, γ1Bits)
		}
	}
}

// expandMaskx4AVX512 calls the AVX-512 four-way routine of γ1 =
// 2^γ1Bits (17 or 19).
func expandMaskx4AVX512(out *[4]*[n256]uint32, seeds *[4][66]byte, γ1Bits int) {
	if γ1Bits == 17 {
		asm.ExpandMask17x4AVX512(out, seeds)
	} else {
		asm.ExpandMask19x4AVX512(out, seeds)
	}
}
