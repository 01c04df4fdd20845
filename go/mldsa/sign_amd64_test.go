//go:build amd64 && !purego

package mldsa

import (
	"testing"
	"unsafe"

	"github.com/vg-crypto/vg/Spec/contract"
)

// The Sign routines take signScratch's parts as their acc and scratch
// buffers: the layout their contracts give.
func TestSignScratchLayout(t *testing.T) {
	var s signScratch
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"acc size", unsafe.Sizeof(s.acc), contract.SignAccBytes},
		{"z", unsafe.Offsetof(s.acc.z), contract.SignAccZ},
		{"h", unsafe.Offsetof(s.acc.h), contract.SignAccH},
		{"scratch size", unsafe.Sizeof(s.signWork), contract.SignScratchLen},
		{"in", unsafe.Offsetof(s.signWork.in), 0},
		{"ĉ", unsafe.Offsetof(s.signWork.cHat), contract.SignCHat},
		{"w", unsafe.Offsetof(s.signWork.w), contract.SignW},
		{"work", unsafe.Offsetof(s.signWork.work), contract.SignWork},
		{"state", unsafe.Offsetof(s.signWork.state), contract.SignState},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d, the contract's %d", c.name, c.got, c.want)
		}
	}
}
