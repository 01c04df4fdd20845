package contract

import "github.com/vg-crypto/vg/Spec/fips204"

func init() { lazily(tomontgomeryContracts) }

func tomontgomeryContracts() {
	// One factor of every product in T_q is kept times 2³² (MultiplyNTT,
	// Algorithm 45, and MatrixVectorNTT, Algorithm 48, with a Montgomery
	// reduction: see nttmul.go).
	c, b := registerPolyMap("ToMontgomeryPoly", "tomontgomery", "toMontgomeryPoly", false, true,
		"w = old w · 2³² mod q, coefficient-wise (the Montgomery form of one factor of MultiplyNTT, Algorithm 45)",
		func(w, _ int64) int64 { return w * (1 << 32 % 8380417) },
		[]string{
			"ToMontgomeryPolyAVX2 sets w = w·2³² mod q coefficient-wise, the",
			"Montgomery form in which one factor of each product of T_q is kept",
			"(FIPS 204, Algorithm 45): a signed Montgomery product with the",
			"constant 2⁶⁴ mod q, in (−q, q), then q added where negative; [0, q) in",
			"and out. Straight-line code: no branch or address depends on the",
			"coefficients. Needs AVX2.",
		},
		[]string{
			"ToMontgomeryPolyAMD64 sets w = w·2³² mod q coefficient-wise in SSE2,",
			"the Montgomery form in which one factor of each product of T_q is kept",
			"(FIPS 204, Algorithm 45): an unsigned Montgomery product with the",
			"constant 2⁶⁴ mod q, in (−q, q), then q added where negative; [0, q) in",
			"and out. PMULUDQ runs inside Intel's MCDT bracket (MXCSR = 0x1FBF).",
			"Straight-line code: no branch or address depends on the coefficients.",
		})
	c.Op = &Op{Name: "ToMontgomery", In: []string{"w"}, Out: []string{"w"}, Params: []int{1 << 32 % fips204.Q}}
	b.Op = c.Op

	// Algorithm 8, line 9 multiplies by NTT(t1·2ᵈ); the NTT is linear, so
	// NTT(t1)·2ᵈ is the same, and in Montgomery form NTT(t1)·2ᵈ·2³².
	registerPolyMap("ToMontgomeryT1Poly", "tomontgomery", "toMontgomeryT1Poly", false, true,
		"w = old w · 2ᵈ · 2³² mod q, coefficient-wise (from NTT(t1), the Montgomery form of NTT(t1·2ᵈ): Algorithm 8, line 9)",
		func(w, _ int64) int64 { return w * (1 << (13 + 32) % 8380417) },
		[]string{
			"ToMontgomeryT1PolyAVX2 sets w = w·2ᵈ·2³² mod q coefficient-wise: from",
			"NTT(t1), the Montgomery form of NTT(t1·2ᵈ) (FIPS 204, Algorithm 8,",
			"line 9). A signed Montgomery product with the constant 2⁷⁷ mod q, in",
			"(−q, q), then q added where negative; [0, q) in and out. Straight-line",
			"code: no branch or address depends on the coefficients. Needs AVX2.",
		},
		[]string{
			"ToMontgomeryT1PolyAMD64 sets w = w·2ᵈ·2³² mod q coefficient-wise in",
			"SSE2: from NTT(t1), the Montgomery form of NTT(t1·2ᵈ) (FIPS 204,",
			"Algorithm 8, line 9). An unsigned Montgomery product with the constant",
			"2⁷⁷ mod q, in (−q, q), then q added where negative; [0, q) in and out.",
			"PMULUDQ runs inside Intel's MCDT bracket (MXCSR = 0x1FBF). Straight-line",
			"code: no branch or address depends on the coefficients.",
		})

	// Algorithm 8, line 9 with NTT(z) plain: Â ∘ NTT(z) through the
	// Montgomery products is 2⁻³²·Â ∘ NTT(z), and NTT(c) ∘ NTT(t1)·2ᵈ·2³²
	// is as much once NTT(c) is times 2⁻³²: one polynomial scaled instead
	// of ℓ, and the NTT⁻¹ times 2³² (NTTInverseMontAVX2) after the
	// difference.
	c, b = registerPolyMap("FromMontgomeryPoly", "tomontgomery", "fromMontgomeryPoly", false, true,
		"w = old w · 2⁻³² mod q, coefficient-wise (NTT(c) times 2⁻³² for Algorithm 8, line 9 with NTT(z) plain)",
		func(w, _ int64) int64 { return w * 8265825 },
		[]string{
			"FromMontgomeryPolyAVX2 sets w = w·2⁻³² mod q coefficient-wise (FIPS 204,",
			"Algorithm 8, line 9: NTT(c) scaled as the products Â ∘ NTT(z) are). A",
			"signed Montgomery product with the constant 1, in (−q, q), then q added",
			"where negative; [0, q) in and out. Straight-line code: no branch or",
			"address depends on the coefficients. Needs AVX2.",
		},
		[]string{
			"FromMontgomeryPolyAMD64 sets w = w·2⁻³² mod q coefficient-wise in SSE2",
			"(FIPS 204, Algorithm 8, line 9: NTT(c) scaled as the products Â ∘ NTT(z)",
			"are). An unsigned Montgomery product with the constant 1, in (−q, q),",
			"then q added where negative; [0, q) in and out. PMULUDQ runs inside",
			"Intel's MCDT bracket (MXCSR = 0x1FBF). Straight-line code: no branch or",
			"address depends on the coefficients.",
		})
	c.Op = &Op{Name: "ToMontgomery", In: []string{"w"}, Out: []string{"w"}, Params: []int{8265825}}
	b.Op = c.Op
}
