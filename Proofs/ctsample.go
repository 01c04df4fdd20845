package proofs

// CTSample: nothing secret flows into ExpandA. Its only input that reaches
// a sampler is the public seed ρ (FIPS 204, Algorithm 32, line 4); the
// checker verifies that every seed byte of every call is a byte of ρ or a
// constant and every pointer a constant, so the samplers' branches and
// addresses depend only on ρ and on their public rejection outcomes.
func (Hints) CTSample(symbol string) []string { return []string{"rho"} }
