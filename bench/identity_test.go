package bench

import (
	"bytes"
	"strings"
	"testing"
)

// TestIdentity runs every implementation built into this binary on the
// 64-case workload and fails on any difference in public key, signature
// or expanded private key, or on any rejected cross-verification.
func TestIdentity(t *testing.T) {
	w := NewWorkload()
	for _, p := range Params {
		t.Run(p, func(t *testing.T) {
			if err := CheckIdentity(Implementations(), p, w); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestIdentityDetectsMismatch makes sure the check can fail: an
// implementation that is self-consistent but derives some keys from a
// different seed must be caught, and the error must name the case.
func TestIdentityDetectsMismatch(t *testing.T) {
	w := NewWorkload()
	bad := Impl{Name: "flipped", New: func(p string) (Scheme, error) {
		s, err := Filippo.New(p)
		return flipScheme{s}, err
	}}
	err := CheckIdentity([]Impl{Filippo, bad}, "ML-DSA-44", w)
	if err == nil {
		t.Fatal("CheckIdentity accepted an implementation whose keys differ")
	}
	if !strings.Contains(err.Error(), "public keys of filippo and flipped differ") {
		t.Fatalf("unexpected error: %v", err)
	}
}

// flipScheme derives keys from a changed seed when the seed's first bit
// is set.
type flipScheme struct{ Scheme }

func flip(seed []byte) []byte {
	s := bytes.Clone(seed)
	if s[0]&1 == 1 {
		s[1] ^= 1
	}
	return s
}

func (f flipScheme) KeyGen(seed []byte) ([]byte, error) { return f.Scheme.KeyGen(flip(seed)) }
func (f flipScheme) NewKey(seed []byte) (Key, error)    { return f.Scheme.NewKey(flip(seed)) }

// TestDigestDetectsMismatch makes sure the digest TestIdentityAcrossPaths
// compares changes when some keys do.
func TestDigestDetectsMismatch(t *testing.T) {
	w := NewWorkload()
	bad := Impl{Name: "flipped", New: func(p string) (Scheme, error) {
		s, err := VG.New(p)
		return flipScheme{s}, err
	}}
	a, err := Digest(VG, w)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Digest(bad, w)
	if err != nil {
		t.Fatal(err)
	}
	if a == b {
		t.Fatal("Digest is the same for vg and for vg with some keys from other seeds")
	}
}
