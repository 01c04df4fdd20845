package x86

import (
	"fmt"
	"sort"
	"strings"
)

type opcode uint8

// Info describes one mnemonic of the model.
//
// SDM cites the entry of the Intel 64 and IA-32 Architectures Software
// Developer's Manual, Volume 2 (2A: A–L, 2B: M–U, 2C: V, 2D: W–Z) that
// defines it; VEX forms of legacy instructions are defined under the legacy
// entry. Feature is the CPUID feature the form needs (avo's names; ""
// means baseline x86-64); Feature128 is used instead for xmm-only VEX forms.
// DOIT records whether the instruction is on Intel's list of data operand
// independent timing instructions ("Data Operand Independent Timing ISA
// Guidance", 2022); control transfers and MXCSR/fence instructions are not
// data operations and are marked false, so any secret operand to them is
// reported.
type Info struct {
	Op         string
	SDM        string
	Feature    string
	Feature128 string
	DOIT       bool
	Forms      string // operand classes per form: r=GPR b=byte register x=X y=Y z=Z m=memory i=immediate l=label
	// MCDT records that Intel lists the instruction as one whose timing
	// may depend on its data unless MXCSR holds 0x1FBF ("MXCSR
	// Configuration Dependent Timing", Intel software security guidance,
	// 2023); see mcdtOps.
	MCDT bool
}

// mcdtOps are the instructions with MXCSR-configuration-dependent timing:
// (V)PMULUDQ, as Intel's MCDT guidance names them and as the design this
// model follows states. VPMULDQ and VPMULLD are not marked: the guidance's
// list of affected instructions could not be read line by line here (only
// its introduction), so their status is taken from the design, not
// verified against Intel's table (Spec/SOUNDNESS.md).
var mcdtOps = map[opcode]bool{oPMULULQ: true, oVPMULUDQ: true}

const (
	_ opcode = iota // 0: not an instruction
	// GPR moves
	oMOVQ
	oMOVL
	oMOVW
	oMOVB
	oMOVBLZX
	oMOVBQZX
	oMOVWLZX
	oMOVWQZX
	oMOVLQZX
	// GPR ALU
	oXORQ
	oXORL
	oANDQ
	oANDL
	oORQ
	oORL
	oNOTQ
	oNOTL
	oROLQ
	oRORQ
	oSHLQ
	oSHRQ
	oSARQ
	oSHLL
	oSHRL
	oSARL
	oADDQ
	oADDL
	oSUBQ
	oSUBL
	oINCQ
	oDECQ
	oINCL
	oDECL
	oNEGQ
	oCMPQ
	oCMPL
	oTESTQ
	oTESTL
	oLEAQ
	oCMOVQCS
	oCMOVQCC
	oCMOVQEQ
	oCMOVQNE
	oCMOVLCS
	oCMOVLCC
	oSETCS
	oSETCC
	oSBBQ
	oADCQ
	oIMULQ
	oIMULL
	oIMUL3Q
	oIMUL3L
	oMULQ
	oPOPCNTL
	oPOPCNTQ
	oXCHGQ
	// BMI1/BMI2 (VEX-encoded general-register instructions)
	oANDNQ
	oRORXQ
	// control
	oJMP
	oJEQ
	oJNE
	oJCS
	oJCC
	oJLT
	oJGE
	oJLE
	oJGT
	oJLS
	oJHI
	oJMI
	oJPL
	oRET
	oCALL
	oPUSHQ
	oPOPQ
	// SSE2
	oMOVOU
	oMOVO
	oPXOR
	oPMULULQ
	oPADDL
	oPSUBL
	oPADDQ
	oPAND
	oPOR
	oPSHUFL
	oPSRLQ
	oPSLLQ
	oPSRAL
	oPSLLL
	oPUNPCKLLQ
	oPUNPCKHLQ
	oPUNPCKLQDQ
	oPUNPCKHQDQ
	// AVX/AVX2
	oVMOVDQU
	oVMOVDQA
	oVPXOR
	oVPAND
	oVPANDN
	oVPOR
	oVPSLLQ
	oVPSRLQ
	oVPSLLD
	oVPSRLD
	oVPSRAD
	oVPSLLVD
	oVPSRLVD
	oVPSHUFB
	oVPSHUFD
	oVPBROADCASTQ
	oVPBROADCASTD
	oVPERMQ
	oVPERMD
	oVPERM2I128
	oVINSERTI128
	oVEXTRACTI128
	oVPUNPCKLQDQ
	oVPUNPCKHQDQ
	oVPUNPCKLDQ
	oVPUNPCKHDQ
	oVPADDD
	oVPSUBD
	oVPADDQ
	oVPSUBQ
	oVPCMPGTD
	oVPCMPEQD
	oVPMOVMSKB
	oVMOVMSKPS
	oVPMULLD
	oVPMULDQ
	oVPMULUDQ
	oVPBLENDD
	oVPBLENDVB
	oVPMINUD
	oVPMAXUD
	oVPMINSD
	oVPABSD
	oVZEROUPPER
	// MXCSR
	oSTMXCSR
	oLDMXCSR
	oLFENCE
	// AVX-512 (EVEX; 128, 256 and 512 bits, see evexForms)
	oVPTERNLOGQ
	oVPROLQ
	oVPRORQ
	oVPXORQ
	oVMOVDQU64
	oVSHUFI64X2
	oVPERMT2D
	numOps
)

