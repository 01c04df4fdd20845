// Package bench compares vg's ML-DSA with its peers on one workload.
//
// Every implementation runs the same 64 fixed seeds and 64 fixed messages
// (see Workload), deterministic signing with an empty context, so that the
// public keys and signatures of all implementations must be byte-identical
// (CheckIdentity) and the cost of each operation is measured like for like.
//
// The package lives in its own module so that the library's go.mod names
// only what the library needs.
package bench

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha3"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
)

// Cases is the number of fixed seed/message pairs of the workload.
const Cases = 64

// Params names the three parameter sets of FIPS 204, Table 1.
var Params = []string{"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"}

// Scheme is one implementation of one parameter set.
type Scheme interface {
	// KeyGen derives a key pair from a 32-byte seed (FIPS 204,
	// Algorithm 6, ML-DSA.KeyGen_internal) and returns the public key's
	// encoding, so that every implementation pays for pkEncode.
	KeyGen(seed []byte) ([]byte, error)
	// NewKey derives an in-memory private key from a seed.
	NewKey(seed []byte) (Key, error)
	// Verify parses the public key's encoding, then verifies sig on msg
	// with an empty context. Parsing is included on purpose: it is where
	// an implementation computes Â (ExpandA) if it caches it.
	Verify(pk, msg, sig []byte) error
	// ParsePublicKey parses a public key's encoding into the
	// implementation's in-memory form (for vg and its peers this
	// includes ExpandA and tr = H(pk)).
	ParsePublicKey(pk []byte) error
	// SignExpanded parses an expanded private key (FIPS 204, Algorithm 24,
	// skEncode) and signs msg deterministically with an empty context.
	// It returns ErrUnsupported if the implementation has no such encoding.
	SignExpanded(sk, msg []byte) ([]byte, error)
}

// Key is an in-memory private key.
type Key interface {
	// Sign signs msg deterministically with an empty context.
	Sign(msg []byte) ([]byte, error)
	// PublicKey returns the public key's encoding.
	PublicKey() []byte
	// Expanded returns the expanded encoding (skEncode), or nil if the
	// implementation has none.
	Expanded() []byte
}

// ErrUnsupported reports an operation an implementation does not offer.
var ErrUnsupported = errors.New("bench: operation not supported by this implementation")

// Impl is one implementation (and, for vg, one code path) of all three
// parameter sets.
type Impl struct {
	// Name identifies the implementation in flags and results, e.g.
	// "filippo", "circl", "vg".
	Name string
	// New returns the Scheme for a parameter set name from Params.
	New func(param string) (Scheme, error)
	// ExpandA is the callgrind function pattern (--toggle-collect) of
	// the implementation's ExpandA (FIPS 204, Algorithm 32), or of the
	// routine it calls once per entry of Â.
	ExpandA string
}

// Workload holds the fixed inputs: Cases seeds and Cases messages of 32
// bytes each, derived from SHAKE128 with a fixed label so that they are
// the same on every machine and in every run.
type Workload struct {
	Seeds    [Cases][]byte
	Messages [Cases][]byte
}

// NewWorkload returns the fixed workload.
func NewWorkload() *Workload {
	w := new(Workload)
	for i := range Cases {
		w.Seeds[i] = derive("vg bench seed", i)
		w.Messages[i] = derive("vg bench message", i)
	}
	return w
}

func derive(label string, i int) []byte {
	h := sha3.NewSHAKE128()
	h.Write([]byte(label))
	h.Write(binary.BigEndian.AppendUint32(nil, uint32(i)))
	out := make([]byte, 32)
	h.Read(out)
	return out
}

// Case is the output of one implementation for one workload case.
type Case struct {
	PublicKey []byte
	Signature []byte
	Expanded  []byte // nil if the implementation has no expanded encoding
}

