package vectors

import (
	"errors"
	"fmt"
	"testing"

	"github.com/vg-crypto/vg/Spec/fips204"
)

// spec adapts Spec/fips204 to Impl.
type spec struct{}

func specParams(name string) (fips204.Params, error) {
	p, ok := fips204.ParamsByName(name)
	if !ok {
		return p, fmt.Errorf("unknown parameter set %q", name)
	}
	return p, nil
}

func (spec) KeyGen(params string, xi []byte) ([]byte, []byte, error) {
	p, err := specParams(params)
	if err != nil {
		return nil, nil, err
	}
	if xi == nil {
		// KeyGen(p, nil) draws a random seed; the vectors always give one.
		return nil, nil, errors.New("no seed")
	}
	return fips204.KeyGen(p, xi)
}

func (spec) Sign(params string, sk []byte, m Message, rnd []byte) ([]byte, error) {
	p, err := specParams(params)
	if err != nil {
		return nil, err
	}
	if rnd == nil {
		rnd = make([]byte, 32) // the deterministic variant
	}
	switch m.Kind {
	case Pure:
		return fips204.Sign(p, sk, m.Msg, m.Context, rnd)
	case PreHash:
		ph, err := fips204.PreHashByName(m.HashAlg)
		if err != nil {
			return nil, err
		}
		return fips204.HashMLDSASign(p, sk, m.Msg, m.Context, ph, rnd)
	case Internal:
		return fips204.SignInternal(p, sk, m.Msg, rnd)
	case ExternalMu:
		return fips204.SignInternalMu(p, sk, m.Mu, rnd)
	}
	return nil, fmt.Errorf("unknown message kind %d", m.Kind)
}

func (spec) Verify(params string, pk []byte, m Message, sig []byte) error {
	p, err := specParams(params)
	if err != nil {
		return err
	}
	var ok bool
	switch m.Kind {
	case Pure:
		ok, err = fips204.Verify(p, pk, m.Msg, sig, m.Context)
	case PreHash:
		ph, perr := fips204.PreHashByName(m.HashAlg)
		if perr != nil {
			return perr
		}
		ok, err = fips204.HashMLDSAVerify(p, pk, m.Msg, sig, m.Context, ph)
	case Internal:
		ok, err = fips204.VerifyInternal(p, pk, m.Msg, sig)
	case ExternalMu:
		ok, err = fips204.VerifyInternalMu(p, pk, m.Mu, sig)
	default:
		return fmt.Errorf("unknown message kind %d", m.Kind)
	}
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("invalid signature")
	}
	return nil
}

// TestSpec runs every vector against Spec/fips204.
func TestSpec(t *testing.T) {
	Run(t, spec{})
}
