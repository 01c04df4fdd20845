//go:build amd64 && !purego

package mldsa

// fourWayMinDefault is fourWayMin on amd64. With AVX2 the four-way
// permutation costs about one ×1 permutation (about 5,300 instructions
// against 5,250, callgrind), so from two samplers on a group padded to four
// beats running them singly; a single one still runs alone, which is no
// slower and gains whenever the ×1 permutation does. Without AVX2,
// keccakF1600x4 is four ×1 permutations and a transposition, so the
// samplers run one at a time.
func fourWayMinDefault() int {
	if useAVX2 {
		return 2
	}
	return 5
}
