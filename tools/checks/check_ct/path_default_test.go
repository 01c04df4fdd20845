//go:build !(purego || cpu_features_env)

package main

const testedElsewhere = false
