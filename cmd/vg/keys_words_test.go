package main

import (
	"encoding/asn1"
	"strings"
	"testing"
)

// TestErrorsInWords feeds malformed keys and checks that no error prints
// encoding/asn1's internals.
func TestErrorsInWords(t *testing.T) {
	ps := paramSets[1]
	sk := generate(t, ps)
	good, _ := marshalPKCS8(sk, formSeed)
	spki, _ := marshalSPKI(sk.PublicKey())
	notBoth := pkcs8(t, 0, oidOf(ps), nil, mustMarshal(t, []asn1.RawValue{{Tag: asn1.TagInteger, Bytes: []byte{1}}}), nil)
	for name, data := range map[string][]byte{
		"truncated":                 good[:len(good)-3],
		"INTEGER for SEQUENCE":      {0x02, 0x01, 0x00},
		"SEQUENCE of wrong types":   mustMarshal(t, struct{ A, B asn1.RawValue }{asn1.RawValue{Tag: asn1.TagOctetString, Bytes: []byte{1}}, asn1.RawValue{Tag: asn1.TagOctetString, Bytes: []byte{2}}}),
		"public key as private key": spki,
		"both of wrong elements":    notBoth,
		"non-minimal length":        append([]byte{0x30, 0x81, 0x03}, good[2:5]...),
	} {
		for _, params := range []*paramSet{nil, ps} {
			_, err := parsePrivateKey(data, params)
			if err == nil {
				t.Errorf("%s: accepted as a private key", name)
				continue
			}
			if msg := err.Error(); strings.Contains(msg, "asn1:") || strings.Contains(msg, "{class") || strings.Contains(msg, "omitEmpty") {
				t.Errorf("%s: error shows the decoder's internals: %v", name, err)
			}
		}
	}
	_, err := parsePrivateKey(spki, nil)
	if err != errPublicNotPrivate {
		t.Errorf("public key given as private key: %v", err)
	}
	if _, err := parsePublicKey(good, nil); err != errPrivateNotPublic {
		t.Errorf("private key given as public key: %v", err)
	}
	if _, err := parsePublicKey([]byte{0x02, 0x01, 0x00}, nil); err == nil || strings.Contains(err.Error(), "asn1:") {
		t.Errorf("INTEGER as public key: %v", err)
	}
}

// TestRawSizeTells checks that a raw key whose size belongs to another
// parameter set, or to the other kind of key, is refused with that said.
func TestRawSizeTells(t *testing.T) {
	for i, ps := range paramSets {
		other := paramSets[(i+1)%len(paramSets)]
		sk := generate(t, ps)
		_, err := parsePrivateKey(sk.ExpandedBytes(), other)
		if err == nil || !strings.Contains(err.Error(), "size of a raw "+ps.name+" expanded private key, but -params says "+other.name) {
			t.Errorf("%s expanded key with -params %s: %v", ps.name, other.name, err)
		}
		_, err = parsePrivateKey(sk.ExpandedBytes(), nil)
		if err == nil || !strings.Contains(err.Error(), "give -params "+ps.name) {
			t.Errorf("%s expanded key without -params: %v", ps.name, err)
		}
		_, err = parsePublicKey(sk.PublicKey().Bytes(), other)
		if err == nil || !strings.Contains(err.Error(), "size of a raw "+ps.name+" public key, but -params says "+other.name) {
			t.Errorf("%s public key with -params %s: %v", ps.name, other.name, err)
		}
		_, err = parsePrivateKey(sk.PublicKey().Bytes(), ps)
		if err == nil || !strings.Contains(err.Error(), "other file of the key pair") {
			t.Errorf("%s public key as private key: %v", ps.name, err)
		}
		_, err = parsePublicKey(sk.ExpandedBytes(), ps)
		if err == nil || !strings.Contains(err.Error(), "other file of the key pair") {
			t.Errorf("%s expanded key as public key: %v", ps.name, err)
		}
	}
	// A raw seed fits every parameter set: only -params can tell.
	sk := generate(t, paramSets[0])
	for _, ps := range paramSets {
		got, err := parsePrivateKey(sk.Bytes(), ps)
		if err != nil || got.PublicKey().Parameters() != ps.params {
			t.Errorf("raw seed with -params %s: %v", ps.name, err)
		}
	}
}
