//go:build valgrind && amd64 && gc

package main

import (
	"unsafe"

	"github.com/vg-crypto/vg/go/asm"
)

// Memcheck's client request codes (valgrind/memcheck.h):
// VG_USERREQ_TOOL_BASE('M', 'C') + 1 and + 2.
const (
	vgMakeMemUndefined = 'M'<<24 | 'C'<<16 + 1
	vgMakeMemDefined   = 'M'<<24 | 'C'<<16 + 2
)

// secret marks b undefined: memcheck then reports every branch, conditional
// move and address computed from it.
func secret(b []byte) {
	if len(b) > 0 {
		asm.ValgrindClientRequestAMD64(&[6]uint64{vgMakeMemUndefined, uint64(uintptr(unsafe.Pointer(&b[0]))), uint64(len(b))})
	}
}

// public marks the n bytes at p defined: a result the API returns to its
// caller (a comparison, an encoding the driver checks).
func public(p unsafe.Pointer, n uintptr) {
	asm.ValgrindClientRequestAMD64(&[6]uint64{vgMakeMemDefined, uint64(uintptr(p)), uint64(n)})
}
