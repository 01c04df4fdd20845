//go:build race

package mldsa

// raceEnabled: the race detector makes sync.Pool drop items at random, so
// pooled scratch is allocated anew now and then.
const raceEnabled = true
