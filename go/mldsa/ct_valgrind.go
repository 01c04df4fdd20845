//go:build valgrind && amd64 && gc

package mldsa

import (
	"unsafe"

	"github.com/vg-crypto/vg/go/asm"
)

// valgrindBuild is set by the build tag valgrind, which only the
// constant-time check uses: secret and declassify then make valgrind's
// client requests (which do nothing when the program does not run under
// valgrind).
const valgrindBuild = true

// Memcheck's client request codes (valgrind/memcheck.h):
// VG_USERREQ_TOOL_BASE('M', 'C') + 1 and + 2.
const (
	vgMakeMemUndefined = 'M'<<24 | 'C'<<16 + 1
	vgMakeMemDefined   = 'M'<<24 | 'C'<<16 + 2
)

func valgrindMakeMemUndefined(p unsafe.Pointer, n uintptr) {
	asm.ValgrindClientRequestAMD64(&[6]uint64{vgMakeMemUndefined, uint64(uintptr(p)), uint64(n)})
}

func valgrindMakeMemDefined(p unsafe.Pointer, n uintptr) {
	asm.ValgrindClientRequestAMD64(&[6]uint64{vgMakeMemDefined, uint64(uintptr(p)), uint64(n)})
}
