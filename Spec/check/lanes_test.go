package check

import (
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// laneSrc is a coefficient map out[i] = in[i] + k[i mod 8] over 256 words,
// eight at a time; body replaces the one instruction that computes it.
const laneSrc = `#include "textflag.h"

// func LaneMap(out *[256]uint32, in *[256]uint32)
// Requires: AVX, AVX2
TEXT ·LaneMap(SB), NOSPLIT, $0-16
	MOVQ out+0(FP), DI
	MOVQ in+8(FP), SI
	MOVL $0x00000020, CX

loop:
	VMOVDQU (SI), Y0
	BODY
	VMOVDQU Y1, (DI)
	ADDQ    $0x00000020, SI
	ADDQ    $0x00000020, DI
	DECL    CX
	JNE     loop
	VZEROUPPER
	RET

DATA laneK<>+0(SB)/4, $0x00000001
DATA laneK<>+4(SB)/4, $0x00000001
DATA laneK<>+8(SB)/4, $0x00000001
DATA laneK<>+12(SB)/4, $0x00000001
DATA laneK<>+16(SB)/4, $0x00000001
DATA laneK<>+20(SB)/4, $0x00000001
DATA laneK<>+24(SB)/4, $0x00000001
DATA laneK<>+28(SB)/4, $LAST
GLOBL laneK<>(SB), RODATA|NOPTR, $32
`

// laneContract: out[i] = in[i] + 1 for in[i] in [0, 1000).
func laneContract() *contract.Contract {
	return &contract.Contract{
		Symbol: "LaneMap", Routine: "LaneMap", Variant: "test", GoSig: "func LaneMap(out, in *[256]uint32)",
		Args: []contract.Arg{
			{Name: "out", Bytes: 1024, Secret: true, Write: true},
			{Name: "in", Bytes: 1024, Secret: true, Read: true},
		},
		Features: []string{"AVX", "AVX2"}, NoAlias: true,
		Lanes: &contract.Lanes{In: []string{"in"}, Domain: []uint32{1000}, Out: []string{"out"},
			Map: func(in []uint32) []uint32 { return []uint32{in[0] + 1} }},
		Gen: func(r *rand.Rand) contract.Buffers {
			b := make([]byte, 1024)
			for i := 0; i < 256; i++ {
				binary.LittleEndian.PutUint32(b[4*i:], r.Uint32N(1000))
			}
			return contract.Buffers{"in": b, "out": make([]byte, 1024)}
		},
		Check: func(in, out contract.Buffers, _ byte) error { return nil },
	}
}

// TestLanes proves a correct coefficient map and refuses three wrong ones:
// a constant wrong in one lane of eight, a lane that reads its neighbour,
// and a lane that reads a register never set.
func TestLanes(t *testing.T) {
	cases := []struct {
		name, body, last string
		wantErr          string
	}{
		{"correct", "VPADDD laneK<>+0(SB), Y0, Y1", "0x00000001", ""},
		{"one lane off", "VPADDD laneK<>+0(SB), Y0, Y1", "0x00000002", "term gives"},
		{"neighbour", "VPSHUFD $0x39, Y0, Y1", "0x00000001", "depends on the input words of other positions"},
		{"garbage", "VPADDD Y2, Y0, Y1", "0x00000001", "depends on something other than input word"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.NewReplacer("BODY", tc.body, "LAST", tc.last).Replace(laneSrc)
			f, err := x86.ParseFile("lanes_test.s", src)
			if err != nil {
				t.Fatal(err)
			}
			d, err := proveLanes(f, f.Routines[0], laneContract(), 100000)
			wantVerdict(t, d, err, tc.wantErr)
		})
	}
}

// wantVerdict fails t unless the proof's outcome is the one wanted: proven
// when wantErr is empty, else refused with an error containing wantErr.
func wantVerdict(t *testing.T, d string, err error, wantErr string) {
	t.Helper()
	switch {
	case wantErr == "" && err != nil:
		t.Fatalf("not proven: %v", err)
	case wantErr != "" && err == nil:
		t.Fatalf("proven: %s", d)
	case wantErr != "" && !strings.Contains(err.Error(), wantErr):
		t.Fatalf("refused for another reason: %v", err)
	}
	if err != nil {
		t.Log(err)
	} else {
		t.Log(d)
	}
}
