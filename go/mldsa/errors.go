package mldsa

import (
	"errors"
	"fmt"
)

// Errors that callers can test for with errors.Is. Every error this
// package returns for bad input wraps one of them (or comes from the
// caller's io.Reader or crypto/rand); the message adds what exactly is
// wrong.
var (
	// ErrInvalidParameters: the zero Parameters, or a parameter set this
	// package does not know.
	ErrInvalidParameters = errors.New("mldsa: invalid parameters")
	// ErrInvalidPublicKey: a public key that cannot be decoded (wrong
	// length, malformed SubjectPublicKeyInfo), or a nil or zero PublicKey.
	ErrInvalidPublicKey = errors.New("mldsa: invalid public key")
	// ErrInvalidPrivateKey: a seed or expanded private key that cannot be
	// decoded or is inconsistent, a malformed PKCS#8 private key, or a nil
	// or zero PrivateKey.
	ErrInvalidPrivateKey = errors.New("mldsa: invalid private key")
	// ErrInvalidSignature: a signature that does not verify, whatever the
	// reason (length, encoding, norm of z, or the final check of c̃).
	ErrInvalidSignature = errors.New("mldsa: invalid signature")
	// ErrContextTooLong: a context of more than 255 bytes (FIPS 204,
	// Algorithm 2, line 1).
	ErrContextTooLong = errors.New("mldsa: context too long")
	// ErrInvalidMu: a message representative μ that is not 64 bytes.
	ErrInvalidMu = errors.New("mldsa: invalid message representative μ length")
	// ErrUnsupportedPreHash: a PreHash value that is none of the constants
	// of this package.
	ErrUnsupportedPreHash = errors.New("mldsa: unknown pre-hash function")
	// ErrPreHashTooWeak: HashSign with a pre-hash whose collision strength
	// is below the parameter set's (see PreHash.CollisionStrength).
	ErrPreHashTooWeak = errors.New("mldsa: pre-hash too weak for the parameter set")
	// ErrUnsupportedSignerOpts: a crypto.SignerOpts that Sign does not
	// accept.
	ErrUnsupportedSignerOpts = errors.New("mldsa: unsupported SignerOpts")
	// ErrNoSeed: an operation that needs the private key seed, on a key
	// made by NewPrivateKeyFromExpanded, which has none.
	ErrNoSeed = errors.New("mldsa: the key has no seed (it was made from an expanded key)")
)

// The errors returned by the package, each wrapping one of the above.
var (
	errInvalidParameters       = ErrInvalidParameters
	errInvalidSeedLength       = detail(ErrInvalidPrivateKey, "invalid seed length")
	errInvalidPublicKeyLength  = detail(ErrInvalidPublicKey, "invalid public key length")
	errInvalidPrivateKeyLength = detail(ErrInvalidPrivateKey, "invalid expanded private key length")
	errPrivateKeyRange         = detail(ErrInvalidPrivateKey, "s1 or s2 coefficient out of range")
	errPrivateKeyT0            = detail(ErrInvalidPrivateKey, "t0 inconsistent with ρ, s1 and s2")
	errPrivateKeyTr            = detail(ErrInvalidPrivateKey, "tr is not the hash of the public key")
	errZeroPrivateKey          = detail(ErrInvalidPrivateKey, "nil or zero private key")
	errZeroPublicKey           = detail(ErrInvalidPublicKey, "nil or zero public key")
	errContextTooLong          = ErrContextTooLong
	errMuLength                = ErrInvalidMu
	errInvalidSignatureLength  = detail(ErrInvalidSignature, "invalid signature length")
	errInvalidSignature        = ErrInvalidSignature
	errInvalidHint             = detail(ErrInvalidSignature, "malformed hint")
	errSignatureNorm           = detail(ErrInvalidSignature, "z out of range")
	errPreHash                 = ErrUnsupportedPreHash
	errSamplerExhausted        = errors.New("mldsa: rejection sampling exceeded its bound (FIPS 204, Appendix C)")
	errBadMatrix               = errors.New("mldsa: internal error: Â has fewer than k·ℓ entries")
	errSigningAttempts         = errors.New("mldsa: signing exceeded its attempt bound (FIPS 204, Appendix C)")
	// A c̃ whose SampleInBall exceeds its bound cannot be from an honest
	// signer (the bound's failure probability is below 2⁻²⁵⁶): in Verify
	// it is an invalid signature.
	errVerifySamplerExhausted = fmt.Errorf("%w: %w", ErrInvalidSignature, errSamplerExhausted)
	// A key parsed by NewPublicKey samples Â at its first Verify, which
	// reports a ρ whose ExpandA exceeds its bound as an invalid key.
	errVerifyExpandA = fmt.Errorf("%w: ExpandA(ρ): %w", ErrInvalidPublicKey, errSamplerExhausted)
)

// detail returns an error wrapping kind whose message adds what.
func detail(kind error, what string) error {
	return fmt.Errorf("%w: %s", kind, what)
}
