package bench

import (
	"fmt"

	"github.com/vg-crypto/vg/go/mldsa"
)

// VG is vg's go/mldsa, on whichever code path this binary selects.
var VG = Impl{Name: "vg", New: newVG, ExpandA: "github.com/vg-crypto/vg/go/mldsa.expandA"}

func newVG(param string) (Scheme, error) {
	switch param {
	case "ML-DSA-44":
		return vgScheme{mldsa.MLDSA44()}, nil
	case "ML-DSA-65":
		return vgScheme{mldsa.MLDSA65()}, nil
	case "ML-DSA-87":
		return vgScheme{mldsa.MLDSA87()}, nil
	}
	return nil, fmt.Errorf("unknown parameter set %q", param)
}

type vgScheme struct{ p mldsa.Parameters }

func (s vgScheme) KeyGen(seed []byte) ([]byte, error) {
	sk, err := mldsa.NewPrivateKey(s.p, seed)
	if err != nil {
		return nil, err
	}
	return sk.PublicKey().Bytes(), nil
}

func (s vgScheme) NewKey(seed []byte) (Key, error) {
	sk, err := mldsa.NewPrivateKey(s.p, seed)
	if err != nil {
		return nil, err
	}
	return vgKey{sk}, nil
}

func (s vgScheme) Verify(pk, msg, sig []byte) error {
	k, err := mldsa.NewPublicKey(s.p, pk)
	if err != nil {
		return err
	}
	return mldsa.Verify(k, msg, sig, nil)
}

func (s vgScheme) ParsePublicKey(pk []byte) error {
	_, err := mldsa.NewPublicKey(s.p, pk)
	return err
}

// SignExpanded is one call of vg's SignExpandedDeterministic, which
// decodes and checks the key as NewPrivateKeyFromExpanded does (t0 and tr
// included) into pooled room, as a signer that keeps only the encoding
// would use it.
func (s vgScheme) SignExpanded(b, msg []byte) ([]byte, error) {
	return mldsa.SignExpandedDeterministic(s.p, b, msg, nil)
}

type vgKey struct{ sk *mldsa.PrivateKey }

func (k vgKey) Sign(msg []byte) ([]byte, error) { return k.sk.SignDeterministic(msg, nil) }
func (k vgKey) PublicKey() []byte               { return k.sk.PublicKey().Bytes() }
func (k vgKey) Expanded() []byte                { return k.sk.ExpandedBytes() }

// VGImplementation names vg's code path in this binary.
func VGImplementation() string { return mldsa.Implementation() }
