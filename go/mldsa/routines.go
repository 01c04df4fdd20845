package mldsa

// Dispatch of the routines without assembly: for now each is its generic
// implementation on every platform. They are direct calls, not function
// variables, so that the compiler sees that their arguments do not escape
// and the polynomials of signing stay on the stack. A routine with
// assembly (contract Stem <stem>) has its generic implementation in
// <stem>.go and dispatches in <stem>_amd64.go and <stem>_noasm.go instead,
// registering its variants there (variants.go declares each routine). All
// variants share the signature here.

func sampleInBall(c *ringElement, ρ []byte, τ int) bool { return sampleInBallGeneric(c, ρ, τ) }
