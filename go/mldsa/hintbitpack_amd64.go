//go:build amd64 && !purego

package mldsa

import (
	"unsafe"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(hintBitPackRoutine, "AMD64", hintBitPackAMD64, true)
}

func hintBitPack(out []byte, h []ringElement, ω int) { hintBitPackAMD64(out, h, ω) }

// hintBitPackAMD64 runs the baseline routine of the parameter set whose k
// and ω these are, and the generic code for any other pair (tests use
// others).
func hintBitPackAMD64(out []byte, h []ringElement, ω int) {
	switch {
	case len(h) == 4 && ω == 80:
		asm.HintBitPack44AMD64((*[84]byte)(out), (*[4 * n256]uint32)(unsafe.Pointer(&h[0])))
	case len(h) == 6 && ω == 55:
		asm.HintBitPack65AMD64((*[61]byte)(out), (*[6 * n256]uint32)(unsafe.Pointer(&h[0])))
	case len(h) == 8 && ω == 75:
		asm.HintBitPack87AMD64((*[83]byte)(out), (*[8 * n256]uint32)(unsafe.Pointer(&h[0])))
	default:
		hintBitPackGeneric(out, h, ω)
	}
}
