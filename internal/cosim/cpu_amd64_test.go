//go:build !purego

package cosim

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	x86 "github.com/vg-crypto/vg/Spec/x86"
	"github.com/vg-crypto/vg/internal/cosim/forms"
	"golang.org/x/sys/cpu"
)

func requireAVX2(t *testing.T) {
	t.Helper()
	if !cpu.X86.HasAVX2 {
		// The harness loads and stores ymm registers with VMOVDQU.
		t.Skip("the harness needs AVX2; this CPU lacks it")
	}
}

// hasAVX512VL reports whether this CPU (and OS) runs the EVEX.128/256 forms
// of the model: AVX512F and AVX512VL (x/sys/cpu checks XCR0 for the opmask
// and zmm state).
func hasAVX512VL() bool { return cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL }

// needsAVX512 reports whether case c, of instructions ins, needs AVX-512:
// a wide case (its harness loads and stores zmm0–31, and its instruction
// may be the EVEX form of a mnemonic VEX has too) or an AVX-512 mnemonic.
func needsAVX512(c Case, ins []forms.Insn) bool {
	if c.Wide {
		return true
	}
	for _, in := range ins {
		if inf, ok := x86.Lookup(in.Mnemonic); ok && strings.HasPrefix(inf.Feature, "AVX512") {
			return true
		}
	}
	return false
}

// TestLayout checks the offsets the generator wrote into the harness.
func TestLayout(t *testing.T) {
	var s State
	got := []uintptr{unsafe.Offsetof(s.GPR), unsafe.Offsetof(s.Flags), unsafe.Offsetof(s.MXCSR),
		unsafe.Offsetof(s.Taken), unsafe.Offsetof(s.Y), unsafe.Offsetof(s.Mem), unsafe.Offsetof(s.Z)}
	want := []uintptr{OffGPR, OffFlags, OffMXCSR, OffTaken, OffY, OffMem, OffZ}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("field %d at offset %d, harness uses %d", i, got[i], want[i])
		}
	}
}

// TestRoundTrip runs the harness with no instruction: every loaded bit must
// come back unchanged, or the CPU side of the comparison is wrong.
func TestRoundTrip(t *testing.T) {
	requireAVX2(t)
	r := rand.New(rand.NewPCG(1, 2))
	s := new(State)
	for n := 0; n < 1000; n++ {
		var in State
		in.Taken = 7 // the harness must overwrite it with 0
		for i := range in.GPR {
			in.GPR[i] = word(r)
		}
		in.GPR[4] = 0
		in.Flags = r.Uint64() & StatusMask
		in.MXCSR = uint32(r.Uint64() & 0xffff)
		for i := range in.Y {
			vector(r, in.Y[i][:])
		}
		for i := range in.Mem {
			in.Mem[i] = byte(r.Uint32())
		}
		*s = in
		roundTrip(s)
		if s.Flags&^StatusMask&^0x202 != 0 {
			// Only IF and the reserved bit 1 may be set besides status flags.
			t.Fatalf("RFLAGS %#x has unexpected bits", s.Flags)
		}
		s.Flags &= StatusMask
		if s.Taken != 0 {
			t.Fatalf("Taken = %d, want 0", s.Taken)
		}
		s.Taken = in.Taken
		if *s != in {
			t.Fatalf("state changed:\n in %+v\nout %+v", in, *s)
		}
	}
}
