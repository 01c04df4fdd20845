//go:build amd64 && !purego

package mldsa

import "unsafe"

// What the routines' dispatch on amd64 shares. Each routine with assembly
// (go/asm/<stem>_amd64.s) dispatches in <stem>_amd64.go here and registers
// its variants there for the tests that run every variant: the baseline
// variants need nothing beyond x86-64; the AVX2 ones run only when useAVX2
// (cpu_amd64.go) is set, and are usable whenever the CPU has AVX2, even if
// VG_CPU_FEATURES=none keeps the dispatch from choosing them.

// The assembly sees a ringElement as [256]uint32: same size, same layout.
var _ [unsafe.Sizeof(ringElement{}) - 4*n256]struct{}
var _ [4*n256 - unsafe.Sizeof(ringElement{})]struct{}

// poly32 is the assembly's view of a ringElement.
func poly32(w *ringElement) *[n256]uint32 { return (*[n256]uint32)(unsafe.Pointer(w)) }

// apart returns b, or a copy of it if b is w: an assembly routine's
// polynomials must not overlap.
func apart(w, b *ringElement) *ringElement {
	if w == b {
		c := *b
		return &c
	}
	return b
}

// The coefficient maps of §7.4 have one symbol per γ2 of Table 1 where the
// map depends on it. γ2 and the bounds are public; a γ2 of no parameter set
// falls back to the generic code.
const (
	γ2by32 = (q - 1) / 32 // ML-DSA-65 and -87
	γ2by88 = (q - 1) / 88 // ML-DSA-44
)
