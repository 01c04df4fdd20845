package mldsa

// keccakF1600x8Generic applies Keccak-f[1600] to eight interleaved states:
// lane i of state j is a[8*i+j].
func keccakF1600x8Generic(a *[200]uint64) {
	var s [25]uint64
	for j := 0; j < 8; j++ {
		for i := range s {
			s[i] = a[8*i+j]
		}
		keccakF1600(&s)
		for i := range s {
			a[8*i+j] = s[i]
		}
	}
}
