package main

import "testing"

// TestUpToDate is go run ./internal/cosim/gen -check as a test: the
// harness must be what the generator writes for today's go/asm.
func TestUpToDate(t *testing.T) {
	if err := run(true, "", "", ""); err != nil {
		t.Fatal(err)
	}
}
