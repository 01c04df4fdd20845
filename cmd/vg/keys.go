package main

// Key files: PKCS#8 private keys and SubjectPublicKeyInfo public keys as
// RFC 9881 defines them (encoded and parsed by go/mldsa), PEM armour
// (RFC 7468), and raw keys (the 32-byte seed ξ, the FIPS 204 expanded
// private key skEncode output, the pkEncode output).

import (
	"bytes"
	"encoding/asn1"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"

	"github.com/vg-crypto/vg/go/mldsa"
)

// paramSet is a FIPS 204 parameter set with the size of its expanded
// private key (FIPS 204 Table 2).
type paramSet struct {
	name         string
	params       mldsa.Parameters
	expandedSize int
}

var paramSets = []*paramSet{
	{"ML-DSA-44", mldsa.MLDSA44(), mldsa.MLDSA44().ExpandedPrivateKeySize()},
	{"ML-DSA-65", mldsa.MLDSA65(), mldsa.MLDSA65().ExpandedPrivateKeySize()},
	{"ML-DSA-87", mldsa.MLDSA87(), mldsa.MLDSA87().ExpandedPrivateKeySize()},
}

// seedSize is the size of the key generation seed ξ (FIPS 204 Algorithm 1, line 1).
const seedSize = mldsa.PrivateKeySize

// paramSetByName accepts "ML-DSA-44", "mldsa44", "44" and the like, in any case.
func paramSetByName(name string) (*paramSet, error) {
	n := strings.ToUpper(strings.NewReplacer("-", "", "_", "").Replace(strings.TrimSpace(name)))
	n = strings.TrimPrefix(n, "MLDSA")
	for _, ps := range paramSets {
		if n == ps.name[len("ML-DSA-"):] {
			return ps, nil
		}
	}
	return nil, fmt.Errorf("unknown parameter set %q (want ML-DSA-44, ML-DSA-65 or ML-DSA-87)", name)
}

// privateKeyForm is the RFC 9881 ML-DSA-xx-PrivateKey CHOICE alternative.
type privateKeyForm = mldsa.PKCS8Format

const (
	formSeed     = mldsa.PKCS8Seed     // seed [0] IMPLICIT OCTET STRING (SIZE (32))
	formExpanded = mldsa.PKCS8Expanded // expandedKey OCTET STRING
	formBoth     = mldsa.PKCS8Both     // both SEQUENCE { seed, expandedKey }
)

func parsePrivateKeyForm(s string) (privateKeyForm, error) {
	for _, f := range []privateKeyForm{formSeed, formExpanded, formBoth} {
		if s == f.String() {
			return f, nil
		}
	}
	return 0, fmt.Errorf("unknown private key form %q (want seed, expanded or both)", s)
}

const (
	pemPrivateKey = "PRIVATE KEY"
	pemPublicKey  = "PUBLIC KEY"
)

// marshalPKCS8 encodes sk as PKCS#8 in the chosen form. Forms with the
// seed need a key that has one (made by GenerateKey or NewPrivateKey).
func marshalPKCS8(sk *mldsa.PrivateKey, form privateKeyForm) ([]byte, error) {
	der, err := mldsa.MarshalPKCS8PrivateKeyFormat(sk, form)
	if errors.Is(err, mldsa.ErrNoSeed) {
		return nil, errors.New("the key has no seed (it was read from an expanded key); only the expanded form can encode it")
	}
	return der, err
}

// marshalSPKI encodes pk as a SubjectPublicKeyInfo.
func marshalSPKI(pk *mldsa.PublicKey) ([]byte, error) {
	return mldsa.MarshalPKIXPublicKey(pk)
}

// A key of the other kind, recognised when the expected one does not parse.
var (
	errPublicNotPrivate = errors.New("this is a public key (SubjectPublicKeyInfo), not a private key")
	errPrivateNotPublic = errors.New("this is a private key (PKCS#8), not a public key")
)

// checkParams checks a parsed key's parameter set against want, if non-nil.
func checkParams(got mldsa.Parameters, want *paramSet) error {
	if want != nil && got != want.params {
		return fmt.Errorf("key is %s but -params says %s", got, want.name)
	}
	return nil
}

