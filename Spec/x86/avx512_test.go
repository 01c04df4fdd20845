package x86

import (
	"math/bits"
	"strings"
	"testing"
)

// Encodings below are Go's assembler's, read back by objdump (in the
// comments).

func TestDecodeEVEX(t *testing.T) {
	for _, tc := range []struct {
		code []byte
		want string
	}{
		{[]byte{0x62, 0xF3, 0xED, 0x28, 0x25, 0xD9, 0x96}, "VPTERNLOGQ $0x96, Y1, Y2, Y3"},           // vpternlogq $0x96,%ymm1,%ymm2,%ymm3
		{[]byte{0x62, 0x53, 0xAD, 0x28, 0x25, 0xD9, 0xD2}, "VPTERNLOGQ $0xd2, Y9, Y10, Y11"},         // vpternlogq $0xd2,%ymm9,%ymm10,%ymm11
		{[]byte{0x62, 0xF3, 0xED, 0x08, 0x25, 0xD9, 0xD2}, "VPTERNLOGQ $0xd2, X1, X2, X3"},           // vpternlogq $0xd2,%xmm1,%xmm2,%xmm3
		{[]byte{0x62, 0xF3, 0xED, 0x28, 0x25, 0x58, 0x02, 0x96}, "VPTERNLOGQ $0x96, 64(AX), Y2, Y3"}, // disp8 2 × N = 32: 0x40(%rax)
		{[]byte{0x62, 0x53, 0xED, 0x28, 0x25, 0xBD, 0x18, 0, 0, 0, 0x96}, "VPTERNLOGQ $0x96, 24(R13), Y2, Y15"},
		{[]byte{0x62, 0xF3, 0xED, 0x28, 0x25, 0x5C, 0xDE, 0xFF, 0x96}, "VPTERNLOGQ $0x96, -32(SI)(BX*8), Y2, Y3"},
		{[]byte{0x62, 0xF1, 0xED, 0x28, 0x72, 0xC9, 0x01}, "VPROLQ $0x1, Y1, Y2"},           // vprolq $0x1,%ymm1,%ymm2
		{[]byte{0x62, 0xD1, 0x9D, 0x28, 0x72, 0xCC, 0x2C}, "VPROLQ $0x2c, Y12, Y12"},        // vprolq $0x2c,%ymm12,%ymm12
		{[]byte{0x62, 0xF1, 0xCD, 0x08, 0x72, 0xC5, 0x03}, "VPRORQ $0x3, X5, X6"},           // vprorq $0x3,%xmm5,%xmm6
		{[]byte{0x62, 0xF1, 0xDD, 0x28, 0x72, 0x4F, 0x01, 0x07}, "VPROLQ $0x7, 32(DI), Y4"}, // disp8 1 × 32
	} {
		in, n, err := Decode(tc.code, 0, 0x1000)
		if err != nil {
			t.Errorf("% x: %v", tc.code, err)
			continue
		}
		if n != len(tc.code) || in.Text != tc.want {
			t.Errorf("% x: %q (%d bytes), want %q (%d)", tc.code, in.Text, n, tc.want, len(tc.code))
		}
		if !strings.HasPrefix(in.Form, "SDM Vol. 2, EVEX.") {
			t.Errorf("% x: form %q", tc.code, in.Form)
		}
		if f := in.Features(); len(f) != 2 || f[0] != "AVX512F" || f[1] != "AVX512VL" {
			t.Errorf("% x: features %v", tc.code, f)
		}
	}
}

