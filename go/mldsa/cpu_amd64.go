//go:build amd64 && !purego

package mldsa

// useAVX2 selects the AVX2 variants. It is the one place that CPU features
// are decided; for now no AVX2 variant exists.
var useAVX2 = false
