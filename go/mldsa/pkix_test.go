package mldsa

import (
	"bytes"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var pkcs8Formats = []PKCS8Format{PKCS8Seed, PKCS8Expanded, PKCS8Both}

// TestPKCS8RoundTrip marshals a key of each parameter set in each form,
// parses it back and requires the same key, form and bytes; a seedless key
// has only the expanded form.
func TestPKCS8RoundTrip(t *testing.T) {
	for _, p := range []Parameters{MLDSA44(), MLDSA65(), MLDSA87()} {
		sk, err := GenerateKey(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range pkcs8Formats {
			der, err := MarshalPKCS8PrivateKeyFormat(sk, f)
			if err != nil {
				t.Fatalf("%v %v: %v", p, f, err)
			}
			got, gotFormat, err := parsePKCS8(der)
			if err != nil || gotFormat != f || !got.Equal(sk) || !bytes.Equal(got.ExpandedBytes(), sk.ExpandedBytes()) {
				t.Fatalf("%v %v: round trip gives format %v, error %v", p, f, gotFormat, err)
			}
			if (f == PKCS8Expanded) != (got.Bytes() == nil) {
				t.Errorf("%v %v: parsed key's seed is %x", p, f, got.Bytes())
			}
			again, err := MarshalPKCS8PrivateKeyFormat(got, f)
			if err != nil || !bytes.Equal(again, der) {
				t.Errorf("%v %v: marshalling the parsed key differs (%v)", p, f, err)
			}
			if _, err := ParsePKCS8PrivateKey(der); err != nil {
				t.Errorf("%v %v: ParsePKCS8PrivateKey: %v", p, f, err)
			}
		}
		def, err := MarshalPKCS8PrivateKey(sk)
		if seedForm, _ := MarshalPKCS8PrivateKeyFormat(sk, PKCS8Seed); err != nil || !bytes.Equal(def, seedForm) {
			t.Errorf("%v: MarshalPKCS8PrivateKey is not the seed form (%v)", p, err)
		}
		seedless, err := NewPrivateKeyFromExpanded(p, sk.ExpandedBytes())
		if err != nil {
			t.Fatal(err)
		}
		def, err = MarshalPKCS8PrivateKey(seedless)
		if expForm, _ := MarshalPKCS8PrivateKeyFormat(sk, PKCS8Expanded); err != nil || !bytes.Equal(def, expForm) {
			t.Errorf("%v: MarshalPKCS8PrivateKey of a seedless key is not the expanded form (%v)", p, err)
		}
		for _, f := range []PKCS8Format{PKCS8Seed, PKCS8Both} {
			if _, err := MarshalPKCS8PrivateKeyFormat(seedless, f); !errors.Is(err, ErrNoSeed) {
				t.Errorf("%v %v of a seedless key: %v, want ErrNoSeed", p, f, err)
			}
		}

		spki, err := MarshalPKIXPublicKey(sk.PublicKey())
		if err != nil {
			t.Fatal(err)
		}
		pk, err := ParsePKIXPublicKey(spki)
		if err != nil || !pk.Equal(sk.PublicKey()) {
			t.Fatalf("%v: SubjectPublicKeyInfo round trip: %v", p, err)
		}
	}
	for _, f := range []PKCS8Format{0, PKCS8Both + 1} {
		sk, _ := GenerateKey(MLDSA44())
		if _, err := MarshalPKCS8PrivateKeyFormat(sk, f); err == nil {
			t.Errorf("format %d accepted", f)
		}
	}
	if _, err := MarshalPKCS8PrivateKey(nil); !errors.Is(err, ErrInvalidPrivateKey) {
		t.Errorf("MarshalPKCS8PrivateKey(nil): %v", err)
	}
	if _, err := MarshalPKIXPublicKey(&PublicKey{}); !errors.Is(err, ErrInvalidPublicKey) {
		t.Errorf("MarshalPKIXPublicKey of a zero key: %v", err)
	}
}

// readPEM returns the DER of the one PEM block in testdata/rfc9881/name.
func readPEM(t *testing.T, name, typ string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "rfc9881", name))
	if err != nil {
		t.Fatal(err)
	}
	block, rest := pem.Decode(data)
	if block == nil || block.Type != typ || len(bytes.TrimSpace(rest)) != 0 {
		t.Fatalf("%s: not one PEM block of type %s", name, typ)
	}
	return block.Bytes
}

