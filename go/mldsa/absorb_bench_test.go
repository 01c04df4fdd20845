package mldsa

import (
	"fmt"
	"testing"
)

// BenchmarkShake256 hashes messages of 1 KiB, 64 KiB and 1 MiB to 64
// bytes (μ's H(·, 64)), in one write and in writes of 1000 bytes (not a
// multiple of the rate, as a stream's reads may be).
func BenchmarkShake256(b *testing.B) {
	for _, n := range []int{1 << 10, 1 << 16, 1 << 20} {
		m := make([]byte, n)
		for i := range m {
			m[i] = byte(i)
		}
		var out [64]byte
		for _, piece := range []int{n, 1000} {
			b.Run(fmt.Sprintf("%dB/write%d", n, piece), func(b *testing.B) {
				b.SetBytes(int64(n))
				for b.Loop() {
					h := newShake256()
					for rest := m; len(rest) > 0; {
						k := min(piece, len(rest))
						h.write(rest[:k])
						rest = rest[k:]
					}
					h.read(out[:])
				}
			})
		}
	}
}
