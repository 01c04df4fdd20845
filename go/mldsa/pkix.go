package mldsa

// ML-DSA keys in X.509 structures as RFC 9881 defines them: private keys
// in PKCS#8 (RFC 5958 OneAsymmetricKey), public keys in SubjectPublicKeyInfo
// (RFC 5280). The DER is written and read by hand: each structure has one
// valid encoding, and anything else is an error.

import (
	"bytes"
	"crypto/subtle"
	"encoding/asn1"
	"fmt"
)

// PKCS8Format is an alternative of RFC 9881's ML-DSA-xx-PrivateKey CHOICE,
// the content of a PKCS#8 private key.
type PKCS8Format int

const (
	// PKCS8Seed is seed [0] IMPLICIT OCTET STRING (SIZE (32)), the form
	// RFC 9881 recommends and the one Go 1.27's crypto/x509 reads and
	// writes.
	PKCS8Seed PKCS8Format = iota + 1
	// PKCS8Expanded is expandedKey OCTET STRING, the encoding of FIPS 204,
	// Algorithm 24.
	PKCS8Expanded
	// PKCS8Both is both SEQUENCE { seed, expandedKey }.
	PKCS8Both
)

// String returns "seed", "expanded" or "both".
func (f PKCS8Format) String() string {
	switch f {
	case PKCS8Seed:
		return "seed"
	case PKCS8Expanded:
		return "expanded"
	case PKCS8Both:
		return "both"
	}
	return "unknown PKCS#8 format"
}

// DER tags.
const (
	tagInteger     = 0x02
	tagBitString   = 0x03
	tagOctetString = 0x04
	tagOID         = 0x06
	tagSequence    = 0x30
	tagSeed        = 0x80 // [0] IMPLICIT, primitive
	tagAttributes  = 0xA0 // [0] IMPLICIT SET OF, constructed
	tagPublicKey   = 0x81 // [1] IMPLICIT BIT STRING, primitive
)

// algorithmIdentifier returns the DER AlgorithmIdentifier of p: id-ml-dsa-44,
// -65 or -87 (2.16.840.1.101.3.4.3.17, .18, .19; RFC 9881, §2) with the
// parameters absent, as RFC 9881 requires.
func algorithmIdentifier(p *params) []byte {
	arc := byte(17)
	switch p {
	case &params65:
		arc = 18
	case &params87:
		arc = 19
	}
	return []byte{tagSequence, 11, tagOID, 9, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, arc}
}

var mldsaParams = []*params{&params44, &params65, &params87}

// appendTLV appends a DER element with the given tag and content.
func appendTLV(b []byte, tag byte, content ...[]byte) []byte {
	n := 0
	for _, c := range content {
		n += len(c)
	}
	b = append(b, tag)
	switch {
	case n < 0x80:
		b = append(b, byte(n))
	case n < 0x100:
		b = append(b, 0x81, byte(n))
	default: // every ML-DSA structure is shorter than 64 KiB
		b = append(b, 0x82, byte(n>>8), byte(n))
	}
	for _, c := range content {
		b = append(b, c...)
	}
	return b
}

// MarshalPKCS8PrivateKey returns the DER PKCS#8 encoding of sk in the seed
// form, as RFC 9881 recommends and Go 1.27's x509.MarshalPKCS8PrivateKey
// writes it, or in the expanded form for a key made by
// NewPrivateKeyFromExpanded, which has no seed.
func MarshalPKCS8PrivateKey(sk *PrivateKey) ([]byte, error) {
	if sk != nil && sk.p != nil && !sk.hasSeed {
		return MarshalPKCS8PrivateKeyFormat(sk, PKCS8Expanded)
	}
	return MarshalPKCS8PrivateKeyFormat(sk, PKCS8Seed)
}

// MarshalPKCS8PrivateKeyFormat returns the DER PKCS#8 encoding of sk: a
// version 1 OneAsymmetricKey (RFC 5958) without attributes or public key,
// whose private key is the given RFC 9881 alternative. The seed and both
// forms need a key with a seed; for one without, the error wraps ErrNoSeed.
func MarshalPKCS8PrivateKeyFormat(sk *PrivateKey, format PKCS8Format) ([]byte, error) {
	if sk == nil || sk.p == nil {
		return nil, errZeroPrivateKey
	}
	if (format == PKCS8Seed || format == PKCS8Both) && !sk.hasSeed {
		return nil, fmt.Errorf("%w: the %v form of PKCS#8 needs one", ErrNoSeed, format)
	}
	var inner []byte
	switch format {
	case PKCS8Seed:
		inner = appendTLV(nil, tagSeed, sk.seed[:])
	case PKCS8Expanded:
		inner = appendTLV(nil, tagOctetString, sk.ExpandedBytes())
	case PKCS8Both:
		inner = appendTLV(nil, tagSequence,
			appendTLV(nil, tagOctetString, sk.seed[:]),
			appendTLV(nil, tagOctetString, sk.ExpandedBytes()))
	default:
		return nil, fmt.Errorf("mldsa: unknown PKCS#8 format %d", int(format))
	}
	return appendTLV(nil, tagSequence,
		[]byte{tagInteger, 1, 0}, // version v1
		algorithmIdentifier(sk.p),
		appendTLV(nil, tagOctetString, inner)), nil
}

