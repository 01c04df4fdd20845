package mldsa

// rejNTTPolyBuf holds the coefficients a sampler has accepted: one block
// appends at most 56 to fewer than 256, and indices are taken mod 512, so
// that no bounds check is needed.
type rejNTTPolyBuf [512]fieldElement

// rejNTTPolyLanes appends to buf[n:] the coefficients that one block of
// SHAKE128 output, the lanes st[0:21] (168 bytes, little-endian), accepts
// (Algorithm 30, lines 5 to 8; Algorithm 14, CoeffFromThreeBytes), and
// returns the new count. Every three-byte group is written at buf[n] and
// the count advances when it is below q, without a branch. n < 256 in.
func rejNTTPolyLanes(buf *rejNTTPolyBuf, n int, st *[25]uint64) int {
	const m = 1<<23 - 1 // Algorithm 14, line 3: the top bit of the third byte cleared
	// Three lanes are 24 bytes, eight groups.
	for i := 0; i < shake128Rate/8; i += 3 {
		x0, x1, x2 := st[i], st[i+1], st[i+2]
		n = appendBelowQ(buf, n, uint32(x0)&m)
		n = appendBelowQ(buf, n, uint32(x0>>24)&m)
		n = appendBelowQ(buf, n, uint32(x0>>48|x1<<16)&m)
		n = appendBelowQ(buf, n, uint32(x1>>8)&m)
		n = appendBelowQ(buf, n, uint32(x1>>32)&m)
		n = appendBelowQ(buf, n, uint32(x1>>56|x2<<8)&m)
		n = appendBelowQ(buf, n, uint32(x2>>16)&m)
		n = appendBelowQ(buf, n, uint32(x2>>40)&m)
	}
	return n
}

// appendBelowQ writes v < 2²³ at buf[n] and returns n + 1 if v < q (Algorithm
// 14, line 6), n otherwise.
func appendBelowQ(buf *rejNTTPolyBuf, n int, v uint32) int {
	buf[n&(len(buf)-1)] = fieldElement(v)
	return n + int((v-q)>>31)
}

// rejNTTPolyGeneric is RejNTTPoly (Algorithm 30): a uniform element of T_q
// from SHAKE128(seed), seed = ρ ‖ s ‖ r. It returns false if the block bound
// of Appendix C runs out (a contains garbage then). It branches on the
// output bytes, which derive from the public seed ρ only.
func rejNTTPolyGeneric(a *ringElement, seed *[34]byte) bool {
	// The seed absorbed (lines 2 and 3) and padded in one block of the
	// state: the SHAKE padding (FIPS 202, §6.2) at byte 34 and byte 167.
	var st [25]uint64
	for i := 0; i < 4; i++ {
		st[i] = leUint64(seed[8*i:])
	}
	st[4] = uint64(seed[32]) | uint64(seed[33])<<8 | 0x1F<<16
	st[shake128Rate/8-1] = 0x80 << 56
	var buf rejNTTPolyBuf
	n := 0
	for blocks := 0; blocks < rejNTTPolyBlocks; blocks++ {
		keccakF1600(&st)
		n = rejNTTPolyLanes(&buf, n, &st)
		if n >= n256 {
			copy(a[:], buf[:n256])
			return true
		}
	}
	return false
}
