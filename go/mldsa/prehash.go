package mldsa

import (
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"fmt"
	"unsafe"
)

// PreHash names a pre-hash function PH of HashML-DSA (FIPS 204, §5.4).
type PreHash int

// The pre-hash functions FIPS 204 allows with HashML-DSA (§5.4.1).
const (
	SHA224 PreHash = iota + 1
	SHA256
	SHA384
	SHA512
	SHA512_224
	SHA512_256
	SHA3_224
	SHA3_256
	SHA3_384
	SHA3_512
	SHAKE128
	SHAKE256
)

var preHashNames = [...]string{
	SHA224:     "SHA2-224",
	SHA256:     "SHA2-256",
	SHA384:     "SHA2-384",
	SHA512:     "SHA2-512",
	SHA512_224: "SHA2-512/224",
	SHA512_256: "SHA2-512/256",
	SHA3_224:   "SHA3-224",
	SHA3_256:   "SHA3-256",
	SHA3_384:   "SHA3-384",
	SHA3_512:   "SHA3-512",
	SHAKE128:   "SHAKE-128",
	SHAKE256:   "SHAKE-256",
}

// The last byte of each function's OID under 2.16.840.1.101.3.4.2
// (NIST hash algorithms).
var preHashOIDArc = [...]byte{
	SHA256: 0x01, SHA384: 0x02, SHA512: 0x03, SHA224: 0x04,
	SHA512_224: 0x05, SHA512_256: 0x06,
	SHA3_224: 0x07, SHA3_256: 0x08, SHA3_384: 0x09, SHA3_512: 0x0A,
	SHAKE128: 0x0B, SHAKE256: 0x0C,
}

func (ph PreHash) valid() bool { return ph >= SHA224 && ph <= SHAKE256 }

// Classical collision strength in bits: half the digest for SHA-2 and
// SHA-3 (NIST SP 800-107, Table 1; FIPS 202, Table 4), and for the XOFs
// min(d/2, c/2) with the output lengths d of Algorithm 4, lines 19 and 22.
var preHashCollisionBits = [...]int{
	SHA224: 112, SHA256: 128, SHA384: 192, SHA512: 256,
	SHA512_224: 112, SHA512_256: 128,
	SHA3_224: 112, SHA3_256: 128, SHA3_384: 192, SHA3_512: 256,
	SHAKE128: 128, // d = 256, c = 256
	SHAKE256: 256, // d = 512, c = 512
}

// CollisionStrength returns the classical collision strength of ph in
// bits (its second-preimage strength is at least as high), or 0 for an
// unknown PreHash.
func (ph PreHash) CollisionStrength() int {
	if !ph.valid() {
		return 0
	}
	return preHashCollisionBits[ph]
}

// CheckStrength returns nil if HashSign accepts ph with params. FIPS 204,
// §5.4, asks that the digest come from a hash with at least λ bits of
// classical security against collisions and second preimages, λ being the
// parameter set's collision strength (Table 1: 128, 192 and 256 bits for
// ML-DSA-44, -65 and -87); a weaker pre-hash lowers the strength of every
// signature made with it to the hash's. So ML-DSA-44 takes every pre-hash
// but SHA2-224, SHA2-512/224 and SHA3-224; ML-DSA-65 takes SHA2-384,
// SHA2-512, SHA3-384, SHA3-512 and SHAKE-256; ML-DSA-87 takes SHA2-512,
// SHA3-512 and SHAKE-256. The error wraps ErrPreHashTooWeak, or
// ErrUnsupportedPreHash or ErrInvalidParameters.
func (ph PreHash) CheckStrength(params Parameters) error {
	if params.p == nil {
		return errInvalidParameters
	}
	if !ph.valid() {
		return errPreHash
	}
	if preHashCollisionBits[ph] < params.p.λ {
		return fmt.Errorf("%w: %v has %d bits of collision strength, %s needs %d (FIPS 204, §5.4)",
			ErrPreHashTooWeak, ph, preHashCollisionBits[ph], params.p.name, params.p.λ)
	}
	return nil
}

// String returns the ACVP name of the function, e.g. "SHA2-256" or
// "SHAKE-128".
func (ph PreHash) String() string {
	if !ph.valid() {
		return "unknown pre-hash"
	}
	return preHashNames[ph]
}

// oid returns the DER encoding of the function's OID (Algorithm 4, lines
// 10 to 22).
func (ph PreHash) oid() []byte {
	return []byte{0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, preHashOIDArc[ph]}
}

