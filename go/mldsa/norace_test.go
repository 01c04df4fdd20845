//go:build !race

package mldsa

const raceEnabled = false
