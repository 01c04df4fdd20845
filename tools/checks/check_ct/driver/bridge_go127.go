//go:build go1.27

package main

import (
	stdmldsa "crypto/mldsa"
	"fmt"

	"github.com/vg-crypto/vg/go/mldsa"
)

func init() { bridge = runBridge }

// runBridge signs through StdSigner with both keys, converts the key from
// the seed to crypto/mldsa's key type and back, and checks that the
// standard library verifies what StdSigner signs.
func runBridge(k *keys, msg []byte, opts *mldsa.Options) error {
	for _, sk := range []*mldsa.PrivateKey{k.fromSeed, k.fromExp} {
		s, err := sk.StdSigner()
		if err != nil {
			return err
		}
		pub := s.Public().(*stdmldsa.PublicKey)
		sig, err := s.Sign(nil, msg, opts)
		if err != nil {
			return err
		}
		det, err := s.SignDeterministic(msg, opts)
		if err != nil {
			return err
		}
		for _, sg := range [][]byte{sig, det} {
			if err := stdmldsa.Verify(pub, msg, sg, opts); err != nil {
				return err
			}
		}
	}
	std, err := k.fromSeed.StdPrivateKey()
	if err != nil {
		return err
	}
	back, err := mldsa.FromStdPrivateKey(std)
	if err != nil {
		return err
	}
	if !publicBool(back.Equal(k.fromSeed)) {
		return fmt.Errorf("FromStdPrivateKey(StdPrivateKey()) is another key")
	}
	return nil
}
