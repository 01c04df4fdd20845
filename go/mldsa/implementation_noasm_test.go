//go:build !amd64 || purego

package mldsa

import "testing"

func TestImplementation(t *testing.T) {
	if got := Implementation(); got != "pure Go" {
		t.Fatalf("Implementation() = %q, want pure Go", got)
	}
}
