package contract

func init() { lazily(polysubContracts) }

func polysubContracts() {
	// FIPS 204 writes the difference in R_q (Algorithm 7, line 21; Algorithm
	// 8, line 9) and Spec/fips204 has no function of its own for it.
	c, b := registerPolyMap("PolySub", "polysub", "polySub", true, false,
		"w = (old w − b) mod q, coefficient-wise (the difference in R_q and T_q: Algorithm 7, line 21; Algorithm 8, line 9)",
		func(w, b int64) int64 { return w - b },
		[]string{
			"PolySubAVX2 sets w = w − b coefficient-wise mod q (the difference in",
			"R_q and T_q: FIPS 204, Algorithm 7, line 21; Algorithm 8, line 9),",
			"coefficients in [0, q) in and out: w − b, then q added back where that",
			"is negative. The polynomials must not overlap. Straight-line code: no",
			"branch or address depends on the coefficients. Needs AVX2.",
		},
		[]string{
			"PolySubAMD64 sets w = w − b coefficient-wise mod q (the difference in",
			"R_q and T_q: FIPS 204, Algorithm 7, line 21; Algorithm 8, line 9) in",
			"SSE2, coefficients in [0, q) in and out: w − b, then q added back where",
			"that is negative. The polynomials must not overlap. Straight-line code:",
			"no branch or address depends on the coefficients.",
		})
	// A Verify routine CALLs it (Algorithm 8, line 9).
	c.Op = &Op{Name: "Sub", In: []string{"w", "b"}, Out: []string{"w"}}
	b.Op = c.Op
}
