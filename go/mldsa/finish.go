package mldsa

import "encoding/binary"

// finishOut is the output, in bytes, shake256Finish gives: tr, μ and ρ″
// are 64 bytes.
const finishOut = 64

// shake256FinishGeneric ends SHAKE256 with a 64-byte output (FIPS 202,
// Algorithm 8, steps 6 and 8): for *n < 136, tail[:*n] ‖ 0x1F ‖ 0… ‖ 0x80
// (fips202.PadBlock) XORed into the rate, f, and out the first 64 bytes
// of the rate; for *n ≥ 136 nothing is written.
func shake256FinishGeneric(a *[25]uint64, tail *[136]byte, n *uint64, out *[64]byte) {
	if *n >= shake256Rate {
		return
	}
	var block [shake256Rate]byte
	copy(block[:], tail[:*n])
	block[*n] ^= 0x1F
	block[shake256Rate-1] ^= 0x80
	shake256AbsorbBlockGeneric(a, &block)
	for i := 0; i < finishOut/8; i++ {
		binary.LittleEndian.PutUint64(out[8*i:], a[i])
	}
}