// Outputs computes the public key, the deterministic signature and the
// expanded private key of every case, and checks that KeyGen, Sign,
// SignExpanded, Verify and ParsePublicKey agree with each other within s.
func Outputs(s Scheme, w *Workload) ([]Case, error) {
	out := make([]Case, Cases)
	for i := range Cases {
		pk, err := s.KeyGen(w.Seeds[i])
		if err != nil {
			return nil, fmt.Errorf("case %d: KeyGen: %w", i, err)
		}
		k, err := s.NewKey(w.Seeds[i])
		if err != nil {
			return nil, fmt.Errorf("case %d: NewKey: %w", i, err)
		}
		if !bytes.Equal(pk, k.PublicKey()) {
			return nil, fmt.Errorf("case %d: KeyGen and NewKey give different public keys", i)
		}
		sig, err := k.Sign(w.Messages[i])
		if err != nil {
			return nil, fmt.Errorf("case %d: Sign: %w", i, err)
		}
		if err := s.Verify(pk, w.Messages[i], sig); err != nil {
			return nil, fmt.Errorf("case %d: Verify of own signature: %w", i, err)
		}
		if err := s.ParsePublicKey(pk); err != nil {
			return nil, fmt.Errorf("case %d: ParsePublicKey: %w", i, err)
		}
		c := Case{PublicKey: pk, Signature: sig, Expanded: k.Expanded()}
		if c.Expanded != nil {
			sig2, err := s.SignExpanded(c.Expanded, w.Messages[i])
			if err != nil {
				return nil, fmt.Errorf("case %d: SignExpanded: %w", i, err)
			}
			if !bytes.Equal(sig, sig2) {
				return nil, fmt.Errorf("case %d: signing from the expanded key gives a different signature", i)
			}
		}
		out[i] = c
	}
	return out, nil
}

// CheckIdentity runs every implementation on the workload for one
// parameter set and returns an error naming the first case where two
// implementations differ in public key, signature or expanded private key,
// or where one rejects another's signature.
func CheckIdentity(impls []Impl, param string, w *Workload) error {
	if len(impls) < 2 {
		return fmt.Errorf("identity check needs at least two implementations, have %d", len(impls))
	}
	schemes := make([]Scheme, len(impls))
	outs := make([][]Case, len(impls))
	for j, im := range impls {
		s, err := im.New(param)
		if err != nil {
			return fmt.Errorf("%s %s: %w", im.Name, param, err)
		}
		o, err := Outputs(s, w)
		if err != nil {
			return fmt.Errorf("%s %s: %w", im.Name, param, err)
		}
		schemes[j], outs[j] = s, o
	}
	ref := impls[0].Name
	for j := 1; j < len(impls); j++ {
		name := impls[j].Name
		for i := range Cases {
			a, b := outs[0][i], outs[j][i]
			if !bytes.Equal(a.PublicKey, b.PublicKey) {
				return fmt.Errorf("%s case %d: public keys of %s and %s differ", param, i, ref, name)
			}
			if !bytes.Equal(a.Signature, b.Signature) {
				return fmt.Errorf("%s case %d: signatures of %s and %s differ", param, i, ref, name)
			}
			if a.Expanded != nil && b.Expanded != nil && !bytes.Equal(a.Expanded, b.Expanded) {
				return fmt.Errorf("%s case %d: expanded private keys of %s and %s differ", param, i, ref, name)
			}
		}
	}
	// Cross-verification: each implementation accepts every other's
	// signature, and rejects it once a bit of the message is flipped.
	for j := range impls {
		for k := range impls {
			for i := range Cases {
				if err := schemes[j].Verify(outs[k][i].PublicKey, w.Messages[i], outs[k][i].Signature); err != nil {
					return fmt.Errorf("%s case %d: %s rejects the signature of %s: %v", param, i, impls[j].Name, impls[k].Name, err)
				}
			}
			bad := bytes.Clone(w.Messages[0])
			bad[0] ^= 1
			if schemes[j].Verify(outs[k][0].PublicKey, bad, outs[k][0].Signature) == nil {
				return fmt.Errorf("%s: %s accepts a signature of %s on a changed message", param, impls[j].Name, impls[k].Name)
			}
		}
	}
	return nil
}

// Digest returns the SHA-256, in hex, of im's public keys, signatures and
// expanded private keys on every case of every parameter set, so that
// builds and code paths of one implementation can be compared byte for
// byte across processes.
func Digest(im Impl, w *Workload) (string, error) {
	h := sha256.New()
	for _, p := range Params {
		s, err := im.New(p)
		if err != nil {
			return "", err
		}
		cs, err := Outputs(s, w)
		if err != nil {
			return "", fmt.Errorf("%s %s: %w", im.Name, p, err)
		}
		for _, c := range cs {
			for _, b := range [][]byte{c.PublicKey, c.Signature, c.Expanded} {
				var n [8]byte
				binary.BigEndian.PutUint64(n[:], uint64(len(b)))
				h.Write(n[:])
				h.Write(b)
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
