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

// The 512-bit forms and registers 16–31 (EVEX.R', EVEX.V', EVEX.X), as Go's
// assembler encodes them; the comments are objdump's reading.
func TestDecodeEVEX512(t *testing.T) {
	for _, tc := range []struct {
		code []byte
		want string
	}{
		{[]byte{0x62, 0xF3, 0xED, 0x48, 0x25, 0xD9, 0x96}, "VPTERNLOGQ $0x96, Z1, Z2, Z3"},             // vpternlogq $0x96,%zmm1,%zmm2,%zmm3
		{[]byte{0x62, 0x23, 0x8D, 0x40, 0x25, 0xF9, 0xD2}, "VPTERNLOGQ $0xd2, Z17, Z30, Z31"},          // vpternlogq $0xd2,%zmm17,%zmm30,%zmm31
		{[]byte{0x62, 0xF3, 0xED, 0x40, 0x25, 0x58, 0x02, 0x96}, "VPTERNLOGQ $0x96, 128(AX), Z18, Z3"}, // vpternlogq $0x96,0x80(%rax),%zmm18,%zmm3
		{[]byte{0x62, 0xF1, 0xED, 0x48, 0x72, 0xC9, 0x01}, "VPROLQ $0x1, Z1, Z2"},                      // vprolq $0x1,%zmm1,%zmm2
		{[]byte{0x62, 0xB1, 0xB5, 0x40, 0x72, 0xCC, 0x2C}, "VPROLQ $0x2c, Z20, Z25"},                   // vprolq $0x2c,%zmm20,%zmm25
		{[]byte{0x62, 0xD1, 0xFD, 0x40, 0x72, 0xC1, 0x03}, "VPRORQ $0x3, Z9, Z16"},                     // vprorq $0x3,%zmm9,%zmm16
		{[]byte{0x62, 0xF1, 0xDD, 0x48, 0x72, 0x4F, 0x01, 0x07}, "VPROLQ $0x7, 64(DI), Z4"},            // vprolq $0x7,0x40(%rdi),%zmm4
		{[]byte{0x62, 0xF1, 0xED, 0x48, 0xEF, 0xD9}, "VPXORQ Z1, Z2, Z3"},                              // vpxorq %zmm1,%zmm2,%zmm3
		{[]byte{0x62, 0xA1, 0xED, 0x40, 0xEF, 0xD9}, "VPXORQ Z17, Z18, Z19"},                           // vpxorq %zmm17,%zmm18,%zmm19
		{[]byte{0x62, 0x41, 0x9D, 0x48, 0xEF, 0x64, 0xDD, 0x03}, "VPXORQ 192(R13)(BX*8), Z12, Z28"},    // vpxorq 0xc0(%r13,%rbx,8),%zmm12,%zmm28
		{[]byte{0x62, 0xB1, 0xED, 0x28, 0xEF, 0xD9}, "VPXORQ Y17, Y2, Y3"},                             // vpxorq %ymm17,%ymm2,%ymm3
		{[]byte{0x62, 0xF1, 0xCD, 0x00, 0xEF, 0xD9}, "VPXORQ X1, X22, X3"},                             // vpxorq %xmm1,%xmm22,%xmm3
		{[]byte{0x62, 0xF1, 0xFE, 0x48, 0x6F, 0x08}, "VMOVDQU64 (AX), Z1"},                             // vmovdqu64 (%rax),%zmm1
		{[]byte{0x62, 0x61, 0xFE, 0x48, 0x6F, 0x40, 0x01}, "VMOVDQU64 64(AX), Z24"},                    // vmovdqu64 0x40(%rax),%zmm24
		{[]byte{0x62, 0x41, 0xFE, 0x48, 0x7F, 0x43, 0x02}, "VMOVDQU64 Z24, 128(R11)"},                  // vmovdqu64 %zmm24,0x80(%r11)
		{[]byte{0x62, 0x91, 0xFE, 0x48, 0x7F, 0xCF}, "VMOVDQU64 Z1, Z31"},                              // vmovdqu64 %zmm1,%zmm31
		{[]byte{0x62, 0xE1, 0xFE, 0x48, 0x7F, 0xCA}, "VMOVDQU64 Z17, Z2"},                              // vmovdqu64 %zmm17,%zmm2
		{[]byte{0x62, 0xE1, 0xFE, 0x28, 0x6F, 0x66, 0x01}, "VMOVDQU64 32(SI), Y20"},                    // vmovdqu64 0x20(%rsi),%ymm20
		{[]byte{0x62, 0xE1, 0xFE, 0x08, 0x7F, 0x6E, 0x01}, "VMOVDQU64 X21, 16(SI)"},                    // vmovdqu64 %xmm21,0x10(%rsi)
		{[]byte{0x62, 0xB3, 0xED, 0x28, 0x25, 0xD9, 0x96}, "VPTERNLOGQ $0x96, Y17, Y2, Y3"},            // vpternlogq $0x96,%ymm17,%ymm2,%ymm3
		{[]byte{0x62, 0xF3, 0xDD, 0x20, 0x25, 0xD9, 0x96}, "VPTERNLOGQ $0x96, Y1, Y20, Y3"},            // vpternlogq $0x96,%ymm1,%ymm20,%ymm3
		{[]byte{0x62, 0xE3, 0xED, 0x28, 0x25, 0xD9, 0x96}, "VPTERNLOGQ $0x96, Y1, Y2, Y19"},            // vpternlogq $0x96,%ymm1,%ymm2,%ymm19
		{[]byte{0x62, 0xB1, 0xED, 0x28, 0x72, 0xCA, 0x01}, "VPROLQ $0x1, Y18, Y2"},                     // vprolq $0x1,%ymm18,%ymm2
	} {
		in, n, err := Decode(tc.code, 0, 0x1000)
		if err != nil {
			t.Errorf("% x: %v", tc.code, err)
			continue
		}
		if n != len(tc.code) || in.Text != tc.want {
			t.Errorf("% x: %q (%d bytes), want %q (%d)", tc.code, in.Text, n, tc.want, len(tc.code))
		}
		wantF := []string{"AVX512F"}
		if !strings.Contains(tc.want, "Z") {
			wantF = append(wantF, "AVX512VL")
		}
		if f := in.Features(); strings.Join(f, ",") != strings.Join(wantF, ",") {
			t.Errorf("% x: features %v, want %v", tc.code, f, wantF)
		}
	}
}

