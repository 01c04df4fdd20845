//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(keccakF1600x4Routine, "AMD64", keccakF1600x4AMD64, true)
	registerVariant(keccakF1600x4Routine, "AVX2", asm.KeccakF1600x4AVX2, cpu.X86.HasAVX2)
	registerVariant(keccakF1600x4Routine, "AVX512", asm.KeccakF1600x4AVX512, cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL)
}

func keccakF1600x4(a *[100]uint64) {
	if useAVX512 {
		asm.KeccakF1600x4AVX512(a)
		return
	}
	if useAVX2 {
		asm.KeccakF1600x4AVX2(a)
		return
	}
	keccakF1600x4AMD64(a)
}

// keccakF1600x4AMD64 is the four-way permutation without AVX2: the states
// de-interleaved, four baseline permutations, interleaved again.
func keccakF1600x4AMD64(a *[100]uint64) {
	var s [4][25]uint64
	for i, v := range a {
		s[i%4][i/4] = v
	}
	for j := range s {
		asm.KeccakF1600AMD64(&s[j])
	}
	for i := range a {
		a[i] = s[i%4][i/4]
	}
}
