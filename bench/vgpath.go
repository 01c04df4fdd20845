package bench

import "github.com/vg-crypto/vg/go/mldsa"

// VGImplementation names vg's code path in this binary.
func VGImplementation() string { return mldsa.Implementation() }