const (
	gprALU2 = "rmi,r;ri,m"
	vec3    = "ym,y,y;xm,x,x"
	vecSh   = "ix,y,y;ix,x,x"
	// The instructions with EVEX forms besides their VEX ones (evexForms):
	// a zmm form, and shifts of a zmm by an immediate.
	vec3z  = "zm,z,z;" + vec3
	vecShz = "i,z,z;" + vecSh
)

// row is one line of infos: Info without the fields kept in side tables.
type row struct {
	Op, SDM, Feature, Feature128 string
	DOIT                         bool
	Forms                        string
}

var infos = [numOps]row{
	oMOVQ:    {"MOVQ", "SDM Vol. 2B, MOV—Move; MOVQ—Move Quadword", "", "", true, "rmi,r;ri,m;rm,x;x,rm;x,x"},
	oMOVL:    {"MOVL", "SDM Vol. 2B, MOV—Move", "", "", true, "rmi,r;ri,m"},
	oMOVW:    {"MOVW", "SDM Vol. 2B, MOV—Move", "", "", true, "rmi,r;ri,m"},
	oMOVB:    {"MOVB", "SDM Vol. 2B, MOV—Move", "", "", true, "rmi,r;rib,m"},
	oMOVBLZX: {"MOVBLZX", "SDM Vol. 2B, MOVZX—Move With Zero-Extend", "", "", true, "rm,r"},
	oMOVBQZX: {"MOVBQZX", "SDM Vol. 2B, MOVZX—Move With Zero-Extend", "", "", true, "rm,r"},
	oMOVWLZX: {"MOVWLZX", "SDM Vol. 2B, MOVZX—Move With Zero-Extend", "", "", true, "rm,r"},
	oMOVWQZX: {"MOVWQZX", "SDM Vol. 2B, MOVZX—Move With Zero-Extend", "", "", true, "rm,r"},
	oMOVLQZX: {"MOVLQZX", "SDM Vol. 2B, MOV—Move (32-bit destination zero-extends)", "", "", true, "rm,r"},
	oXORQ:    {"XORQ", "SDM Vol. 2D, XOR—Logical Exclusive OR", "", "", true, gprALU2},
	oXORL:    {"XORL", "SDM Vol. 2D, XOR—Logical Exclusive OR", "", "", true, gprALU2},
	oANDQ:    {"ANDQ", "SDM Vol. 2A, AND—Logical AND", "", "", true, gprALU2},
	oANDL:    {"ANDL", "SDM Vol. 2A, AND—Logical AND", "", "", true, gprALU2},
	oORQ:     {"ORQ", "SDM Vol. 2B, OR—Logical Inclusive OR", "", "", true, gprALU2},
	oORL:     {"ORL", "SDM Vol. 2B, OR—Logical Inclusive OR", "", "", true, gprALU2},
	oNOTQ:    {"NOTQ", "SDM Vol. 2B, NOT—One's Complement Negation", "", "", true, "rm"},
	oNOTL:    {"NOTL", "SDM Vol. 2B, NOT—One's Complement Negation", "", "", true, "rm"},
	oROLQ:    {"ROLQ", "SDM Vol. 2B, RCL/RCR/ROL/ROR—Rotate", "", "", true, "ir,rm"},
	oRORQ:    {"RORQ", "SDM Vol. 2B, RCL/RCR/ROL/ROR—Rotate", "", "", true, "ir,rm"},
	oSHLQ:    {"SHLQ", "SDM Vol. 2B, SAL/SAR/SHL/SHR—Shift", "", "", true, "ir,rm"},
	oSHRQ:    {"SHRQ", "SDM Vol. 2B, SAL/SAR/SHL/SHR—Shift", "", "", true, "ir,rm"},
	oSARQ:    {"SARQ", "SDM Vol. 2B, SAL/SAR/SHL/SHR—Shift", "", "", true, "ir,rm"},
	oSHLL:    {"SHLL", "SDM Vol. 2B, SAL/SAR/SHL/SHR—Shift", "", "", true, "ir,rm"},
	oSHRL:    {"SHRL", "SDM Vol. 2B, SAL/SAR/SHL/SHR—Shift", "", "", true, "ir,rm"},
	oSARL:    {"SARL", "SDM Vol. 2B, SAL/SAR/SHL/SHR—Shift", "", "", true, "ir,rm"},
	oADDQ:    {"ADDQ", "SDM Vol. 2A, ADD—Add", "", "", true, gprALU2},
	oADDL:    {"ADDL", "SDM Vol. 2A, ADD—Add", "", "", true, gprALU2},
	oSUBQ:    {"SUBQ", "SDM Vol. 2B, SUB—Subtract", "", "", true, gprALU2},
	oSUBL:    {"SUBL", "SDM Vol. 2B, SUB—Subtract", "", "", true, gprALU2},
	oINCQ:    {"INCQ", "SDM Vol. 2A, INC—Increment by 1", "", "", true, "rm"},
	oDECQ:    {"DECQ", "SDM Vol. 2A, DEC—Decrement by 1", "", "", true, "rm"},
	oINCL:    {"INCL", "SDM Vol. 2A, INC—Increment by 1", "", "", true, "rm"},
	oDECL:    {"DECL", "SDM Vol. 2A, DEC—Decrement by 1", "", "", true, "rm"},
	oNEGQ:    {"NEGQ", "SDM Vol. 2B, NEG—Two's Complement Negation", "", "", true, "rm"},
	oCMPQ:    {"CMPQ", "SDM Vol. 2A, CMP—Compare Two Operands", "", "", true, "rm,rmi"},
	oCMPL:    {"CMPL", "SDM Vol. 2A, CMP—Compare Two Operands", "", "", true, "rm,rmi"},
	oTESTQ:   {"TESTQ", "SDM Vol. 2B, TEST—Logical Compare", "", "", true, "ri,rm"},
	oTESTL:   {"TESTL", "SDM Vol. 2B, TEST—Logical Compare", "", "", true, "ri,rm"},
	oLEAQ:    {"LEAQ", "SDM Vol. 2A, LEA—Load Effective Address", "", "", true, "m,r"},
	oCMOVQCS: {"CMOVQCS", "SDM Vol. 2A, CMOVcc—Conditional Move", "CMOV", "", true, "rm,r"},
	oCMOVQCC: {"CMOVQCC", "SDM Vol. 2A, CMOVcc—Conditional Move", "CMOV", "", true, "rm,r"},
	oCMOVQEQ: {"CMOVQEQ", "SDM Vol. 2A, CMOVcc—Conditional Move", "CMOV", "", true, "rm,r"},
	oCMOVQNE: {"CMOVQNE", "SDM Vol. 2A, CMOVcc—Conditional Move", "CMOV", "", true, "rm,r"},
	oCMOVLCS: {"CMOVLCS", "SDM Vol. 2A, CMOVcc—Conditional Move", "CMOV", "", true, "rm,r"},
	oCMOVLCC: {"CMOVLCC", "SDM Vol. 2A, CMOVcc—Conditional Move", "CMOV", "", true, "rm,r"},
	oSETCS:   {"SETCS", "SDM Vol. 2B, SETcc—Set Byte on Condition", "", "", true, "bm"},
	oSETCC:   {"SETCC", "SDM Vol. 2B, SETcc—Set Byte on Condition", "", "", true, "bm"},
	oSBBQ:    {"SBBQ", "SDM Vol. 2B, SBB—Integer Subtraction With Borrow", "", "", true, gprALU2},
	oADCQ:    {"ADCQ", "SDM Vol. 2A, ADC—Add With Carry", "", "", true, gprALU2},
	oIMULQ:   {"IMULQ", "SDM Vol. 2A, IMUL—Signed Multiply", "", "", true, "rm,r;i,rm,r"},
	oIMULL:   {"IMULL", "SDM Vol. 2A, IMUL—Signed Multiply", "", "", true, "rm,r;i,rm,r"},
	oIMUL3Q:  {"IMUL3Q", "SDM Vol. 2A, IMUL—Signed Multiply (three-operand form)", "", "", true, "i,rm,r"},
	oIMUL3L:  {"IMUL3L", "SDM Vol. 2A, IMUL—Signed Multiply (three-operand form)", "", "", true, "i,rm,r"},
	oMULQ:    {"MULQ", "SDM Vol. 2B, MUL—Unsigned Multiply", "", "", true, "rm"},
	oPOPCNTL: {"POPCNTL", "SDM Vol. 2B, POPCNT—Return the Count of Number of Bits Set to 1", "POPCNT", "", true, "rm,r"},
	oPOPCNTQ: {"POPCNTQ", "SDM Vol. 2B, POPCNT—Return the Count of Number of Bits Set to 1", "POPCNT", "", true, "rm,r"},
	// XCHG of two registers only: with a memory operand it is locked
	// (SDM Vol. 2D, XCHG, "the processor's locking protocol is
	// automatically implemented"). Not marked DOIT: no routine gives it a
	// secret operand, and one that did would be reported.
	oXCHGQ: {"XCHGQ", "SDM Vol. 2D, XCHG—Exchange Register/Memory With Register", "", "", false, "r,r"},

	// ANDN and RORX are marked DOIT as the rest of the column is: from
	// Intel's list as recalled (Spec/SOUNDNESS.md).
	oANDNQ: {"ANDNQ", "SDM Vol. 2A, ANDN—Logical AND NOT", "BMI", "", true, "rm,r,r"},
	oRORXQ: {"RORXQ", "SDM Vol. 2B, RORX—Rotate Right Logical Without Affecting Flags", "BMI2", "", true, "i,rm,r"},

	oJMP: {"JMP", "SDM Vol. 2A, JMP—Jump", "", "", false, "l"},
	oJEQ: {"JEQ", "SDM Vol. 2A, Jcc—Jump if Condition Is Met (JE/JZ)", "", "", false, "l"},
	oJNE: {"JNE", "SDM Vol. 2A, Jcc—Jump if Condition Is Met (JNE/JNZ)", "", "", false, "l"},
	oJCS: {"JCS", "SDM Vol. 2A, Jcc—Jump if Condition Is Met (JB/JC)", "", "", false, "l"},
	oJCC: {"JCC", "SDM Vol. 2A, Jcc—Jump if Condition Is Met (JAE/JNC)", "", "", false, "l"},
	oJLT: {"JLT", "SDM Vol. 2A, Jcc—Jump if Condition Is Met (JL)", "", "", false, "l"},
	oJGE: {"JGE", "SDM Vol. 2A, Jcc—Jump if Condition Is Met (JGE)", "", "", false, "l"},
	oJLE: {"JLE", "SDM Vol. 2A, Jcc—Jump if Condition Is Met (JLE)", "", "", false, "l"},
	oJGT: {"JGT", "SDM Vol. 2A, Jcc—Jump if Condition Is Met (JG)", "", "", false, "l"},
	oJLS: {"JLS", "SDM Vol. 2A, Jcc—Jump if Condition Is Met (JBE)", "", "", false, "l"},
	oJHI: {"JHI", "SDM Vol. 2A, Jcc—Jump if Condition Is Met (JA)", "", "", false, "l"},
	oJMI: {"JMI", "SDM Vol. 2A, Jcc—Jump if Condition Is Met (JS)", "", "", false, "l"},
	oJPL: {"JPL", "SDM Vol. 2A, Jcc—Jump if Condition Is Met (JNS)", "", "", false, "l"},
	oRET: {"RET", "SDM Vol. 2B, RET—Return From Procedure", "", "", false, ""},
	// CALL rel32 to another routine of the file (CALL ·name(SB)); the
	// model does not run the callee but replaces it by its contract
	// (Machine.Call).
	oCALL: {"CALL", "SDM Vol. 2A, CALL—Call Procedure", "", "", false, "m"},
	// PUSHQ/POPQ appear only in the assembler's prologue and epilogue
	// (saving BP); they are data moves through the stack.
	oPUSHQ: {"PUSHQ", "SDM Vol. 2B, PUSH—Push Word, Doubleword, or Quadword Onto the Stack", "", "", true, "r"},
	oPOPQ:  {"POPQ", "SDM Vol. 2B, POP—Pop a Value From the Stack", "", "", true, "r"},

	oMOVOU:   {"MOVOU", "SDM Vol. 2B, MOVDQU—Move Unaligned Packed Integer Values", "SSE2", "", true, "xm,x;x,m"},
	oMOVO:    {"MOVO", "SDM Vol. 2B, MOVDQA—Move Aligned Packed Integer Values", "SSE2", "", true, "xm,x;x,m"},
	oPXOR:    {"PXOR", "SDM Vol. 2B, PXOR—Logical Exclusive OR", "SSE2", "", true, "xm,x"},
	oPMULULQ: {"PMULULQ", "SDM Vol. 2B, PMULUDQ—Multiply Packed Unsigned Doubleword Integers", "SSE2", "", true, "xm,x"},
	// Go spells doublewords L: PADDL is PADDD, PSHUFL is PSHUFD, PSRAL is
	// PSRAD, PUNPCKLLQ is PUNPCKLDQ. Register forms only: a legacy-SSE
	// memory operand of 16 bytes must be aligned (#GP otherwise), which
	// the model does not check, so the decoder accepts none.
	oPADDL:      {"PADDL", "SDM Vol. 2B, PADDB/PADDW/PADDD/PADDQ—Add Packed Integers", "SSE2", "", true, "x,x"},
	oPSUBL:      {"PSUBL", "SDM Vol. 2B, PSUBB/PSUBW/PSUBD—Subtract Packed Integers", "SSE2", "", true, "x,x"},
	oPADDQ:      {"PADDQ", "SDM Vol. 2B, PADDB/PADDW/PADDD/PADDQ—Add Packed Integers", "SSE2", "", true, "x,x"},
	oPAND:       {"PAND", "SDM Vol. 2B, PAND—Logical AND", "SSE2", "", true, "x,x"},
	oPOR:        {"POR", "SDM Vol. 2B, POR—Bitwise Logical OR", "SSE2", "", true, "x,x"},
	oPSHUFL:     {"PSHUFL", "SDM Vol. 2B, PSHUFD—Shuffle Packed Doublewords", "SSE2", "", true, "i,x,x"},
	oPSRLQ:      {"PSRLQ", "SDM Vol. 2B, PSRLW/PSRLD/PSRLQ—Shift Packed Data Right Logical", "SSE2", "", true, "i,x"},
	oPSLLQ:      {"PSLLQ", "SDM Vol. 2B, PSLLW/PSLLD/PSLLQ—Shift Packed Data Left Logical", "SSE2", "", true, "i,x"},
	oPSRAL:      {"PSRAL", "SDM Vol. 2B, PSRAW/PSRAD/PSRAQ—Shift Packed Data Right Arithmetic", "SSE2", "", true, "i,x"},
	oPSLLL:      {"PSLLL", "SDM Vol. 2B, PSLLW/PSLLD/PSLLQ—Shift Packed Data Left Logical", "SSE2", "", true, "i,x"},
	oPUNPCKLLQ:  {"PUNPCKLLQ", "SDM Vol. 2B, PUNPCKLBW/PUNPCKLWD/PUNPCKLDQ/PUNPCKLQDQ—Unpack Low Data", "SSE2", "", true, "x,x"},
	oPUNPCKHLQ:  {"PUNPCKHLQ", "SDM Vol. 2B, PUNPCKHBW/PUNPCKHWD/PUNPCKHDQ/PUNPCKHQDQ—Unpack High Data", "SSE2", "", true, "x,x"},
	oPUNPCKLQDQ: {"PUNPCKLQDQ", "SDM Vol. 2B, PUNPCKLBW/PUNPCKLWD/PUNPCKLDQ/PUNPCKLQDQ—Unpack Low Data", "SSE2", "", true, "x,x"},
	oPUNPCKHQDQ: {"PUNPCKHQDQ", "SDM Vol. 2B, PUNPCKHBW/PUNPCKHWD/PUNPCKHDQ/PUNPCKHQDQ—Unpack High Data", "SSE2", "", true, "x,x"},

	oVMOVDQU:      {"VMOVDQU", "SDM Vol. 2B, MOVDQU—Move Unaligned Packed Integer Values (VEX)", "AVX", "AVX", true, "ym,y;y,m;xm,x;x,m"},
	oVMOVDQA:      {"VMOVDQA", "SDM Vol. 2B, MOVDQA—Move Aligned Packed Integer Values (VEX)", "AVX", "AVX", true, "ym,y;y,m;xm,x;x,m"},
	oVPXOR:        {"VPXOR", "SDM Vol. 2B, PXOR—Logical Exclusive OR (VEX)", "AVX2", "AVX", true, vec3},
	oVPAND:        {"VPAND", "SDM Vol. 2B, PAND—Logical AND (VEX)", "AVX2", "AVX", true, vec3},
	oVPANDN:       {"VPANDN", "SDM Vol. 2B, PANDN—Logical AND NOT (VEX)", "AVX2", "AVX", true, vec3},
	oVPOR:         {"VPOR", "SDM Vol. 2B, POR—Bitwise Logical OR (VEX)", "AVX2", "AVX", true, vec3},
	oVPSLLQ:       {"VPSLLQ", "SDM Vol. 2B, PSLLW/PSLLD/PSLLQ—Shift Packed Data Left Logical (VEX)", "AVX2", "AVX", true, vecShz},
	oVPSRLQ:       {"VPSRLQ", "SDM Vol. 2B, PSRLW/PSRLD/PSRLQ—Shift Packed Data Right Logical (VEX)", "AVX2", "AVX", true, vecShz},
	oVPSLLD:       {"VPSLLD", "SDM Vol. 2B, PSLLW/PSLLD/PSLLQ—Shift Packed Data Left Logical (VEX)", "AVX2", "AVX", true, vecShz},
	oVPSRLD:       {"VPSRLD", "SDM Vol. 2B, PSRLW/PSRLD/PSRLQ—Shift Packed Data Right Logical (VEX)", "AVX2", "AVX", true, vecShz},
	oVPSRAD:       {"VPSRAD", "SDM Vol. 2B, PSRAW/PSRAD/PSRAQ—Shift Packed Data Right Arithmetic (VEX)", "AVX2", "AVX", true, vecShz},
	oVPSLLVD:      {"VPSLLVD", "SDM Vol. 2C, VPSLLVW/VPSLLVD/VPSLLVQ—Variable Bit Shift Left Logical", "AVX2", "AVX2", true, vec3},
	oVPSRLVD:      {"VPSRLVD", "SDM Vol. 2C, VPSRLVW/VPSRLVD/VPSRLVQ—Variable Bit Shift Right Logical", "AVX2", "AVX2", true, vec3},
	oVPSHUFB:      {"VPSHUFB", "SDM Vol. 2B, PSHUFB—Packed Shuffle Bytes (VEX)", "AVX2", "AVX", true, vec3},
	oVPSHUFD:      {"VPSHUFD", "SDM Vol. 2B, PSHUFD—Shuffle Packed Doublewords (VEX)", "AVX2", "AVX", true, "i,zm,z;i,ym,y;i,xm,x"},
	oVPBROADCASTQ: {"VPBROADCASTQ", "SDM Vol. 2C, VPBROADCAST—Load Integer and Broadcast", "AVX2", "AVX2", true, "xm,y;xm,x"},
	oVPBROADCASTD: {"VPBROADCASTD", "SDM Vol. 2C, VPBROADCAST—Load Integer and Broadcast", "AVX2", "AVX2", true, "xm,y;xm,x"},
	oVPERMQ:       {"VPERMQ", "SDM Vol. 2C, VPERMQ—Qwords Element Permutation", "AVX2", "", true, "i,ym,y"},
	oVPERMD:       {"VPERMD", "SDM Vol. 2C, VPERMD/VPERMW—Permute Packed Doubleword/Word Elements", "AVX2", "", true, "ym,y,y"},
	oVPERM2I128:   {"VPERM2I128", "SDM Vol. 2C, VPERM2I128—Permute Integer Values", "AVX2", "", true, "i,ym,y,y"},
	oVINSERTI128:  {"VINSERTI128", "SDM Vol. 2C, VINSERTI128/VINSERTI32x4/…—Insert Packed Integer Values", "AVX2", "", true, "i,xm,y,y"},
	oVEXTRACTI128: {"VEXTRACTI128", "SDM Vol. 2C, VEXTRACTI128/VEXTRACTI32x4/…—Extract Packed Integer Values", "AVX2", "", true, "i,y,xm"},
	oVPUNPCKLQDQ:  {"VPUNPCKLQDQ", "SDM Vol. 2B, PUNPCKLBW/…/PUNPCKLQDQ—Unpack Low Data (VEX)", "AVX2", "AVX", true, vec3z},
	oVPUNPCKHQDQ:  {"VPUNPCKHQDQ", "SDM Vol. 2B, PUNPCKHBW/…/PUNPCKHQDQ—Unpack High Data (VEX)", "AVX2", "AVX", true, vec3z},
	oVPUNPCKLDQ:   {"VPUNPCKLDQ", "SDM Vol. 2B, PUNPCKLBW/…/PUNPCKLQDQ—Unpack Low Data (VEX)", "AVX2", "AVX", true, vec3z},
	oVPUNPCKHDQ:   {"VPUNPCKHDQ", "SDM Vol. 2B, PUNPCKHBW/…/PUNPCKHQDQ—Unpack High Data (VEX)", "AVX2", "AVX", true, vec3z},
	oVPADDD:       {"VPADDD", "SDM Vol. 2B, PADDB/PADDW/PADDD/PADDQ—Add Packed Integers (VEX)", "AVX2", "AVX", true, vec3z},
	oVPSUBD:       {"VPSUBD", "SDM Vol. 2B, PSUBB/PSUBW/PSUBD—Subtract Packed Integers (VEX)", "AVX2", "AVX", true, vec3z},
	oVPADDQ:       {"VPADDQ", "SDM Vol. 2B, PADDB/PADDW/PADDD/PADDQ—Add Packed Integers (VEX)", "AVX2", "AVX", true, vec3z},
	oVPSUBQ:       {"VPSUBQ", "SDM Vol. 2B, PSUBQ—Subtract Packed Quadword Integers (VEX)", "AVX2", "AVX", true, vec3},
	oVPCMPGTD:     {"VPCMPGTD", "SDM Vol. 2B, PCMPGTB/PCMPGTW/PCMPGTD—Compare Packed Signed Integers for Greater Than (VEX)", "AVX2", "AVX", true, vec3},
	oVPCMPEQD:     {"VPCMPEQD", "SDM Vol. 2B, PCMPEQB/PCMPEQW/PCMPEQD—Compare Packed Data for Equal (VEX)", "AVX2", "AVX", true, vec3},
	oVPMOVMSKB:    {"VPMOVMSKB", "SDM Vol. 2B, PMOVMSKB—Move Byte Mask (VEX)", "AVX2", "AVX", true, "y,r;x,r"},
	oVMOVMSKPS:    {"VMOVMSKPS", "SDM Vol. 2B, MOVMSKPS—Extract Packed Single-Precision Floating-Point Sign Mask (VEX)", "AVX", "AVX", false, "y,r;x,r"},
	oVPMULLD:      {"VPMULLD", "SDM Vol. 2B, PMULLD/PMULLQ—Multiply Packed Integers and Store Low Result (VEX)", "AVX2", "AVX", true, vec3z},
	oVPMULDQ:      {"VPMULDQ", "SDM Vol. 2B, PMULDQ—Multiply Packed Doubleword Integers (VEX)", "AVX2", "AVX", true, vec3z},
	oVPMULUDQ:     {"VPMULUDQ", "SDM Vol. 2B, PMULUDQ—Multiply Packed Unsigned Doubleword Integers (VEX)", "AVX2", "AVX", true, vec3z},
	oVPBLENDD:     {"VPBLENDD", "SDM Vol. 2C, VPBLENDD—Blend Packed Dwords", "AVX2", "AVX2", true, "i,ym,y,y;i,xm,x,x"},
	oVPBLENDVB:    {"VPBLENDVB", "SDM Vol. 2B, PBLENDVB—Variable Blend Packed Bytes (VEX)", "AVX2", "AVX", true, "y,ym,y,y;x,xm,x,x"},
	oVPMINUD:      {"VPMINUD", "SDM Vol. 2B, PMINUD/PMINUQ—Minimum of Packed Unsigned Integers (VEX)", "AVX2", "AVX", true, vec3},
	oVPMAXUD:      {"VPMAXUD", "SDM Vol. 2B, PMAXUD/PMAXUQ—Maximum of Packed Unsigned Integers (VEX)", "AVX2", "AVX", true, vec3},
	oVPMINSD:      {"VPMINSD", "SDM Vol. 2B, PMINSB/PMINSW—Minimum of Packed Signed Integers (PMINSD) (VEX)", "AVX2", "AVX", true, vec3},
	oVPABSD:       {"VPABSD", "SDM Vol. 2B, PABSB/PABSW/PABSD/PABSQ—Packed Absolute Value (VEX)", "AVX2", "AVX", true, "ym,y;xm,x"},
	oVZEROUPPER:   {"VZEROUPPER", "SDM Vol. 2C, VZEROUPPER—Zero Upper Bits of YMM Registers", "AVX", "", true, ""},

	oSTMXCSR: {"STMXCSR", "SDM Vol. 2B, STMXCSR—Store MXCSR Register State", "SSE", "", false, "m"},
	oLDMXCSR: {"LDMXCSR", "SDM Vol. 2A, LDMXCSR—Load MXCSR Register", "SSE", "", false, "m"},
	oLFENCE:  {"LFENCE", "SDM Vol. 2A, LFENCE—Load Fence", "SSE2", "", false, ""},

	// AVX-512. Feature is AVX512F, the foundation every EVEX form needs;
	// the 128- and 256-bit forms also need AVX512VL (Insn.Features).
	// DOIT: Intel's list names VPTERNLOGD/Q, VPROLD/Q/VPRORD/Q, and the
	// families (V)MOVDQU and (V)PXOR, taken here to include VMOVDQU64 and
	// VPXORQ (Spec/SOUNDNESS.md, "AVX-512"). None is MCDT.
	oVPTERNLOGQ: {"VPTERNLOGQ", "SDM Vol. 2C, VPTERNLOGD/VPTERNLOGQ—Bitwise Ternary Logic", "AVX512F", "", true, "i,zm,z,z;i,ym,y,y;i,xm,x,x"},
	oVPROLQ:     {"VPROLQ", "SDM Vol. 2C, VPROLD/VPROLVD/VPROLQ/VPROLVQ—Bit Rotate Left", "AVX512F", "", true, "i,zm,z;i,ym,y;i,xm,x"},
	oVPRORQ:     {"VPRORQ", "SDM Vol. 2C, VPRORD/VPRORVD/VPRORQ/VPRORVQ—Bit Rotate Right", "AVX512F", "", true, "i,zm,z;i,ym,y;i,xm,x"},
	oVPXORQ:     {"VPXORQ", "SDM Vol. 2B, PXOR—Logical Exclusive OR (EVEX encoded versions: VPXORD/VPXORQ)", "AVX512F", "", true, "zm,z,z;ym,y,y;xm,x,x"},
	oVMOVDQU64:  {"VMOVDQU64", "SDM Vol. 2B, MOVDQU,VMOVDQU8/16/32/64—Move Unaligned Packed Integer Values", "AVX512F", "", true, "zm,z;z,m;ym,y;y,m;xm,x;x,m"},
	// VSHUFI64X2 and VPERMT2D are marked DOIT as VPERM2I128 and VPERMD
	// are, from Intel's list as recalled (Spec/SOUNDNESS.md, "AVX-512");
	// VSHUFI64X2 has no 128-bit form.
	oVSHUFI64X2: {"VSHUFI64X2", "SDM Vol. 2C, VSHUFF32x4/VSHUFF64x2/VSHUFI32x4/VSHUFI64x2—Shuffle Packed Values at 128-Bit Granularity", "AVX512F", "", true, "i,zm,z,z;i,ym,y,y"},
	oVPERMT2D:   {"VPERMT2D", "SDM Vol. 2C, VPERMT2W/D/Q/PS/PD—Full Permute From Two Tables Overwriting One Table", "AVX512F", "", true, "zm,z,z;ym,y,y;xm,x,x"},
}

