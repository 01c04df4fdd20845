package bench

import (
	"errors"
	"fmt"

	"filippo.io/mldsa"
	"github.com/cloudflare/circl/sign/mldsa/mldsa44"
	"github.com/cloudflare/circl/sign/mldsa/mldsa65"
	"github.com/cloudflare/circl/sign/mldsa/mldsa87"
)

// Filippo is filippo.io/mldsa: on Go 1.26 a standalone copy of the
// standard library's ML-DSA code (Go 1.27's crypto/mldsa).
var Filippo = Impl{Name: "filippo", New: newFilippo,
	// Go's ML-DSA has no ExpandA function: it calls sampleNTT (RejNTTPoly)
	// for each entry of Â, inside Verify.
	ExpandA: "filippo.io/mldsa/internal/fips140/mldsa.sampleNTT"}

func newFilippo(param string) (Scheme, error) {
	switch param {
	case "ML-DSA-44":
		return filippoScheme{mldsa.MLDSA44()}, nil
	case "ML-DSA-65":
		return filippoScheme{mldsa.MLDSA65()}, nil
	case "ML-DSA-87":
		return filippoScheme{mldsa.MLDSA87()}, nil
	}
	return nil, fmt.Errorf("unknown parameter set %q", param)
}

type filippoScheme struct{ p mldsa.Parameters }

func (s filippoScheme) KeyGen(seed []byte) ([]byte, error) {
	sk, err := mldsa.NewPrivateKey(s.p, seed)
	if err != nil {
		return nil, err
	}
	return sk.PublicKey().Bytes(), nil
}

func (s filippoScheme) NewKey(seed []byte) (Key, error) {
	sk, err := mldsa.NewPrivateKey(s.p, seed)
	if err != nil {
		return nil, err
	}
	return filippoKey{sk}, nil
}

func (s filippoScheme) Verify(pk, msg, sig []byte) error {
	k, err := mldsa.NewPublicKey(s.p, pk)
	if err != nil {
		return err
	}
	return mldsa.Verify(k, msg, sig, nil)
}

func (s filippoScheme) ParsePublicKey(pk []byte) error {
	_, err := mldsa.NewPublicKey(s.p, pk)
	return err
}

// SignExpanded: filippo.io/mldsa encodes private keys only as seeds.
func (s filippoScheme) SignExpanded(sk, msg []byte) ([]byte, error) {
	return nil, ErrUnsupported
}

type filippoKey struct{ sk *mldsa.PrivateKey }

func (k filippoKey) Sign(msg []byte) ([]byte, error) { return k.sk.SignDeterministic(msg, nil) }
func (k filippoKey) PublicKey() []byte               { return k.sk.PublicKey().Bytes() }
func (k filippoKey) Expanded() []byte                { return nil }

// Circl is github.com/cloudflare/circl's sign/mldsa packages.
var Circl = Impl{Name: "circl", New: newCircl,
	ExpandA: "github.com/cloudflare/circl/sign/mldsa/mldsa*/internal.(*Mat).Derive"}

func newCircl(param string) (Scheme, error) {
	switch param {
	case "ML-DSA-44":
		return circl44, nil
	case "ML-DSA-65":
		return circl65, nil
	case "ML-DSA-87":
		return circl87, nil
	}
	return nil, fmt.Errorf("unknown parameter set %q", param)
}

var errCirclVerify = errors.New("circl: signature rejected")

// circlScheme adapts one of circl's three mldsa packages, which have the
// same API on distinct types.
type circlScheme[PK, SK any] struct {
	sigSize     int
	fromSeed    func(seed *[32]byte) (*PK, *SK)
	verify      func(pk *PK, msg, ctx, sig []byte) bool
	signTo      func(sk *SK, msg, ctx []byte, randomized bool, sig []byte) error
	pkBytes     func(*PK) []byte
	skBytes     func(*SK) []byte
	pkUnmarshal func(*PK, []byte) error
	skUnmarshal func(*SK, []byte) error
}

var (
	circl44 = circlScheme[mldsa44.PublicKey, mldsa44.PrivateKey]{
		mldsa44.SignatureSize, mldsa44.NewKeyFromSeed, mldsa44.Verify, mldsa44.SignTo,
		(*mldsa44.PublicKey).Bytes, (*mldsa44.PrivateKey).Bytes,
		(*mldsa44.PublicKey).UnmarshalBinary, (*mldsa44.PrivateKey).UnmarshalBinary,
	}
	circl65 = circlScheme[mldsa65.PublicKey, mldsa65.PrivateKey]{
		mldsa65.SignatureSize, mldsa65.NewKeyFromSeed, mldsa65.Verify, mldsa65.SignTo,
		(*mldsa65.PublicKey).Bytes, (*mldsa65.PrivateKey).Bytes,
		(*mldsa65.PublicKey).UnmarshalBinary, (*mldsa65.PrivateKey).UnmarshalBinary,
	}
	circl87 = circlScheme[mldsa87.PublicKey, mldsa87.PrivateKey]{
		mldsa87.SignatureSize, mldsa87.NewKeyFromSeed, mldsa87.Verify, mldsa87.SignTo,
		(*mldsa87.PublicKey).Bytes, (*mldsa87.PrivateKey).Bytes,
		(*mldsa87.PublicKey).UnmarshalBinary, (*mldsa87.PrivateKey).UnmarshalBinary,
	}
)

func (c circlScheme[PK, SK]) keys(seed []byte) (*PK, *SK, error) {
	if len(seed) != 32 {
		return nil, nil, errors.New("circl: seed must be 32 bytes")
	}
	pk, sk := c.fromSeed((*[32]byte)(seed))
	return pk, sk, nil
}

func (c circlScheme[PK, SK]) KeyGen(seed []byte) ([]byte, error) {
	pk, _, err := c.keys(seed)
	if err != nil {
		return nil, err
	}
	return c.pkBytes(pk), nil
}

func (c circlScheme[PK, SK]) NewKey(seed []byte) (Key, error) {
	pk, sk, err := c.keys(seed)
	if err != nil {
		return nil, err
	}
	return circlKey[PK, SK]{c, pk, sk}, nil
}

// Verify unpacks the public key first: circl's in-memory public key
// caches Â, so this is where circl pays for ExpandA.
func (c circlScheme[PK, SK]) Verify(pk, msg, sig []byte) error {
	k := new(PK)
	if err := c.pkUnmarshal(k, pk); err != nil {
		return err
	}
	if !c.verify(k, msg, nil, sig) {
		return errCirclVerify
	}
	return nil
}

func (c circlScheme[PK, SK]) ParsePublicKey(pk []byte) error {
	return c.pkUnmarshal(new(PK), pk)
}

func (c circlScheme[PK, SK]) SignExpanded(b, msg []byte) ([]byte, error) {
	sk := new(SK)
	if err := c.skUnmarshal(sk, b); err != nil {
		return nil, err
	}
	sig := make([]byte, c.sigSize)
	return sig, c.signTo(sk, msg, nil, false, sig)
}

type circlKey[PK, SK any] struct {
	c  circlScheme[PK, SK]
	pk *PK
	sk *SK
}

func (k circlKey[PK, SK]) Sign(msg []byte) ([]byte, error) {
	sig := make([]byte, k.c.sigSize)
	return sig, k.c.signTo(k.sk, msg, nil, false, sig)
}
func (k circlKey[PK, SK]) PublicKey() []byte { return k.c.pkBytes(k.pk) }
func (k circlKey[PK, SK]) Expanded() []byte  { return k.c.skBytes(k.sk) }
