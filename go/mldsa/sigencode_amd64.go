//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

// SigEncode<set>AMD64 calls the baseline BitPack, SigEncode<set>AVX2 the
// AVX2 one (the AVX-512 path's too); both the baseline HintBitPack.
func init() {
	registerVariant(sigEncodeRoutine, "AMD64", sigEncodeAMD64, true)
	registerVariant(sigEncodeRoutine, "AVX2", sigEncodeAVX2, cpu.X86.HasAVX2)
}

func sigEncode(sig, cTilde []byte, z, h []ringElement, γ1Bits, ω int) {
	if useAVX2 {
		sigEncodeAVX2(sig, cTilde, z, h, γ1Bits, ω)
		return
	}
	sigEncodeAMD64(sig, cTilde, z, h, γ1Bits, ω)
}

// sigEncodeSet is the parameter set whose sizes these are: "44", "65",
// "87", or "" for none (tests use others).
func sigEncodeSet(sig, cTilde []byte, z, h []ringElement, γ1Bits, ω int) string {
	switch {
	case len(sig) == 2420 && len(cTilde) == 32 && len(z) == 4 && len(h) == 4 && γ1Bits == 17 && ω == 80:
		return "44"
	case len(sig) == 3309 && len(cTilde) == 48 && len(z) == 5 && len(h) == 6 && γ1Bits == 19 && ω == 55:
		return "65"
	case len(sig) == 4627 && len(cTilde) == 64 && len(z) == 7 && len(h) == 8 && γ1Bits == 19 && ω == 75:
		return "87"
	}
	return ""
}

// sigEncodeAMD64 is sigEncode by the baseline routine of the parameter
// set; other sizes go to the generic code.
func sigEncodeAMD64(sig, cTilde []byte, z, h []ringElement, γ1Bits, ω int) {
	switch sigEncodeSet(sig, cTilde, z, h, γ1Bits, ω) {
	case "44":
		asm.SigEncode44AMD64((*[2420]byte)(sig), (*[32]byte)(cTilde), polys[[4][256]uint32](z), polys[[4][256]uint32](h))
	case "65":
		asm.SigEncode65AMD64((*[3309]byte)(sig), (*[48]byte)(cTilde), polys[[5][256]uint32](z), polys[[6][256]uint32](h))
	case "87":
		asm.SigEncode87AMD64((*[4627]byte)(sig), (*[64]byte)(cTilde), polys[[7][256]uint32](z), polys[[8][256]uint32](h))
	default:
		sigEncodeGeneric(sig, cTilde, z, h, γ1Bits, ω)
	}
}

// sigEncodeAVX2 is sigEncodeAMD64 with the AVX2 routines.
func sigEncodeAVX2(sig, cTilde []byte, z, h []ringElement, γ1Bits, ω int) {
	switch sigEncodeSet(sig, cTilde, z, h, γ1Bits, ω) {
	case "44":
		asm.SigEncode44AVX2((*[2420]byte)(sig), (*[32]byte)(cTilde), polys[[4][256]uint32](z), polys[[4][256]uint32](h))
	case "65":
		asm.SigEncode65AVX2((*[3309]byte)(sig), (*[48]byte)(cTilde), polys[[5][256]uint32](z), polys[[6][256]uint32](h))
	case "87":
		asm.SigEncode87AVX2((*[4627]byte)(sig), (*[64]byte)(cTilde), polys[[7][256]uint32](z), polys[[8][256]uint32](h))
	default:
		sigEncodeGeneric(sig, cTilde, z, h, γ1Bits, ω)
	}
}