// evexOps are the EVEX-only instructions; a form 128 or 256 bits wide
// needs AVX512VL besides its Feature, a 512-bit form AVX512F alone (SDM
// Vol. 2, each entry's "AVX512VL AVX512F" and "AVX512F" CPUID columns).
var evexOps = map[opcode]bool{oVPTERNLOGQ: true, oVPROLQ: true, oVPRORQ: true, oVPXORQ: true, oVMOVDQU64: true, oVSHUFI64X2: true, oVPERMT2D: true}

// Features returns every CPU feature this instruction form needs: Feature,
// and AVX512VL for the EVEX forms below 512 bits. An EVEX form of an
// instruction that also has a VEX one (VPADDD, …) needs AVX512F, not the
// VEX form's AVX or AVX2 (SDM Vol. 2, each entry's CPUID column).
func (in *Insn) Features() []string {
	f := in.Feature()
	if in.evex || evexOps[in.code] {
		for _, a := range in.Args {
			if a.Kind == KReg && a.Reg.IsZ() {
				return []string{f}
			}
		}
		return []string{f, "AVX512VL"}
	}
	if f == "" {
		return nil
	}
	return []string{f}
}

var opcodes = func() map[string]opcode {
	m := map[string]opcode{}
	for i := opcode(1); i < numOps; i++ {
		if infos[i].Op == "" {
			panic(fmt.Sprintf("x86: opcode %d has no Info", i))
		}
		m[infos[i].Op] = i
	}
	return m
}()

