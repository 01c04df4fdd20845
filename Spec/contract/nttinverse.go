package contract

import (
	"github.com/vg-crypto/vg/Spec/fips204"
)

func init() { lazily(nttinverseContracts) }

func nttinverseContracts() {
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

	z := nttContract("NTTInverseAVX512", "NTTInverse", "FIPS 204, Algorithm 42", fips204.NTTInverse)
	z.Stem, z.GoName, z.Variant = "nttinverse", "nttInverse", "AVX512"
	// EVEX.512 throughout, and AVX for the closing VZEROUPPER.
	z.Features = []string{"AVX", "AVX512F"}
	z.Doc = []string{
		"NTTInverseAVX512 is NTT⁻¹ (FIPS 204, Algorithm 42) in place, the scaling",
		"by 256⁻¹ of lines 21 to 24 included: coefficients in [0, q) in, [0, q) out, the",
		"same words as Algorithm 42 gives. The whole polynomial stays in sixteen zmm",
		"registers for all eight layers; values are signed inside, below 256q < 2³¹",
		"before the last layer's scaling. Straight-line code: no branch or address",
		"depends on the coefficients. Needs AVX512F.",
	}
	register(z)

	// NTT⁻¹ times 2³²: the Montgomery factor of one operand of the
	// products before it (Algorithm 7, line 12) folded into the scaling of
	// lines 21 to 24, so that NTT(y) needs no ToMontgomeryPoly.
	const r = 1 << 32 % fips204.Q
	m := nttContract("NTTInverseMontAVX2", "NTTInverse", "FIPS 204, Algorithm 42", func(w fips204.Poly) fips204.Poly {
		var c fips204.Poly
		for i := range c {
			c[i] = r
		}
		return fips204.MultiplyNTT(fips204.NTTInverse(w), c)
	})
	m.Routine, m.Stem, m.GoName = "NTTInverseMont", "nttinverse", "nttInverseMont"
	m.Op.Params = []int{r}
	m.Post = "w = fips204.NTTInverse(old w) · 2³² mod q coefficient-wise (FIPS 204, Algorithm 42, then the Montgomery form), coefficients in [0, q)"
	m.Doc = []string{
		"NTTInverseMontAVX2 is NTT⁻¹ (FIPS 204, Algorithm 42) in place, its result",
		"times 2³² mod q: the scaling of lines 21 to 24 by 256⁻¹·2³² instead of",
		"256⁻¹, so that a product of T_q with 2⁻³² (a Montgomery product of two",
		"plain operands) comes back as Algorithm 42 gives its plain product.",
		"Coefficients in [0, q) in and out; otherwise NTTInverseAVX2's code.",
		"Straight-line code: no branch or address depends on the coefficients.",
		"Needs AVX2.",
	}
	register(m)

	b := nttContract("NTTInverseAMD64", "NTTInverse", "FIPS 204, Algorithm 42", fips204.NTTInverse)
	b.Stem, b.GoName, b.Budget = "nttinverse", "nttInverse", 160
	baselineSSE2(b)
	b.Doc = []string{
		"NTTInverseAMD64 is NTT⁻¹ (FIPS 204, Algorithm 42) in place in SSE2, the",
		"scaling by 256⁻¹ of lines 21 to 24 included: coefficients in [0, q) in,",
		"[0, q) out, the same words as Algorithm 42 gives. Inside, values are",
		"non-negative (PMULUDQ is unsigned): after the layer with len = 2^ℓ they",
		"lie below 2^(ℓ+1)·q, so the last layer's inputs stay below 256q < 2³².",
		"PMULUDQ runs inside Intel's MCDT bracket (MXCSR = 0x1FBF). Straight-line",
		"code: no branch or address depends on the coefficients.",
	}
	register(b)
}
