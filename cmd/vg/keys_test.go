package main

import (
	"bytes"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/hex"
	"encoding/pem"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/go/mldsa"
)

var allForms = []privateKeyForm{formSeed, formExpanded, formBoth}

func formName(f privateKeyForm) string { return f.String() }

// The structures of RFC 5958 and RFC 5280, for building malformed keys
// with encoding/asn1 independently of go/mldsa's encoder.
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

type bothForm struct {
	Seed        []byte
	ExpandedKey []byte
}

// oidOf returns id-ml-dsa-44, -65 or -87 (RFC 9881, §2).
func oidOf(ps *paramSet) asn1.ObjectIdentifier {
	arc := map[string]int{"ML-DSA-44": 17, "ML-DSA-65": 18, "ML-DSA-87": 19}[ps.name]
	return asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 3, arc}
}

func generate(t *testing.T, ps *paramSet) *mldsa.PrivateKey {
	t.Helper()
	sk, err := mldsa.GenerateKey(ps.params)
	if err != nil {
		t.Fatal(err)
	}
	return sk
}

// sameKey reports whether a and b are the same private key: equal expanded
// keys (the seed is not kept by every form) and equal public keys.
func sameKey(a, b *mldsa.PrivateKey) bool {
	return bytes.Equal(a.ExpandedBytes(), b.ExpandedBytes()) &&
		bytes.Equal(a.PublicKey().Bytes(), b.PublicKey().Bytes())
}

func TestSizesMatchLibrary(t *testing.T) {
	for _, ps := range paramSets {
		sk := generate(t, ps)
		if got := len(sk.ExpandedBytes()); got != ps.expandedSize {
			t.Errorf("%s: library expanded key is %d bytes, keys.go says %d", ps.name, got, ps.expandedSize)
		}
		if got := len(sk.Bytes()); got != seedSize {
			t.Errorf("%s: library seed is %d bytes, want %d", ps.name, got, seedSize)
		}
		if got := sk.PublicKey().Parameters().String(); got != ps.name {
			t.Errorf("%s: library calls the parameter set %q", ps.name, got)
		}
	}
}

func TestParamSetByName(t *testing.T) {
	for _, name := range []string{"ML-DSA-65", "ml-dsa-65", "MLDSA65", "mldsa65", "65", " ML_DSA_65 "} {
		ps, err := paramSetByName(name)
		if err != nil || ps.name != "ML-DSA-65" {
			t.Errorf("paramSetByName(%q) = %v, %v", name, ps, err)
		}
	}
	for _, name := range []string{"", "ML-DSA-66", "ML-KEM-768", "mldsa", "44x"} {
		if ps, err := paramSetByName(name); err == nil {
			t.Errorf("paramSetByName(%q) = %s, want an error", name, ps.name)
		}
	}
}

// TestSeedFormEncoding checks the seed-only PKCS#8 encoding against the
// DER that RFC 9881's ASN.1 module prescribes, written out by hand:
// SEQUENCE { INTEGER 0, SEQUENCE { OID }, OCTET STRING { [0] seed } }.
func TestSeedFormEncoding(t *testing.T) {
	seed := make([]byte, seedSize)
	for i := range seed {
		seed[i] = byte(i)
	}
	for i, ps := range paramSets {
		sk, err := mldsa.NewPrivateKey(ps.params, seed)
		if err != nil {
			t.Fatal(err)
		}
		der, err := marshalPKCS8(sk, formSeed)
		if err != nil {
			t.Fatal(err)
		}
		// 2.16.840.1.101.3.4.3.(17+i): 60 86 48 01 65 03 04 03 (11+i)
		want, _ := hex.DecodeString("3034020100300b0609608648016503040311" + "04228020")
		want[17] = byte(0x11 + i)
		want = append(want, seed...)
		if !bytes.Equal(der, want) {
			t.Errorf("%s seed form:\n got %x\nwant %x", ps.name, der, want)
		}

		spki, err := marshalSPKI(sk.PublicKey())
		if err != nil {
			t.Fatal(err)
		}
		pk := sk.PublicKey().Bytes()
		// SEQUENCE (long form, 2 length bytes) { SEQUENCE { OID }, BIT STRING (0 unused bits) }
		n := len(pk) + 1
		inner := append([]byte{0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, byte(0x11 + i),
			0x03, 0x82, byte(n >> 8), byte(n), 0x00}, pk...)
		wantSPKI := append([]byte{0x30, 0x82, byte(len(inner) >> 8), byte(len(inner))}, inner...)
		if !bytes.Equal(spki, wantSPKI) {
			t.Errorf("%s SPKI: got %x...\nwant %x...", ps.name, spki[:24], wantSPKI[:24])
		}
	}
}

