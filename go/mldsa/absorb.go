package mldsa

import "encoding/binary"

// shake256AbsorbBlockGeneric absorbs one whole SHAKE256 block into the
// state (FIPS 202, Algorithm 8, step 6): S = f(S ⊕ (P ‖ 0^c)), byte i of
// P in byte i mod 8 of lane i/8.
func shake256AbsorbBlockGeneric(a *[25]uint64, block *[136]byte) {
	for i := 0; i < shake256Rate/8; i++ {
		a[i] ^= binary.LittleEndian.Uint64(block[8*i:])
	}
	keccakF1600Generic(a)
}