// TestRFC9881Examples parses the example keys of RFC 9881, Appendix C, in
// every form, requires the keys of the seed 000102…1f, writes them back
// byte for byte, verifies the example certificates' self-signatures, and
// refuses the three inconsistent keys for the reason each was made.
func TestRFC9881Examples(t *testing.T) {
	seed := make([]byte, 32)
	for i := range seed {
		seed[i] = byte(i)
	}
	for _, p := range []Parameters{MLDSA44(), MLDSA65(), MLDSA87()} {
		name := p.String()
		want, err := NewPrivateKey(p, seed)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range pkcs8Formats {
			der := readPEM(t, name+"-"+f.String()+".priv", "PRIVATE KEY")
			sk, gotFormat, err := parsePKCS8(der)
			if err != nil {
				t.Fatalf("%s %v: %v", name, f, err)
			}
			if gotFormat != f || !sk.Equal(want) || !bytes.Equal(sk.ExpandedBytes(), want.ExpandedBytes()) {
				t.Errorf("%s %v: parsed as %v, not the key of seed 000102…1f", name, f, gotFormat)
			}
			out, err := MarshalPKCS8PrivateKeyFormat(want, f)
			if err != nil || !bytes.Equal(out, der) {
				t.Errorf("%s %v: MarshalPKCS8PrivateKeyFormat differs from the example (%v)", name, f, err)
			}
		}
		der := readPEM(t, name+".pub", "PUBLIC KEY")
		pk, err := ParsePKIXPublicKey(der)
		if err != nil || !pk.Equal(want.PublicKey()) {
			t.Fatalf("%s public key: %v", name, err)
		}
		if out, err := MarshalPKIXPublicKey(want.PublicKey()); err != nil || !bytes.Equal(out, der) {
			t.Errorf("%s: MarshalPKIXPublicKey differs from the example (%v)", name, err)
		}
		cert, err := x509.ParseCertificate(readPEM(t, name+".crt", "CERTIFICATE"))
		if err != nil {
			t.Fatalf("%s certificate: %v", name, err)
		}
		certPK, err := ParsePKIXPublicKey(cert.RawSubjectPublicKeyInfo)
		if err != nil || !certPK.Equal(pk) {
			t.Fatalf("%s certificate's key: %v", name, err)
		}
		if err := Verify(certPK, cert.RawTBSCertificate, cert.Signature, nil); err != nil {
			t.Errorf("%s certificate's self-signature: %v", name, err)
		}
	}
	for i, reason := range []string{"not the one the seed gives", "tr is not the hash", "t0 inconsistent"} {
		name := "bad-ML-DSA-44-" + string(rune('1'+i)) + ".priv"
		_, err := ParsePKCS8PrivateKey(readPEM(t, name, "PRIVATE KEY"))
		if !errors.Is(err, ErrInvalidPrivateKey) || !strings.Contains(err.Error(), reason) {
			t.Errorf("%s: %v, want ErrInvalidPrivateKey saying %q", name, err, reason)
		}
	}
}

// der builds DER from a tag and contents, for the malformed cases.
func der(tag byte, content ...[]byte) []byte { return appendTLV(nil, tag, content...) }

