package check

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// wireSrc copies 32 bytes through Y0 and Y1; body replaces the instruction
// between them.
const wireSrc = `#include "textflag.h"

// func Wire(out *[32]byte, in *[32]byte)
// Requires: AVX, AVX2
TEXT ·Wire(SB), NOSPLIT, $0-16
	MOVQ out+0(FP), DI
	MOVQ in+8(FP), SI
	VMOVDQU (SI), Y0
	BODY
	VMOVDQU Y1, (DI)
	VZEROUPPER
	RET
`

// wireContract: out = in with each byte's top bit cleared, given that
// every in byte's bit 0 is zero (the precondition).
func wireContract() *contract.Contract {
	return &contract.Contract{
		Symbol: "Wire", Routine: "Wire", Variant: "test", GoSig: "func Wire(out, in *[32]byte)",
		Args: []contract.Arg{
			{Name: "out", Bytes: 32, Secret: true, Write: true},
			{Name: "in", Bytes: 32, Secret: true, Read: true},
		},
		Features: []string{"AVX", "AVX2"}, NoAlias: true,
		Wiring: &contract.Wiring{In: "in", Out: "out",
			InZero: func(bit int) bool { return bit%8 == 0 },
			Bit: func(k int) int {
				if k%8 == 7 || k%8 == 0 {
					return -1
				}
				return k
			}},
		Gen: func(r *rand.Rand) contract.Buffers {
			return contract.Buffers{"in": make([]byte, 32), "out": make([]byte, 32)}
		},
		Check: func(in, out contract.Buffers, _ byte) error { return nil },
	}
}

// TestWiring proves a correct wiring and refuses wrong ones: a bit moved,
// a top bit kept, an addition, a register never set, two input bits in one.
func TestWiring(t *testing.T) {
	cases := []struct {
		name, body, wantErr string
	}{
		{"correct", "VPAND wireMask<>+0(SB), Y0, Y1", ""},
		{"shifted", "VPSRLQ $0x01, Y0, Y1", "the contract says"},
		{"top bit kept", "VMOVDQU Y0, Y1", "the contract says"},
		{"addition", "VPADDD Y0, Y0, Y1", "is no wiring"},
		{"garbage", "VPOR Y2, Y0, Y1", "not the input"},
		{"two bits", "VPSLLQ $0x01, Y0, Y1\n\tVPXOR Y0, Y1, Y1", "bvxor of"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(wireSrc, "BODY", tc.body, 1) + maskData
			f, err := x86.ParseFile("wiring_test.s", src)
			if err != nil {
				t.Fatal(err)
			}
			d, err := proveWiring(f, f.Routines[0], wireContract(), 10000)
			wantVerdict(t, d, err, tc.wantErr)
		})
	}
}

const maskData = `
DATA wireMask<>+0(SB)/8, $0x7f7f7f7f7f7f7f7f
DATA wireMask<>+8(SB)/8, $0x7f7f7f7f7f7f7f7f
DATA wireMask<>+16(SB)/8, $0x7f7f7f7f7f7f7f7f
DATA wireMask<>+24(SB)/8, $0x7f7f7f7f7f7f7f7f
GLOBL wireMask<>(SB), RODATA|NOPTR, $32
`
