//go:build amd64 && !purego && cpu_features_env

package mldsa

import (
	"fmt"
	"os"
)

// cpuFeaturesEnv names the variable that chooses the routines' variants in
// builds with the tag cpu_features_env, so that tests can run the baseline
// assembly on an AVX2 machine.
const cpuFeaturesEnv = "VG_CPU_FEATURES"

// cpuFeaturesFromEnv reports whether VG_CPU_FEATURES is honoured.
const cpuFeaturesFromEnv = true

// cpuFeatures returns whether to use AVX2, as VG_CPU_FEATURES says: unset or
// empty chooses by the CPU, "none" forces the baseline assembly, "avx2"
// requires AVX2 (and turns AVX-512 off), "avx512" requires AVX2 and the
// AVX-512 features (cpuFeatures512). A CPU without them under "avx2" or
// "avx512", or any other value, stops the program at start-up: a mistyped
// value must not silently test the wrong path.
func cpuFeatures(hasAVX2 bool) bool {
	switch v := os.Getenv(cpuFeaturesEnv); v {
	case "":
		return hasAVX2
	case "none":
		return false
	case "avx2", "avx512":
		if !hasAVX2 {
			cpuFeaturesExit(fmt.Sprintf("%s=%s, but this CPU (or OS) does not support AVX2", cpuFeaturesEnv, v))
		}
		return true
	default:
		cpuFeaturesExit(fmt.Sprintf("%s=%q is not a known value; use none, avx2, avx512, or leave it unset", cpuFeaturesEnv, v))
		return false
	}
}

// cpuFeatures512 returns whether to use the AVX-512 variants: as the CPU
// says when VG_CPU_FEATURES is unset, never under "none" or "avx2", always
// under "avx512", which stops the program on a CPU (or OS) without them.
func cpuFeatures512(has bool) bool {
	switch v := os.Getenv(cpuFeaturesEnv); v {
	case "":
		return has
	case "avx512":
		if !has {
			cpuFeaturesExit(fmt.Sprintf("%s=avx512, but this CPU (or OS) does not support AVX512F and AVX512VL", cpuFeaturesEnv))
		}
		return true
	}
	return false // none, avx2; cpuFeatures rejects the rest
}

// cpuFeaturesBMI returns whether to use BMI1 and BMI2: as the CPU says,
// except under "none" (cpuFeatures rejects unknown values).
func cpuFeaturesBMI(hasBMI bool) bool {
	return hasBMI && os.Getenv(cpuFeaturesEnv) != "none"
}

func cpuFeaturesExit(msg string) {
	fmt.Fprintln(os.Stderr, "vg/go/mldsa:", msg)
	os.Exit(2)
}
