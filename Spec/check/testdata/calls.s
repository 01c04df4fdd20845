// Routines that CALL the sampler RejNTTPolyAMD64 (replaced by its
// contract): one that keeps the call discipline, and one violation each.

#include "textflag.h"

// The callee; the checker never runs its body.
TEXT ·RejNTTPolyAMD64(SB), $0-17
	RET

// CallRej: ok = RejNTTPoly(a, seed), by the rules.
TEXT ·CallRej(SB), $24-17
	NO_LOCAL_POINTERS
	MOVQ a+0(FP), AX
	MOVQ AX, 0(SP)
	MOVQ seed+8(FP), AX
	MOVQ AX, 8(SP)
	CALL ·RejNTTPolyAMD64(SB)
	MOVBLZX 16(SP), AX
	MOVB AX, ret+16(FP)
	RET

// CallUndeclared calls a routine its contract does not list.
TEXT ·CallUndeclared(SB), $24-17
	NO_LOCAL_POINTERS
	MOVQ a+0(FP), AX
	MOVQ AX, 0(SP)
	MOVQ seed+8(FP), AX
	MOVQ AX, 8(SP)
	CALL ·KeccakF1600AMD64(SB)
	MOVBLZX 16(SP), AX
	MOVB AX, ret+16(FP)
	RET

// CallMisaligned calls with SP 8 bytes below the frame's base.
TEXT ·CallMisaligned(SB), $32-17
	NO_LOCAL_POINTERS
	MOVQ a+0(FP), AX
	MOVQ AX, 8(SP)
	MOVQ seed+8(FP), AX
	MOVQ AX, 16(SP)
	ADDQ $8, SP
	CALL ·RejNTTPolyAMD64(SB)
	SUBQ $8, SP
	MOVBLZX 24(SP), AX
	MOVB AX, ret+16(FP)
	RET

// CallSmallFrame has no room for the callee's result in its frame.
TEXT ·CallSmallFrame(SB), $16-17
	NO_LOCAL_POINTERS
	MOVQ a+0(FP), AX
	MOVQ AX, 0(SP)
	MOVQ seed+8(FP), AX
	MOVQ AX, 8(SP)
	CALL ·RejNTTPolyAMD64(SB)
	MOVB $1, ret+16(FP)
	RET

// CallClobbered keeps a in BX across the call and stores through it.
TEXT ·CallClobbered(SB), $24-17
	NO_LOCAL_POINTERS
	MOVQ a+0(FP), BX
	MOVQ BX, 0(SP)
	MOVQ seed+8(FP), AX
	MOVQ AX, 8(SP)
	CALL ·RejNTTPolyAMD64(SB)
	MOVL $0, (BX)
	MOVBLZX 16(SP), AX
	MOVB AX, ret+16(FP)
	RET

// CallOffset passes a+2: misaligned for *[256]uint32.
TEXT ·CallOffset(SB), $24-17
	NO_LOCAL_POINTERS
	MOVQ a+0(FP), AX
	ADDQ $2, AX
	MOVQ AX, 0(SP)
	MOVQ seed+8(FP), AX
	MOVQ AX, 8(SP)
	CALL ·RejNTTPolyAMD64(SB)
	MOVBLZX 16(SP), AX
	MOVB AX, ret+16(FP)
	RET

// CallOverlap passes a+1020 as the seed: it overlaps the output a.
TEXT ·CallOverlap(SB), $24-17
	NO_LOCAL_POINTERS
	MOVQ a+0(FP), AX
	MOVQ AX, 0(SP)
	ADDQ $1020, AX
	MOVQ AX, 8(SP)
	CALL ·RejNTTPolyAMD64(SB)
	MOVBLZX 16(SP), AX
	MOVB AX, ret+16(FP)
	RET

// CallStale keeps a pointer into its own frame across the call: the
// stack may move meanwhile.
TEXT ·CallStale(SB), $32-17
	NO_LOCAL_POINTERS
	MOVQ a+0(FP), AX
	MOVQ AX, 0(SP)
	MOVQ seed+8(FP), AX
	MOVQ AX, 8(SP)
	LEAQ 16(SP), CX
	MOVQ CX, 24(SP)
	CALL ·RejNTTPolyAMD64(SB)
	MOVQ 24(SP), CX
	MOVBLZX (CX), AX
	MOVB AX, ret+16(FP)
	RET

// CallNoMap calls without declaring that its frame holds no pointers.
TEXT ·CallNoMap(SB), $24-17
	MOVQ a+0(FP), AX
	MOVQ AX, 0(SP)
	MOVQ seed+8(FP), AX
	MOVQ AX, 8(SP)
	CALL ·RejNTTPolyAMD64(SB)
	MOVBLZX 16(SP), AX
	MOVB AX, ret+16(FP)
	RET

// CallAVX2 calls the four-way sampler from a routine whose contract has
// no AVX2.
TEXT ·CallAVX2(SB), $24-17
	NO_LOCAL_POINTERS
	MOVQ a+0(FP), AX
	MOVQ AX, 0(SP)
	MOVQ seed+8(FP), AX
	MOVQ AX, 8(SP)
	CALL ·RejNTTPolyx4AVX2(SB)
	MOVBLZX 16(SP), AX
	MOVB AX, ret+16(FP)
	RET

// CallReload reads a after the call through a+0(FP), which the runtime
// adjusts when the stack moves.
TEXT ·CallReload(SB), $24-17
	NO_LOCAL_POINTERS
	MOVQ a+0(FP), AX
	MOVQ AX, 0(SP)
	MOVQ seed+8(FP), AX
	MOVQ AX, 8(SP)
	CALL ·RejNTTPolyAMD64(SB)
	MOVQ a+0(FP), AX
	MOVB 1024(AX), CX
	MOVBLZX 16(SP), AX
	MOVB AX, ret+16(FP)
	RET

// CallStaleBuffer keeps a in its frame across the call and reads through
// it: stale if a was on the stack and the stack moved.
TEXT ·CallStaleBuffer(SB), $32-17
	NO_LOCAL_POINTERS
	MOVQ a+0(FP), AX
	MOVQ AX, 0(SP)
	MOVQ AX, 24(SP)
	MOVQ seed+8(FP), AX
	MOVQ AX, 8(SP)
	CALL ·RejNTTPolyAMD64(SB)
	MOVQ 24(SP), AX
	MOVB 1024(AX), CX
	MOVBLZX 16(SP), AX
	MOVB AX, ret+16(FP)
	RET