// Lookup returns the Info of a mnemonic.
func Lookup(op string) (Info, bool) {
	c, ok := opcodes[op]
	if !ok {
		return Info{}, false
	}
	return info(c), true
}

func info(c opcode) Info {
	r := infos[c]
	return Info{Op: r.Op, SDM: r.SDM, Feature: r.Feature, Feature128: r.Feature128, DOIT: r.DOIT, Forms: r.Forms, MCDT: mcdtOps[c]}
}

// Mnemonics lists the modelled mnemonics in order.
func Mnemonics() []string {
	var out []string
	for i := opcode(1); i < numOps; i++ {
		out = append(out, infos[i].Op)
	}
	sort.Strings(out)
	return out
}

// Info returns the instruction's Info.
func (in *Insn) Info() Info { return info(in.code) }

// Feature returns the CPU feature this instruction form needs ("" for
// baseline x86-64).
func (in *Insn) Feature() string {
	inf := infos[in.code]
	if in.evex {
		return "AVX512F"
	}
	if in.code == oMOVQ {
		for _, a := range in.Args {
			if a.Kind == KReg && a.Reg.IsX() {
				return "SSE2"
			}
		}
		return ""
	}
	if inf.Feature128 != "" {
		wide := false
		for _, a := range in.Args {
			if a.Kind == KReg && a.Reg.IsY() {
				wide = true
			}
		}
		if !wide {
			return inf.Feature128
		}
	}
	return inf.Feature
}

