//go:build amd64 && !purego

package mldsa

// fourWayMinDefault is fourWayMin on amd64. With AVX2 the four-way
// permutation costs less than two ×1 permutations (about 1.5 in time, 1.1
// in instructions), so two or three samplers, padded to four, go faster
// four-way than one at a time; a single one runs alone. Without AVX2,
// keccakF1600x4 is four ×1 permutations and a transposition, so the
// samplers run one at a time.
func fourWayMinDefault() int {
	if useAVX2 {
		return 2
	}
	return 5
}
