package forms

import (
	"strings"
	"testing"
)

func TestSample(t *testing.T) {
	insns, err := ParseFile("testdata/sample.s")
	if err != nil {
		t.Fatal(err)
	}
	vs, err := Variants(insns)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range vs {
		got = append(got, v.Form+" | "+v.Text)
	}
	want := []string{
		"DECQ r64 | DECQ R8",
		"IMUL3Q imm, r64, r64 | IMUL3Q $-3, R8, R9",
		"JNE label | JNE taken",
		"MOVBLZX m8, r32 | MOVBLZX (R8)(R9*1), R10",
		"MOVQ m64, r64 | MOVQ (R8), R9",
		"MOVQ m64, r64 | MOVQ 24(R8), AX",
		"MOVQ m64, r64 | MOVQ 24(R8), R9",
		"MOVQ xmm, r64 | MOVQ X1, AX",
		"RET | RET",
		"ROLQ imm, r64 | ROLQ $1, AX",
		"ROLQ imm, r64 | ROLQ $1, CX",
		"ROLQ imm, r64 | ROLQ $44, R8",
		"SETCS r8 | SETCS AL",
		"SHLQ cl, r64 | SHLQ CX, R8",
		"STMXCSR m32 | STMXCSR -24(R8)",
		"VEXTRACTI128 imm, ymm, xmm | VEXTRACTI128 $1, Y1, X1",
		"VPBROADCASTQ m64, ymm | VPBROADCASTQ (R8), Y1",
		"VPSHUFB m256, ymm, ymm | VPSHUFB (R8), Y1, Y9",
		"VPXOR ymm, ymm, ymm | VPXOR Y1, Y9, Y1",
		"VPXOR ymm, ymm, ymm | VPXOR Y1, Y9, Y14",
		"VZEROUPPER | VZEROUPPER",
		"XORQ r64, r64 | XORQ R8, AX",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("variants:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestParseErrors(t *testing.T) {
	for _, line := range []string{
		"SHLQ BX, AX",         // count must be CX
		"MOVQ 8(Z1), AX",      // bad base
		"MOVQ (AX)(BX*3), CX", // bad scale
		"ADDQ $x, AX",         // bad immediate
		"NOP; NOP",
	} {
		if _, _, err := ParseLine(line); err == nil {
			t.Errorf("%q: no error", line)
		}
	}
}
