package mldsa

// trHashGeneric is tr ← H(pk, 64) (Algorithm 6, line 9; Algorithm 7, line
// 6), on the package's sponge.
func trHashGeneric(tr *[64]byte, pk []byte) {
	h := newShake256()
	h.write(pk)
	h.read(tr[:])
}
