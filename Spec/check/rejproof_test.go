package check

import (
	"testing"

	"github.com/vg-crypto/vg/Spec/fips204"
	"github.com/vg-crypto/vg/Spec/x86"
)

// checkThreeBytesZ checks z, with the test z < q the proof holds a
// comparison to, against Spec's CoeffFromThreeBytes at every group of
// three bytes: z < q exactly where Algorithm 14 accepts, and then z is
// its coefficient.
func checkThreeBytesZ(z func(b0, b1, b2 uint64) uint64) (b0, b1, b2 int, ok bool) {
	d := x86.Conc{}
	for b2 = 0; b2 < 256; b2++ {
		for b1 = 0; b1 < 256; b1++ {
			for b0 = 0; b0 < 256; b0++ {
				got := z(uint64(b0), uint64(b1), uint64(b2))
				c, accept := fips204.CoeffFromThreeBytes(byte(b0), byte(b1), byte(b2))
				if (d.Ult(got, fips204.Q) == 1) != accept || accept && got != uint64(c) {
					return b0, b1, b2, false
				}
			}
		}
	}
	return 0, 0, 0, true
}

func TestThreeBytesZEveryGroup(t *testing.T) {
	d := x86.Conc{}
	if b0, b1, b2, ok := checkThreeBytesZ(func(b0, b1, b2 uint64) uint64 { return threeBytesZ[uint64](d, b0, b1, b2) }); !ok {
		t.Fatalf("threeBytesZ(%#02x, %#02x, %#02x) is not Algorithm 14's", b0, b1, b2)
	}
	// A z changed at one group only fails.
	planted := func(b0, b1, b2 uint64) uint64 {
		if b0 == 0x01 && b1 == 0xe0 && b2 == 0xff { // z = q, rejected
			return fips204.Q - 1
		}
		return threeBytesZ[uint64](d, b0, b1, b2)
	}
	if _, _, _, ok := checkThreeBytesZ(planted); ok {
		t.Error("a z changed at one group passes")
	}
}
