//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(power2RoundPolyRoutine, "AMD64", power2RoundPolyAMD64, true)
	registerVariant(power2RoundPolyRoutine, "AVX2", power2RoundPolyAVX2, cpu.X86.HasAVX2)
}

func power2RoundPoly(t1, t0, t *ringElement) {
	if useAVX2 {
		power2RoundPolyAVX2(t1, t0, t)
		return
	}
	power2RoundPolyAMD64(t1, t0, t)
}

// The routine's buffers must not overlap; t may alias t0 in the generic
// code, so a shared buffer goes through a copy.
func power2RoundPolyAVX2(t1, t0, t *ringElement) {
	if t == t0 || t == t1 {
		c := *t
		t = &c
	}
	asm.Power2RoundPolyAVX2(poly32(t1), poly32(t0), poly32(t))
}

func power2RoundPolyAMD64(t1, t0, t *ringElement) {
	if t == t0 || t == t1 {
		c := *t
		t = &c
	}
	asm.Power2RoundPolyAMD64(poly32(t1), poly32(t0), poly32(t))
}
