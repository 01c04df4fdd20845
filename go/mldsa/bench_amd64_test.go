//go:build amd64 && !purego

package mldsa

import (
	"fmt"
	"testing"
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

// Benchmarks of each assembly routine beside its generic Go version.

func BenchmarkKeccakF1600(b *testing.B) {
	var a [25]uint64
	b.Run("Generic", func(b *testing.B) {
		for b.Loop() {
			keccakF1600Generic(&a)
		}
	})
	b.Run("AMD64", func(b *testing.B) {
		for b.Loop() {
			asm.KeccakF1600AMD64(&a)
		}
	})
	if cpu.X86.HasBMI1 && cpu.X86.HasBMI2 {
		b.Run("BMI2", func(b *testing.B) {
			for b.Loop() {
				asm.KeccakF1600BMI2(&a)
			}
		})
	}
}

func BenchmarkExpandMaskVariants(b *testing.B) {
	var ρ [64]byte
	for _, bits := range []int{17, 19} {
		var y [7]ringElement
		for _, v := range expandMaskRoutine.variants {
			if !v.usable {
				continue
			}
			b.Run(fmt.Sprintf("γ1=2^%d/%s", bits, v.name), func(b *testing.B) {
				for b.Loop() {
					v.fn(y[:], &ρ, 0, bits)
				}
			})
		}
	}
}

func BenchmarkKeccakF1600x4(b *testing.B) {
	var a [100]uint64
	b.Run("Generic", func(b *testing.B) {
		// keccakF1600x4Generic uses the dispatched ×1 permutation; this
		// is the pure Go one, four times.
		var s [25]uint64
		for b.Loop() {
			for j := 0; j < 4; j++ {
				keccakF1600Generic(&s)
			}
		}
	})
	b.Run("AMD64", func(b *testing.B) {
		for b.Loop() {
			keccakF1600x4AMD64(&a)
		}
	})
	b.Run("AVX2", func(b *testing.B) {
		needAVX2b(b)
		for b.Loop() {
			asm.KeccakF1600x4AVX2(&a)
		}
	})
	b.Run("AVX512", func(b *testing.B) {
		if !(cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL) {
			b.Skip("this CPU lacks AVX2, AVX512F or AVX512VL")
		}
		for b.Loop() {
			asm.KeccakF1600x4AVX512(&a)
		}
	})
}

// BenchmarkKeccakStates compares the wide permutations per state: ns/state
// is the time of one call divided by the states it permutes.
func BenchmarkKeccakStates(b *testing.B) {
	var a4 [100]uint64
	var a8 [200]uint64
	perState := func(b *testing.B, n int) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/state")
	}
	b.Run("x4AVX2", func(b *testing.B) {
		needAVX2b(b)
		for b.Loop() {
			asm.KeccakF1600x4AVX2(&a4)
		}
		perState(b, 4)
	})
	b.Run("x4AVX512", func(b *testing.B) {
		if !(cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL) {
			b.Skip("this CPU lacks AVX2, AVX512F or AVX512VL")
		}
		for b.Loop() {
			asm.KeccakF1600x4AVX512(&a4)
		}
		perState(b, 4)
	})
	b.Run("x8AVX512", func(b *testing.B) {
		if !(cpu.X86.HasAVX2 && cpu.X86.HasAVX512F) {
			b.Skip("this CPU lacks AVX2 or AVX512F")
		}
		for b.Loop() {
			asm.KeccakF1600x8AVX512(&a8)
		}
		perState(b, 8)
	})
}

func BenchmarkRejNTTPoly(b *testing.B) {
	var a ringElement
	seed := [34]byte{1, 2, 3}
	b.Run("Generic", func(b *testing.B) {
		for b.Loop() {
			rejNTTPolyGeneric(&a, &seed)
		}
	})
	b.Run("AMD64", func(b *testing.B) {
		for b.Loop() {
			rejNTTPolyAMD64(&a, &seed)
		}
	})
}

// BenchmarkRejNTTPolyx8 compares the eight-way sampler with two calls of
// the four-way ones on the same eight seeds; ns/poly is per polynomial.
func BenchmarkRejNTTPolyx8(b *testing.B) {
	var polys [8]ringElement
	var a [8]*ringElement
	var seeds [8][34]byte
	for j := range a {
		a[j] = &polys[j]
		seeds[j][0] = byte(j + 1)
	}
	perPoly := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*8), "ns/poly")
	}
	a0, a1, s0, s1 := halves8(&a, &seeds)
	b.Run("x4AVX2", func(b *testing.B) {
		needAVX2b(b)
		for b.Loop() {
			rejNTTPolyx4AVX2(a0, s0)
			rejNTTPolyx4AVX2(a1, s1)
		}
		perPoly(b)
	})
	b.Run("x4AVX512", func(b *testing.B) {
		if !(cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL) {
			b.Skip("this CPU lacks AVX2, AVX512F or AVX512VL")
		}
		for b.Loop() {
			rejNTTPolyx4AVX512(a0, s0)
			rejNTTPolyx4AVX512(a1, s1)
		}
		perPoly(b)
	})
	b.Run("x8AVX512", func(b *testing.B) {
		if !(cpu.X86.HasAVX2 && cpu.X86.HasAVX512F) {
			b.Skip("this CPU lacks AVX2 or AVX512F")
		}
		for b.Loop() {
			rejNTTPolyx8AVX512(&a, &seeds)
		}
		perPoly(b)
	})
}

func BenchmarkRejNTTPolyx4(b *testing.B) {
	var polys [4]ringElement
	a := [4]*ringElement{&polys[0], &polys[1], &polys[2], &polys[3]}
	seeds := [4][34]byte{{1}, {2}, {3}, {4}}
	b.Run("Generic", func(b *testing.B) {
		// rejNTTPolyx4Generic with the pure Go permutation, as on other
		// architectures: four single samplers.
		for b.Loop() {
			for j := range seeds {
				rejNTTPolyGeneric(a[j], &seeds[j])
			}
		}
	})
	b.Run("AMD64", func(b *testing.B) {
		for b.Loop() {
			rejNTTPolyx4AMD64(&a, &seeds)
		}
	})
	b.Run("AVX2", func(b *testing.B) {
		needAVX2b(b)
		for b.Loop() {
			rejNTTPolyx4AVX2(&a, &seeds)
		}
	})
}

func needAVX2b(b *testing.B) {
	if !useAVX2 {
		b.Skip("AVX2 not in use")
	}
}

// BenchmarkNTTOffset runs the AVX2 NTT and its inverse on a polynomial
// placed at each offset from a 64-byte boundary: an offset that is not a
// multiple of 32 splits every other 32-byte load and store across two
// cache lines.
func BenchmarkNTTOffset(b *testing.B) {
	if !cpu.X86.HasAVX2 {
		b.Skip("no AVX2")
	}
	buf := make([]byte, 4*n256+128)
	base := 64 - int(uintptr(unsafe.Pointer(&buf[0]))%64)
	for _, off := range []int{0, 8, 16, 32} {
		w := (*[n256]uint32)(unsafe.Pointer(&buf[base+off]))
		for i := range w {
			w[i] = uint32(i * 7919 % q)
		}
		b.Run(fmt.Sprintf("Forward/offset-%d", off), func(b *testing.B) {
			for b.Loop() {
				asm.NTTAVX2(w)
			}
		})
		b.Run(fmt.Sprintf("Inverse/offset-%d", off), func(b *testing.B) {
			for b.Loop() {
				asm.NTTInverseAVX2(w)
			}
		})
	}
}