func TestDecodeEVEXRejects(t *testing.T) {
	for _, tc := range []struct {
		code []byte
		why  string
	}{
		{[]byte{0x62, 0xB3, 0xED, 0x28, 0x25, 0xD9, 0x96}, "register 16–31 by EVEX.X"}, // %ymm17 source
		{[]byte{0x62, 0xF3, 0xED, 0x48, 0x25, 0xD9, 0x96}, "zmm (L'L = 10)"},
		{[]byte{0x62, 0xF3, 0xED, 0x68, 0x25, 0xD9, 0x96}, "L'L = 11"},
		{[]byte{0x62, 0xF3, 0xED, 0x29, 0x25, 0xD9, 0x96}, "opmask k1"},
		{[]byte{0x62, 0xF3, 0xED, 0xA9, 0x25, 0xD9, 0x96}, "zeroing with k1"},
		{[]byte{0x62, 0xF3, 0xED, 0xA8, 0x25, 0xD9, 0x96}, "zeroing without a mask"},
		{[]byte{0x62, 0xF3, 0xED, 0x38, 0x25, 0x18, 0x96}, "broadcast {1to4}"},
		{[]byte{0x62, 0xF3, 0xED, 0x38, 0x25, 0xD9, 0x96}, "EVEX.b on registers (rounding)"},
		{[]byte{0x62, 0xE1, 0xED, 0x20, 0x72, 0xC9, 0x01}, "register 16–31 by EVEX.V' (%ymm18)"},
		{[]byte{0x62, 0xF3, 0xDD, 0x20, 0x25, 0xD9, 0x96}, "vvvv register 20 by EVEX.V'"},
		{[]byte{0x62, 0xE3, 0xED, 0x28, 0x25, 0xD9, 0x96}, "ModRM.reg 16–31 by EVEX.R'"},
		{[]byte{0x62, 0xF3, 0x6D, 0x28, 0x25, 0xD9, 0x96}, "VPTERNLOGD (W0)"},
		{[]byte{0x62, 0xF1, 0x6D, 0x28, 0x72, 0xC9, 0x01}, "VPROLD (W0)"},
		{[]byte{0x62, 0xF1, 0xED, 0x28, 0x72, 0xD1, 0x01}, "72 /2 (VPSRLQ has no EVEX form here)"},
		{[]byte{0x62, 0xF3, 0xE9, 0x28, 0x25, 0xD9, 0x96}, "P1 bit 2 clear"},
		{[]byte{0x62, 0xF7, 0xED, 0x28, 0x25, 0xD9, 0x96}, "P0 bits 3:2 set"},
		{[]byte{0x62, 0xF0, 0xED, 0x28, 0x25, 0xD9, 0x96}, "map 0"},
		{[]byte{0x66, 0x62, 0xF3, 0xED, 0x28, 0x25, 0xD9, 0x96}, "66 before EVEX"},
		{[]byte{0x48, 0x62, 0xF3, 0xED, 0x28, 0x25, 0xD9, 0x96}, "REX before EVEX"},
		{[]byte{0x62, 0xF3, 0xED, 0x28, 0x25, 0xD9}, "missing immediate"},
		{[]byte{0x62, 0xF3, 0xED}, "truncated prefix"},
	} {
		if in, _, err := Decode(tc.code, 0, 0x1000); err == nil {
			t.Errorf("% x (%s): decoded as %s", tc.code, tc.why, in.Text)
		}
	}
}

// TestTernlogTable runs VPTERNLOGQ with every immediate on sources whose
// bits cover the eight input combinations: dst = 0xF0…, src2 = 0xCC…,
// src3 = 0xAA… put combination i (dst·4 + src2·2 + src3) at bit i of each
// byte, so every byte of the result is the immediate itself (SDM Vol. 2C,
// VPTERNLOGQ: "the value of imm8 … is the truth table").
func TestTernlogTable(t *testing.T) {
	const rep = 0x0101010101010101
	for imm := 0; imm < 256; imm++ {
		for _, y := range []bool{false, true} {
			m := newM(t)
			for w := 0; w < 4; w++ {
				m.Vec[1][w] = 0xAA * rep
				m.Vec[2][w] = 0xCC * rep
				m.Vec[3][w] = 0xF0 * rep
			}
			r := "X"
			if y {
				r = "Y"
			}
			in, err := ParseInsn("VPTERNLOGQ $" + itoa(imm) + ", " + r + "1, " + r + "2, " + r + "3")
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Exec(in); err != nil {
				t.Fatalf("%s: %v", in, err)
			}
			for w := 0; w < 4; w++ {
				want := uint64(imm) * rep
				if !y && w >= 2 {
					want = 0 // EVEX.128 zeroes the upper bits
				}
				eq(t, in.Text+" word "+itoa(w), m.Vec[3][w], want)
			}
		}
	}
}

func itoa(i int) string {
	const d = "0123456789"
	if i < 10 {
		return d[i : i+1]
	}
	return itoa(i/10) + d[i%10:i%10+1]
}

func TestRotateQ(t *testing.T) {
	m := newM(t)
	x := [4]uint64{0x8000000000000001, 0x0123456789abcdef, 0xfedcba9876543210, 1 << 63}
	m.Vec[1] = x
	run(t, m, "VPROLQ $1, Y1, Y2", "VPRORQ $3, Y1, Y3", "VPROLQ $65, Y1, Y4", "VPRORQ $0, X1, X5")
	for w := 0; w < 4; w++ {
		eq(t, "VPROLQ $1", m.Vec[2][w], bits.RotateLeft64(x[w], 1))
		eq(t, "VPRORQ $3", m.Vec[3][w], bits.RotateLeft64(x[w], -3))
		eq(t, "VPROLQ $65 (count mod 64)", m.Vec[4][w], bits.RotateLeft64(x[w], 1))
	}
	eq(t, "VPRORQ X word 0", m.Vec[5][0], x[0])
	eq(t, "VPRORQ X word 1", m.Vec[5][1], x[1])
	eq(t, "VPRORQ X word 2", m.Vec[5][2], 0)
	eq(t, "VPRORQ X word 3", m.Vec[5][3], 0)
	// A memory source of 32 bytes.
	for i := 0; i < 32; i++ {
		m.Regions[0].Bytes[i] = uint64(i + 1)
	}
	m.GPR[DI] = memBase
	run(t, m, "VPROLQ $8, (DI), Y6")
	eq(t, "VPROLQ mem word 0", m.Vec[6][0], bits.RotateLeft64(0x0807060504030201, 8))
	eq(t, "VPROLQ mem word 3", m.Vec[6][3], bits.RotateLeft64(0x201f1e1d1c1b1a19, 8))
}
