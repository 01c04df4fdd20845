//go:build go1.27

package mldsa

import (
	"bytes"
	"crypto"
	stdmldsa "crypto/mldsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestStdMLDSAMuConstant(t *testing.T) {
	if hashMLDSAMu != crypto.MLDSAMu {
		t.Fatalf("hashMLDSAMu = %d, crypto.MLDSAMu = %d", hashMLDSAMu, crypto.MLDSAMu)
	}
}

var stdParams = []struct {
	vg  Parameters
	std stdmldsa.Parameters
}{
	{MLDSA44(), stdmldsa.MLDSA44()},
	{MLDSA65(), stdmldsa.MLDSA65()},
	{MLDSA87(), stdmldsa.MLDSA87()},
}

// TestStdSameSignatures signs with this package and crypto/mldsa from the
// same seed: deterministic signatures must be identical for every
// SignerOpts both accept, with either package's Options, and hedged ones
// must verify in the other package under the same context only.
func TestStdSameSignatures(t *testing.T) {
	for _, ps := range stdParams {
		t.Run(ps.vg.String(), func(t *testing.T) {
			seed := bytes.Repeat([]byte{0x5a}, 32)
			sk, err := NewPrivateKey(ps.vg, seed)
			if err != nil {
				t.Fatal(err)
			}
			std, err := stdmldsa.NewPrivateKey(ps.std, seed)
			if err != nil {
				t.Fatal(err)
			}
			pk, stdPK := sk.PublicKey(), std.PublicKey()
			if !bytes.Equal(pk.Bytes(), stdPK.Bytes()) {
				t.Fatal("public keys differ")
			}
			msg := []byte("message")
			for _, ctx := range []string{"", "ctx", strings.Repeat("c", 255)} {
				μ := computeMu(&pk.tr, 0, ctx, nil, msg)
				optsList := []crypto.SignerOpts{&Options{Context: ctx}, &stdmldsa.Options{Context: ctx}}
				if ctx == "" {
					optsList = append(optsList, nil, crypto.Hash(0), (*Options)(nil), (*stdmldsa.Options)(nil))
				}
				for _, opts := range optsList {
					want, err := std.SignDeterministic(msg, opts)
					if err != nil {
						t.Fatal(err)
					}
					got, err := sk.SignDeterministic(msg, opts)
					if err != nil || !bytes.Equal(got, want) {
						t.Errorf("context %q, opts %T: SignDeterministic differs from crypto/mldsa's (err %v)", ctx, opts, err)
					}
				}
				want, err := std.SignDeterministic(μ[:], crypto.MLDSAMu)
				if err != nil {
					t.Fatal(err)
				}
				got, err := sk.SignDeterministic(μ[:], crypto.MLDSAMu)
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("context %q: SignDeterministic(μ, MLDSAMu) differs from crypto/mldsa's (err %v)", ctx, err)
				}

				other := &stdmldsa.Options{Context: ctx + "x"}
				sig, err := sk.Sign(nil, msg, &stdmldsa.Options{Context: ctx})
				if err != nil {
					t.Fatal(err)
				}
				if err := stdmldsa.Verify(stdPK, msg, sig, &stdmldsa.Options{Context: ctx}); err != nil {
					t.Errorf("context %q: crypto/mldsa rejects vg's signature: %v", ctx, err)
				}
				if len(ctx) < 255 && stdmldsa.Verify(stdPK, msg, sig, other) == nil {
					t.Errorf("context %q: crypto/mldsa accepts vg's signature under context %q", ctx, other.Context)
				}
				// crypto/mldsa's Sign with this package's Options keeps the
				// context too: they are one type.
				stdSig, err := std.Sign(nil, msg, &Options{Context: ctx})
				if err != nil {
					t.Fatal(err)
				}
				if err := Verify(pk, msg, stdSig, &Options{Context: ctx}); err != nil {
					t.Errorf("context %q: vg rejects crypto/mldsa's signature: %v", ctx, err)
				}
				if len(ctx) < 255 && Verify(pk, msg, stdSig, other) == nil {
					t.Errorf("context %q: vg accepts crypto/mldsa's signature under context %q", ctx, other.Context)
				}
				muSig, err := std.Sign(nil, μ[:], crypto.MLDSAMu)
				if err != nil || VerifyMu(pk, μ[:], muSig) != nil {
					t.Errorf("context %q: vg rejects crypto/mldsa's MLDSAMu signature (err %v)", ctx, err)
				}
			}
		})
	}
}

