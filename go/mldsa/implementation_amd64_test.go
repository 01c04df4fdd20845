//go:build amd64 && !purego

package mldsa

import "testing"

func TestImplementation(t *testing.T) {
	want := "baseline x86-64 assembly"
	if useAVX2 {
		want = "AVX2"
	}
	if useAVX512 {
		want = "AVX-512"
	}
	if got := Implementation(); got != want {
		t.Fatalf("Implementation() = %q, want %q (useAVX2 = %v, useAVX512 = %v)", got, want, useAVX2, useAVX512)
	}
}
