//go:build !amd64 || purego

package mldsa

// fourWayMinDefault is fourWayMin without assembly: keccakF1600x4 is four
// ×1 permutations, so ExpandS and ExpandMask sample one polynomial at a
// time.
func fourWayMinDefault() int { return 5 }