// TestPKCS8Malformed changes one thing at a time in valid encodings: each
// change must give an error wrapping ErrInvalidPrivateKey (never a panic),
// except the few that RFC 5958 allows.
func TestPKCS8Malformed(t *testing.T) {
	sk, err := NewPrivateKey(MLDSA65(), bytes.Repeat([]byte{3}, 32))
	if err != nil {
		t.Fatal(err)
	}
	other, _ := NewPrivateKey(MLDSA65(), bytes.Repeat([]byte{4}, 32))
	p := sk.p
	seed, expanded := sk.Bytes(), sk.ExpandedBytes()
	v0, v1 := []byte{tagInteger, 1, 0}, []byte{tagInteger, 1, 1}
	ai := algorithmIdentifier(p)
	seedChoice := der(tagSeed, seed)
	both := der(tagSequence, der(tagOctetString, seed), der(tagOctetString, expanded))
	key := func(version, alg, choice []byte, more ...[]byte) []byte {
		return der(tagSequence, append([][]byte{version, alg, der(tagOctetString, choice)}, more...)...)
	}
	pub := der(tagPublicKey, []byte{0}, sk.pub.enc)
	badExpanded := bytes.Clone(expanded)
	badExpanded[len(badExpanded)-1] ^= 1 // t0
	otherOID := bytes.Clone(ai)
	otherOID[len(otherOID)-1] = 20
	ecOID := der(tagSequence, []byte{tagOID, 7, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01})

	accepted := map[string][]byte{
		"seed":                   key(v0, ai, seedChoice),
		"expanded":               key(v0, ai, der(tagOctetString, expanded)),
		"both":                   key(v0, ai, both),
		"v2 with the public key": key(v1, ai, seedChoice, pub),
		"v2 without public key":  key(v1, ai, seedChoice),
		"attributes":             key(v0, ai, seedChoice, der(tagAttributes, der(tagSequence))),
	}
	for name, d := range accepted {
		got, err := ParsePKCS8PrivateKey(d)
		if err != nil || !got.Equal(sk) {
			t.Errorf("%s: %v", name, err)
		}
	}

	valid := accepted["both"]
	rejected := map[string][]byte{
		"empty":                   {},
		"trailing data":           append(bytes.Clone(valid), 0),
		"trailing element":        append(bytes.Clone(valid), der(tagSequence)...),
		"not a SEQUENCE":          der(tagOctetString, valid[4:]),
		"version 2":               key([]byte{tagInteger, 1, 2}, ai, seedChoice),
		"version -1":              key([]byte{tagInteger, 1, 0xff}, ai, seedChoice),
		"version two bytes":       key([]byte{tagInteger, 2, 0, 0}, ai, seedChoice),
		"version missing":         der(tagSequence, ai, der(tagOctetString, seedChoice)),
		"other ML-DSA-like OID":   key(v0, otherOID, seedChoice),
		"ECDSA OID":               key(v0, ecOID, seedChoice),
		"NULL parameters":         key(v0, der(tagSequence, ai[2:], []byte{0x05, 0}), seedChoice),
		"algorithm missing":       der(tagSequence, v0, der(tagOctetString, seedChoice)),
		"private key missing":     der(tagSequence, v0, ai),
		"private key BIT STRING":  der(tagSequence, v0, ai, der(tagBitString, []byte{0}, seedChoice)),
		"seed 31 bytes":           key(v0, ai, der(tagSeed, seed[:31])),
		"seed 33 bytes":           key(v0, ai, der(tagSeed, append(bytes.Clone(seed), 0))),
		"seed constructed":        key(v0, ai, der(0xA0, der(tagOctetString, seed))),
		"seed trailing data":      key(v0, ai, append(bytes.Clone(seedChoice), 0)),
		"empty private key":       key(v0, ai, nil),
		"expanded short":          key(v0, ai, der(tagOctetString, expanded[1:])),
		"expanded inconsistent":   key(v0, ai, der(tagOctetString, badExpanded)),
		"expanded of ML-DSA-44":   key(v0, ai, der(tagOctetString, make([]byte, 2560))),
		"both inconsistent":       key(v0, ai, der(tagSequence, der(tagOctetString, seed), der(tagOctetString, badExpanded))),
		"both of two keys":        key(v0, ai, der(tagSequence, der(tagOctetString, seed), der(tagOctetString, other.ExpandedBytes()))),
		"both swapped":            key(v0, ai, der(tagSequence, der(tagOctetString, expanded), der(tagOctetString, seed))),
		"both three elements":     key(v0, ai, der(tagSequence, der(tagOctetString, seed), der(tagOctetString, expanded), der(tagOctetString))),
		"both one element":        key(v0, ai, der(tagSequence, der(tagOctetString, seed))),
		"both tagged seed":        key(v0, ai, der(tagSequence, der(tagSeed, seed), der(tagOctetString, expanded))),
		"both short seed":         key(v0, ai, der(tagSequence, der(tagOctetString, seed[1:]), der(tagOctetString, expanded))),
		"both short expanded":     key(v0, ai, der(tagSequence, der(tagOctetString, seed), der(tagOctetString, expanded[1:]))),
		"CHOICE tag [1]":          key(v0, ai, der(0x81, seed)),
		"CHOICE INTEGER":          key(v0, ai, der(tagInteger, seed)),
		"public key in v1":        key(v0, ai, seedChoice, pub),
		"other public key":        key(v1, ai, seedChoice, der(tagPublicKey, []byte{0}, other.pub.enc)),
		"public key unused bits":  key(v1, ai, seedChoice, der(tagPublicKey, []byte{1}, sk.pub.enc)),
		"public key empty":        key(v1, ai, seedChoice, der(tagPublicKey)),
		"public key short":        key(v1, ai, seedChoice, der(tagPublicKey, []byte{0}, sk.pub.enc[1:])),
		"element after pub":       key(v1, ai, seedChoice, pub, der(tagOctetString)),
		"attributes after pub":    key(v1, ai, seedChoice, pub, der(tagAttributes)),
		"non-minimal length":      append([]byte{tagSequence, 0x82, 0x00, byte(len(valid) - 4)}, valid[4:]...),
		"indefinite length":       append(append([]byte{tagSequence, 0x80}, valid[4:]...), 0, 0),
		"length past the end":     append([]byte{tagSequence, 0x82, 0x7f, 0xff}, valid[4:]...),
		"high tag number":         append([]byte{0x3f, 0x81, 0x00}, valid[1:]...),
		"SubjectPublicKeyInfo":    must(MarshalPKIXPublicKey(sk.PublicKey())),
		"a certificate's framing": der(tagSequence, der(tagSequence, v0), ai, der(tagBitString, []byte{0})),
	}
	for name, d := range rejected {
		got, err := ParsePKCS8PrivateKey(d)
		if got != nil || !errors.Is(err, ErrInvalidPrivateKey) {
			t.Errorf("%s: key %v, error %v; want ErrInvalidPrivateKey", name, got != nil, err)
		}
	}
	if _, err := ParsePKCS8PrivateKey(rejected["SubjectPublicKeyInfo"]); err == nil || !strings.Contains(err.Error(), "this is a public key") {
		t.Errorf("SubjectPublicKeyInfo as a private key: %v", err)
	}
	// Every truncation of every form fails.
	for name, d := range accepted {
		for n := range d {
			if got, err := ParsePKCS8PrivateKey(d[:n]); got != nil || !errors.Is(err, ErrInvalidPrivateKey) {
				t.Fatalf("%s truncated to %d bytes: %v", name, n, err)
			}
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestPKIXMalformed does for SubjectPublicKeyInfo what TestPKCS8Malformed
// does for PKCS#8.
func TestPKIXMalformed(t *testing.T) {
	sk, err := NewPrivateKey(MLDSA44(), bytes.Repeat([]byte{5}, 32))
	if err != nil {
		t.Fatal(err)
	}
	ai := algorithmIdentifier(sk.p)
	enc := sk.pub.enc
	valid := der(tagSequence, ai, der(tagBitString, []byte{0}, enc))
	if pk, err := ParsePKIXPublicKey(valid); err != nil || !pk.Equal(sk.PublicKey()) {
		t.Fatal(err)
	}
	other65 := algorithmIdentifier(&params65)
	rejected := map[string][]byte{
		"empty":                {},
		"trailing data":        append(bytes.Clone(valid), 0),
		"trailing element":     der(tagSequence, ai, der(tagBitString, []byte{0}, enc), der(tagOctetString)),
		"unused bits":          der(tagSequence, ai, der(tagBitString, []byte{1}, enc)),
		"empty BIT STRING":     der(tagSequence, ai, der(tagBitString)),
		"short key":            der(tagSequence, ai, der(tagBitString, []byte{0}, enc[1:])),
		"long key":             der(tagSequence, ai, der(tagBitString, []byte{0}, enc, []byte{0})),
		"ML-DSA-65 OID":        der(tagSequence, other65, der(tagBitString, []byte{0}, enc)),
		"NULL parameters":      der(tagSequence, der(tagSequence, ai[2:], []byte{0x05, 0}), der(tagBitString, []byte{0}, enc)),
		"OCTET STRING key":     der(tagSequence, ai, der(tagOctetString, enc)),
		"key missing":          der(tagSequence, ai),
		"algorithm missing":    der(tagSequence, der(tagBitString, []byte{0}, enc)),
		"non-minimal length":   append([]byte{tagSequence, 0x83, 0, 0x05, 0x3f}, valid[4:]...),
		"PKCS#8 private key":   must(MarshalPKCS8PrivateKey(sk)),
		"raw public key bytes": enc,
	}
	for name, d := range rejected {
		got, err := ParsePKIXPublicKey(d)
		if got != nil || !errors.Is(err, ErrInvalidPublicKey) {
			t.Errorf("%s: key %v, error %v; want ErrInvalidPublicKey", name, got != nil, err)
		}
	}
	if _, err := ParsePKIXPublicKey(rejected["PKCS#8 private key"]); err == nil || !strings.Contains(err.Error(), "this is a private key") {
		t.Errorf("PKCS#8 as a public key: %v", err)
	}
	for n := range valid {
		if got, err := ParsePKIXPublicKey(valid[:n]); got != nil || !errors.Is(err, ErrInvalidPublicKey) {
			t.Fatalf("truncated to %d bytes: %v", n, err)
		}
	}
}

// FuzzParsePKCS8PrivateKey: arbitrary bytes give a key or an error wrapping
// ErrInvalidPrivateKey, never a panic; a key that parses marshals in the
// form it was read in and parses back to the same key.
func FuzzParsePKCS8PrivateKey(f *testing.F) {
	for _, p := range []Parameters{MLDSA44(), MLDSA65(), MLDSA87()} {
		sk, _ := NewPrivateKey(p, make([]byte, 32))
		for _, form := range pkcs8Formats {
			f.Add(must(MarshalPKCS8PrivateKeyFormat(sk, form)))
		}
	}
	f.Add([]byte{0x30, 0x03, 0x02, 0x01, 0x00})
	f.Fuzz(func(t *testing.T, data []byte) {
		sk, form, err := parsePKCS8(data)
		if err != nil {
			if sk != nil || !errors.Is(err, ErrInvalidPrivateKey) {
				t.Fatalf("key %v, error %v", sk != nil, err)
			}
			return
		}
		out, err := MarshalPKCS8PrivateKeyFormat(sk, form)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParsePKCS8PrivateKey(out)
		if err != nil || !back.Equal(sk) {
			t.Fatalf("re-encoded key does not parse back: %v", err)
		}
	})
}

// FuzzParsePKIXPublicKey: arbitrary bytes give a key or an error wrapping
// ErrInvalidPublicKey, never a panic; only the one valid encoding of a key
// parses.
func FuzzParsePKIXPublicKey(f *testing.F) {
	for _, p := range []Parameters{MLDSA44(), MLDSA65(), MLDSA87()} {
		sk, _ := NewPrivateKey(p, make([]byte, 32))
		f.Add(must(MarshalPKIXPublicKey(sk.PublicKey())))
	}
	f.Add([]byte{0x30, 0x00})
	f.Fuzz(func(t *testing.T, data []byte) {
		pk, err := ParsePKIXPublicKey(data)
		if err != nil {
			if pk != nil || !errors.Is(err, ErrInvalidPublicKey) {
				t.Fatalf("key %v, error %v", pk != nil, err)
			}
			return
		}
		if out, err := MarshalPKIXPublicKey(pk); err != nil || !bytes.Equal(out, data) {
			t.Fatalf("accepted an encoding other than the key's own (%v)", err)
		}
	})
}
