package mldsa

import "unsafe"

// sampleInBallGeneric is SampleInBall (Algorithm 29): c with τ coefficients ±1
// from SHAKE256(ρ). The rejection of j > i branches on hash output (public
// for the signature returned; for an attempt that signing rejects, it
// reveals which of these bytes were too large). The positions and signs
// never choose a branch or an address: c is built in two 256-bit masks
// (nonzero, negative) updated with shifts and selects over all four words.
// It returns false if the block bound of Appendix C runs out.
func sampleInBallGeneric(c *ringElement, ρ []byte, τ int) bool {
	s := newShake256()
	s.write(ρ)
	blk := s.block()
	signs := leUint64(blk)
	blk = blk[8:]
	var nonzero, negative [4]uint64
	blocks := 1
	for i := n256 - τ; i < n256; i++ {
		var j uint32
		for {
			if len(blk) == 0 {
				if blocks == sampleInBallBlocks {
					return false
				}
				blk = s.block()
				blocks++
			}
			j = uint32(blk[0])
			blk = blk[1:]
			accept := j <= uint32(i)
			declassify(publicSampleInBall, unsafe.Pointer(&accept), 1)
			if accept {
				break
			}
		}
		// c_i ← c_j (line 9). i is public, j is not: every word is read
		// and written, through the masks that select j's word.
		sel := wordSelectors(j)
		bit := uint64(1) << (j & 63)
		var nzj, negj uint64
		for k := range sel {
			nzj |= nonzero[k] & sel[k]
			negj |= negative[k] & sel[k]
		}
		nonzero[i>>6] |= (nzj >> (j & 63) & 1) << (i & 63)
		negative[i>>6] |= (negj >> (j & 63) & 1) << (i & 63)
		// c_j ← (−1)^h[i+τ−256] (line 10).
		h := signs >> (i + τ - n256) & 1
		for k := range sel {
			nonzero[k] |= bit & sel[k]
			negative[k] = negative[k]&^(bit&sel[k]) | (h<<(j&63))&sel[k]
		}
	}
	// 0, 1 or q − 1 (a negative coefficient is nonzero).
	for k := range nonzero {
		nz, neg := nonzero[k], negative[k]
		w := (*[64]fieldElement)(c[64*k:])
		for b := range w {
			w[b] = fieldElement(nz&1 + neg&1*(q-2))
			nz, neg = nz>>1, neg>>1
		}
	}
	return true
}

// wordSelectors returns, for each word k of a 256-bit mask, all ones if bit
// j lies in it (k = ⌊j/64⌋) and zero otherwise, without a branch.
func wordSelectors(j uint32) [4]uint64 {
	var sel [4]uint64
	for k := range sel {
		sel[k] = uint64(int64(int32(ctEq(uint32(k), j>>6))))
	}
	return sel
}