// MarshalPKIXPublicKey returns the DER SubjectPublicKeyInfo of pk (RFC 9881,
// §4): the algorithm identifier without parameters and the public key
// encoding (FIPS 204, Algorithm 22) as the BIT STRING. It is the encoding
// Go 1.27's x509.MarshalPKIXPublicKey writes.
func MarshalPKIXPublicKey(pk *PublicKey) ([]byte, error) {
	if pk == nil || pk.p == nil {
		return nil, errZeroPublicKey
	}
	return appendTLV(nil, tagSequence,
		algorithmIdentifier(pk.p),
		appendTLV(nil, tagBitString, []byte{0}, pk.enc)), nil
}

// derReader reads DER elements one after the other.
type derReader struct {
	b []byte
}

// next returns the tag and content of the next element. encoding/asn1
// checks the framing: the length in its shortest form, not indefinite, not
// past the data.
func (r *derReader) next() (tag byte, content []byte, err error) {
	var v asn1.RawValue
	rest, err := asn1.Unmarshal(r.b, &v)
	if err != nil {
		if se, ok := err.(asn1.SyntaxError); ok {
			return 0, nil, fmt.Errorf("not valid DER: %s", se.Msg)
		}
		return 0, nil, fmt.Errorf("not valid DER")
	}
	if v.Tag > 30 {
		return 0, nil, fmt.Errorf("unexpected tag number %d", v.Tag)
	}
	r.b = rest
	return v.FullBytes[0], v.Bytes, nil
}

// expect reads the next element, which must have the given tag.
func (r *derReader) expect(tag byte, what string) ([]byte, error) {
	if len(r.b) == 0 {
		return nil, fmt.Errorf("%s is missing", what)
	}
	t, content, err := r.next()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", what, err)
	}
	if t != tag {
		return nil, fmt.Errorf("%s has tag 0x%02x, want 0x%02x", what, t, tag)
	}
	return content, nil
}

// peek returns the tag of the next element, or 0 at the end.
func (r *derReader) peek() byte {
	if len(r.b) == 0 {
		return 0
	}
	return r.b[0]
}

// one parses der as exactly one element with the given tag.
func one(der []byte, tag byte, what string) ([]byte, error) {
	r := derReader{der}
	content, err := r.expect(tag, what)
	if err != nil {
		return nil, err
	}
	if len(r.b) != 0 {
		return nil, fmt.Errorf("%d bytes of trailing data after %s", len(r.b), what)
	}
	return content, nil
}

// parseAlgorithm returns the parameter set of a DER AlgorithmIdentifier
// (the whole element), which must be id-ml-dsa-44, -65 or -87 without
// parameters.
func parseAlgorithm(ai []byte) (*params, error) {
	for _, p := range mldsaParams {
		if bytes.Equal(ai, algorithmIdentifier(p)) {
			return p, nil
		}
	}
	content, err := one(ai, tagSequence, "AlgorithmIdentifier")
	if err != nil {
		return nil, err
	}
	var oid asn1.ObjectIdentifier
	rest, err := asn1.Unmarshal(content, &oid)
	if err != nil {
		return nil, fmt.Errorf("AlgorithmIdentifier: malformed OBJECT IDENTIFIER")
	}
	for _, p := range mldsaParams {
		if bytes.Equal(content[:len(content)-len(rest)], algorithmIdentifier(p)[2:]) {
			return nil, fmt.Errorf("%s AlgorithmIdentifier has parameters, which RFC 9881 requires to be absent", p.name)
		}
	}
	return nil, fmt.Errorf("algorithm %v is not ML-DSA (want id-ml-dsa-44, -65 or -87)", oid)
}

// nextAlgorithm reads an AlgorithmIdentifier from r.
func (r *derReader) nextAlgorithm() (*params, error) {
	if len(r.b) == 0 {
		return nil, fmt.Errorf("AlgorithmIdentifier is missing")
	}
	before := r.b
	if _, err := r.expect(tagSequence, "AlgorithmIdentifier"); err != nil {
		return nil, err
	}
	return parseAlgorithm(before[:len(before)-len(r.b)])
}

