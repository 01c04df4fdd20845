//go:build amd64 && !purego

package mldsa

import (
	"sync"
	"unsafe"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(sampleInBallRoutine, "AMD64", sampleInBallAMD64, true)
}

func sampleInBall(c *ringElement, ρ []byte, τ int) bool { return sampleInBallAMD64(c, ρ, τ) }

// ballScratch holds a SampleInBall routine's buffers. The routines call
// KeccakF1600AMD64, so their arguments escape (a callee may move the
// goroutine's stack): they get heap buffers from a pool instead of the
// caller's, which then stay on its stack, and the buffers are cleared
// before they go back (c and c̃ are secret while signing).
type ballScratch struct {
	c    [n256]uint32
	seed [64]byte
}

var ballPool = sync.Pool{New: func() any { return new(ballScratch) }}

// sampleInBallAMD64 runs the baseline routine of the parameter set whose
// τ and c̃ length (λ/4) these are, and the generic code for any other
// pair (tests use others). Whether the block bound ran out follows from
// which bytes were rejected, the declared leak.
func sampleInBallAMD64(c *ringElement, ρ []byte, τ int) bool {
	if !(τ == 39 && len(ρ) == 32 || τ == 49 && len(ρ) == 48 || τ == 60 && len(ρ) == 64) {
		return sampleInBallGeneric(c, ρ, τ)
	}
	s := ballPool.Get().(*ballScratch)
	copy(s.seed[:], ρ)
	var ok bool
	switch τ {
	case 39:
		ok = asm.SampleInBall44AMD64(&s.c, (*[32]byte)(s.seed[:32]))
	case 49:
		ok = asm.SampleInBall65AMD64(&s.c, (*[48]byte)(s.seed[:48]))
	default:
		ok = asm.SampleInBall87AMD64(&s.c, (*[64]byte)(s.seed[:64]))
	}
	declassify(publicSampleInBall, unsafe.Pointer(&ok), 1)
	if ok {
		*poly32(c) = s.c
	}
	*s = ballScratch{}
	ballPool.Put(s)
	return ok
}
