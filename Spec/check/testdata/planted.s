// Checker test inputs: small routines, each correct or with one planted
// violation. Hand-written; not generated code.

#include "textflag.h"

// func Double(a *[4]uint64): a[0] *= 2, through the frame.
TEXT ·Double(SB), NOSPLIT, $8-8
	MOVQ a+0(FP), DI
	MOVQ (DI), AX
	ADDQ AX, AX
	MOVQ AX, (SP)
	MOVQ (SP), BX
	MOVQ BX, (DI)
	RET

// A branch on secret data.
TEXT ·SecretBranch(SB), NOSPLIT, $8-8
	MOVQ a+0(FP), DI
	MOVQ (DI), AX
	CMPQ AX, $5
	JEQ  same
	ADDQ AX, AX
same:
	MOVQ AX, (DI)
	RET

// A load whose address depends on secret data (a table lookup).
TEXT ·SecretAddress(SB), NOSPLIT, $8-8
	MOVQ a+0(FP), DI
	MOVQ (DI), AX
	ANDQ $3, AX
	MOVQ (DI)(AX*8), BX
	ADDQ BX, BX
	MOVQ BX, (DI)
	RET

// A store one word past the 32-byte buffer.
TEXT ·OutOfBounds(SB), NOSPLIT, $8-8
	MOVQ a+0(FP), DI
	MOVQ (DI), AX
	ADDQ AX, AX
	MOVQ AX, 32(DI)
	RET

// A store above the 8-byte frame: onto the saved BP.
TEXT ·OutsideFrame(SB), NOSPLIT, $8-8
	MOVQ a+0(FP), DI
	MOVQ (DI), AX
	ADDQ AX, AX
	MOVQ AX, (DI)
	MOVQ AX, 8(SP)
	RET

// Returns with SP moved.
TEXT ·SPNotRestored(SB), NOSPLIT, $8-8
	MOVQ a+0(FP), DI
	MOVQ (DI), AX
	ADDQ AX, AX
	MOVQ AX, (DI)
	SUBQ $8, SP
	RET

// An AVX2 instruction in a routine whose Requires line does not say so.
TEXT ·UndeclaredAVX2(SB), NOSPLIT, $8-8
	MOVQ    a+0(FP), DI
	VMOVDQU (DI), Y0
	VPADDQ  Y0, Y0, Y0
	VMOVDQU Y0, (DI)
	VZEROUPPER
	RET

// Requires: AVX, AVX2
TEXT ·DeclaredAVX2(SB), NOSPLIT, $8-8
	MOVQ    a+0(FP), DI
	VMOVDQU (DI), Y0
	VPADDQ  Y0, Y0, Y0
	VMOVDQU Y0, (DI)
	VZEROUPPER
	RET

// Requires: SSE2
TEXT ·MulOutsideBracket(SB), NOSPLIT, $8-8
	MOVQ    a+0(FP), DI
	MOVOU   (DI), X0
	PMULULQ X0, X0
	MOVOU   X0, (DI)
	RET

// Requires: SSE, SSE2
TEXT ·MulInsideBracket(SB), NOSPLIT, $8-8
	MOVQ    a+0(FP), DI
	STMXCSR (SP)
	MOVL    $0x1fbf, 4(SP)
	LDMXCSR 4(SP)
	LFENCE
	MOVOU   (DI), X0
	PMULULQ X0, X0
	MOVOU   X0, (DI)
	LFENCE
	LDMXCSR (SP)
	RET

// func Filter(o *[32]byte, p *[64]byte): copies the bytes of p below 128
// to o, until o is full or p is used up. Control flow depends on the
// (public) bytes of p.
TEXT ·Filter(SB), NOSPLIT, $0-16
	MOVQ o+0(FP), DI
	MOVQ p+8(FP), SI
	XORL CX, CX
	XORL DX, DX
loop:
	MOVBQZX (SI)(CX*1), AX
	INCQ    CX
	CMPQ    AX, $0x80
	JCC     next
	MOVB    AX, (DI)(DX*1)
	INCQ    DX
	CMPQ    DX, $0x20
	JEQ     done
next:
	CMPQ CX, $0x40
	JLT  loop
done:
	RET