func TestPrivateKeyRoundTrip(t *testing.T) {
	for _, ps := range paramSets {
		sk := generate(t, ps)
		for _, form := range allForms {
			der, err := marshalPKCS8(sk, form)
			if err != nil {
				t.Fatalf("%s %s: %v", ps.name, formName(form), err)
			}
			encodings := map[string][]byte{
				"DER":             der,
				"PEM":             encodePEM(der, pemPrivateKey),
				"PEM with spaces": append(append([]byte("\n  \n"), encodePEM(der, pemPrivateKey)...), "\n\n"...),
			}
			for encName, data := range encodings {
				for _, want := range []*paramSet{nil, ps} {
					got, err := parsePrivateKey(data, want)
					if err != nil {
						t.Errorf("%s %s %s (params %v): %v", ps.name, formName(form), encName, want != nil, err)
						continue
					}
					if !sameKey(got, sk) {
						t.Errorf("%s %s %s: parsed key differs", ps.name, formName(form), encName)
					}
					if form != formExpanded && !bytes.Equal(got.Bytes(), sk.Bytes()) {
						t.Errorf("%s %s %s: parsed seed differs", ps.name, formName(form), encName)
					}
				}
			}
		}
		// Raw seed and raw expanded key, with -params.
		for name, raw := range map[string][]byte{"seed": sk.Bytes(), "expanded": sk.ExpandedBytes()} {
			got, err := parsePrivateKey(raw, ps)
			if err != nil {
				t.Errorf("%s raw %s: %v", ps.name, name, err)
			} else if !sameKey(got, sk) {
				t.Errorf("%s raw %s: parsed key differs", ps.name, name)
			}
			if _, err := parsePrivateKey(raw, nil); err == nil {
				t.Errorf("%s raw %s without -params: accepted", ps.name, name)
			}
		}
		// The key file formats keygen writes.
		for _, format := range []string{"pem", "der", "raw"} {
			for _, form := range allForms {
				if format == "raw" && form == formBoth {
					continue
				}
				skBytes, pkBytes, err := encodeKeyPair(sk, format, form)
				if err != nil {
					t.Fatal(err)
				}
				got, err := parsePrivateKey(skBytes, ps)
				if err != nil || !sameKey(got, sk) {
					t.Errorf("%s keygen %s/%s private key: %v", ps.name, format, formName(form), err)
				}
				pk, err := parsePublicKey(pkBytes, ps)
				if err != nil || !pk.Equal(sk.PublicKey()) {
					t.Errorf("%s keygen %s public key: %v", ps.name, format, err)
				}
			}
		}
	}
}

// TestExpandedOnlyKey: a key read from the expanded form has no seed, so
// only the expanded form can encode it again.
func TestExpandedOnlyKey(t *testing.T) {
	for _, ps := range paramSets {
		sk := generate(t, ps)
		got, err := parsePrivateKey(sk.ExpandedBytes(), ps)
		if err != nil {
			t.Fatal(err)
		}
		for _, form := range []privateKeyForm{formSeed, formBoth} {
			if der, err := marshalPKCS8(got, form); err == nil {
				t.Errorf("%s: %s form of a key without seed: %x", ps.name, formName(form), der)
			}
		}
		der, err := marshalPKCS8(got, formExpanded)
		if err != nil {
			t.Fatal(err)
		}
		again, err := parsePrivateKey(der, nil)
		if err != nil || !sameKey(again, sk) {
			t.Errorf("%s: expanded form of a key without seed: %v", ps.name, err)
		}
	}
}

