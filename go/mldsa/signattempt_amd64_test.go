//go:build amd64 && !purego

package mldsa

import "testing"

// The attempt routine's pooled buffers go back zeroed: they held ρ″, c̃,
// z, h and the routine's work space.
func TestSignAttemptArgsZeroedInPool(t *testing.T) {
	var μ, ρPP [64]byte
	ρPP[3] = 7
	a := signAttemptCopies(&μ, &ρPP, 5)
	a.cTilde[1], a.z[maxL-1][255], a.h[0][2], a.work[len(a.work)-1][9] = 1, 2, 3, 4
	putSignAttemptArgs(a)
	if *a != (signAttemptArgs{}) {
		t.Error("sign attempt buffers returned to the pool hold data")
	}
}
