//go:build !purego

package cosim

import (
	"testing"

	x86 "github.com/vg-crypto/vg/Spec/x86"
)

// TestFrameLayout checks, for the frame size and flags of every routine of
// go/asm, the stack layout Spec/check gives a routine (Spec/check/setup.go:
// the frame from SP up, then the BP the assembler's prologue saves when the
// frame is not empty, the return address, then the arguments) and the
// model's FP and pseudo-SP addressing, against the layout the Go toolchain
// builds: the model's address of out+0(FP) and of local-8(SP) must be the
// CPU's.
func TestFrameLayout(t *testing.T) {
	requireAVX2(t)
	if len(Frames()) == 0 {
		t.Fatal("no frame probes: run go run ./internal/cosim/gen")
	}
	for _, f := range Frames() {
		var out [3]uint64
		f.Run(&out)
		sp := out[0]
		hidden := uint64(8) // return address
		if f.Size > 0 {
			hidden += 8 // saved BP
		}
		m := x86.NewMachine[uint64](x86.Conc{}, 0)
		m.AddRegion("frame", x86.Frame, sp, f.Size, true, 0)
		m.AddRegion("args", x86.Args, sp+uint64(f.Size)+hidden, 8, false, 0)
		m.GPR[x86.SP] = sp
		probes := []struct {
			text string
			cpu  uint64
		}{{"LEAQ out+0(FP), BX", out[1]}}
		if f.Size >= 8 {
			probes = append(probes, struct {
				text string
				cpu  uint64
			}{"LEAQ local-8(SP), BX", out[2]})
		}
		for _, p := range probes {
			in, err := x86.ParseInsn(p.text)
			if err != nil {
				t.Fatalf("%s: %v", p.text, err)
			}
			if err := m.Exec(in); err != nil {
				t.Fatalf("%s: %v", p.text, err)
			}
			if got := m.GPR[x86.BX]; got != p.cpu {
				t.Errorf("%s (frame %d): %s: model %#x (SP%+d), CPU %#x (SP%+d)", f.Routine, f.Size, p.text,
					got, int64(got-sp), p.cpu, int64(p.cpu-sp))
			}
		}
		t.Logf("%s: frame %d bytes, argument at SP%+d, local-8(SP) at SP%+d", f.Routine, f.Size, int64(out[1]-sp), int64(out[2]-sp))
	}
}
