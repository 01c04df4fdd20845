package mldsa_test

import (
	"bytes"
	"crypto/sha3"
	"encoding/pem"
	"errors"
	"fmt"
	"os"

	"github.com/vg-crypto/vg/go/mldsa"
)

// A private key is its 32-byte seed: Bytes and NewPrivateKey round-trip
// it, as Bytes and NewPublicKey do the public key. The expanded encoding
// round-trips too, into a key without a seed.
func ExampleNewPrivateKey() {
	sk, err := mldsa.GenerateKey(mldsa.MLDSA44())
	if err != nil {
		panic(err)
	}
	seed := sk.Bytes()
	sk2, err := mldsa.NewPrivateKey(mldsa.MLDSA44(), seed)
	if err != nil {
		panic(err)
	}
	pk, err := mldsa.NewPublicKey(mldsa.MLDSA44(), sk.PublicKey().Bytes())
	if err != nil {
		panic(err)
	}
	expanded, err := mldsa.NewPrivateKeyFromExpanded(mldsa.MLDSA44(), sk.ExpandedBytes())
	if err != nil {
		panic(err)
	}
	fmt.Println(len(seed), sk2.Equal(sk), pk.Equal(sk.PublicKey()))
	fmt.Println(len(sk.ExpandedBytes()), expanded.Equal(sk), expanded.Bytes() == nil)
	// Output:
	// 32 true true
	// 2560 true true
}

// A signer that keeps only the expanded encoding signs with it in one
// call: the key is decoded and checked as NewPrivateKeyFromExpanded does,
// but not kept.
func ExampleSignExpanded() {
	sk, err := mldsa.GenerateKey(mldsa.MLDSA65())
	if err != nil {
		panic(err)
	}
	stored := sk.ExpandedBytes()

	msg := []byte("message")
	opts := &mldsa.Options{Context: "example"}
	sig, err := mldsa.SignExpanded(mldsa.MLDSA65(), stored, msg, opts)
	if err != nil {
		panic(err)
	}
	fmt.Println(mldsa.Verify(sk.PublicKey(), msg, sig, opts))

	stored[64] ^= 1 // tr no longer the hash of the public key
	_, err = mldsa.SignExpanded(mldsa.MLDSA65(), stored, msg, opts)
	fmt.Println(errors.Is(err, mldsa.ErrInvalidPrivateKey))
	// Output:
	// <nil>
	// true
}

// PKCS#8 and SubjectPublicKeyInfo as RFC 9881 defines them. The seed
// 000102…1f gives the private key of RFC 9881's first example.
func ExampleMarshalPKCS8PrivateKey() {
	seed := make([]byte, 32)
	for i := range seed {
		seed[i] = byte(i)
	}
	sk, err := mldsa.NewPrivateKey(mldsa.MLDSA44(), seed)
	if err != nil {
		panic(err)
	}
	der, err := mldsa.MarshalPKCS8PrivateKey(sk)
	if err != nil {
		panic(err)
	}
	os.Stdout.Write(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))

	parsed, err := mldsa.ParsePKCS8PrivateKey(der)
	if err != nil {
		panic(err)
	}
	spki, err := mldsa.MarshalPKIXPublicKey(parsed.PublicKey())
	if err != nil {
		panic(err)
	}
	pk, err := mldsa.ParsePKIXPublicKey(spki)
	if err != nil {
		panic(err)
	}
	fmt.Println(parsed.Equal(sk), pk.Parameters(), len(spki))

	// The expanded and both forms, and what parsing says of a bad key.
	both, err := mldsa.MarshalPKCS8PrivateKeyFormat(sk, mldsa.PKCS8Both)
	if err != nil {
		panic(err)
	}
	both[len(both)-1] ^= 1 // the last byte of the expanded key
	_, err = mldsa.ParsePKCS8PrivateKey(both)
	fmt.Println(errors.Is(err, mldsa.ErrInvalidPrivateKey))
	fmt.Println(err)
	// Output:
	// -----BEGIN PRIVATE KEY-----
	// MDQCAQAwCwYJYIZIAWUDBAMRBCKAIAABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZ
	// GhscHR4f
	// -----END PRIVATE KEY-----
	// true ML-DSA-44 1334
	// true
	// mldsa: invalid private key: PKCS#8: ML-DSA-44 private key (both): the expanded key is not the one the seed gives
}

// HashML-DSA signs a pre-hash of the message. The pre-hash must be as
// strong as the parameter set (FIPS 204, §5.4): ML-DSA-65 takes SHA2-384,
// SHA2-512, SHA3-384, SHA3-512 or SHAKE-256, and refuses SHA2-256.
func ExamplePrivateKey_HashSign() {
	sk, err := mldsa.GenerateKey(mldsa.MLDSA65())
	if err != nil {
		panic(err)
	}
	msg := []byte("a large document")
	opts := &mldsa.Options{Context: "example"}
	sig, err := sk.HashSign(msg, mldsa.SHA512, opts)
	if err != nil {
		panic(err)
	}
	fmt.Println(mldsa.HashVerify(sk.PublicKey(), msg, sig, mldsa.SHA512, opts))
	// Not a pure ML-DSA signature, nor one with another pre-hash:
	fmt.Println(mldsa.Verify(sk.PublicKey(), msg, sig, opts) != nil)
	fmt.Println(mldsa.HashVerify(sk.PublicKey(), msg, sig, mldsa.SHA3_512, opts) != nil)

	_, err = sk.HashSign(msg, mldsa.SHA256, opts)
	fmt.Println(errors.Is(err, mldsa.ErrPreHashTooWeak))
	fmt.Println(err)
	// Output:
	// <nil>
	// true
	// true
	// true
	// mldsa: pre-hash too weak for the parameter set: SHA2-256 has 128 bits of collision strength, ML-DSA-65 needs 192 (FIPS 204, §5.4)
}

// SignMu signs a message representative μ = H(tr ‖ M′, 64) computed
// elsewhere (FIPS 204, Algorithm 7, line 6; RFC 9881, "externalMu"), e.g.
// by a client that streams the message while the key stays on a server:
// tr = H(pk, 64) and M′ = 0 ‖ |ctx| ‖ ctx ‖ M for ML-DSA (Algorithm 2,
// line 10). The signature is the one Sign makes of M with ctx.
func ExamplePrivateKey_SignMu() {
	sk, err := mldsa.GenerateKey(mldsa.MLDSA87())
	if err != nil {
		panic(err)
	}
	pk := sk.PublicKey()
	msg, ctx := []byte("streamed message"), "example"

	tr := sha3.SumSHAKE256(pk.Bytes(), 64)
	h := sha3.NewSHAKE256()
	h.Write(tr)
	h.Write([]byte{0, byte(len(ctx))})
	h.Write([]byte(ctx))
	h.Write(msg)
	μ := make([]byte, 64)
	h.Read(μ)

	sig, err := sk.SignMuDeterministic(μ)
	if err != nil {
		panic(err)
	}
	want, err := sk.SignDeterministic(msg, &mldsa.Options{Context: ctx})
	if err != nil {
		panic(err)
	}
	fmt.Println(bytes.Equal(sig, want))
	fmt.Println(mldsa.VerifyMu(pk, μ, sig), mldsa.Verify(pk, msg, sig, &mldsa.Options{Context: ctx}))
	// Output:
	// true
	// <nil> <nil>
}