func isBranch(c opcode) bool { return c >= oJMP && c <= oJPL }

func class(o Operand) byte {
	switch o.Kind {
	case KReg:
		switch {
		case o.Reg.IsGPR():
			return 'r'
		case o.Reg.IsByte():
			return 'b'
		case o.Reg.IsX():
			return 'x'
		case o.Reg.IsZ():
			return 'z'
		default:
			return 'y'
		}
	case KImm:
		return 'i'
	case KMem:
		return 'm'
	case KLabel:
		return 'l'
	}
	return '?'
}

// checkForm rejects operand forms the semantics do not model.
func checkForm(in *Insn) error {
	forms := strings.Split(infos[in.code].Forms, ";")
	for _, f := range forms {
		var ops []string
		if f != "" {
			ops = strings.Split(f, ",")
		}
		if len(ops) != len(in.Args) {
			continue
		}
		ok := true
		for i, set := range ops {
			if !strings.ContainsRune(set, rune(class(in.Args[i]))) {
				ok = false
			}
		}
		if ok {
			return nil
		}
	}
	var got []string
	for _, a := range in.Args {
		got = append(got, string(class(a)))
	}
	return fmt.Errorf("%s: operand form (%s) not modelled (forms: %s)", in.Op, strings.Join(got, ","), infos[in.code].Forms)
}
