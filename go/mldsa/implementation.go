package mldsa

// Implementation names the code path this build and CPU use: "AVX-512"
// (the AVX2 path with AVX-512VL variants where they exist), "AVX2",
// "baseline x86-64 assembly" or "pure Go". It is fixed at start-up.
func Implementation() string { return implementation() }
