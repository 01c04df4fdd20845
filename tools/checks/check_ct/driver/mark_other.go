//go:build !(valgrind && amd64 && gc)

package main

import "unsafe"

// Without the tag valgrind (go vet, a plain build) nothing is marked.
func secret([]byte)                  {}
func public(unsafe.Pointer, uintptr) {}
