package contract

import (
	"github.com/vg-crypto/vg/Spec/fips204"
)

func init() {
	c := nttContract("NTTInverseAVX2", "NTTInverse", "FIPS 204, Algorithm 42", fips204.NTTInverse)
	c.Stem, c.GoName = "nttinverse", "nttInverse"
	c.Doc = []string{
		"NTTInverseAVX2 is NTT⁻¹ (FIPS 204, Algorithm 42) in place, the scaling",
		"by 256⁻¹ of lines 21 to 24 included: coefficients in [0, q) in, [0, q) out, the",
		"same words as Algorithm 42 gives. Inside, values are signed: after the",
		"layer with len = 2^ℓ they lie below 2^(ℓ+1)·q in absolute value, so the",
		"last layer's sums stay below 256q < 2³¹. Straight-line code: no branch",
		"or address depends on the coefficients. Needs AVX2.",
	}
	register(c)
}
