// Package vectors runs the NIST ACVP and Wycheproof ML-DSA test vectors in
// ../shared/vectors against an implementation of ML-DSA.
//
// The vectors are read in place: they are never copied into the repository.
// Dir finds them through VG_VECTORS (default ../shared/vectors, relative to
// the repository root).
package vectors

// Kind says how a message is signed or verified.
type Kind int

const (
	// Pure is ML-DSA.Sign / ML-DSA.Verify with a context (FIPS 204,
	// Algorithms 2 and 3).
	Pure Kind = iota
	// PreHash is HashML-DSA.Sign / HashML-DSA.Verify with a context and a
	// pre-hash function (FIPS 204, Algorithms 4 and 5).
	PreHash
	// Internal is ML-DSA.Sign_internal / ML-DSA.Verify_internal on M′ as
	// given (FIPS 204, Algorithms 7 and 8).
	Internal
	// ExternalMu is ML-DSA.Sign_internal / ML-DSA.Verify_internal from a
	// given μ instead of computing it from tr and M′.
	ExternalMu
)

// Message is what is signed or verified.
type Message struct {
	Kind    Kind
	Msg     []byte // M (Pure, PreHash) or M′ (Internal)
	Context []byte // ctx (Pure, PreHash)
	HashAlg string // ACVP name of the pre-hash function (PreHash), e.g. "SHA2-256", "SHAKE-128"
	Mu      []byte // μ (ExternalMu), 64 bytes
}

// Impl is an implementation of ML-DSA under test. Params is one of
// "ML-DSA-44", "ML-DSA-65", "ML-DSA-87".
type Impl interface {
	// KeyGen is ML-DSA.KeyGen_internal (Algorithm 6) from the seed ξ. It
	// returns the encoded public key and the expanded private key encoding.
	KeyGen(params string, xi []byte) (pk, sk []byte, err error)
	// Sign signs m with the expanded private key sk. rnd is the 32-byte
	// randomness of hedged signing, or nil for deterministic signing.
	Sign(params string, sk []byte, m Message, rnd []byte) ([]byte, error)
	// Verify returns nil if and only if sig is a valid signature of m by pk.
	Verify(params string, pk []byte, m Message, sig []byte) error
}
