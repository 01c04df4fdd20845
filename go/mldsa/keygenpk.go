package mldsa

import "unsafe"

// keyGenPkGeneric is Algorithm 6, lines 6 and 8: (t1, t0) ←
// Power2Round(t) and pk ← pkEncode(ρ, t1) (Algorithm 22), with k = len(t)
// and pk of 32 + 320k bytes.
func keyGenPkGeneric(pk []byte, t0, t []ringElement, ρ *[32]byte) {
	copy(pk, ρ[:])
	for i := range t {
		var t1 ringElement
		power2RoundPolyGeneric(&t1, &t0[i], &t[i])
		declassify(publicT1, unsafe.Pointer(&t1), unsafe.Sizeof(t1))
		simpleBitPackGeneric(pk[32+320*i:], &t1, 10)
	}
}
