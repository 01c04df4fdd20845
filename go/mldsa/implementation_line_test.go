package mldsa

import "testing"

// TestImplementationLine logs the code path for vg bench -paths, which
// reads it from go test's output.
func TestImplementationLine(t *testing.T) {
	t.Logf("implementation: %s", Implementation())
}
