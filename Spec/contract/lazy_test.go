package contract

import (
	"fmt"
	"os"
	"testing"
)

// TestMain checks, before any test calls All, that start-up built no
// contract: a program linking the package without checking (vg sign)
// must not pay for the catalogue's tables.
func TestMain(m *testing.M) {
	if catalogue != nil || len(builders) == 0 {
		fmt.Fprintf(os.Stderr, "start-up built %d contracts from %d builders; want none, built on the first call of All\n", len(catalogue), len(builders))
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// All builds the catalogue once: every call returns the same contracts.
func TestAllOnce(t *testing.T) {
	a, b := All(), All()
	if len(a) == 0 || len(a) != len(b) || &a[0] != &b[0] {
		t.Fatalf("All() twice: %d and %d contracts, not the same slice", len(a), len(b))
	}
}
