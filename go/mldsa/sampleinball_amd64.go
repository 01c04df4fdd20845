//go:build amd64 && !purego

package mldsa

import (
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(sampleInBallRoutine, "AMD64", sampleInBallAMD64, true)
	registerVariant(sampleInBallRoutine, "BMI2", sampleInBallBMI2, cpu.X86.HasBMI1 && cpu.X86.HasBMI2)
}

func sampleInBall(c *ringElement, ρ []byte, τ int) bool {
	if useBMI2 {
		return sampleInBallBMI2(c, ρ, τ)
	}
	return sampleInBallAMD64(c, ρ, τ)
}

// sampleInBallAMD64 runs the baseline routine of the parameter set whose
// τ and c̃ length (λ/4) these are, and the generic code for any other
// pair (tests use others). The routines are declared //go:noescape (they
// reach c and c̃ after each call of the permutation only through their
// arguments), so both stay where the caller has them. Whether the block
// bound ran out follows from which bytes were rejected, the declared leak.
func sampleInBallAMD64(c *ringElement, ρ []byte, τ int) bool {
	var ok bool
	switch {
	case τ == 39 && len(ρ) == 32:
		ok = asm.SampleInBall44AMD64(poly32(c), (*[32]byte)(ρ))
	case τ == 49 && len(ρ) == 48:
		ok = asm.SampleInBall65AMD64(poly32(c), (*[48]byte)(ρ))
	case τ == 60 && len(ρ) == 64:
		ok = asm.SampleInBall87AMD64(poly32(c), (*[64]byte)(ρ))
	default:
		return sampleInBallGeneric(c, ρ, τ)
	}
	declassify(publicSampleInBall, unsafe.Pointer(&ok), 1)
	return ok
}

// sampleInBallBMI2 is sampleInBallAMD64 with the routines that call
// KeccakF1600BMI2.
func sampleInBallBMI2(c *ringElement, ρ []byte, τ int) bool {
	var ok bool
	switch {
	case τ == 39 && len(ρ) == 32:
		ok = asm.SampleInBall44BMI2(poly32(c), (*[32]byte)(ρ))
	case τ == 49 && len(ρ) == 48:
		ok = asm.SampleInBall65BMI2(poly32(c), (*[48]byte)(ρ))
	case τ == 60 && len(ρ) == 64:
		ok = asm.SampleInBall87BMI2(poly32(c), (*[64]byte)(ρ))
	default:
		return sampleInBallGeneric(c, ρ, τ)
	}
	declassify(publicSampleInBall, unsafe.Pointer(&ok), 1)
	return ok
}
