package mldsa

// keyGenSeedGeneric is Algorithm 6, line 1: seed = H(ξ ‖
// IntegerToBytes(k, 1) ‖ IntegerToBytes(ℓ, 1), 128), the bytes of ρ, ρ′
// and K.
func keyGenSeedGeneric(seed *[128]byte, ξ *[32]byte, k, l int) {
	h := newShake256()
	h.write(ξ[:])
	h.writeByte(byte(k))
	h.writeByte(byte(l))
	h.read(seed[:])
}
