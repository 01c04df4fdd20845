package x86

import "testing"

func TestDecodeAccepts(t *testing.T) {
	for _, tc := range []struct {
		code []byte
		want string
	}{
		{[]byte{0x48, 0x05, 0x00, 0x00, 0x00, 0x80}, "ADDQ $-0x80000000, AX"}, // sign-extended imm32
		{[]byte{0x48, 0x83, 0xC1, 0xF0}, "ADDQ $-0x10, CX"},
		{[]byte{0x48, 0x81, 0xEC, 0xC8, 0x00, 0x00, 0x00}, "SUBQ $0xc8, SP"},
		{[]byte{0x4C, 0x8B, 0xAC, 0x24, 0xD8, 0x00, 0x00, 0x00}, "MOVQ 216(SP), R13"},
		{[]byte{0x49, 0x8B, 0x45, 0x00}, "MOVQ (R13), AX"},
		{[]byte{0x48, 0xD1, 0xC7}, "ROLQ $0x1, DI"},
		{[]byte{0x48, 0x87, 0xDB}, "XCHGQ BX, BX"},
		{[]byte{0x4C, 0x87, 0xC1}, "XCHGQ R8, CX"},
		{[]byte{0x48, 0x93}, "XCHGQ BX, AX"},
		{[]byte{0x55}, "PUSHQ BP"},
		{[]byte{0x5D}, "POPQ BP"},
		{[]byte{0xC3}, "RET"},
		{[]byte{0xC5, 0xFD, 0xEF, 0xC1}, "VPXOR Y1, Y0, Y0"},
		{[]byte{0xC4, 0x41, 0x7D, 0xEF, 0xC1}, "VPXOR Y9, Y0, Y8"},
		{[]byte{0xC5, 0xF5, 0x73, 0xD4, 0x20}, "VPSRLQ $0x20, Y4, Y1"},
		{[]byte{0xC4, 0xE3, 0xFD, 0x00, 0xC1, 0x4E}, "VPERMQ $0x4e, Y1, Y0"},
		{[]byte{0xC5, 0xF8, 0x77}, "VZEROUPPER"},
		{[]byte{0xC4, 0xE2, 0x7D, 0x3B, 0xC1}, "VPMINUD Y1, Y0, Y0"}, // vpminud %ymm1,%ymm0,%ymm0
		{[]byte{0xC4, 0xE2, 0x7D, 0x45, 0xC1}, "VPSRLVD Y1, Y0, Y0"},
		{[]byte{0xC4, 0x42, 0x35, 0x47, 0xC2}, "VPSLLVD Y10, Y9, Y8"},
		{[]byte{0xC4, 0xE2, 0xF0, 0xF2, 0xC3}, "ANDNQ BX, CX, AX"},
		{[]byte{0xC4, 0x42, 0xB0, 0xF2, 0x45, 0x08}, "ANDNQ 8(R13), R9, R8"},
		{[]byte{0xC4, 0xE3, 0xFB, 0xF0, 0xC1, 0x3F}, "RORXQ $0x3f, CX, AX"},
		{[]byte{0xC4, 0x43, 0xFB, 0xF0, 0x4D, 0x08, 0x01}, "RORXQ $0x1, 8(R13), R9"},
		{[]byte{0x3D, 0x01, 0xE0, 0x7F, 0x00}, "CMPL AX, $0x7fe001"},
		{[]byte{0x0F, 0x92, 0xC0}, "SETCS AL"},
		{[]byte{0x0F, 0x92, 0xC3}, "SETCS BL"},
		{[]byte{0x41, 0x0F, 0x93, 0xC3}, "SETCC R11B"},
		{[]byte{0x40, 0x0F, 0x92, 0xC6}, "SETCS SIB"}, // REX: SIL, not DH
		{[]byte{0x0F, 0x92, 0x07}, "SETCS (DI)"},
		{[]byte{0x41, 0x0F, 0x93, 0x45, 0x08}, "SETCC 8(R13)"},
		{[]byte{0x74, 0x02}, "JEQ +0x4"},
		{[]byte{0x88, 0x44, 0x24, 0x10}, "MOVB AL, 16(SP)"},
		// The target is absolute (resolved to a symbol by Binary.Routine).
		{[]byte{0xE8, 0x10, 0x00, 0x00, 0x00}, "CALL 0x1015"},
		// Legacy SSE2 (bytes and objdump's reading in the comments).
		{[]byte{0x66, 0x0F, 0xFE, 0xC1}, "PADDL X1, X0"},               // paddd %xmm1,%xmm0
		{[]byte{0x66, 0x45, 0x0F, 0xFE, 0xC1}, "PADDL X9, X8"},         // paddd %xmm9,%xmm8
		{[]byte{0x66, 0x0F, 0xF4, 0xCA}, "PMULULQ X2, X1"},             // pmuludq %xmm2,%xmm1
		{[]byte{0x66, 0x0F, 0x70, 0xCA, 0xF5}, "PSHUFL $0xf5, X2, X1"}, // pshufd $0xf5,%xmm2,%xmm1
		{[]byte{0x66, 0x0F, 0x73, 0xD1, 0x20}, "PSRLQ $0x20, X1"},      // psrlq $0x20,%xmm1
		{[]byte{0x66, 0x0F, 0x73, 0xF1, 0x20}, "PSLLQ $0x20, X1"},      // psllq $0x20,%xmm1
		{[]byte{0x66, 0x0F, 0x72, 0xE1, 0x1F}, "PSRAL $0x1f, X1"},      // psrad $0x1f,%xmm1
		{[]byte{0x66, 0x0F, 0x72, 0xF1, 0x0D}, "PSLLL $0xd, X1"},       // pslld $0xd,%xmm1
		{[]byte{0xF3, 0x0F, 0x6F, 0x07}, "MOVOU (DI), X0"},             // movdqu (%rdi),%xmm0
		{[]byte{0xF3, 0x0F, 0x7F, 0x47, 0x10}, "MOVOU X0, 16(DI)"},     // movdqu %xmm0,0x10(%rdi)
		{[]byte{0x66, 0x0F, 0x6F, 0xCA}, "MOVO X2, X1"},                // movdqa %xmm2,%xmm1
		{[]byte{0x66, 0x0F, 0x7F, 0xCA}, "MOVO X1, X2"},                // movdqa.s %xmm1,%xmm2
		{[]byte{0x0F, 0xAE, 0x5C, 0x24, 0x04}, "STMXCSR 4(SP)"},        // stmxcsr 0x4(%rsp)
		{[]byte{0x0F, 0xAE, 0x54, 0x24, 0x04}, "LDMXCSR 4(SP)"},        // ldmxcsr 0x4(%rsp)
		{[]byte{0x0F, 0xAE, 0xE8}, "LFENCE"},                           // lfence
		{[]byte{0x66, 0x0F, 0x62, 0xCA}, "PUNPCKLLQ X2, X1"},           // punpckldq %xmm2,%xmm1
		{[]byte{0x66, 0x0F, 0x6A, 0xCA}, "PUNPCKHLQ X2, X1"},           // punpckhdq %xmm2,%xmm1
		{[]byte{0x66, 0x0F, 0x6C, 0xCA}, "PUNPCKLQDQ X2, X1"},          // punpcklqdq %xmm2,%xmm1
		{[]byte{0x66, 0x0F, 0x6D, 0xCA}, "PUNPCKHQDQ X2, X1"},          // punpckhqdq %xmm2,%xmm1
		{[]byte{0x66, 0x0F, 0xFA, 0xCA}, "PSUBL X2, X1"},               // psubd %xmm2,%xmm1
		{[]byte{0x66, 0x0F, 0xD4, 0xCA}, "PADDQ X2, X1"},               // paddq %xmm2,%xmm1
		{[]byte{0x66, 0x0F, 0xDB, 0xCA}, "PAND X2, X1"},                // pand %xmm2,%xmm1
		{[]byte{0x66, 0x0F, 0xEB, 0xCA}, "POR X2, X1"},                 // por %xmm2,%xmm1
		{[]byte{0x66, 0x0F, 0xEF, 0xCA}, "PXOR X2, X1"},                // pxor %xmm2,%xmm1
	} {
		in, n, err := Decode(tc.code, 0, 0x1000)
		if err != nil {
			t.Errorf("% x: %v", tc.code, err)
			continue
		}
		if n != len(tc.code) || in.Text != tc.want {
			t.Errorf("% x: %q (%d bytes), want %q (%d)", tc.code, in.Text, n, tc.want, len(tc.code))
		}
		if in.Form == "" {
			t.Errorf("% x: no SDM form", tc.code)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	for _, code := range [][]byte{
		{0x90},                         // NOP: not a form Emit uses
		{0x0F, 0x05},                   // SYSCALL
		{0xFF, 0xD0},                   // CALL AX
		{0x48, 0xE8, 0, 0, 0, 0},       // REX on CALL rel32
		{0x88, 0x64, 0x24, 0x10},       // MOVB AH, 16(SP)
		{0x40, 0x88, 0x74, 0x24, 0x10}, // MOVB SIB, 16(SP) (REX)
		{0x88, 0xC1},                   // MOVB AL, CL (register form)
		{0x66, 0xE8, 0, 0, 0, 0},       // 66 on CALL rel32
		{0x64, 0x48, 0x8B, 0x04, 0x25, 0, 0, 0, 0}, // FS-prefixed load
		{0x48, 0xC5, 0xFD, 0xEF, 0xC1},             // REX before VEX
		{0x66, 0xC5, 0xFD, 0xEF, 0xC1},             // 66 before VEX
		{0xC5, 0xF5, 0x6F, 0xC1},                   // VMOVDQU with vvvv ≠ 1111b
		{0xC5, 0xF9, 0x73, 0xE4, 0x20},             // 73 /4: not a form
		{0xC4, 0xE3, 0x7D, 0x00, 0xC1, 0x4E},       // VPERMQ with W0
		{0xC4, 0xE3, 0xF9, 0x00, 0xC1, 0x4E},       // VPERMQ with L0
		{0xC4, 0xE2, 0xFD, 0x45, 0xC1},             // VPSRLVQ (W1): not in the model
		{0xC4, 0xE2, 0x70, 0xF2, 0xC3},             // ANDN with W0: 32-bit, not in the model
		{0xC4, 0xE2, 0xF4, 0xF2, 0xC3},             // ANDN with VEX.L = 1
		{0xC4, 0xE3, 0xF3, 0xF0, 0xC1, 0x3F},       // RORX with vvvv ≠ 1111b
		{0xC4, 0xE3, 0xFF, 0xF0, 0xC1, 0x3F},       // RORX with VEX.L = 1
		{0x48, 0x8B, 0x04, 0x25, 0, 0, 0, 0},       // absolute disp32 addressing
		{0x48, 0x89},                               // truncated
		{0x11, 0xC8},                               // ADCL: not in the model
		{0xF3, 0x48, 0x31, 0xC0},                   // REP-prefixed XOR
		{0xD1, 0xC7},                               // ROLL: not in the model
		{0x48, 0x87, 0x03},                         // XCHG with memory: locked
		{0x87, 0xDB},                               // XCHGL: not in the model
		{0x0F, 0x92, 0xC6},                         // SETC DH: no REX, AH–BH
		{0x48, 0x0F, 0x92, 0xC0},                   // SETcc with REX.W
		{0x44, 0x0F, 0x92, 0xC0},                   // SETcc with REX.R
		{0x0F, 0x92, 0xC8},                         // SETcc with ModRM.reg 1
		{0x66, 0x0F, 0x92, 0xC0},                   // SETcc with 66
		{0x66, 0x0F, 0xFE, 0x07},                   // PADDD from memory: alignment not modelled
		{0x66, 0x0F, 0x6F, 0x07},                   // MOVDQA from memory: alignment not modelled
		{0x66, 0x48, 0x0F, 0xFE, 0xC1},             // REX.W on PADDD
		{0x0F, 0xFE, 0xC1},                         // MMX PADDD (no 66)
		{0xF2, 0x0F, 0x6F, 0xC1},                   // F2 0F 6F: not a form
		{0x66, 0x0F, 0x73, 0xF9, 0x08},             // 73 /7 PSLLDQ: not in the model
		{0x66, 0x0F, 0x72, 0xD1, 0x08},             // 72 /2 PSRLD: not in the model
		{0x0F, 0xAE, 0xC8},                         // 0F AE /1 with a register
		{0x66, 0x0F, 0xAE, 0x5C, 0x24, 0x04},       // 66 before STMXCSR
	} {
		if in, _, err := Decode(code, 0, 0x1000); err == nil {
			t.Errorf("% x accepted as %s", code, in.Text)
		}
	}
}

// The MCDT flag is the model's: exactly the instructions mcdtOps names.
func TestMCDTFlag(t *testing.T) {
	n := 0
	for _, op := range Mnemonics() {
		inf, _ := Lookup(op)
		if inf.MCDT {
			n++
			if op != "PMULULQ" && op != "VPMULUDQ" {
				t.Errorf("%s marked MCDT", op)
			}
		}
	}
	if n != 2 {
		t.Errorf("%d instructions marked MCDT, want PMULULQ and VPMULUDQ", n)
	}
	in, _, err := Decode([]byte{0xC4, 0x62, 0x5D, 0x28, 0xCA}, 0, 0) // VPMULDQ Y2, Y4, Y9
	if err != nil || in.Op != "VPMULDQ" || in.Info().MCDT {
		t.Errorf("VPMULDQ: %v %v", in, err)
	}
}

// The decoder and the parser agree: the text a decoded instruction prints
// parses to the same operation and operands (the byte sequences are the Go
// assembler's encodings of those lines).
func TestDecodeParseAgree(t *testing.T) {
	for _, code := range [][]byte{
		{0x0F, 0x92, 0xC0},                      // SETCS AL
		{0x41, 0x0F, 0x93, 0xC3},                // SETCC R11B
		{0x40, 0x0F, 0x92, 0xC6},                // SETCS SIB
		{0x0F, 0x92, 0x07},                      // SETCS (DI)
		{0x41, 0x0F, 0x93, 0x45, 0x08},          // SETCC 8(R13)
		{0x4C, 0x8B, 0xAC, 0x24, 0xD8, 0, 0, 0}, // MOVQ 216(SP), R13
		{0xC4, 0x41, 0x7D, 0xEF, 0xC1},          // VPXOR Y9, Y0, Y8
	} {
		d, _, err := Decode(code, 0, 0x1000)
		if err != nil {
			t.Fatalf("% x: %v", code, err)
		}
		p, err := ParseInsn(d.Text)
		if err != nil {
			t.Errorf("% x: %s does not parse: %v", code, d.Text, err)
			continue
		}
		if p.Op != d.Op || len(p.Args) != len(d.Args) {
			t.Errorf("% x: parsed %s, decoded %s", code, p.Text, d.Text)
			continue
		}
		for i := range p.Args {
			a, b := p.Args[i], d.Args[i]
			b.Mem.DispBytes, a.Text, b.Text = 0, "", ""
			if a != b {
				t.Errorf("% x: operand %d: parsed %+v, decoded %+v", code, i, a, b)
			}
		}
	}
}
