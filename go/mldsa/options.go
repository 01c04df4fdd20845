//go:build !go1.27

package mldsa

import "crypto"

// Options contains additional options for signing and verifying ML-DSA
// signatures.
//
// Built with Go 1.27 or later, Options is crypto/mldsa's Options (a type
// alias), so that either package's Sign and Verify see the context whichever
// package's Options the caller used.
type Options struct {
	// Context can be used to distinguish signatures created for different
	// purposes. It must be at most 255 bytes long, and it is empty by default.
	//
	// The same context must be used when signing and verifying a signature.
	Context string
}

// HashFunc returns zero, to implement the crypto.SignerOpts interface.
func (opts *Options) HashFunc() crypto.Hash { return 0 }
