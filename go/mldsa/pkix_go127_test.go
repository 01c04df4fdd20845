//go:build go1.27

package mldsa

import (
	"bytes"
	stdmldsa "crypto/mldsa"
	"crypto/x509"
	"testing"
)

// TestPKIXStdInterop checks the encodings against Go 1.27's crypto/x509:
// the seed form and SubjectPublicKeyInfo are byte for byte what
// crypto/x509 writes for crypto/mldsa's keys, and each package parses the
// other's. crypto/x509 reads only the seed form.
func TestPKIXStdInterop(t *testing.T) {
	for _, ps := range stdParams {
		seed := bytes.Repeat([]byte{0x42}, 32)
		sk, err := NewPrivateKey(ps.vg, seed)
		if err != nil {
			t.Fatal(err)
		}
		std, err := stdmldsa.NewPrivateKey(ps.std, seed)
		if err != nil {
			t.Fatal(err)
		}
		want, err := x509.MarshalPKCS8PrivateKey(std)
		if err != nil {
			t.Fatal(err)
		}
		got, err := MarshalPKCS8PrivateKey(sk)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%v: MarshalPKCS8PrivateKey differs from x509.MarshalPKCS8PrivateKey (%v)", ps.vg, err)
		}
		parsed, err := x509.ParsePKCS8PrivateKey(got)
		if k, ok := parsed.(*stdmldsa.PrivateKey); err != nil || !ok || !bytes.Equal(k.Bytes(), seed) {
			t.Errorf("%v: x509.ParsePKCS8PrivateKey of vg's encoding: %T, %v", ps.vg, parsed, err)
		}
		if back, err := ParsePKCS8PrivateKey(want); err != nil || !back.Equal(sk) {
			t.Errorf("%v: ParsePKCS8PrivateKey of crypto/x509's encoding: %v", ps.vg, err)
		}

		wantPub, err := x509.MarshalPKIXPublicKey(std.PublicKey())
		if err != nil {
			t.Fatal(err)
		}
		gotPub, err := MarshalPKIXPublicKey(sk.PublicKey())
		if err != nil || !bytes.Equal(gotPub, wantPub) {
			t.Errorf("%v: MarshalPKIXPublicKey differs from x509.MarshalPKIXPublicKey (%v)", ps.vg, err)
		}
		parsedPub, err := x509.ParsePKIXPublicKey(gotPub)
		if k, ok := parsedPub.(*stdmldsa.PublicKey); err != nil || !ok || !bytes.Equal(k.Bytes(), sk.PublicKey().Bytes()) {
			t.Errorf("%v: x509.ParsePKIXPublicKey of vg's encoding: %T, %v", ps.vg, parsedPub, err)
		}
		if back, err := ParsePKIXPublicKey(wantPub); err != nil || !back.Equal(sk.PublicKey()) {
			t.Errorf("%v: ParsePKIXPublicKey of crypto/x509's encoding: %v", ps.vg, err)
		}
	}
}