func TestPublicKeyRoundTrip(t *testing.T) {
	for _, ps := range paramSets {
		pk := generate(t, ps).PublicKey()
		der, err := marshalSPKI(pk)
		if err != nil {
			t.Fatal(err)
		}
		for encName, data := range map[string][]byte{"DER": der, "PEM": encodePEM(der, pemPublicKey)} {
			for _, want := range []*paramSet{nil, ps} {
				got, err := parsePublicKey(data, want)
				if err != nil {
					t.Errorf("%s %s: %v", ps.name, encName, err)
				} else if !got.Equal(pk) || got.Parameters() != ps.params {
					t.Errorf("%s %s: parsed key differs", ps.name, encName)
				}
			}
		}
		got, err := parsePublicKey(pk.Bytes(), ps)
		if err != nil || !got.Equal(pk) {
			t.Errorf("%s raw: %v", ps.name, err)
		}
		if _, err := parsePublicKey(pk.Bytes(), nil); err == nil {
			t.Errorf("%s raw without -params: accepted", ps.name)
		}
	}
}

// TestParamsMismatch: -params must agree with the OID, and a raw key's
// size must fit -params.
func TestParamsMismatch(t *testing.T) {
	for i, ps := range paramSets {
		other := paramSets[(i+1)%len(paramSets)]
		sk := generate(t, ps)
		for _, form := range allForms {
			der, _ := marshalPKCS8(sk, form)
			if _, err := parsePrivateKey(der, other); err == nil {
				t.Errorf("%s %s key accepted as %s", ps.name, formName(form), other.name)
			}
		}
		spki, _ := marshalSPKI(sk.PublicKey())
		if _, err := parsePublicKey(spki, other); err == nil {
			t.Errorf("%s public key accepted as %s", ps.name, other.name)
		}
		if _, err := parsePrivateKey(sk.ExpandedBytes(), other); err == nil {
			t.Errorf("raw %s expanded key accepted as %s", ps.name, other.name)
		}
		if _, err := parsePublicKey(sk.PublicKey().Bytes(), other); err == nil {
			t.Errorf("raw %s public key accepted as %s", ps.name, other.name)
		}
	}
}

