package contract

func init() { lazily(polyaddContracts) }

func polyaddContracts() {
	c, b := registerPolyMap("PolyAdd", "polyadd", "polyAdd", true, false,
		"w = fips204.AddNTT(old w, b) (Algorithm 44; the sum in R_q is the same)",
		func(w, b int64) int64 { return w + b },
		[]string{
			"PolyAddAVX2 sets w = w + b coefficient-wise mod q (AddNTT, FIPS 204,",
			"Algorithm 44; the sum in R_q is the same), coefficients in [0, q) in",
			"and out: w + b − q, then q added back where that is negative. The",
			"polynomials must not overlap. Straight-line code: no branch or address",
			"depends on the coefficients. Needs AVX2.",
		},
		[]string{
			"PolyAddAMD64 sets w = w + b coefficient-wise mod q (AddNTT, FIPS 204,",
			"Algorithm 44; the sum in R_q is the same) in SSE2, coefficients in",
			"[0, q) in and out: w + b − q, then q added back where that is negative.",
			"The polynomials must not overlap. Straight-line code: no branch or",
			"address depends on the coefficients.",
		})
	c.Op = &Op{Name: "Add", In: []string{"w", "b"}, Out: []string{"w"}}
	b.Op = c.Op
}
