package mldsa

import "encoding/binary"

// absorbMaxBlocks is the most blocks one call of shake256Absorb takes
// (Spec/contract's AbsorbMaxBlocks); its buffer of that many blocks is
// written *[1088]byte, as the generated declaration has it.
const absorbMaxBlocks = 8

var _ [absorbMaxBlocks * shake256Rate]byte = [1088]byte{} // 1088 = 8 · 136

// shake256AbsorbGeneric absorbs the first *n whole SHAKE256 blocks of in
// into the state (FIPS 202, Algorithm 8, step 6, once per block, in
// order); for *n > absorbMaxBlocks it leaves the state as it is.
func shake256AbsorbGeneric(a *[25]uint64, in *[1088]byte, n *uint64) {
	if *n > absorbMaxBlocks {
		return
	}
	for k := 0; k < int(*n); k++ {
		for i := 0; i < shake256Rate/8; i++ {
			a[i] ^= binary.LittleEndian.Uint64(in[shake256Rate*k+8*i:])
		}
		keccakF1600Generic(a)
	}
}
