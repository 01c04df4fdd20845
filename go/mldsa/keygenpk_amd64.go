//go:build amd64 && !purego

package mldsa

import (
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

// KeyGenPk<set>AMD64 calls the baseline routines, KeyGenPk<set>AVX2 the
// AVX2 ones.
func init() {
	registerVariant(keyGenPkRoutine, "AMD64", keyGenPkAMD64, true)
	registerVariant(keyGenPkRoutine, "AVX2", keyGenPkAVX2, cpu.X86.HasAVX2)
}

func keyGenPk(pk []byte, t0, t []ringElement, ρ *[32]byte) {
	if useAVX2 {
		keyGenPkAVX2(pk, t0, t, ρ)
		return
	}
	keyGenPkAMD64(pk, t0, t, ρ)
}

// polys is the assembly's view of k ringElements.
func polys[A any](v []ringElement) *A { return (*A)(unsafe.Pointer(&v[0])) }

// keyGenPkAMD64 is keyGenPk by the baseline routine of k = len(t); a k of
// no parameter set, or buffers of other sizes, go to the generic code. pk
// is public (ρ and t1): declassified for the constant-time check, as the
// generic code declassifies t1.
func keyGenPkAMD64(pk []byte, t0, t []ringElement, ρ *[32]byte) {
	if len(t0) != len(t) || len(pk) != 32+320*len(t) {
		keyGenPkGeneric(pk, t0, t, ρ)
		return
	}
	switch len(t) {
	case 4:
		asm.KeyGenPk44AMD64((*[1312]byte)(pk), polys[[4][256]uint32](t0), ρ, polys[[4][256]uint32](t))
	case 6:
		asm.KeyGenPk65AMD64((*[1952]byte)(pk), polys[[6][256]uint32](t0), ρ, polys[[6][256]uint32](t))
	case 8:
		asm.KeyGenPk87AMD64((*[2592]byte)(pk), polys[[8][256]uint32](t0), ρ, polys[[8][256]uint32](t))
	default:
		keyGenPkGeneric(pk, t0, t, ρ)
		return
	}
	declassify(publicT1, unsafe.Pointer(&pk[0]), uintptr(len(pk)))
}

// keyGenPkAVX2 is keyGenPkAMD64 with the AVX2 routines.
func keyGenPkAVX2(pk []byte, t0, t []ringElement, ρ *[32]byte) {
	if len(t0) != len(t) || len(pk) != 32+320*len(t) {
		keyGenPkGeneric(pk, t0, t, ρ)
		return
	}
	switch len(t) {
	case 4:
		asm.KeyGenPk44AVX2((*[1312]byte)(pk), polys[[4][256]uint32](t0), ρ, polys[[4][256]uint32](t))
	case 6:
		asm.KeyGenPk65AVX2((*[1952]byte)(pk), polys[[6][256]uint32](t0), ρ, polys[[6][256]uint32](t))
	case 8:
		asm.KeyGenPk87AVX2((*[2592]byte)(pk), polys[[8][256]uint32](t0), ρ, polys[[8][256]uint32](t))
	default:
		keyGenPkGeneric(pk, t0, t, ρ)
		return
	}
	declassify(publicT1, unsafe.Pointer(&pk[0]), uintptr(len(pk)))
}