// pkcs8Error and spkiError wrap a description of what is malformed.
func pkcs8Error(format string, args ...any) error {
	return fmt.Errorf("%w: PKCS#8: %s", ErrInvalidPrivateKey, fmt.Sprintf(format, args...))
}

func spkiError(format string, args ...any) error {
	return fmt.Errorf("%w: SubjectPublicKeyInfo: %s", ErrInvalidPublicKey, fmt.Sprintf(format, args...))
}

// ParsePKCS8PrivateKey decodes a DER PKCS#8 (RFC 5958) ML-DSA private key
// in any of RFC 9881's three forms: seed, expanded or both. It checks what the encoding claims: an expanded key as
// NewPrivateKeyFromExpanded does, that the expanded key of "both" is the
// one its seed gives, and that the public key, if present (version 2
// only), is the key's. Attributes are ignored. Any other malformation, a
// length, a tag, trailing data, an algorithm other than ML-DSA or
// parameters where RFC 9881 has none, is an error wrapping
// ErrInvalidPrivateKey; so is a SubjectPublicKeyInfo, with a message that
// says so.
func ParsePKCS8PrivateKey(der []byte) (*PrivateKey, error) {
	sk, _, err := parsePKCS8(der)
	if err != nil && isSPKI(der) {
		return nil, fmt.Errorf("%w: this is a public key (SubjectPublicKeyInfo), not a PKCS#8 private key", ErrInvalidPrivateKey)
	}
	return sk, err
}

func parsePKCS8(der []byte) (*PrivateKey, PKCS8Format, error) {
	seq, err := one(der, tagSequence, "OneAsymmetricKey SEQUENCE")
	if err != nil {
		return nil, 0, pkcs8Error("%v", err)
	}
	r := derReader{seq}
	version, err := r.expect(tagInteger, "version")
	if err != nil {
		return nil, 0, pkcs8Error("%v", err)
	}
	if len(version) != 1 || version[0] > 1 {
		return nil, 0, pkcs8Error("version is not v1 (0) or v2 (1)")
	}
	p, err := r.nextAlgorithm()
	if err != nil {
		return nil, 0, pkcs8Error("%v", err)
	}
	privateKey, err := r.expect(tagOctetString, "privateKey OCTET STRING")
	if err != nil {
		return nil, 0, pkcs8Error("%v", err)
	}
	if r.peek() == tagAttributes {
		if _, _, err := r.next(); err != nil {
			return nil, 0, pkcs8Error("attributes: %v", err)
		}
	}
	var publicKey []byte
	if r.peek() == tagPublicKey {
		if version[0] != 1 {
			return nil, 0, pkcs8Error("a public key needs version v2 (1), RFC 5958")
		}
		_, bits, err := r.next()
		if err != nil {
			return nil, 0, pkcs8Error("publicKey: %v", err)
		}
		if len(bits) == 0 || bits[0] != 0 {
			return nil, 0, pkcs8Error("publicKey BIT STRING does not hold whole bytes")
		}
		publicKey = bits[1:]
	}
	if len(r.b) != 0 {
		return nil, 0, pkcs8Error("unexpected element after the private key (tag 0x%02x)", r.b[0])
	}

	sk, format, err := parseMLDSAPrivateKey(p, privateKey)
	if err != nil {
		return nil, 0, err
	}
	if publicKey != nil && subtle.ConstantTimeCompare(publicKey, sk.pub.enc) != 1 {
		return nil, 0, pkcs8Error("%s public key does not match the private key", p.name)
	}
	return sk, format, nil
}

