package main

// Key encodings: PKCS#8 (RFC 5958) private keys and SubjectPublicKeyInfo
// (RFC 5280) public keys for ML-DSA as RFC 9881 defines them, PEM armour
// (RFC 7468), and raw keys (the 32-byte seed ξ, the FIPS 204 expanded
// private key skEncode output, the pkEncode output).

import (
	"bytes"
	"crypto/subtle"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"

	"github.com/vg-crypto/vg/go/mldsa"
)

// paramSet ties a FIPS 204 parameter set to its RFC 9881 object identifier
// and the size of its expanded private key (FIPS 204 Table 2).
type paramSet struct {
	name         string
	oid          asn1.ObjectIdentifier
	params       mldsa.Parameters
	expandedSize int
}

// The OIDs are id-ml-dsa-44/65/87 from NIST's CSOR arc, as RFC 9881 §2 lists them.
var paramSets = []*paramSet{
	{"ML-DSA-44", asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 3, 17}, mldsa.MLDSA44(), 2560},
	{"ML-DSA-65", asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 3, 18}, mldsa.MLDSA65(), 4032},
	{"ML-DSA-87", asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 3, 19}, mldsa.MLDSA87(), 4896},
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

func paramSetByOID(oid asn1.ObjectIdentifier) (*paramSet, error) {
	for _, ps := range paramSets {
		if oid.Equal(ps.oid) {
			return ps, nil
		}
	}
	return nil, fmt.Errorf("algorithm %v is not ML-DSA (want id-ml-dsa-44, -65 or -87)", oid)
}

func paramSetOf(p mldsa.Parameters) (*paramSet, error) {
	for _, ps := range paramSets {
		if ps.params == p {
			return ps, nil
		}
	}
	return nil, fmt.Errorf("unknown parameter set %s", p)
}

// privateKeyForm is the RFC 9881 ML-DSA-xx-PrivateKey CHOICE alternative.
type privateKeyForm int

const (
	formSeed     privateKeyForm = iota // seed [0] IMPLICIT OCTET STRING (SIZE (32))
	formExpanded                       // expandedKey OCTET STRING
	formBoth                           // both SEQUENCE { seed, expandedKey }
)

func parsePrivateKeyForm(s string) (privateKeyForm, error) {
	switch s {
	case "seed":
		return formSeed, nil
	case "expanded":
		return formExpanded, nil
	case "both":
		return formBoth, nil
	}
	return 0, fmt.Errorf("unknown private key form %q (want seed, expanded or both)", s)
}

// oneAsymmetricKey is PKCS#8 / RFC 5958 OneAsymmetricKey. Elements after
// publicKey are ignored, as the extension marker there allows.
type oneAsymmetricKey struct {
	Version    int
	Algorithm  pkix.AlgorithmIdentifier
	PrivateKey []byte
	Attributes asn1.RawValue  `asn1:"optional,tag:0"`
	PublicKey  asn1.BitString `asn1:"optional,tag:1"`
}

type subjectPublicKeyInfo struct {
	Algorithm pkix.AlgorithmIdentifier
	PublicKey asn1.BitString
}

// bothForm is the "both" alternative of the private key CHOICE.
type bothForm struct {
	Seed        []byte
	ExpandedKey []byte
}

const (
	pemPrivateKey = "PRIVATE KEY"
	pemPublicKey  = "PUBLIC KEY"
)

// marshalPKCS8 encodes sk as a version 1 PKCS#8 PrivateKeyInfo whose
// algorithm parameters are absent (RFC 9881 §3) and whose private key is
// the chosen CHOICE alternative. Forms with the seed need a key that has
// one (made by GenerateKey or NewPrivateKey).
func marshalPKCS8(sk *mldsa.PrivateKey, form privateKeyForm) ([]byte, error) {
	ps, err := paramSetOf(sk.PublicKey().Parameters())
	if err != nil {
		return nil, err
	}
	if form != formExpanded && len(sk.Bytes()) != seedSize {
		return nil, errors.New("the key has no seed (it was read from an expanded key); only the expanded form can encode it")
	}
	var inner []byte
	switch form {
	case formSeed:
		inner, err = asn1.Marshal(asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: 0, Bytes: sk.Bytes()})
	case formExpanded:
		inner, err = asn1.Marshal(sk.ExpandedBytes())
	case formBoth:
		inner, err = asn1.Marshal(bothForm{Seed: sk.Bytes(), ExpandedKey: sk.ExpandedBytes()})
	default:
		return nil, errors.New("unknown private key form")
	}
	if err != nil {
		return nil, err
	}
	return asn1.Marshal(oneAsymmetricKey{
		Algorithm:  pkix.AlgorithmIdentifier{Algorithm: ps.oid},
		PrivateKey: inner,
	})
}

