//go:build amd64 && !purego

package mldsa

import (
	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

func init() {
	registerVariant(multiplyNTTRoutine, "AMD64", multiplyNTTAMD64, true)
	registerVariant(multiplyNTTRoutine, "AVX2", multiplyNTTAVX2, cpu.X86.HasAVX2)
	registerVariant(multiplyNTTRoutine, "AVX512", multiplyNTTAVX512, cpu.X86.HasAVX2 && cpu.X86.HasAVX512F)
}

func multiplyNTT(out, a, b *ringElement) {
	if useAVX512 {
		multiplyNTTAVX512(out, a, b)
		return
	}
	if useAVX2 {
		multiplyNTTAVX2(out, a, b)
		return
	}
	multiplyNTTAMD64(out, a, b)
}

// The assembly's buffers must not overlap: an input that is the output
// goes through a copy (apart).

func multiplyNTTAMD64(out, a, b *ringElement) {
	asm.MultiplyNTTAMD64(poly32(out), poly32(apart(out, a)), poly32(apart(out, b)))
}

func multiplyNTTAVX2(out, a, b *ringElement) {
	asm.MultiplyNTTAVX2(poly32(out), poly32(apart(out, a)), poly32(apart(out, b)))
}

func multiplyNTTAVX512(out, a, b *ringElement) {
	asm.MultiplyNTTAVX512(poly32(out), poly32(apart(out, a)), poly32(apart(out, b)))
}