// parseMLDSAPrivateKey decodes the ML-DSA-xx-PrivateKey CHOICE.
func parseMLDSAPrivateKey(p *params, der []byte) (*PrivateKey, PKCS8Format, error) {
	r := derReader{der}
	if len(der) == 0 {
		return nil, 0, pkcs8Error("%s private key is empty", p.name)
	}
	tag, content, err := r.next()
	if err != nil {
		return nil, 0, pkcs8Error("%s private key: %v", p.name, err)
	}
	if len(r.b) != 0 {
		return nil, 0, pkcs8Error("%d bytes of trailing data after the %s private key", len(r.b), p.name)
	}
	switch tag {
	case tagSeed:
		if len(content) != PrivateKeySize {
			return nil, 0, pkcs8Error("%s seed is %d bytes, want %d", p.name, len(content), PrivateKeySize)
		}
		sk, err := newPrivateKeyFromSeed(p, (*[32]byte)(content))
		return sk, PKCS8Seed, err
	case tagOctetString:
		if len(content) != p.skSize() {
			return nil, 0, pkcs8Error("%s expanded key is %d bytes, want %d", p.name, len(content), p.skSize())
		}
		sk, err := NewPrivateKeyFromExpanded(Parameters{p}, content)
		return sk, PKCS8Expanded, err
	case tagSequence:
		both := derReader{content}
		seed, err := both.expect(tagOctetString, "seed OCTET STRING of both")
		if err != nil {
			return nil, 0, pkcs8Error("%s private key (both): %v", p.name, err)
		}
		expanded, err := both.expect(tagOctetString, "expandedKey OCTET STRING of both")
		if err != nil {
			return nil, 0, pkcs8Error("%s private key (both): %v", p.name, err)
		}
		if len(both.b) != 0 {
			return nil, 0, pkcs8Error("%s private key (both) has more than two elements", p.name)
		}
		if len(seed) != PrivateKeySize {
			return nil, 0, pkcs8Error("%s seed is %d bytes, want %d", p.name, len(seed), PrivateKeySize)
		}
		if len(expanded) != p.skSize() {
			return nil, 0, pkcs8Error("%s expanded key is %d bytes, want %d", p.name, len(expanded), p.skSize())
		}
		sk, err := newPrivateKeyFromSeed(p, (*[32]byte)(seed))
		if err != nil {
			return nil, 0, err
		}
		if subtle.ConstantTimeCompare(sk.ExpandedBytes(), expanded) != 1 {
			return nil, 0, pkcs8Error("%s private key (both): the expanded key is not the one the seed gives", p.name)
		}
		return sk, PKCS8Both, nil
	}
	return nil, 0, pkcs8Error("%s private key has tag 0x%02x: want seed [0] (0x80), expandedKey OCTET STRING (0x04) or both SEQUENCE (0x30)", p.name, tag)
}

// ParsePKIXPublicKey decodes a DER SubjectPublicKeyInfo holding an ML-DSA
// public key (RFC 9881, §4). It accepts exactly the encoding that
// MarshalPKIXPublicKey writes; anything else, a PKCS#8 private key
// included, is an error wrapping ErrInvalidPublicKey.
func ParsePKIXPublicKey(der []byte) (*PublicKey, error) {
	pk, err := parseSPKI(der)
	if err != nil {
		if _, _, perr := parsePKCS8Framing(der); perr == nil {
			return nil, fmt.Errorf("%w: this is a private key (PKCS#8), not a SubjectPublicKeyInfo public key", ErrInvalidPublicKey)
		}
	}
	return pk, err
}

func parseSPKI(der []byte) (*PublicKey, error) {
	seq, err := one(der, tagSequence, "SEQUENCE")
	if err != nil {
		return nil, spkiError("%v", err)
	}
	r := derReader{seq}
	p, err := r.nextAlgorithm()
	if err != nil {
		return nil, spkiError("%v", err)
	}
	bits, err := r.expect(tagBitString, "subjectPublicKey BIT STRING")
	if err != nil {
		return nil, spkiError("%v", err)
	}
	if len(r.b) != 0 {
		return nil, spkiError("unexpected element after the public key")
	}
	if len(bits) == 0 || bits[0] != 0 {
		return nil, spkiError("subjectPublicKey BIT STRING does not hold whole bytes")
	}
	if len(bits)-1 != p.pkSize() {
		return nil, spkiError("%s public key is %d bytes, want %d", p.name, len(bits)-1, p.pkSize())
	}
	return NewPublicKey(Parameters{p}, bits[1:])
}

// isSPKI reports whether der is framed as an ML-DSA SubjectPublicKeyInfo.
func isSPKI(der []byte) bool {
	seq, err := one(der, tagSequence, "")
	if err != nil {
		return false
	}
	r := derReader{seq}
	if _, err := r.nextAlgorithm(); err != nil {
		return false
	}
	_, err = r.expect(tagBitString, "")
	return err == nil && len(r.b) == 0
}

// parsePKCS8Framing reads the outer structure of a PKCS#8 ML-DSA key:
// version, algorithm and private key OCTET STRING.
func parsePKCS8Framing(der []byte) (*params, []byte, error) {
	seq, err := one(der, tagSequence, "")
	if err != nil {
		return nil, nil, err
	}
	r := derReader{seq}
	if _, err := r.expect(tagInteger, ""); err != nil {
		return nil, nil, err
	}
	p, err := r.nextAlgorithm()
	if err != nil {
		return nil, nil, err
	}
	key, err := r.expect(tagOctetString, "")
	return p, key, err
}