// digest returns PH(M), written into out: SHAKE128 with 256 bits of
// output and SHAKE256 with 512 (Algorithm 4, lines 19 and 22). The
// caller's buffer keeps HashSign from allocating.
func (ph PreHash) digest(m []byte, out *[64]byte) []byte {
	switch ph {
	case SHA224:
		s := sha256.Sum224(m)
		return out[:copy(out[:], s[:])]
	case SHA256:
		s := sha256.Sum256(m)
		return out[:copy(out[:], s[:])]
	case SHA384:
		s := sha512.Sum384(m)
		return out[:copy(out[:], s[:])]
	case SHA512:
		*out = sha512.Sum512(m)
		return out[:]
	case SHA512_224:
		s := sha512.Sum512_224(m)
		return out[:copy(out[:], s[:])]
	case SHA512_256:
		s := sha512.Sum512_256(m)
		return out[:copy(out[:], s[:])]
	case SHA3_224:
		s := sha3.Sum224(m)
		return out[:copy(out[:], s[:])]
	case SHA3_256:
		s := sha3.Sum256(m)
		return out[:copy(out[:], s[:])]
	case SHA3_384:
		s := sha3.Sum384(m)
		return out[:copy(out[:], s[:])]
	case SHA3_512:
		*out = sha3.Sum512(m)
		return out[:]
	case SHAKE128:
		h := sha3.NewSHAKE128()
		h.Write(m)
		h.Read(out[:32])
		return out[:32]
	default: // SHAKE256, through the proven block absorber on amd64
		h := newShake256()
		h.write(m)
		h.read(out[:])
		return out[:]
	}
}

// hashMu returns μ for HashML-DSA: M′ = 1 ‖ |ctx| ‖ ctx ‖ OID ‖ PH(M)
// (Algorithm 4, line 23; Algorithm 5, line 18).
func hashMu(tr *[64]byte, message []byte, ph PreHash, opts *Options) ([64]byte, error) {
	if !ph.valid() {
		return [64]byte{}, errPreHash
	}
	var context string
	if opts != nil {
		context = opts.Context
	}
	if len(context) > 255 {
		return [64]byte{}, errContextTooLong
	}
	var digest [64]byte
	return computeMu(tr, 1, context, ph.oid(), ph.digest(message, &digest)), nil
}

// HashSign returns a HashML-DSA signature of message, pre-hashed with ph
// (HashML-DSA.Sign, FIPS 204, Algorithm 4, hedged with fresh randomness).
// If opts is nil, it's equivalent to the zero value of Options.
//
// ph must be at least as strong as the key's parameter set (see
// PreHash.CheckStrength): HashSign refuses a weaker one with an error
// wrapping ErrPreHashTooWeak, e.g. SHA2-256 with ML-DSA-65 or ML-DSA-87,
// rather than make signatures that a collision of the pre-hash can forge.
// HashVerify accepts every pre-hash: its caller names ph, and signatures
// made elsewhere stay verifiable.
func (sk *PrivateKey) HashSign(message []byte, ph PreHash, opts *Options) ([]byte, error) {
	return sk.hashSign(message, ph, opts, false)
}

// HashSignDeterministic works like HashSign, but the signature is
// deterministic.
func (sk *PrivateKey) HashSignDeterministic(message []byte, ph PreHash, opts *Options) ([]byte, error) {
	return sk.hashSign(message, ph, opts, true)
}

func (sk *PrivateKey) hashSign(message []byte, ph PreHash, opts *Options, deterministic bool) ([]byte, error) {
	if sk == nil || sk.p == nil {
		return nil, errZeroPrivateKey
	}
	if err := ph.CheckStrength(Parameters{sk.p}); err != nil {
		return nil, err
	}
	μ, err := hashMu(&sk.pub.tr, message, ph, opts)
	if err != nil {
		return nil, err
	}
	var rnd [32]byte
	if !deterministic {
		if rnd, err = randomBytes(); err != nil {
			return nil, err
		}
		// The library draws rnd itself: no caller can mark it.
		secret(unsafe.Pointer(&rnd), 32)
	}
	return sk.signInternal(&μ, &rnd)
}

// HashVerify reports whether signature is a valid HashML-DSA signature of
// message, pre-hashed with ph, by pk (HashML-DSA.Verify, FIPS 204,
// Algorithm 5). If opts is nil, it's equivalent to the zero value of
// Options. It accepts every pre-hash, also those HashSign refuses for the
// parameter set: a caller that wants the policy for verification too
// calls ph.CheckStrength first.
func HashVerify(pk *PublicKey, message []byte, signature []byte, ph PreHash, opts *Options) error {
	if pk == nil || pk.p == nil {
		return errZeroPublicKey
	}
	μ, err := hashMu(&pk.tr, message, ph, opts)
	if err != nil {
		return err
	}
	return pk.verify(&μ, signature)
}
