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
// requires AVX2. A CPU without AVX2 under "avx2", or any other value, stops
// the program at start-up: a mistyped value must not silently test the
// wrong path.
func cpuFeatures(hasAVX2 bool) bool {
	switch v := os.Getenv(cpuFeaturesEnv); v {
	case "":
		return hasAVX2
	case "none":
		return false
	case "avx2":
		if !hasAVX2 {
			cpuFeaturesExit(fmt.Sprintf("%s=avx2, but this CPU (or OS) does not support AVX2", cpuFeaturesEnv))
		}
		return true
	default:
		cpuFeaturesExit(fmt.Sprintf("%s=%q is not a known value; use none, avx2, or leave it unset", cpuFeaturesEnv, v))
		return false
	}
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