// pkcs8 builds a PKCS#8 DER from its parts for the rejection tests.
func pkcs8(t *testing.T, version int, oid asn1.ObjectIdentifier, params []byte, inner []byte, pub *asn1.BitString) []byte {
	t.Helper()
	k := oneAsymmetricKey{Version: version, Algorithm: pkix.AlgorithmIdentifier{Algorithm: oid}, PrivateKey: inner}
	if params != nil {
		k.Algorithm.Parameters = asn1.RawValue{FullBytes: params}
	}
	if pub != nil {
		k.PublicKey = *pub
	}
	der, err := asn1.Marshal(k)
	if err != nil {
		t.Fatal(err)
	}
	return der
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := asn1.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func flip(b []byte, i int) []byte {
	c := bytes.Clone(b)
	c[i] ^= 1
	return c
}

func TestPrivateKeyRejections(t *testing.T) {
	for i, ps := range paramSets {
		other := paramSets[(i+1)%len(paramSets)]
		sk := generate(t, ps)
		seed, exp := sk.Bytes(), sk.ExpandedBytes()
		seedInner := func(s []byte) []byte {
			return mustMarshal(t, asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: 0, Bytes: s})
		}
		good := pkcs8(t, 0, oidOf(ps), nil, seedInner(seed), nil)
		if _, err := parsePrivateKey(good, nil); err != nil {
			t.Fatalf("%s: the unmodified test key is rejected: %v", ps.name, err)
		}
		pub := sk.PublicKey().Bytes()
		otherPub := generate(t, ps).PublicKey().Bytes()
		goodPEM := encodePEM(good, pemPrivateKey)

		cases := map[string][]byte{
			"empty":                      {},
			"garbage":                    []byte("not a key at all"),
			"truncated DER":              good[:len(good)-1],
			"DER with trailing byte":     append(bytes.Clone(good), 0),
			"DER one byte":               {0x30},
			"wrong OID (Ed25519)":        pkcs8(t, 0, asn1.ObjectIdentifier{1, 3, 101, 112}, nil, seedInner(seed), nil),
			"wrong OID (next arc)":       pkcs8(t, 0, asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 3, 20}, nil, seedInner(seed), nil),
			"wrong OID (HashML-DSA-44)":  pkcs8(t, 0, asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 3, 32}, nil, seedInner(seed), nil),
			"NULL parameters":            pkcs8(t, 0, oidOf(ps), []byte{5, 0}, seedInner(seed), nil),
			"version 2":                  pkcs8(t, 2, oidOf(ps), nil, seedInner(seed), nil),
			"seed 31 bytes":              pkcs8(t, 0, oidOf(ps), nil, seedInner(seed[:31]), nil),
			"seed 33 bytes":              pkcs8(t, 0, oidOf(ps), nil, seedInner(append(bytes.Clone(seed), 0)), nil),
			"seed tagged [1]":            pkcs8(t, 0, oidOf(ps), nil, mustMarshal(t, asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: 1, Bytes: seed}), nil),
			"seed constructed [0]":       pkcs8(t, 0, oidOf(ps), nil, mustMarshal(t, asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: 0, IsCompound: true, Bytes: mustMarshal(t, seed)}), nil),
			"seed as plain OCTET STRING": pkcs8(t, 0, oidOf(ps), nil, mustMarshal(t, seed), nil),
			"inner trailing byte":        pkcs8(t, 0, oidOf(ps), nil, append(seedInner(seed), 0), nil),
			"inner empty":                pkcs8(t, 0, oidOf(ps), nil, nil, nil),
			"inner INTEGER":              pkcs8(t, 0, oidOf(ps), nil, mustMarshal(t, 7), nil),
			"expanded one byte short":    pkcs8(t, 0, oidOf(ps), nil, mustMarshal(t, exp[:len(exp)-1]), nil),
			"expanded one byte long":     pkcs8(t, 0, oidOf(ps), nil, mustMarshal(t, append(bytes.Clone(exp), 0)), nil),
			"expanded under other OID":   pkcs8(t, 0, oidOf(other), nil, mustMarshal(t, exp), nil),
			"expanded, s1 out of range":  pkcs8(t, 0, oidOf(ps), nil, mustMarshal(t, s1OutOfRange(exp)), nil),
			"expanded, tr changed":       pkcs8(t, 0, oidOf(ps), nil, mustMarshal(t, flip(exp, 64)), nil),
			"expanded, t0 changed":       pkcs8(t, 0, oidOf(ps), nil, mustMarshal(t, flip(exp, len(exp)-1)), nil),
			"both, seed changed":         pkcs8(t, 0, oidOf(ps), nil, mustMarshal(t, bothForm{flip(seed, 0), exp}), nil),
			"both, expanded changed (ρ)": pkcs8(t, 0, oidOf(ps), nil, mustMarshal(t, bothForm{seed, flip(exp, 0)}), nil),
			"both, expanded changed (t0)": pkcs8(t, 0, oidOf(ps), nil,
				mustMarshal(t, bothForm{seed, flip(exp, len(exp)-1)}), nil),
			"both, seed 31 bytes":     pkcs8(t, 0, oidOf(ps), nil, mustMarshal(t, bothForm{seed[:31], exp}), nil),
			"both, expanded short":    pkcs8(t, 0, oidOf(ps), nil, mustMarshal(t, bothForm{seed, exp[:len(exp)-1]}), nil),
			"both, third element":     pkcs8(t, 0, oidOf(ps), nil, mustMarshal(t, struct{ A, B, C []byte }{seed, exp, nil}), nil),
			"both, one element":       pkcs8(t, 0, oidOf(ps), nil, mustMarshal(t, struct{ A []byte }{seed}), nil),
			"public key mismatch":     pkcs8(t, 1, oidOf(ps), nil, seedInner(seed), &asn1.BitString{Bytes: otherPub, BitLength: 8 * len(otherPub)}),
			"public key unused bits":  pkcs8(t, 1, oidOf(ps), nil, seedInner(seed), &asn1.BitString{Bytes: pub, BitLength: 8*len(pub) - 1}),
			"public key truncated":    pkcs8(t, 1, oidOf(ps), nil, seedInner(seed), &asn1.BitString{Bytes: pub[:10], BitLength: 80}),
			"PEM, PUBLIC KEY type":    bytes.Replace(goodPEM, []byte("PRIVATE KEY"), []byte("PUBLIC KEY"), 2),
			"PEM, encrypted type":     bytes.Replace(goodPEM, []byte("PRIVATE KEY"), []byte("ENCRYPTED PRIVATE KEY"), 2),
			"PEM, no END line":        goodPEM[:bytes.Index(goodPEM, []byte("-----END"))],
			"PEM, bad base64":         bytes.Replace(goodPEM, []byte("M"), []byte("!"), 1),
			"PEM, two blocks":         append(bytes.Clone(goodPEM), goodPEM...),
			"PEM, trailing text":      append(bytes.Clone(goodPEM), "extra\n"...),
			"PEM, headers":            pem.EncodeToMemory(&pem.Block{Type: pemPrivateKey, Headers: map[string]string{"Proc-Type": "4,ENCRYPTED"}, Bytes: good}),
			"PEM around garbage":      encodePEM([]byte("garbage"), pemPrivateKey),
			"PEM around wrong OID":    encodePEM(pkcs8(t, 0, asn1.ObjectIdentifier{1, 3, 101, 112}, nil, seedInner(seed), nil), pemPrivateKey),
			"SPKI given as private":   mustMarshalSPKI(t, sk.PublicKey()),
			"raw seed, one byte more": append(bytes.Clone(seed), 0),
		}
		for name, data := range cases {
			for _, want := range []*paramSet{nil, ps} {
				if _, err := parsePrivateKey(data, want); err == nil {
					t.Errorf("%s: %s (params %v): accepted", ps.name, name, want != nil)
				}
			}
		}
		// The same key with its correct public key and version 1 is accepted.
		withPub := pkcs8(t, 1, oidOf(ps), nil, seedInner(seed), &asn1.BitString{Bytes: pub, BitLength: 8 * len(pub)})
		if got, err := parsePrivateKey(withPub, nil); err != nil || !sameKey(got, sk) {
			t.Errorf("%s: PKCS#8 v2 with the matching public key: %v", ps.name, err)
		}
	}
}