// marshalSPKI encodes pk as a SubjectPublicKeyInfo with absent algorithm
// parameters and the pkEncode output as the BIT STRING (RFC 9881 §4).
func marshalSPKI(pk *mldsa.PublicKey) ([]byte, error) {
	ps, err := paramSetOf(pk.Parameters())
	if err != nil {
		return nil, err
	}
	b := pk.Bytes()
	return asn1.Marshal(subjectPublicKeyInfo{
		Algorithm: pkix.AlgorithmIdentifier{Algorithm: ps.oid},
		PublicKey: asn1.BitString{Bytes: b, BitLength: 8 * len(b)},
	})
}

// unmarshalDER parses exactly one DER value into v. Its errors say what is
// wrong in words: encoding/asn1's own, for a structure that does not match,
// print Go struct tags.
func unmarshalDER(der []byte, v any, what, want string) error {
	rest, err := asn1.Unmarshal(der, v)
	if err != nil {
		return fmt.Errorf("malformed %s: %s (want %s)", what, derProblem(err), want)
	}
	if len(rest) != 0 {
		return fmt.Errorf("malformed %s: %d bytes of trailing data after the DER value", what, len(rest))
	}
	return nil
}

// derProblem describes an encoding/asn1 error in a few words.
func derProblem(err error) string {
	var syn asn1.SyntaxError
	if errors.As(err, &syn) {
		// Short messages: "data truncated", "non-minimal length", ...
		return "not valid DER: " + syn.Msg
	}
	var st asn1.StructuralError
	if errors.As(err, &st) {
		if strings.HasPrefix(st.Msg, "tags don't match") {
			return "an element has the wrong type"
		}
		msg, _, _ := strings.Cut(st.Msg, " (")
		return "unexpected structure: " + msg
	}
	return "not valid DER"
}

// A key of the other kind, recognised when the expected one does not parse.
var (
	errPublicNotPrivate = errors.New("this is a public key (SubjectPublicKeyInfo), not a private key")
	errPrivateNotPublic = errors.New("this is a private key (PKCS#8), not a public key")
)

// The structures unmarshalDER is asked for, as errors name them.
const (
	wantPKCS8 = "PKCS#8 SEQUENCE { version INTEGER, algorithm AlgorithmIdentifier, privateKey OCTET STRING, ... }"
	wantSPKI  = "SubjectPublicKeyInfo SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }"
)

// checkAlgorithm returns the parameter set of an RFC 9881 AlgorithmIdentifier,
// whose parameters must be absent, and checks it against want if non-nil.
func checkAlgorithm(ai pkix.AlgorithmIdentifier, want *paramSet) (*paramSet, error) {
	ps, err := paramSetByOID(ai.Algorithm)
	if err != nil {
		return nil, err
	}
	if len(ai.Parameters.FullBytes) != 0 {
		return nil, fmt.Errorf("%s algorithm parameters must be absent (RFC 9881)", ps.name)
	}
	if want != nil && want != ps {
		return nil, fmt.Errorf("key is %s but -params says %s", ps.name, want.name)
	}
	return ps, nil
}

// bitStringBytes returns the bytes of a BIT STRING that holds whole bytes.
func bitStringBytes(b asn1.BitString, what string) ([]byte, error) {
	if b.BitLength != 8*len(b.Bytes) {
		return nil, fmt.Errorf("malformed %s: BIT STRING has %d unused bits", what, 8*len(b.Bytes)-b.BitLength)
	}
	return b.Bytes, nil
}

