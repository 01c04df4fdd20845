//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(keccakF1600x8Routine, "AMD64", keccakF1600x8AMD64, true)
	registerVariant(keccakF1600x8Routine, "AVX2", keccakF1600x8AVX2, cpu.X86.HasAVX2)
	registerVariant(keccakF1600x8Routine, "AVX512", asm.KeccakF1600x8AVX512, cpu.X86.HasAVX2 && cpu.X86.HasAVX512F)
}

func keccakF1600x8(a *[200]uint64) {
	if useAVX512 {
		asm.KeccakF1600x8AVX512(a)
		return
	}
	if useAVX2 {
		keccakF1600x8AVX2(a)
		return
	}
	keccakF1600x8AMD64(a)
}

// split8 de-interleaves eight states into two groups of four (states 0–3
// and 4–7, each interleaved as the four-way permutation wants them);
// join8 interleaves them again.
func split8(a *[200]uint64, h *[2][100]uint64) {
	for i, v := range a {
		h[i%8/4][4*(i/8)+i%4] = v
	}
}

func join8(a *[200]uint64, h *[2][100]uint64) {
	for i := range a {
		a[i] = h[i%8/4][4*(i/8)+i%4]
	}
}

// keccakF1600x8AVX2 is the eight-way permutation as two four-way ones.
func keccakF1600x8AVX2(a *[200]uint64) {
	var h [2][100]uint64
	split8(a, &h)
	asm.KeccakF1600x4AVX2(&h[0])
	asm.KeccakF1600x4AVX2(&h[1])
	join8(a, &h)
}

// keccakF1600x8AMD64 is the eight-way permutation without AVX2: two
// baseline four-way ones.
func keccakF1600x8AMD64(a *[200]uint64) {
	var h [2][100]uint64
	split8(a, &h)
	keccakF1600x4AMD64(&h[0])
	keccakF1600x4AMD64(&h[1])
	join8(a, &h)
}