// The EVEX forms of instructions the model also has as VEX ones, as Go's
// assembler encodes them (objdump's reading in the comments): their
// Features are AVX512F (and AVX512VL below 512 bits), not AVX2.
func TestDecodeEVEXShared(t *testing.T) {
	for _, tc := range []struct {
		code []byte
		want string
	}{
		{[]byte{0x62, 0xF1, 0x6D, 0x48, 0xFE, 0xD9}, "VPADDD Z1, Z2, Z3"},               // vpaddd %zmm1,%zmm2,%zmm3
		{[]byte{0x62, 0x21, 0x35, 0x40, 0xFE, 0xF1}, "VPADDD Z17, Z25, Z30"},            // vpaddd %zmm17,%zmm25,%zmm30
		{[]byte{0x62, 0xE1, 0x6D, 0x48, 0xFE, 0x60, 0x01}, "VPADDD 64(AX), Z2, Z20"},    // vpaddd 0x40(%rax),%zmm2,%zmm20
		{[]byte{0x62, 0xB1, 0x6D, 0x28, 0xFE, 0xD9}, "VPADDD Y17, Y2, Y3"},              // vpaddd %ymm17,%ymm2,%ymm3
		{[]byte{0x62, 0xF1, 0x6D, 0x48, 0xFA, 0x1E}, "VPSUBD (SI), Z2, Z3"},             // vpsubd (%rsi),%zmm2,%zmm3
		{[]byte{0x62, 0xE1, 0x6D, 0x08, 0xFA, 0xD9}, "VPSUBD X1, X2, X19"},              // vpsubd %xmm1,%xmm2,%xmm19
		{[]byte{0x62, 0xF2, 0xED, 0x48, 0x28, 0xD9}, "VPMULDQ Z1, Z2, Z3"},              // vpmuldq %zmm1,%zmm2,%zmm3
		{[]byte{0x62, 0xD2, 0xED, 0x40, 0x28, 0x5D, 0x02}, "VPMULDQ 128(R13), Z18, Z3"}, // vpmuldq 0x80(%r13),%zmm18,%zmm3
		{[]byte{0x62, 0x41, 0xAD, 0x48, 0xF4, 0xD9}, "VPMULUDQ Z9, Z10, Z27"},
		{[]byte{0x62, 0xF1, 0xED, 0x48, 0xD4, 0xD9}, "VPADDQ Z1, Z2, Z3"},                              // vpaddq %zmm1,%zmm2,%zmm3
		{[]byte{0x62, 0x41, 0xF5, 0x40, 0xD4, 0x71, 0x01}, "VPADDQ 64(R9), Z17, Z30"},                  // vpaddq 0x40(%r9),%zmm17,%zmm30
		{[]byte{0x62, 0xB1, 0xED, 0x28, 0xD4, 0xD9}, "VPADDQ Y17, Y2, Y3"},                             // vpaddq %ymm17,%ymm2,%ymm3
		{[]byte{0x62, 0xF2, 0x6D, 0x48, 0x7E, 0xD9}, "VPERMT2D Z1, Z2, Z3"},                            // vpermt2d %zmm1,%zmm2,%zmm3
		{[]byte{0x62, 0x22, 0x35, 0x40, 0x7E, 0xF1}, "VPERMT2D Z17, Z25, Z30"},                         // vpermt2d %zmm17,%zmm25,%zmm30
		{[]byte{0x62, 0xD2, 0x75, 0x40, 0x7E, 0x59, 0x01}, "VPERMT2D 64(R9), Z17, Z3"},                 // vpermt2d 0x40(%r9),%zmm17,%zmm3
		{[]byte{0x62, 0xF2, 0x6D, 0x28, 0x7E, 0xD9}, "VPERMT2D Y1, Y2, Y3"},                            // vpermt2d %ymm1,%ymm2,%ymm3
		{[]byte{0x62, 0xF2, 0x6D, 0x48, 0x40, 0xD9}, "VPMULLD Z1, Z2, Z3"},                             // vpmulld %zmm1,%zmm2,%zmm3
		{[]byte{0x62, 0x42, 0x75, 0x40, 0x40, 0x71, 0x01}, "VPMULLD 64(R9), Z17, Z30"},                 // vpmulld 0x40(%r9),%zmm17,%zmm30                          // vpmuludq %zmm9,%zmm10,%zmm27
		{[]byte{0x62, 0xF1, 0xED, 0x48, 0x6C, 0xD9}, "VPUNPCKLQDQ Z1, Z2, Z3"},                         // vpunpcklqdq %zmm1,%zmm2,%zmm3
		{[]byte{0x62, 0x21, 0xB5, 0x40, 0x6D, 0xF1}, "VPUNPCKHQDQ Z17, Z25, Z30"},                      // vpunpckhqdq %zmm17,%zmm25,%zmm30
		{[]byte{0x62, 0xF1, 0x6D, 0x48, 0x62, 0x1E}, "VPUNPCKLDQ (SI), Z2, Z3"},                        // vpunpckldq (%rsi),%zmm2,%zmm3
		{[]byte{0x62, 0xB1, 0x6D, 0x28, 0x6A, 0xD9}, "VPUNPCKHDQ Y17, Y2, Y3"},                         // vpunpckhdq %ymm17,%ymm2,%ymm3
		{[]byte{0x62, 0xF1, 0xED, 0x48, 0x73, 0xD1, 0x20}, "VPSRLQ $0x20, Z1, Z2"},                     // vpsrlq $0x20,%zmm1,%zmm2
		{[]byte{0x62, 0xB1, 0xB5, 0x40, 0x73, 0xF1, 0x3F}, "VPSLLQ $0x3f, Z17, Z25"},                   // vpsllq $0x3f,%zmm17,%zmm25
		{[]byte{0x62, 0xF1, 0x6D, 0x48, 0x72, 0xD1, 0x01}, "VPSRLD $0x1, Z1, Z2"},                      // vpsrld $0x1,%zmm1,%zmm2
		{[]byte{0x62, 0xB1, 0x55, 0x48, 0x72, 0xE4, 0x1F}, "VPSRAD $0x1f, Z20, Z5"},                    // vpsrad $0x1f,%zmm20,%zmm5
		{[]byte{0x62, 0xB1, 0x35, 0x40, 0x72, 0xF1, 0x0D}, "VPSLLD $0xd, Z17, Z25"},                    // vpslld $0xd,%zmm17,%zmm25
		{[]byte{0x62, 0xF1, 0x7D, 0x48, 0x70, 0xD1, 0xB1}, "VPSHUFD $0xb1, Z1, Z2"},                    // vpshufd $0xb1,%zmm1,%zmm2
		{[]byte{0x62, 0xE1, 0x7D, 0x48, 0x70, 0x76, 0x01, 0x4E}, "VPSHUFD $0x4e, 64(SI), Z22"},         // vpshufd $0x4e,0x40(%rsi),%zmm22
		{[]byte{0x62, 0xF3, 0xED, 0x48, 0x43, 0xD9, 0x44}, "VSHUFI64X2 $0x44, Z1, Z2, Z3"},             // vshufi64x2 $0x44,%zmm1,%zmm2,%zmm3
		{[]byte{0x62, 0x63, 0xF5, 0x40, 0x43, 0x77, 0x01, 0xEE}, "VSHUFI64X2 $0xee, 64(DI), Z17, Z30"}, // vshufi64x2 $0xee,0x40(%rdi),%zmm17,%zmm30
		{[]byte{0x62, 0x23, 0xB5, 0x20, 0x43, 0xF1, 0x02}, "VSHUFI64X2 $0x2, Y17, Y25, Y30"},           // vshufi64x2 $0x2,%ymm17,%ymm25,%ymm30
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
		wantF := []string{"AVX512F"}
		if !strings.Contains(tc.want, "Z") {
			wantF = append(wantF, "AVX512VL")
		}
		if f := in.Features(); strings.Join(f, ",") != strings.Join(wantF, ",") {
			t.Errorf("% x: features %v, want %v", tc.code, f, wantF)
		}
		if f := in.Feature(); f != "AVX512F" {
			t.Errorf("% x: feature %q", tc.code, f)
		}
	}
	// The VEX encoding of the same instruction keeps its AVX2 feature.
	in, _, err := Decode([]byte{0xC5, 0xED, 0xFE, 0xD9}, 0, 0x1000) // vpaddd %ymm1,%ymm2,%ymm3
	if err != nil || in.Text != "VPADDD Y1, Y2, Y3" || strings.Join(in.Features(), ",") != "AVX2" {
		t.Errorf("VEX VPADDD: %v %v", in, err)
	}
}