func mustMarshalSPKI(t *testing.T, pk *mldsa.PublicKey) []byte {
	t.Helper()
	der, err := marshalSPKI(pk)
	if err != nil {
		t.Fatal(err)
	}
	return der
}

// s1OutOfRange sets the first coefficients of s1 to η − 7 (ML-DSA-44, -87)
// or η − 15 (ML-DSA-65), outside [−η, η] (FIPS 204 Algorithm 17).
func s1OutOfRange(exp []byte) []byte {
	c := bytes.Clone(exp)
	c[128] = 0xff
	return c
}

func TestPublicKeyRejections(t *testing.T) {
	for _, ps := range paramSets {
		pk := generate(t, ps).PublicKey().Bytes()
		spki := func(oid asn1.ObjectIdentifier, params []byte, bits asn1.BitString) []byte {
			s := subjectPublicKeyInfo{Algorithm: pkix.AlgorithmIdentifier{Algorithm: oid}, PublicKey: bits}
			if params != nil {
				s.Algorithm.Parameters = asn1.RawValue{FullBytes: params}
			}
			return mustMarshal(t, s)
		}
		full := func(b []byte) asn1.BitString { return asn1.BitString{Bytes: b, BitLength: 8 * len(b)} }
		good := spki(oidOf(ps), nil, full(pk))
		if _, err := parsePublicKey(good, nil); err != nil {
			t.Fatalf("%s: the unmodified test key is rejected: %v", ps.name, err)
		}
		goodPEM := encodePEM(good, pemPublicKey)
		cases := map[string][]byte{
			"empty":                  {},
			"garbage":                []byte("-----BEGIN nonsense"),
			"truncated DER":          good[:len(good)-1],
			"DER with trailing byte": append(bytes.Clone(good), 0),
			"wrong OID (Ed25519)":    spki(asn1.ObjectIdentifier{1, 3, 101, 112}, nil, full(pk)),
			"wrong OID (ML-KEM-768)": spki(asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 4, 2}, nil, full(pk)),
			"NULL parameters":        spki(oidOf(ps), []byte{5, 0}, full(pk)),
			"unused bits":            spki(oidOf(ps), nil, asn1.BitString{Bytes: pk, BitLength: 8*len(pk) - 3}),
			"one byte short":         spki(oidOf(ps), nil, full(pk[:len(pk)-1])),
			"one byte long":          spki(oidOf(ps), nil, full(append(bytes.Clone(pk), 0))),
			"empty key":              spki(oidOf(ps), nil, asn1.BitString{}),
			"PEM, PRIVATE KEY type":  bytes.Replace(goodPEM, []byte("PUBLIC KEY"), []byte("PRIVATE KEY"), 2),
			"PEM, two blocks":        append(bytes.Clone(goodPEM), goodPEM...),
			"PEM, truncated":         goodPEM[:len(goodPEM)/2],
			"raw, one byte short":    pk[:len(pk)-1],
		}
		for name, data := range cases {
			for _, want := range []*paramSet{nil, ps} {
				if _, err := parsePublicKey(data, want); err == nil {
					t.Errorf("%s: %s (params %v): accepted", ps.name, name, want != nil)
				}
			}
		}
	}
}