// parsePKCS8 decodes a DER PKCS#8 ML-DSA private key in any of the three
// RFC 9881 forms (go/mldsa checks the consistency of "both" and of an
// embedded public key). want, if non-nil, is the parameter set the caller
// expects.
func parsePKCS8(der []byte, want *paramSet) (*mldsa.PrivateKey, error) {
	sk, err := mldsa.ParsePKCS8PrivateKey(der)
	if err != nil {
		if _, perr := mldsa.ParsePKIXPublicKey(der); perr == nil {
			return nil, errPublicNotPrivate
		}
		return nil, cliError(err)
	}
	if err := checkParams(sk.PublicKey().Parameters(), want); err != nil {
		return nil, err
	}
	return sk, nil
}

// parseSPKI decodes a DER SubjectPublicKeyInfo holding an ML-DSA public key.
func parseSPKI(der []byte, want *paramSet) (*mldsa.PublicKey, error) {
	pk, err := mldsa.ParsePKIXPublicKey(der)
	if err != nil {
		if _, perr := mldsa.ParsePKCS8PrivateKey(der); perr == nil {
			return nil, errPrivateNotPublic
		}
		return nil, cliError(err)
	}
	if err := checkParams(pk.Parameters(), want); err != nil {
		return nil, err
	}
	return pk, nil
}

// cliError drops the package name from go/mldsa's messages: the command
// says which file it was reading.
func cliError(err error) error {
	return errors.New(strings.TrimPrefix(err.Error(), "mldsa: "))
}

func newPublicKey(ps *paramSet, b []byte) (*mldsa.PublicKey, error) {
	if len(b) != ps.params.PublicKeySize() {
		return nil, fmt.Errorf("%s public key is %d bytes, want %d", ps.name, len(b), ps.params.PublicKeySize())
	}
	pk, err := mldsa.NewPublicKey(ps.params, b)
	if err != nil {
		return nil, fmt.Errorf("%s public key: %v", ps.name, err)
	}
	return pk, nil
}

// isDERValue reports whether data is exactly one DER element: then it is
// a malformed key, not a raw one, and -params would not help.
func isDERValue(data []byte) bool {
	var v asn1.RawValue
	rest, err := asn1.Unmarshal(data, &v)
	return err == nil && len(rest) == 0
}

// isPEM reports whether data looks like PEM armour rather than DER or raw bytes.
func isPEM(data []byte) bool {
	return bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("-----BEGIN "))
}

// decodePEM returns the DER inside the single PEM block of type typ.
func decodePEM(data []byte, typ string) ([]byte, error) {
	block, rest := pem.Decode(data)
	if block == nil {
		return nil, errors.New("malformed PEM: no complete block")
	}
	if block.Type != typ {
		if block.Type == "ENCRYPTED PRIVATE KEY" {
			return nil, errors.New("encrypted private keys are not supported")
		}
		return nil, fmt.Errorf("PEM block is %q, want %q", block.Type, typ)
	}
	if len(block.Headers) != 0 {
		return nil, errors.New("PEM headers are not supported (is the key encrypted?)")
	}
	if len(bytes.TrimSpace(rest)) != 0 {
		return nil, errors.New("malformed PEM: data after the first block")
	}
	return block.Bytes, nil
}

func encodePEM(der []byte, typ string) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der})
}

// parsePrivateKey reads a private key as PEM, DER PKCS#8, or, when ps is
// non-nil and the size fits, a raw 32-byte seed or raw expanded key. Raw
// sizes never equal a PKCS#8 encoding's size, so the size decides.
func parsePrivateKey(data []byte, ps *paramSet) (*mldsa.PrivateKey, error) {
	if isPEM(data) {
		der, err := decodePEM(data, pemPrivateKey)
		if err != nil {
			return nil, err
		}
		return parsePKCS8(der, ps)
	}
	if ps != nil {
		switch len(data) {
		case seedSize:
			return mldsa.NewPrivateKey(ps.params, data)
		case ps.expandedSize:
			sk, err := mldsa.NewPrivateKeyFromExpanded(ps.params, data)
			if err != nil {
				return nil, fmt.Errorf("%s expanded key: %v", ps.name, err)
			}
			return sk, nil
		}
	}
	if len(data) == 0 || data[0] != 0x30 {
		return nil, rawKeyProblem(len(data), ps, true)
	}
	sk, err := parsePKCS8(data, ps)
	if err != nil && rawSizeKnown(len(data)) {
		// A raw key may start with 0x30 too.
		return nil, fmt.Errorf("%v; or, as a raw key: %v", err, rawKeyProblem(len(data), ps, true))
	}
	if err != nil && ps == nil && err != errPublicNotPrivate && !isDERValue(data) {
		return nil, fmt.Errorf("%v (a raw key needs -params)", err)
	}
	return sk, err
}