func TestDecodeEVEXRejects(t *testing.T) {
	for _, tc := range []struct {
		code []byte
		why  string
	}{
		{[]byte{0x62, 0xF3, 0xED, 0x68, 0x25, 0xD9, 0x96}, "L'L = 11"},
		{[]byte{0x62, 0xF3, 0xED, 0x29, 0x25, 0xD9, 0x96}, "opmask k1"},
		{[]byte{0x62, 0xF3, 0xED, 0xA9, 0x25, 0xD9, 0x96}, "zeroing with k1"},
		{[]byte{0x62, 0xF3, 0xED, 0xA8, 0x25, 0xD9, 0x96}, "zeroing without a mask"},
		{[]byte{0x62, 0xF3, 0xED, 0x38, 0x25, 0x18, 0x96}, "broadcast {1to4}"},
		{[]byte{0x62, 0xF3, 0xED, 0x38, 0x25, 0xD9, 0x96}, "EVEX.b on registers (rounding)"},
		{[]byte{0x62, 0xE1, 0xED, 0x20, 0x72, 0xC9, 0x01}, "VPROLQ's ModRM.reg is /1: EVEX.R' = 0 not accepted"},
		{[]byte{0x62, 0xF3, 0xED, 0x68, 0x25, 0xD9, 0x96}, "L'L = 11 (reserved)"},
		{[]byte{0x62, 0xF1, 0xFE, 0x40, 0x6F, 0x08}, "VMOVDQU64 with EVEX.V' = 0 (#UD)"},
		{[]byte{0x62, 0xF1, 0xEE, 0x48, 0x6F, 0x08}, "VMOVDQU64 with vvvv ≠ 1111b (#UD)"},
		{[]byte{0x62, 0xF1, 0x7E, 0x48, 0x6F, 0x08}, "VMOVDQU32 (W0)"},
		{[]byte{0x62, 0xF1, 0x6D, 0x48, 0xEF, 0xD9}, "VPXORD (W0)"},
		{[]byte{0x62, 0xF1, 0xFE, 0x49, 0x6F, 0x08}, "VMOVDQU64 with opmask k1"},
		{[]byte{0x62, 0xF1, 0xED, 0x58, 0xEF, 0x18}, "VPXORQ with broadcast {1to8}"},
		{[]byte{0x62, 0xF3, 0x6D, 0x28, 0x25, 0xD9, 0x96}, "VPTERNLOGD (W0)"},
		{[]byte{0x62, 0xF1, 0x6D, 0x28, 0x72, 0xC9, 0x01}, "VPROLD (W0)"},
		{[]byte{0x62, 0xF1, 0xED, 0x28, 0x72, 0xD1, 0x01}, "72 /2 with W1 (VPSRLD is W0)"},
		{[]byte{0x62, 0xF1, 0xED, 0x48, 0xFE, 0xD9}, "FE with W1 (VPADDD is W0)"},
		{[]byte{0x62, 0xF2, 0x6D, 0x48, 0x28, 0xD9}, "VPMULDQ with W0"},
		{[]byte{0x62, 0xF3, 0xED, 0x08, 0x43, 0xD9, 0x44}, "VSHUFI64X2 at 128 bits (#UD)"},
		{[]byte{0x62, 0xF1, 0xED, 0x48, 0x73, 0x11, 0x20}, "VPSRLQ of a memory source (not modelled)"},
		{[]byte{0x62, 0xF1, 0x6D, 0x49, 0xFE, 0xD9}, "VPADDD with opmask k1"},
		{[]byte{0x62, 0xF1, 0x6D, 0x58, 0xFE, 0x18}, "VPADDD with broadcast {1to16}"},
		{[]byte{0x62, 0xF1, 0x6D, 0x48, 0xD4, 0xD9}, "D4 with W0 (VPADDQ is W1)"},
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
	x := [8]uint64{0x8000000000000001, 0x0123456789abcdef, 0xfedcba9876543210, 1 << 63}
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

// full returns a register value with every word set.
func full(seed uint64) [8]uint64 {
	var v [8]uint64
	for w := range v {
		v[w] = seed*0x9e3779b97f4a7c15 + uint64(w)*0x0101010101010101 + 1
	}
	return v
}

// TestUpperBits checks what each kind of write does to the bits above its
// width: VEX and EVEX writes of 128 or 256 bits zero bits 511:128 or
// 511:256; legacy SSE keeps bits 511:128; VZEROUPPER zeroes bits 511:128
// of registers 0–15 only.
func TestUpperBits(t *testing.T) {
	for _, tc := range []struct {
		line  string
		dst   int
		zeroW int // first word zeroed; 8: none, the upper words are kept
	}{
		{"VPXOR Y2, Y3, Y1", 1, 4},
		{"VPXOR X2, X3, X1", 1, 2},
		{"VMOVDQU Y2, Y1", 1, 4},
		{"PXOR X2, X1", 1, 8},
		{"VPROLQ $1, Y2, Y17", 17, 4},
		{"VPXORQ X2, X3, X30", 30, 2},
		{"VMOVDQU64 Y2, Y1", 1, 4},
	} {
		m := newM(t)
		for i := range m.Vec {
			m.Vec[i] = full(uint64(i))
		}
		before := m.Vec[tc.dst]
		run(t, m, tc.line)
		for w := 2; w < 8; w++ {
			want := before[w]
			switch {
			case w >= tc.zeroW:
				want = 0
			case tc.zeroW != 8:
				continue // a computed word
			}
			eq(t, tc.line+" word "+itoa(w), m.Vec[tc.dst][w], want)
		}
	}
	m := newM(t)
	for i := range m.Vec {
		m.Vec[i] = full(uint64(i))
	}
	run(t, m, "VZEROUPPER")
	for i := range m.Vec {
		for w := 0; w < 8; w++ {
			want := full(uint64(i))[w]
			if i < 16 && w >= 2 {
				want = 0
			}
			eq(t, "VZEROUPPER "+itoa(i)+"["+itoa(w)+"]", m.Vec[i][w], want)
		}
	}
}

// TestZmm runs the 512-bit forms on every word.
func TestZmm(t *testing.T) {
	m := newM(t)
	for i := range m.Vec {
		m.Vec[i] = full(uint64(i))
	}
	run(t, m, "VPROLQ $1, Z1, Z2", "VPRORQ $3, Z1, Z18", "VPXORQ Z1, Z20, Z3",
		"VMOVDQU64 Z20, Z4", "VPTERNLOGQ $0xd2, Z21, Z22, Z5")
	x, y, u, v, e := full(1), full(20), full(21), full(22), full(5)
	for w := 0; w < 8; w++ {
		eq(t, "VPROLQ zmm", m.Vec[2][w], bits.RotateLeft64(x[w], 1))
		eq(t, "VPRORQ zmm", m.Vec[18][w], bits.RotateLeft64(x[w], -3))
		eq(t, "VPXORQ zmm", m.Vec[3][w], x[w]^y[w])
		eq(t, "VMOVDQU64 zmm", m.Vec[4][w], y[w])
		// 0xD2: dst ⊕ (¬src2 ∧ src3), Go order imm, src3, src2, dst.
		eq(t, "VPTERNLOGQ zmm", m.Vec[5][w], e[w]^(^v[w]&u[w]))
	}
	m.GPR[DI] = memBase
	run(t, m, "VMOVDQU64 Z3, 64(DI)", "VMOVDQU64 64(DI), Z31", "VPXORQ 64(DI), Z3, Z6")
	for w := 0; w < 8; w++ {
		eq(t, "VMOVDQU64 store and load", m.Vec[31][w], x[w]^y[w])
		eq(t, "VPXORQ m512", m.Vec[6][w], 0)
	}
	for i := 0; i < 64; i++ {
		if !m.Regions[0].Written[64+i] || m.Regions[0].Written[i] || m.Regions[0].Written[128+i] {
			t.Fatalf("VMOVDQU64 store wrote other bytes than 64..127")
		}
	}
}
