//go:build !(valgrind && amd64 && gc)

package mldsa

import "unsafe"

const valgrindBuild = false

func valgrindMakeMemUndefined(unsafe.Pointer, uintptr) {}
func valgrindMakeMemDefined(unsafe.Pointer, uintptr)   {}
