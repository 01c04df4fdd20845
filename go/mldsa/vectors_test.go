package mldsa

import (
	"bytes"
	"crypto"
	"errors"
	"fmt"
	"testing"

	"github.com/vg-crypto/vg/internal/vectors"
)

// impl adapts the package to vectors.Impl. Deterministic signing goes
// through the public API, both through a parsed key and SignExpanded; hedged signing with the vector's rnd goes through
// signInternal, since the API draws its own randomness.
type impl struct{}

func paramsByName(name string) (Parameters, error) {
	for _, p := range []Parameters{MLDSA44(), MLDSA65(), MLDSA87()} {
		if p.String() == name {
			return p, nil
		}
	}
	return Parameters{}, fmt.Errorf("unknown parameter set %q", name)
}

func preHashByName(name string) (PreHash, error) {
	for ph := SHA224; ph <= SHAKE256; ph++ {
		if ph.String() == name {
			return ph, nil
		}
	}
	return 0, fmt.Errorf("unknown pre-hash %q", name)
}

func (impl) KeyGen(params string, xi []byte) ([]byte, []byte, error) {
	p, err := paramsByName(params)
	if err != nil {
		return nil, nil, err
	}
	sk, err := NewPrivateKey(p, xi)
	if err != nil {
		return nil, nil, err
	}
	return sk.PublicKey().Bytes(), sk.ExpandedBytes(), nil
}

// mu computes μ for a message of any kind but ExternalMu.
func mu(tr *[64]byte, m vectors.Message) ([64]byte, error) {
	switch m.Kind {
	case vectors.Pure:
		if len(m.Context) > 255 {
			return [64]byte{}, errContextTooLong
		}
		return computeMu(tr, 0, string(m.Context), nil, m.Msg), nil
	case vectors.PreHash:
		ph, err := preHashByName(m.HashAlg)
		if err != nil {
			return [64]byte{}, err
		}
		return hashMu(tr, m.Msg, ph, &Options{Context: string(m.Context)})
	case vectors.Internal:
		// μ = H(tr ‖ M′, 64) with M′ as given.
		h := newShake256()
		h.write(tr[:])
		h.write(m.Msg)
		var μ [64]byte
		h.read(μ[:])
		return μ, nil
	}
	return [64]byte{}, errors.New("unknown message kind")
}

func (impl) Sign(params string, skBytes []byte, m vectors.Message, rnd []byte) ([]byte, error) {
	p, err := paramsByName(params)
	if err != nil {
		return nil, err
	}
	sk, err := NewPrivateKeyFromExpanded(p, skBytes)
	if err != nil {
		return nil, err
	}
	if rnd == nil {
		switch m.Kind {
		case vectors.Pure:
			opts := &Options{Context: string(m.Context)}
			return bothSame(SignExpandedDeterministic(p, skBytes, m.Msg, opts))(sk.SignDeterministic(m.Msg, opts))
		case vectors.PreHash:
			ph, err := preHashByName(m.HashAlg)
			if err != nil {
				return nil, err
			}
			// ACVP signs with every pre-hash, also those HashSign
			// refuses as too weak for the parameter set: sign μ.
			μ, err := hashMu(&sk.pub.tr, m.Msg, ph, &Options{Context: string(m.Context)})
			if err != nil {
				return nil, err
			}
			return sk.signInternal(&μ, new([32]byte))
		case vectors.ExternalMu:
			return bothSame(SignExpandedDeterministic(p, skBytes, m.Mu, crypto.Hash(hashMLDSAMu)))(sk.SignMuDeterministic(m.Mu))
		}
	}
	if len(rnd) != 32 && rnd != nil {
		return nil, errors.New("rnd must be 32 bytes")
	}
	var r [32]byte
	copy(r[:], rnd)
	var μ [64]byte
	if m.Kind == vectors.ExternalMu {
		if len(m.Mu) != 64 {
			return nil, errMuLength
		}
		copy(μ[:], m.Mu)
	} else if μ, err = mu(&sk.pub.tr, m); err != nil {
		return nil, err
	}
	return sk.signInternal(&μ, &r)
}

// bothSame returns the signature and error of the parsed key (the second
// call) if SignExpandedDeterministic (the first) gave the same, else an
// error: the vectors check both.
func bothSame(one []byte, oneErr error) func([]byte, error) ([]byte, error) {
	return func(sig []byte, err error) ([]byte, error) {
		if (err == nil) != (oneErr == nil) || !bytes.Equal(one, sig) {
			return nil, fmt.Errorf("SignExpandedDeterministic gives %x (%v), the parsed key %x (%v)", one, oneErr, sig, err)
		}
		return sig, err
	}
}

func (impl) Verify(params string, pkBytes []byte, m vectors.Message, sig []byte) error {
	p, err := paramsByName(params)
	if err != nil {
		return err
	}
	pk, err := NewPublicKey(p, pkBytes)
	if err != nil {
		return err
	}
	switch m.Kind {
	case vectors.Pure:
		return Verify(pk, m.Msg, sig, &Options{Context: string(m.Context)})
	case vectors.PreHash:
		ph, err := preHashByName(m.HashAlg)
		if err != nil {
			return err
		}
		return HashVerify(pk, m.Msg, sig, ph, &Options{Context: string(m.Context)})
	case vectors.ExternalMu:
		return VerifyMu(pk, m.Mu, sig)
	}
	μ, err := mu(&pk.tr, m)
	if err != nil {
		return err
	}
	return VerifyMu(pk, μ[:], sig)
}

// TestVectors runs every ACVP (keyGen, sigGen, sigVer) and Wycheproof
// (sign_seed, sign_noseed, verify) vector against the package.
func TestVectors(t *testing.T) {
	vectors.Run(t, impl{})
}
