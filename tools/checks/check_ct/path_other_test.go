//go:build purego || cpu_features_env

package main

// The tests build the driver for every code path themselves, whatever tags
// the test binary has; they run once, in the default build.
const testedElsewhere = true
