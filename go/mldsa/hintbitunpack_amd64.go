//go:build amd64 && !purego

package mldsa

import (
	"unsafe"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(hintBitUnpackRoutine, "AMD64", hintBitUnpackAMD64, true)
}

func hintBitUnpack(h []ringElement, y []byte, ω int) bool { return hintBitUnpackAMD64(h, y, ω) }

// hintBitUnpackAMD64 runs the baseline routine of the parameter set whose
// k and ω these are, and the generic code for any other pair (tests use
// others).
func hintBitUnpackAMD64(h []ringElement, y []byte, ω int) bool {
	switch {
	case len(h) == 4 && ω == 80:
		return asm.HintBitUnpack44AMD64((*[4 * n256]uint32)(unsafe.Pointer(&h[0])), (*[84]byte)(y))
	case len(h) == 6 && ω == 55:
		return asm.HintBitUnpack65AMD64((*[6 * n256]uint32)(unsafe.Pointer(&h[0])), (*[61]byte)(y))
	case len(h) == 8 && ω == 75:
		return asm.HintBitUnpack87AMD64((*[8 * n256]uint32)(unsafe.Pointer(&h[0])), (*[83]byte)(y))
	}
	return hintBitUnpackGeneric(h, y, ω)
}
