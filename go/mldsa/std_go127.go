//go:build go1.27

package mldsa

import (
	"crypto"
	stdmldsa "crypto/mldsa"
	"fmt"
	"io"
)

// Go 1.27's crypto/x509 (CreateCertificate, CreateCertificateRequest,
// MarshalPKIXPublicKey, MarshalPKCS8PrivateKey, ...) and other packages
// dispatch on the standard library's key types, which no other type can
// stand in for. StdSigner lets them sign with this package; the
// conversions below move keys between the two packages.

// StdSigner is a crypto.Signer whose Public method returns the standard
// library's *crypto/mldsa.PublicKey and whose Sign method is this
// package's PrivateKey.Sign. Give it to crypto/x509 to have certificates,
// certificate requests and CRLs signed by this package. It works for keys
// without a seed (made by NewPrivateKeyFromExpanded) too.
//
// A StdSigner is safe for concurrent use.
type StdSigner struct {
	sk  *PrivateKey
	pub *stdmldsa.PublicKey
}

// StdSigner returns a StdSigner for sk.
func (sk *PrivateKey) StdSigner() (*StdSigner, error) {
	if sk == nil || sk.p == nil {
		return nil, errZeroPrivateKey
	}
	pub, err := sk.pub.StdPublicKey()
	if err != nil {
		return nil, err
	}
	return &StdSigner{sk: sk, pub: pub}, nil
}

// Public returns the standard library's *crypto/mldsa.PublicKey for the
// signer's key.
func (s *StdSigner) Public() crypto.PublicKey { return s.pub }

// Sign is PrivateKey.Sign with the signer's key: opts may be nil,
// crypto.Hash(0), *Options (which is crypto/mldsa's Options) or
// crypto.MLDSAMu.
func (s *StdSigner) Sign(rand io.Reader, message []byte, opts crypto.SignerOpts) ([]byte, error) {
	return s.sk.Sign(rand, message, opts)
}

// SignDeterministic is PrivateKey.SignDeterministic with the signer's key.
func (s *StdSigner) SignDeterministic(message []byte, opts crypto.SignerOpts) ([]byte, error) {
	return s.sk.SignDeterministic(message, opts)
}

// PrivateKey returns the signer's key.
func (s *StdSigner) PrivateKey() *PrivateKey { return s.sk }

// StdPublicKey returns pk as the standard library's *crypto/mldsa.PublicKey
// (from its encoding).
func (pk *PublicKey) StdPublicKey() (*stdmldsa.PublicKey, error) {
	if pk == nil || pk.p == nil {
		return nil, errZeroPublicKey
	}
	return stdmldsa.NewPublicKey(toStdParameters(pk.p), pk.enc)
}

var errNoSeed = fmt.Errorf("%w, and crypto/mldsa keeps private keys only as seeds; StdSigner signs with such a key", ErrNoSeed)

// StdPrivateKey returns sk as the standard library's
// *crypto/mldsa.PrivateKey, made from sk's seed (crypto/mldsa derives the
// rest of the key from it). A key made by NewPrivateKeyFromExpanded has no
// seed and cannot be converted: StdPrivateKey returns an error, and
// StdSigner serves where a crypto.Signer is wanted.
func (sk *PrivateKey) StdPrivateKey() (*stdmldsa.PrivateKey, error) {
	if sk == nil || sk.p == nil {
		return nil, errZeroPrivateKey
	}
	if !sk.hasSeed {
		return nil, errNoSeed
	}
	return stdmldsa.NewPrivateKey(toStdParameters(sk.p), sk.seed[:])
}

// FromStdPublicKey returns the standard library's public key pk as a
// PublicKey of this package (from its encoding).
func FromStdPublicKey(pk *stdmldsa.PublicKey) (*PublicKey, error) {
	// The zero value's Parameters method panics; Equal tells it apart.
	if pk == nil || pk.Equal(new(stdmldsa.PublicKey)) {
		return nil, errZeroPublicKey
	}
	p, err := fromStdParameters(pk.Parameters())
	if err != nil {
		return nil, err
	}
	return NewPublicKey(Parameters{p}, pk.Bytes())
}

// FromStdPrivateKey returns the standard library's private key sk as a
// PrivateKey of this package, made from its seed.
func FromStdPrivateKey(sk *stdmldsa.PrivateKey) (*PrivateKey, error) {
	if sk == nil || sk.Equal(new(stdmldsa.PrivateKey)) {
		return nil, errZeroPrivateKey
	}
	seed := sk.Bytes()
	if len(seed) != PrivateKeySize {
		return nil, errInvalidSeedLength
	}
	p, err := fromStdParameters(sk.PublicKey().Parameters())
	if err != nil {
		return nil, err
	}
	return newPrivateKeyFromSeed(p, (*[32]byte)(seed))
}

func toStdParameters(p *params) stdmldsa.Parameters {
	switch p {
	case &params44:
		return stdmldsa.MLDSA44()
	case &params65:
		return stdmldsa.MLDSA65()
	case &params87:
		return stdmldsa.MLDSA87()
	}
	return stdmldsa.Parameters{}
}

func fromStdParameters(p stdmldsa.Parameters) (*params, error) {
	switch p {
	case stdmldsa.MLDSA44():
		return &params44, nil
	case stdmldsa.MLDSA65():
		return &params65, nil
	case stdmldsa.MLDSA87():
		return &params87, nil
	}
	return nil, errInvalidParameters
}
