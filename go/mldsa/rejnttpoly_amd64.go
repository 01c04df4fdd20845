//go:build amd64 && !purego

package mldsa

import (
	"unsafe"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(rejNTTPolyRoutine, "AMD64", rejNTTPolyAMD64, true)
}

func rejNTTPoly(a *ringElement, seed *[34]byte) bool {
	return rejNTTPolyAMD64(a, seed)
}

func rejNTTPolyAMD64(a *ringElement, seed *[34]byte) bool {
	return asm.RejNTTPolyAMD64((*[n256]uint32)(unsafe.Pointer(a)), seed)
}
