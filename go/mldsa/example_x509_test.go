//go:build go1.27

package mldsa_test

import (
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"math/big"
	"time"

	"github.com/vg-crypto/vg/go/mldsa"
)

// A self-signed ML-DSA-65 certificate made by crypto/x509 and signed by vg
// (Go 1.27 or later).
func ExampleStdSigner() {
	sk, err := mldsa.GenerateKey(mldsa.MLDSA65())
	if err != nil {
		panic(err)
	}
	signer, err := sk.StdSigner()
	if err != nil {
		panic(err)
	}
	template := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "vg example CA"},
		NotBefore:             time.Now(),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(nil, template, template, signer.Public(), signer)
	if err != nil {
		panic(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		panic(err)
	}
	fmt.Println(cert.SignatureAlgorithm, cert.CheckSignatureFrom(cert))
	// vg verifies it too.
	fmt.Println(mldsa.Verify(sk.PublicKey(), cert.RawTBSCertificate, cert.Signature, nil))
	// Output:
	// ML-DSA-65 <nil>
	// <nil>
}