// FuzzParse checks that no input makes the parsers panic.
func FuzzParse(f *testing.F) {
	for _, ps := range paramSets {
		sk, err := mldsa.GenerateKey(ps.params)
		if err != nil {
			f.Fatal(err)
		}
		for _, form := range allForms {
			der, _ := marshalPKCS8(sk, form)
			f.Add(der)
		}
		spki, _ := marshalSPKI(sk.PublicKey())
		f.Add(spki)
		f.Add(encodePEM(spki, pemPublicKey))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, ps := range append([]*paramSet{nil}, paramSets...) {
			parsePrivateKey(data, ps)
			parsePublicKey(data, ps)
		}
	})
}

func TestErrorsNameTheProblem(t *testing.T) {
	ps := paramSets[0]
	sk := generate(t, ps)
	exp := sk.ExpandedBytes()
	der := pkcs8(t, 0, oidOf(ps), nil, mustMarshal(t, bothForm{sk.Bytes(), flip(exp, 100)}), nil)
	_, err := parsePrivateKey(der, nil)
	if err == nil || !strings.Contains(err.Error(), "not the one the seed gives") {
		t.Errorf("inconsistent seed and expanded key: error %v", err)
	}
	_, err = parsePrivateKey(sk.Bytes(), nil)
	if err == nil || !strings.Contains(err.Error(), "-params") {
		t.Errorf("raw seed without -params: error %v", err)
	}
}

// TestRawKeyStartingLikeDER checks that a raw key whose first byte is DER's
// SEQUENCE tag still gets the hint that raw keys need -params.
func TestRawKeyStartingLikeDER(t *testing.T) {
	seed := make([]byte, 32)
	seed[0] = 0x30
	if _, err := parsePrivateKey(seed, nil); err == nil || !strings.Contains(err.Error(), "-params") {
		t.Errorf("raw seed starting with 0x30: err = %v", err)
	}
	pk := make([]byte, 1312)
	pk[0] = 0x30
	if _, err := parsePublicKey(pk, nil); err == nil || !strings.Contains(err.Error(), "-params") {
		t.Errorf("raw public key starting with 0x30: err = %v", err)
	}
}
