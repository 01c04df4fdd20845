//go:build go1.27

package mldsa

import stdmldsa "crypto/mldsa"

// Options contains additional options for signing and verifying ML-DSA
// signatures: its Context field, at most 255 bytes, distinguishes
// signatures created for different purposes, and must be the same when
// signing and verifying.
//
// Options is crypto/mldsa's Options, so that either package's Sign and
// Verify see the context whichever package's Options the caller used
// (with distinct types, each package's Sign would take the other's Options
// for an empty context). Built with Go 1.26, Options is a struct of this
// package with the same field and method.
type Options = stdmldsa.Options