// TestStdConversions converts keys both ways and checks that the results
// are the same keys, that a key without a seed still gets a StdSigner but
// no standard library private key, and that nil and zero keys are errors.
func TestStdConversions(t *testing.T) {
	for _, ps := range stdParams {
		sk, err := GenerateKey(ps.vg)
		if err != nil {
			t.Fatal(err)
		}
		std, err := sk.StdPrivateKey()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(std.Bytes(), sk.Bytes()) || std.PublicKey().Parameters() != ps.std ||
			!bytes.Equal(std.PublicKey().Bytes(), sk.PublicKey().Bytes()) {
			t.Fatalf("%v: StdPrivateKey is another key", ps.vg)
		}
		back, err := FromStdPrivateKey(std)
		if err != nil || !back.Equal(sk) || !back.PublicKey().Equal(sk.PublicKey()) {
			t.Fatalf("%v: FromStdPrivateKey(StdPrivateKey(sk)) is another key (err %v)", ps.vg, err)
		}
		stdPK, err := sk.PublicKey().StdPublicKey()
		if err != nil || !stdPK.Equal(std.PublicKey()) {
			t.Fatalf("%v: StdPublicKey (err %v)", ps.vg, err)
		}
		pk, err := FromStdPublicKey(stdPK)
		if err != nil || !pk.Equal(sk.PublicKey()) || pk.Parameters() != ps.vg {
			t.Fatalf("%v: FromStdPublicKey (err %v)", ps.vg, err)
		}

		expanded, err := NewPrivateKeyFromExpanded(ps.vg, sk.ExpandedBytes())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := expanded.StdPrivateKey(); err == nil || !strings.Contains(err.Error(), "no seed") {
			t.Errorf("%v: StdPrivateKey of a key without a seed: %v", ps.vg, err)
		}
		signer, err := expanded.StdSigner()
		if err != nil {
			t.Fatal(err)
		}
		if pub, ok := signer.Public().(*stdmldsa.PublicKey); !ok || !pub.Equal(stdPK) {
			t.Fatalf("%v: StdSigner.Public is not the standard library's public key", ps.vg)
		}
		msg := []byte("message")
		sig, err := signer.Sign(nil, msg, crypto.Hash(0))
		if err != nil || stdmldsa.Verify(stdPK, msg, sig, nil) != nil {
			t.Errorf("%v: StdSigner's signature does not verify with crypto/mldsa (err %v)", ps.vg, err)
		}
		if _, err := signer.Sign(nil, msg, crypto.SHA256); err == nil {
			t.Errorf("%v: StdSigner signs with crypto.SHA256 options", ps.vg)
		}
	}
	var nilSK *PrivateKey
	if _, err := nilSK.StdSigner(); err == nil {
		t.Error("StdSigner of a nil key")
	}
	if _, err := nilSK.StdPrivateKey(); err == nil {
		t.Error("StdPrivateKey of a nil key")
	}
	if _, err := (&PrivateKey{}).StdSigner(); err == nil {
		t.Error("StdSigner of a zero key")
	}
	if _, err := (&PublicKey{}).StdPublicKey(); err == nil {
		t.Error("StdPublicKey of a zero key")
	}
	for _, sk := range []*stdmldsa.PrivateKey{nil, {}} {
		if _, err := FromStdPrivateKey(sk); err == nil {
			t.Errorf("FromStdPrivateKey(%v)", sk)
		}
	}
	for _, pk := range []*stdmldsa.PublicKey{nil, {}} {
		if _, err := FromStdPublicKey(pk); err == nil {
			t.Errorf("FromStdPublicKey(%v)", pk)
		}
	}
}

// TestStdX509 has crypto/x509 sign a certificate request, a certificate
// and a revocation list with StdSigner, and writes and reads a PKCS#8
// private key through the conversions.
func TestStdX509(t *testing.T) {
	sk, err := GenerateKey(MLDSA44())
	if err != nil {
		t.Fatal(err)
	}
	signer, err := sk.StdSigner()
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.CreateCertificateRequest(nil, &x509.CertificateRequest{DNSNames: []string{"example.com"}}, signer)
	if err != nil {
		t.Fatal(err)
	}
	csr, err := x509.ParseCertificateRequest(der)
	if err != nil {
		t.Fatal(err)
	}
	if err := csr.CheckSignature(); err != nil {
		t.Fatal(err)
	}
	if csr.SignatureAlgorithm != x509.MLDSA44 {
		t.Fatalf("signature algorithm %v", csr.SignatureAlgorithm)
	}
	if err := Verify(sk.PublicKey(), csr.RawTBSCertificateRequest, csr.Signature, nil); err != nil {
		t.Fatal("vg rejects the request's signature:", err)
	}
	// A CA certificate and a revocation list, both signed through StdSigner.
	ca := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "CA"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		SubjectKeyId:          []byte{1, 2, 3},
	}
	caDER, err := x509.CreateCertificate(nil, ca, ca, signer.Public(), signer)
	if err != nil {
		t.Fatal(err)
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		t.Fatal(err)
	}
	crlDER, err := x509.CreateRevocationList(nil, &x509.RevocationList{Number: big.NewInt(1), ThisUpdate: time.Now(), NextUpdate: time.Now().Add(time.Hour)}, caCert, signer)
	if err != nil {
		t.Fatal(err)
	}
	crl, err := x509.ParseRevocationList(crlDER)
	if err != nil {
		t.Fatal(err)
	}
	if err := crl.CheckSignatureFrom(caCert); err != nil {
		t.Fatal("revocation list:", err)
	}
	if err := Verify(sk.PublicKey(), crl.RawTBSRevocationList, crl.Signature, nil); err != nil {
		t.Fatal("vg rejects the revocation list's signature:", err)
	}

	if _, err := x509.MarshalPKCS8PrivateKey(sk); err == nil {
		t.Fatal("crypto/x509 now takes vg's keys: StdPrivateKey's documentation is out of date")
	}
	std, err := sk.StdPrivateKey()
	if err != nil {
		t.Fatal(err)
	}
	p8, err := x509.MarshalPKCS8PrivateKey(std)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := x509.ParsePKCS8PrivateKey(p8)
	if err != nil {
		t.Fatal(err)
	}
	back, err := FromStdPrivateKey(parsed.(*stdmldsa.PrivateKey))
	if err != nil || !back.Equal(sk) {
		t.Fatalf("PKCS#8 round trip gives another key (err %v)", err)
	}
}

