package mldsa_test

import (
	"fmt"

	"github.com/vg-crypto/vg/go/mldsa"
)

// The README's example.
func Example() {
	sk, err := mldsa.GenerateKey(mldsa.MLDSA65())
	if err != nil {
		panic(err)
	}
	msg := []byte("hello, world")
	sig, err := sk.Sign(nil, msg, &mldsa.Options{Context: "example"})
	if err != nil {
		panic(err)
	}
	err = mldsa.Verify(sk.PublicKey(), msg, sig, &mldsa.Options{Context: "example"})
	fmt.Println(len(sig), err)
	err = mldsa.Verify(sk.PublicKey(), msg, sig, &mldsa.Options{Context: "other"})
	fmt.Println(err != nil)
	// Output:
	// 3309 <nil>
	// true
}
