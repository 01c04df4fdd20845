//go:build amd64 && !purego

package bench

import (
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/go/asm"
)

// The variants the AVX2 code path of go/mldsa dispatches to, on the
// ML-DSA-65 inputs of pqcrystals/routines.c: the same polynomials, the
// same seeds (the first byte of ρ, ρ′ or c̃ is the iteration number mod
// 64) and the same nonces, so that both sides reject the same
// candidates.

type poly = [256]uint32

func newPoly(f func(j int) uint32) *poly {
	p := new(poly) // 1024 bytes: the allocator's size class aligns it to 1024
	for j := range p {
		p[j] = f(j)
	}
	return p
}

func routineList() []Routine {
	const q = 8380417
	a := newPoly(func(j int) uint32 { return uint32(j * 7919 % q) })
	b := newPoly(func(j int) uint32 { return uint32((j*104729 + 1) % q) })
	c, d := new(poly), new(poly)
	hint := newPoly(func(j int) uint32 { return uint32(j & 1) })
	u, v := new([5]poly), new([5]poly)
	for k := range u {
		u[k], v[k] = *a, *b
	}
	// A polynomial 8 bytes past a 32-byte boundary, as an [N]T array on
	// a Go stack may be: every 256-bit load of it splits a cache line
	// every other time.
	raw := new([256 + 16]uint32)
	off := (32 - int(uintptr(unsafe.Pointer(raw))%32) + 8) % 32 / 4
	mis := (*poly)(unsafe.Pointer(&raw[off]))
	*mis = *a
	mat := new([30]poly)
	four := &[4]*poly{a, b, c, d}
	var ρ [32]byte
	var seed [64]byte
	var cTilde [48]byte
	for j := range ρ {
		ρ[j] = byte(j)
	}
	for j := range seed {
		seed[j] = byte(j)
	}
	for j := range cTilde {
		cTilde[j] = byte(j)
	}
	var s34 [4][34]byte
	var s66 [4][66]byte
	seeds34 := func(x byte) *[4][34]byte {
		for k := range s34 {
			copy(s34[k][:], ρ[:])
			s34[k][0], s34[k][32], s34[k][33] = x, byte(k), 0
		}
		return &s34
	}
	seeds66 := func(x byte) *[4][66]byte {
		for k := range s66 {
			copy(s66[k][:], seed[:])
			s66[k][0], s66[k][64], s66[k][65] = x, byte(k), 0
		}
		return &s66
	}
	var ks [25]uint64
	var ks4 [100]uint64
	var buf [640]byte
	var bad uint32
	keccak, keccakName := asm.KeccakF1600AMD64, "KeccakF1600AMD64"
	ball, ballName := asm.SampleInBall65AMD64, "SampleInBall65AMD64"
	if cpu.X86.HasBMI1 && cpu.X86.HasBMI2 {
		keccak, keccakName = asm.KeccakF1600BMI2, "KeccakF1600BMI2"
		ball, ballName = asm.SampleInBall65BMI2, "SampleInBall65BMI2"
	}
	rs := []Routine{
		{Name: "KeccakF1600", VG: keccakName, C: "KeccakF1600_StatePermute", Run: func(int) { keccak(&ks) }},
		{Name: "KeccakF1600 (AMD64)", VG: "KeccakF1600AMD64", Run: func(int) { asm.KeccakF1600AMD64(&ks) }},
		{Name: "KeccakF1600x4", VG: "KeccakF1600x4AVX2", C: "f1600x4", Run: func(int) { asm.KeccakF1600x4AVX2(&ks4) }},
	}
	// The AVX-512 path's four-way Keccak, as go/mldsa selects it, beside
	// pq-crystals' AVX2 f1600x4.
	if cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL {
		rs = append(rs, Routine{Name: "KeccakF1600x4 (AVX-512)", VG: "KeccakF1600x4AVX512",
			Run: func(int) { asm.KeccakF1600x4AVX512(&ks4) }, NoCount: true, Beside: "KeccakF1600x4"})
	}
	return append(rs, []Routine{
		{Name: "NTT", VG: "NTTAVX2", C: "poly_ntt", Run: func(int) { asm.NTTAVX2(a) }},
		{Name: "NTT (8 bytes off 32)", VG: "NTTAVX2", Run: func(int) { asm.NTTAVX2(mis) }},
		{Name: "NTTInverse", VG: "NTTInverseAVX2", C: "poly_invntt_tomont", Run: func(int) { asm.NTTInverseAVX2(a) }},
		{Name: "MultiplyNTT", VG: "MultiplyNTTAVX2", C: "poly_pointwise_montgomery", Run: func(int) { asm.MultiplyNTTAVX2(c, a, b) }},
		{Name: "MultiplyAccNTT5", VG: "MultiplyAccNTT5AVX2", C: "polyvecl_pointwise_acc_montgomery", Run: func(int) { asm.MultiplyAccNTT5AVX2(c, u, v) }},
		{Name: "ExpandA", VG: "ExpandA65AVX2", C: "polyvec_matrix_expand", Run: func(i int) { ρ[0] = byte(i & 63); asm.ExpandA65AVX2(mat, &ρ) }},
		{Name: "RejNTTPolyx4", VG: "RejNTTPolyx4AVX2", C: "poly_uniform_4x", Run: func(i int) { asm.RejNTTPolyx4AVX2(four, seeds34(byte(i&63))) }},
		{Name: "RejBoundedPolyx4", VG: "RejBoundedPolyx4Eta4AVX2", C: "poly_uniform_eta_4x", Run: func(i int) { asm.RejBoundedPolyx4Eta4AVX2(four, seeds66(byte(i&63))) }},
		{Name: "SampleInBall", VG: ballName, C: "poly_challenge", Run: func(i int) { cTilde[0] = byte(i & 63); ball(c, &cTilde) }},
		{Name: "SampleInBall (AMD64)", VG: "SampleInBall65AMD64", Run: func(i int) { cTilde[0] = byte(i & 63); asm.SampleInBall65AMD64(c, &cTilde) }},
		{Name: "ExpandMaskx4", VG: "ExpandMask19x4AVX2", C: "poly_uniform_gamma1_4x", Run: func(i int) { asm.ExpandMask19x4AVX2(four, seeds66(byte(i&63))) }},
		{Name: "Power2Round", VG: "Power2RoundPolyAVX2", C: "poly_power2round", Run: func(int) { asm.Power2RoundPolyAVX2(c, d, a) }},
		{Name: "UseHint", VG: "UseHint32AVX2", C: "poly_use_hint", Run: func(int) { asm.UseHint32AVX2(c, hint, a) }},
		{Name: "BitPack20", VG: "BitPack20AVX2", C: "polyz_pack", Run: func(int) { asm.BitPack20AVX2(&buf, a) }},
		{Name: "BitUnpack20", VG: "BitUnpack20AVX2", C: "polyz_unpack", Run: func(int) { asm.BitUnpack20AVX2(c, &buf) }},
		{Name: "SimpleBitPack10", VG: "SimpleBitPack10AVX2", C: "polyt1_pack", Run: func(int) { asm.SimpleBitPack10AVX2((*[320]byte)(buf[:320]), a) }},
		{Name: "SimpleBitUnpack10", VG: "SimpleBitUnpack10AVX2", C: "polyt1_unpack", Run: func(int) { asm.SimpleBitUnpack10AVX2(c, (*[320]byte)(buf[:320])) }},
		{Name: "BitPack13", VG: "BitPack13AVX2", C: "polyt0_pack", Run: func(int) { asm.BitPack13AVX2((*[416]byte)(buf[:416]), a) }},
		{Name: "BitUnpack13", VG: "BitUnpack13AVX2", C: "polyt0_unpack", Run: func(int) { asm.BitUnpack13AVX2(c, (*[416]byte)(buf[:416])) }},
		{Name: "BitPack4", VG: "BitPack4AVX2", C: "polyeta_pack", Run: func(int) { asm.BitPack4AVX2((*[128]byte)(buf[:128]), a) }},
		{Name: "BitUnpack4", VG: "BitUnpack4AVX2", C: "polyeta_unpack", Run: func(int) { asm.BitUnpack4AVX2(c, (*[128]byte)(buf[:128]), &bad) }},
		{Name: "SimpleBitPack4", VG: "SimpleBitPack4AVX2", C: "polyw1_pack", Run: func(int) { asm.SimpleBitPack4AVX2((*[128]byte)(buf[:128]), a) }},
	}...)
}

// routinesUsable reports whether this CPU runs the AVX2 variants.
func routinesUsable() bool { return cpu.X86.HasAVX2 && cpu.X86.HasBMI2 }
