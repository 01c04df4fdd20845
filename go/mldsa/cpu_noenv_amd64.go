//go:build amd64 && !purego && !cpu_features_env

package mldsa

// cpuFeatures returns whether to use AVX2: whenever the CPU has it.
func cpuFeatures(hasAVX2 bool) bool { return hasAVX2 }

// cpuFeatures512 returns whether to use AVX-512: whenever the CPU has
// what its variants need.
func cpuFeatures512(has bool) bool { return has }

// cpuFeaturesBMI returns whether to use BMI1 and BMI2: whenever the CPU
// has both.
func cpuFeaturesBMI(hasBMI bool) bool { return hasBMI }

// cpuFeaturesFromEnv reports whether VG_CPU_FEATURES is honoured.
const cpuFeaturesFromEnv = false