// parsePKCS8 decodes a DER PKCS#8 ML-DSA private key in any of the three
// RFC 9881 forms. For "both" it checks that the expanded key is the one the
// seed generates, and if the optional public key is present, that it is the
// key's public key. want, if non-nil, is the parameter set the caller expects.
func parsePKCS8(der []byte, want *paramSet) (*mldsa.PrivateKey, error) {
	var k oneAsymmetricKey
	if err := unmarshalDER(der, &k, "PKCS#8 private key", wantPKCS8); err != nil {
		var spki subjectPublicKeyInfo
		if rest, err := asn1.Unmarshal(der, &spki); err == nil && len(rest) == 0 {
			return nil, errPublicNotPrivate
		}
		return nil, err
	}
	if k.Version != 0 && k.Version != 1 {
		return nil, fmt.Errorf("unsupported PKCS#8 version %d", k.Version)
	}
	ps, err := checkAlgorithm(k.Algorithm, want)
	if err != nil {
		return nil, err
	}
	var choice asn1.RawValue
	if err := unmarshalDER(k.PrivateKey, &choice, ps.name+" private key", "seed [0], expandedKey OCTET STRING or both SEQUENCE (RFC 9881)"); err != nil {
		return nil, err
	}
	var sk *mldsa.PrivateKey
	switch {
	case choice.Class == asn1.ClassContextSpecific && choice.Tag == 0 && !choice.IsCompound:
		if len(choice.Bytes) != seedSize {
			return nil, fmt.Errorf("%s seed is %d bytes, want %d", ps.name, len(choice.Bytes), seedSize)
		}
		sk, err = mldsa.NewPrivateKey(ps.params, choice.Bytes)
	case choice.Class == asn1.ClassUniversal && choice.Tag == asn1.TagOctetString && !choice.IsCompound:
		if len(choice.Bytes) != ps.expandedSize {
			return nil, fmt.Errorf("%s expanded key is %d bytes, want %d", ps.name, len(choice.Bytes), ps.expandedSize)
		}
		sk, err = mldsa.NewPrivateKeyFromExpanded(ps.params, choice.Bytes)
	case choice.Class == asn1.ClassUniversal && choice.Tag == asn1.TagSequence && choice.IsCompound:
		both, err := parseBoth(choice.Bytes, ps.name)
		if err != nil {
			return nil, err
		}
		if len(both.Seed) != seedSize {
			return nil, fmt.Errorf("%s seed is %d bytes, want %d", ps.name, len(both.Seed), seedSize)
		}
		if len(both.ExpandedKey) != ps.expandedSize {
			return nil, fmt.Errorf("%s expanded key is %d bytes, want %d", ps.name, len(both.ExpandedKey), ps.expandedSize)
		}
		sk, err = mldsa.NewPrivateKey(ps.params, both.Seed)
		if err == nil && subtle.ConstantTimeCompare(sk.ExpandedBytes(), both.ExpandedKey) != 1 {
			return nil, fmt.Errorf("%s private key: seed and expanded key do not match", ps.name)
		}
	default:
		return nil, fmt.Errorf("malformed %s private key: want seed [0], expandedKey OCTET STRING or both SEQUENCE", ps.name)
	}
	if err != nil {
		return nil, fmt.Errorf("%s private key: %v", ps.name, err)
	}
	if len(k.PublicKey.Bytes) != 0 || k.PublicKey.BitLength != 0 {
		pub, err := bitStringBytes(k.PublicKey, "PKCS#8 public key")
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(pub, sk.PublicKey().Bytes()) {
			return nil, fmt.Errorf("%s private key: embedded public key does not match the private key", ps.name)
		}
	}
	return sk, nil
}

// parseBoth parses the contents of the "both" SEQUENCE: exactly two OCTET
// STRINGs. (Unmarshalling into bothForm would ignore extra elements.)
func parseBoth(content []byte, name string) (bothForm, error) {
	var both bothForm
	problem := ""
	rest, err := asn1.Unmarshal(content, &both.Seed)
	if err == nil {
		rest, err = asn1.Unmarshal(rest, &both.ExpandedKey)
	}
	switch {
	case err != nil:
		problem = derProblem(err)
	case len(rest) != 0:
		problem = "more than two elements"
	default:
		return both, nil
	}
	return bothForm{}, fmt.Errorf("malformed %s private key (both): %s (want SEQUENCE { seed OCTET STRING, expandedKey OCTET STRING })", name, problem)
}

// parseSPKI decodes a DER SubjectPublicKeyInfo holding an ML-DSA public key.
func parseSPKI(der []byte, want *paramSet) (*mldsa.PublicKey, error) {
	var spki subjectPublicKeyInfo
	if err := unmarshalDER(der, &spki, "SubjectPublicKeyInfo", wantSPKI); err != nil {
		var k oneAsymmetricKey
		if rest, err := asn1.Unmarshal(der, &k); err == nil && len(rest) == 0 {
			return nil, errPrivateNotPublic
		}
		return nil, err
	}
	ps, err := checkAlgorithm(spki.Algorithm, want)
	if err != nil {
		return nil, err
	}
	b, err := bitStringBytes(spki.PublicKey, ps.name+" public key")
	if err != nil {
		return nil, err
	}
	return newPublicKey(ps, b)
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
	if err != nil && ps == nil && err != errPublicNotPrivate {
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
	if err != nil && ps == nil && err != errPrivateNotPublic {
		return nil, fmt.Errorf("%v (a raw key needs -params)", err)
	}
	return pk, err
}
