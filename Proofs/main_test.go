package proofs

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestMain paces the collector as vg prove does (cmd/vg's proveGC): the
// proofs allocate many short-lived states, and the default pace spends a
// large share of the CPU time collecting them. GOGC, when set, rules.
func TestMain(m *testing.M) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	os.Exit(m.Run())
}