// rawSizeKnown reports whether n is the size of some raw key.
func rawSizeKnown(n int) bool {
	if n == seedSize {
		return true
	}
	for _, ps := range paramSets {
		if n == ps.expandedSize || n == ps.params.PublicKeySize() {
			return true
		}
	}
	return false
}

// rawKeyProblem explains why n bytes that are neither PEM nor DER are not
// a raw key of parameter set ps (nil: no -params given): the size tells
// the parameter set of an expanded private key or a public key, and which
// kind of key it is (a seed fits every parameter set, so -params decides).
func rawKeyProblem(n int, ps *paramSet, private bool) error {
	kind, der := "public key", "SubjectPublicKeyInfo"
	if private {
		kind, der = "private key", "PKCS#8"
	}
	for _, other := range paramSets {
		var sizeOf string
		isPrivate := false
		switch n {
		case other.expandedSize:
			sizeOf, isPrivate = "a raw "+other.name+" expanded private key", true
		case other.params.PublicKeySize():
			sizeOf = "a raw " + other.name + " public key"
		default:
			continue
		}
		switch {
		case isPrivate != private:
			return fmt.Errorf("%s is %d bytes, the size of %s: is it the other file of the key pair?", kind, n, sizeOf)
		case ps == nil:
			return fmt.Errorf("%s is neither PEM nor DER %s; %d bytes is the size of %s: give -params %s", kind, der, n, sizeOf, other.name)
		default:
			return fmt.Errorf("%s is %d bytes, the size of %s, but -params says %s", kind, n, sizeOf, ps.name)
		}
	}
	if n == seedSize {
		if !private {
			return fmt.Errorf("public key is %d bytes, the size of a raw private key seed: is it the other file of the key pair?", n)
		}
		if ps == nil {
			return fmt.Errorf("private key is neither PEM nor DER PKCS#8; %d bytes is the size of a raw seed, which fits every parameter set: give -params", n)
		}
	}
	if ps == nil {
		return fmt.Errorf("%s is neither PEM nor DER %s (%d bytes; a raw key needs -params)", kind, der, n)
	}
	if private {
		return fmt.Errorf("private key is neither PEM nor DER PKCS#8, and %d bytes is neither a %s seed (%d) nor an expanded key (%d)",
			n, ps.name, seedSize, ps.expandedSize)
	}
	return fmt.Errorf("public key is neither PEM nor DER SubjectPublicKeyInfo, and %d bytes is not a %s public key (%d)",
		n, ps.name, ps.params.PublicKeySize())
}

// parsePublicKey reads a public key as PEM, DER SubjectPublicKeyInfo, or,
// when ps is non-nil and the size fits, the raw pkEncode output.
func parsePublicKey(data []byte, ps *paramSet) (*mldsa.PublicKey, error) {
	if isPEM(data) {
		der, err := decodePEM(data, pemPublicKey)
		if err != nil {
			return nil, err
		}
		return parseSPKI(der, ps)
	}
	if ps != nil && len(data) == ps.params.PublicKeySize() {
		return newPublicKey(ps, data)
	}
	if len(data) == 0 || data[0] != 0x30 {
		return nil, rawKeyProblem(len(data), ps, false)
	}
	pk, err := parseSPKI(data, ps)
	if err != nil && rawSizeKnown(len(data)) {
		return nil, fmt.Errorf("%v; or, as a raw key: %v", err, rawKeyProblem(len(data), ps, false))
	}
	if err != nil && ps == nil && err != errPrivateNotPublic && !isDERValue(data) {
		return nil, fmt.Errorf("%v (a raw key needs -params)", err)
	}
	return pk, err
}
