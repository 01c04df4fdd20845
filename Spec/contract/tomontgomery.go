package contract

func init() {
	// One factor of every product in T_q is kept times 2³² (MultiplyNTT,
	// Algorithm 45, and MatrixVectorNTT, Algorithm 48, with a Montgomery
	// reduction: see nttmul.go).
	post := "w = old w · 2³² mod q, coefficient-wise (the Montgomery form of one factor of MultiplyNTT, Algorithm 45)"
	mont := func(w, _ int64) int64 { return w * (1 << 32 % 8380417) }

	c := polyMapContract("ToMontgomeryPolyAVX2", "ToMontgomeryPoly", "AVX2", false, post, mont)
	c.Stem, c.GoName, c.Budget = "tomontgomery", "toMontgomeryPoly", 15
	c.Features = []string{"AVX", "AVX2"}
	c.Doc = []string{
		"ToMontgomeryPolyAVX2 sets w = w·2³² mod q coefficient-wise, the",
		"Montgomery form in which one factor of each product of T_q is kept",
		"(FIPS 204, Algorithm 45): a signed Montgomery product with the",
		"constant 2⁶⁴ mod q, in (−q, q), then q added where negative; [0, q) in",
		"and out. Straight-line code: no branch or address depends on the",
		"coefficients. Needs AVX2.",
	}
	register(c)

	b := polyMapContract("ToMontgomeryPolyAMD64", "ToMontgomeryPoly", "AMD64", false, post, mont)
	b.Stem, b.GoName, b.Budget = "tomontgomery", "toMontgomeryPoly", 30
	baselineSSE2(b)
	b.MaxFrame = 8 // the MXCSR words
	b.Doc = []string{
		"ToMontgomeryPolyAMD64 sets w = w·2³² mod q coefficient-wise in SSE2,",
		"the Montgomery form in which one factor of each product of T_q is kept",
		"(FIPS 204, Algorithm 45): an unsigned Montgomery product with the",
		"constant 2⁶⁴ mod q, in (−q, q), then q added where negative; [0, q) in",
		"and out. PMULUDQ runs inside Intel's MCDT bracket (MXCSR = 0x1FBF).",
		"Straight-line code: no branch or address depends on the coefficients.",
	}
	register(b)
}
