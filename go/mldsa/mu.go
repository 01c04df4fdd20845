package mldsa

// MuHasher computes the message representative μ = H(tr ‖ M′, 64) that
// SignMu and VerifyMu take (FIPS 204, Algorithm 7, line 6; Algorithm 8,
// line 7) from a message written to it in pieces, so that the message
// need not be held in memory. For ML-DSA, M′ = 0 ‖ |ctx| ‖ ctx ‖ M
// (Algorithm 2, line 10; Algorithm 3, line 5); HashMu gives μ for
// HashML-DSA from the pre-hash PH(M). On amd64 every whole block of
// tr ‖ M′ is absorbed by the proven SHAKE256Absorb (runs of eight blocks)
// and SHAKE256AbsorbBlock routines.
type MuHasher struct {
	h shake
}

// errZeroMuHasher: a MuHasher not made by NewMuHasher has no key.
var errZeroMuHasher = detail(ErrInvalidPublicKey, "MuHasher not made by NewMuHasher")

// NewMuHasher returns a MuHasher for the key pk and the context string
// (at most 255 bytes, Algorithm 2, line 2), with tr ‖ 0 ‖ |ctx| ‖ ctx
// absorbed.
func NewMuHasher(pk *PublicKey, context string) (*MuHasher, error) {
	if pk == nil || pk.p == nil {
		return nil, errZeroPublicKey
	}
	if len(context) > 255 {
		return nil, errContextTooLong
	}
	m := &MuHasher{h: newShake256()}
	m.h.write(pk.tr[:])
	m.h.writeByte(0)
	m.h.writeByte(byte(len(context)))
	for i := 0; i < len(context); i++ {
		m.h.writeByte(context[i])
	}
	return m, nil
}

// Write absorbs the next bytes of the message. It never fails for a
// MuHasher made by NewMuHasher.
func (m *MuHasher) Write(p []byte) (int, error) {
	if m.h.rate == 0 {
		return 0, errZeroMuHasher
	}
	m.h.write(p)
	return len(p), nil
}

// Mu returns μ of the message written so far; writing may go on after.
func (m *MuHasher) Mu() ([64]byte, error) {
	var μ [64]byte
	if m.h.rate == 0 {
		return μ, errZeroMuHasher
	}
	h := m.h
	h.read(μ[:])
	return μ, nil
}

// HashMu returns μ for HashML-DSA with pre-hash ph: M′ = 1 ‖ |ctx| ‖ ctx ‖
// OID ‖ PH(M) (Algorithm 4, line 23; Algorithm 5, line 18), digest being
// PH(M) (256 bits for SHAKE-128 and 512 for SHAKE-256, Algorithm 4, lines
// 19 and 22).
func HashMu(pk *PublicKey, digest []byte, ph PreHash, context string) ([64]byte, error) {
	if pk == nil || pk.p == nil {
		return [64]byte{}, errZeroPublicKey
	}
	if !ph.valid() {
		return [64]byte{}, errPreHash
	}
	if len(context) > 255 {
		return [64]byte{}, errContextTooLong
	}
	var size [64]byte
	if len(digest) != len(ph.digest(nil, &size)) {
		return [64]byte{}, detail(ErrUnsupportedPreHash, "digest length does not match the pre-hash")
	}
	return computeMu(&pk.tr, 1, context, ph.oid(), digest), nil
}
