//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

// KeyGenSeed<set>AMD64 calls KeccakF1600AMD64; KeyGenSeed<set>BMI2 calls
// KeccakF1600BMI2, which needs BMI1 and BMI2.
func init() {
	registerVariant(keyGenSeedRoutine, "AMD64", keyGenSeedAMD64, true)
	registerVariant(keyGenSeedRoutine, "BMI2", keyGenSeedBMI2, cpu.X86.HasBMI1 && cpu.X86.HasBMI2)
}

func keyGenSeed(seed *[128]byte, ξ *[32]byte, k, l int) {
	if useBMI2 {
		keyGenSeedBMI2(seed, ξ, k, l)
		return
	}
	keyGenSeedAMD64(seed, ξ, k, l)
}

// keyGenSeedAMD64 is keyGenSeed by the routine of (k, ℓ)'s parameter set;
// a (k, ℓ) of none goes to the generic code.
func keyGenSeedAMD64(seed *[128]byte, ξ *[32]byte, k, l int) {
	switch {
	case k == 4 && l == 4:
		asm.KeyGenSeed44AMD64(seed, ξ)
	case k == 6 && l == 5:
		asm.KeyGenSeed65AMD64(seed, ξ)
	case k == 8 && l == 7:
		asm.KeyGenSeed87AMD64(seed, ξ)
	default:
		keyGenSeedGeneric(seed, ξ, k, l)
	}
}

// keyGenSeedBMI2 is keyGenSeedAMD64 with the BMI2 routines.
func keyGenSeedBMI2(seed *[128]byte, ξ *[32]byte, k, l int) {
	switch {
	case k == 4 && l == 4:
		asm.KeyGenSeed44BMI2(seed, ξ)
	case k == 6 && l == 5:
		asm.KeyGenSeed65BMI2(seed, ξ)
	case k == 8 && l == 7:
		asm.KeyGenSeed87BMI2(seed, ξ)
	default:
		keyGenSeedGeneric(seed, ξ, k, l)
	}
}
