//go:build amd64 && !purego

package mldsa

import "golang.org/x/sys/cpu"

// useAVX2 selects the AVX2 variants of the routines. This is the one place
// where CPU features are decided, once, at start-up. cpu.X86.HasAVX2 already
// requires the OS to save the ymm registers (XGETBV). With the build tag
// cpu_features_env, VG_CPU_FEATURES may force the choice (cpu_env_amd64.go).
var useAVX2 = cpuFeatures(cpu.X86.HasAVX2)

// useAVX512 selects the AVX-512 variants, which need AVX512F and AVX512VL
// besides AVX2; decided once like useAVX2. x/sys/cpu sets HasAVX512F only
// when XGETBV says the OS saves the opmask and zmm state (XCR0 bits 5–7).
// VG_CPU_FEATURES=avx2 and none turn it off, avx512 requires it.
var useAVX512 = cpuFeatures512(cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL)

// useBMI2 selects the ×1 Keccak with ANDN (BMI1) and RORX (BMI2), decided
// once like useAVX2; VG_CPU_FEATURES=none turns it off too, so that the
// baseline assembly runs alone.
var useBMI2 = cpuFeaturesBMI(cpu.X86.HasBMI1 && cpu.X86.HasBMI2)