// TestStdAPISurface checks that every method of crypto/mldsa's types
// exists on this package's with the same signature (the standard library's
// key and parameter types standing for this package's), and that the
// package-level functions and constants match.
func TestStdAPISurface(t *testing.T) {
	vgFor := map[reflect.Type]reflect.Type{
		reflect.TypeFor[*stdmldsa.PrivateKey](): reflect.TypeFor[*PrivateKey](),
		reflect.TypeFor[*stdmldsa.PublicKey]():  reflect.TypeFor[*PublicKey](),
		reflect.TypeFor[stdmldsa.Parameters]():  reflect.TypeFor[Parameters](),
		reflect.TypeFor[*stdmldsa.Options]():    reflect.TypeFor[*Options](),
	}
	mapped := func(typ reflect.Type) reflect.Type {
		if v, ok := vgFor[typ]; ok {
			return v
		}
		return typ
	}
	sameSignature := func(std, vg reflect.Type, skip int) bool {
		if std.NumIn() != vg.NumIn() || std.NumOut() != vg.NumOut() || std.IsVariadic() != vg.IsVariadic() {
			return false
		}
		for i := skip; i < std.NumIn(); i++ {
			if mapped(std.In(i)) != vg.In(i) {
				return false
			}
		}
		for i := 0; i < std.NumOut(); i++ {
			if mapped(std.Out(i)) != vg.Out(i) {
				return false
			}
		}
		return true
	}
	for stdType, vgType := range vgFor {
		for i := 0; i < stdType.NumMethod(); i++ {
			m := stdType.Method(i)
			vm, ok := vgType.MethodByName(m.Name)
			if !ok {
				t.Errorf("%v has no method %s", vgType, m.Name)
				continue
			}
			if !sameSignature(m.Type, vm.Type, 1) {
				t.Errorf("%v.%s is %v; crypto/mldsa's is %v", vgType, m.Name, vm.Type, m.Type)
			}
		}
	}
	for _, f := range []struct {
		name    string
		std, vg any
	}{
		{"GenerateKey", stdmldsa.GenerateKey, GenerateKey},
		{"NewPrivateKey", stdmldsa.NewPrivateKey, NewPrivateKey},
		{"NewPublicKey", stdmldsa.NewPublicKey, NewPublicKey},
		{"Verify", stdmldsa.Verify, Verify},
		{"MLDSA44", stdmldsa.MLDSA44, MLDSA44},
		{"MLDSA65", stdmldsa.MLDSA65, MLDSA65},
		{"MLDSA87", stdmldsa.MLDSA87, MLDSA87},
	} {
		if !sameSignature(reflect.TypeOf(f.std), reflect.TypeOf(f.vg), 0) {
			t.Errorf("%s is %T; crypto/mldsa's is %T", f.name, f.vg, f.std)
		}
	}
	for _, c := range [][2]int{
		{PrivateKeySize, stdmldsa.PrivateKeySize},
		{MLDSA44PublicKeySize, stdmldsa.MLDSA44PublicKeySize},
		{MLDSA65PublicKeySize, stdmldsa.MLDSA65PublicKeySize},
		{MLDSA87PublicKeySize, stdmldsa.MLDSA87PublicKeySize},
		{MLDSA44SignatureSize, stdmldsa.MLDSA44SignatureSize},
		{MLDSA65SignatureSize, stdmldsa.MLDSA65SignatureSize},
		{MLDSA87SignatureSize, stdmldsa.MLDSA87SignatureSize},
	} {
		if c[0] != c[1] {
			t.Errorf("constant %d, crypto/mldsa's %d", c[0], c[1])
		}
	}
}
