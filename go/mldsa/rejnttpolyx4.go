package mldsa

// rejNTTPolyx4Generic runs RejNTTPoly on four seeds with the four-way
// permutation, squeezing all four sponges in step.
func rejNTTPolyx4Generic(a *[4]*ringElement, seeds *[4][34]byte) bool {
	var st [100]uint64
	for j := 0; j < 4; j++ {
		sd := &seeds[j]
		for i := 0; i < 4; i++ {
			st[4*i+j] = leUint64(sd[8*i:])
		}
		// Bytes 32 and 33 of the seed, then the SHAKE padding (FIPS 202,
		// §6.2) at byte 34 and byte 167 of the 168-byte block.
		st[4*4+j] = uint64(sd[32]) | uint64(sd[33])<<8 | 0x1F<<16
		st[4*20+j] = 0x80 << 56
	}
	var n [4]int
	var buf [shake128Rate]byte
	for blocks := 0; blocks < rejNTTPolyBlocks; blocks++ {
		keccakF1600x4(&st)
		done := true
		for j := 0; j < 4; j++ {
			if n[j] == n256 {
				continue
			}
			for i := 0; i < shake128Rate/8; i++ {
				putLEUint64(buf[8*i:], st[4*i+j])
			}
			n[j] = rejNTTPolyParse(a[j], n[j], buf[:])
			if n[j] < n256 {
				done = false
			}
		}
		if done {
			return true
		}
	}
	return false
}
