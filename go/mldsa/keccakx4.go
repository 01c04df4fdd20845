package mldsa

// keccakF1600x4Generic applies Keccak-f[1600] to four interleaved states:
// lane i of state j is a[4*i+j].
func keccakF1600x4Generic(a *[100]uint64) {
	var s [25]uint64
	for j := 0; j < 4; j++ {
		for i := range s {
			s[i] = a[4*i+j]
		}
		keccakF1600(&s)
		for i := range s {
			a[4*i+j] = s[i]
		}
	}
}
