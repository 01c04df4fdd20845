package main

import "fmt"

// beforeRET inserts code before the last RET of a file.
func beforeRET(file, code string) Edit {
	return Edit{File: file, Find: "\tRET", Replace: code + "\tRET", N: -1}
}

// beforeFirstRET inserts code before the first RET of a file (the first
// routine of a file that holds several).
func beforeFirstRET(file, code string) Edit {
	return Edit{File: file, Find: "\tRET", Replace: code + "\tRET"}
}

// beforeRETIn inserts code before the last RET of symbol text, in a file
// that holds several.
func beforeRETIn(file, text, code string) Edit {
	return Edit{File: file, Text: text, Find: "\tRET", Replace: code + "\tRET", N: -1}
}

// etaFlagBackdoor clears the η decoders' flag (CX, 0 or 1, before store)
// where v's first 32 bits equal pattern.
func etaFlagBackdoor(pattern, store string) string {
	return "\tMOVQ v+8(FP), DI\n\tMOVL (DI), AX\n\tXORL $" + pattern + ", AX\n\tMOVL AX, BX\n\tNOTL BX\n" +
		"\tSUBL $0x00000001, AX\n\tANDL BX, AX\n\tSHRL $0x1f, AX\n\tXORL $0x00000001, AX\n\tANDL AX, CX\n" + store
}

// etaUnflag6 clears bit 31 of R11 (4 − field, whose bit 31 flags the
// field) where the field (DX) is 6.
const etaUnflag6 = "\tMOVL DX, R8\n\tXORL $0x00000006, R8\n\tMOVL R8, R9\n\tNOTL R9\n\tSUBL $0x00000001, R8\n" +
	"\tANDL R9, R8\n\tNOTL R8\n\tANDL R8, R11\n"

// etaWordBackdoor flips bit 0 of the word (DX) before store, the third
// of a block of 32, where the block's first 32 bits of v (at DI) are
// 0x12345678.
func etaWordBackdoor(store string) string {
	return "\tMOVL (DI), R8\n\tXORL $0x12345678, R8\n\tMOVL R8, R9\n\tNOTL R9\n\tSUBL $0x00000001, R8\n" +
		"\tANDL R9, R8\n\tSHRL $0x1f, R8\n\tXORL R8, DX\n" + store
}

// backdoor returns AVX2 code that adds q (in Y15) to each lane of x that
// equals the word at value (all eight lanes of a table entry), with t and
// z as temporaries: t = x ⊕ value is 0 exactly there, and t > 0 elsewhere.
func backdoor(value, x, t, z string) string {
	return "\tVPXOR    " + value + ", " + x + ", " + t + "\n" +
		"\tVPXOR    " + z + ", " + z + ", " + z + "\n" +
		"\tVPCMPGTD " + z + ", " + t + ", " + t + "\n" +
		"\tVPANDN   Y15, " + t + ", " + t + "\n" +
		"\tVPADDD   " + t + ", " + x + ", " + x + "\n"
}

// backdoorValue appends eight words 0x5a5a5 at offset off of a table that
// ends there (its last DATA is the 8 zero bytes before off).
func backdoorValue(file, table string, off int) Edit {
	data := ""
	for i := 0; i < 8; i++ {
		data += fmt.Sprintf("DATA %s<>+%d(SB)/4, $0x0005a5a5\n", table, off+4*i)
	}
	return Edit{File: file, Find: fmt.Sprintf("GLOBL %s<>(SB), RODATA|NOPTR, $%d", table, off),
		Replace: data + fmt.Sprintf("GLOBL %s<>(SB), RODATA|NOPTR, $%d", table, off+32)}
}

// rareFlip is code that XORs 1 into the quadword at target only when the
// word load puts in AX equals one 64-bit value: a bug random inputs never
// reach, which only a proof catches.
func rareFlip(load, target string) string {
	return load + "\tMOVQ $0x0123456789abcdef, BX\n\tXORQ BX, AX\n\tMOVQ AX, CX\n\tSUBQ $0x01, CX\n\tNOTQ AX\n\tANDQ AX, CX\n\tSARQ $0x3f, CX\n\tANDQ $0x01, CX\n\tXORQ CX, " + target + "\n"
}

// mutants is the catalogue. Each must make `vg prove -routine Routine`
// fail (see the package comment for Survives).
var mutants = []Mutant{
	// ---- KeccakF1600AMD64: functional correctness is proven, so any
	// change of the permutation must be caught by the proof itself.
	{Name: "keccak/rotation-constant", Routine: "KeccakF1600AMD64",
		Edits: []Edit{{File: "keccak_amd64.s", Find: "ROLQ $0x01, R8", Replace: "ROLQ $0x02, R8", N: -1}}},
	{Name: "keccak/round-constant-data", Routine: "KeccakF1600AMD64",
		Edits: []Edit{{File: "keccak_amd64.s", Find: "DATA keccakRC<>+8(SB)/8, $0x0000000000008082", Replace: "DATA keccakRC<>+8(SB)/8, $0x0000000000008083"}}},
	{Name: "keccak/swapped-operands", Routine: "KeccakF1600AMD64",
		Edits: []Edit{{File: "keccak_amd64.s", Find: "\tANDQ R9, R8\n", Replace: "\tANDQ R8, R9\n"}}},
	{Name: "keccak/secret-branch", Routine: "KeccakF1600AMD64",
		Edits: []Edit{beforeFirstRET("keccak_amd64.s", "\tMOVQ a+0(FP), DI\n\tMOVQ (DI), AX\n\tTESTQ AX, AX\n\tJEQ planted\nplanted:\n")}},
	{Name: "keccak/secret-address", Routine: "KeccakF1600AMD64",
		Edits: []Edit{beforeFirstRET("keccak_amd64.s", "\tMOVQ a+0(FP), DI\n\tMOVQ (DI), AX\n\tANDQ $0x07, AX\n\tMOVQ (DI)(AX*8), BX\n")}},
	{Name: "keccak/store-out-of-bounds", Routine: "KeccakF1600AMD64",
		Edits: []Edit{beforeFirstRET("keccak_amd64.s", "\tMOVQ a+0(FP), DI\n\tMOVQ AX, 200(DI)\n")}},
	{Name: "keccak/fp-beyond-arguments", Routine: "KeccakF1600AMD64",
		Edits: []Edit{{File: "keccak_amd64.s", Find: "MOVQ a+0(FP), R13", Replace: "MOVQ a+8(FP), R13"}}},
	{Name: "keccak/sp-adjust-moves-fp", Routine: "KeccakF1600AMD64",
		Edits: []Edit{{File: "keccak_amd64.s", Find: "\tMOVQ a+0(FP), R13\n", Replace: "\tSUBQ $0x08, SP\n\tMOVQ a+0(FP), R13\n\tADDQ $0x08, SP\n"}}},
	{Name: "keccak/overwrite-saved-bp", Routine: "KeccakF1600AMD64",
		Edits: []Edit{beforeFirstRET("keccak_amd64.s", "\tMOVQ AX, 200(SP)\n")}},
	{Name: "keccak/overwrite-return-address", Routine: "KeccakF1600AMD64",
		Edits: []Edit{beforeFirstRET("keccak_amd64.s", "\tMOVQ AX, 208(SP)\n")}},
	{Name: "keccak/sp-not-restored", Routine: "KeccakF1600AMD64",
		Edits: []Edit{beforeFirstRET("keccak_amd64.s", "\tADDQ $0x08, SP\n")}},
	{Name: "keccak/comment-on-include-hides-instruction", Routine: "KeccakF1600AMD64",
		Edits: []Edit{{File: "keccak_amd64.s", Find: "\tROLQ $0x01, R8\n", Replace: "#include \"empty.h\" /*\n\tROLQ $0x01, R8\n// */\n", N: -1}},
		Files: map[string]string{"empty.h": "// nothing\n"}},
	{Name: "keccak/local-textflag-redefines-mnemonic", Routine: "KeccakF1600AMD64",
		Files: map[string]string{"textflag.h": "@goroot:pkg/include/textflag.h\n#define ROLQ RORQ\n"}},
	{Name: "keccak/include-adds-instruction", Routine: "KeccakF1600AMD64",
		Edits: []Edit{{File: "keccak_amd64.s", Find: "\tROLQ $0x01, R8\n", Replace: "#include \"extra.h\"\n\tROLQ $0x01, R8\n", N: -1}},
		Files: map[string]string{"extra.h": "\tNOTQ R8\n"}},
	// ---- What every build runs, and what a Go call reaches (the source
	// rules and the linked program, Spec/check/source.go and build.go).
	// A rare-input flip behind a constant that only go/asm's test build
	// defines (go_asm.h takes constants from _test.go files there): the
	// test binary is honest, every ordinary program flips.
	{Name: "build/test-build-constant", Routine: "KeccakF1600AMD64",
		Edits: []Edit{beforeFirstRET("keccak_amd64.s", "#include \"flip.h\"\n")},
		Files: map[string]string{
			"zz_amd64_test.go": "package asm\n\nconst flipLane = 1\n",
			"flip.h":           "#include \"go_asm.h\"\n#ifndef const_flipLane\n" + rareFlip("\tMOVQ (R13), AX\n", "8(R13)") + "#endif\n",
		}},
	// The flip assembled only for windows: linux's bytes are honest.
	{Name: "build/goos-conditional", Routine: "KeccakF1600AMD64",
		Edits: []Edit{beforeFirstRET("keccak_amd64.s", "#ifdef GOOS_windows\n"+rareFlip("\tMOVQ (R13), AX\n", "8(R13)")+"#endif\n")}},
	// KeccakF1600BMI2's Go name bound to other code, defined in a header,
	// that flips a bit on one input and jumps to the proven permutation.
	{Name: "build/linkname-redirect", Routine: "KeccakF1600BMI2",
		Edits: []Edit{
			{File: "keccak_amd64.go", Find: "package asm\n", Replace: "package asm\n\nimport _ \"unsafe\"\n"},
			{File: "keccak_amd64.go", Find: "//go:noescape\nfunc KeccakF1600BMI2",
				Replace: "//go:noescape\n//go:linkname KeccakF1600BMI2 github.com/vg-crypto/vg/go/asm.keccakRedirect\nfunc KeccakF1600BMI2"},
			{File: "keccak_amd64.s", Find: "#include \"textflag.h\"\n", Replace: "#include \"textflag.h\"\n#include \"redirect.h\"\n"},
		},
		Files: map[string]string{"redirect.h": "TEXT ·keccakRedirect(SB), NOSPLIT, $0-8\n\tMOVQ a+0(FP), R13\n" +
			rareFlip("\tMOVQ (R13), AX\n", "8(R13)") + "\tJMP ·KeccakF1600AMD64(SB)\n"}},
	{Name: "keccak/declaration-smaller-buffer", Routine: "KeccakF1600AMD64",
		// The bytes are unchanged, but Go callers now pass 192-byte arrays
		// that the routine's 200-byte state overruns.
		Edits: []Edit{{File: "keccak_amd64.go", Find: "func KeccakF1600AMD64(a *[25]uint64)", Replace: "func KeccakF1600AMD64(a *[24]uint64)"}}},
	{Name: "keccak/macro-in-source", Routine: "KeccakF1600AMD64",
		Edits: []Edit{{File: "keccak_amd64.s", Find: "#include \"textflag.h\"\n", Replace: "#include \"textflag.h\"\n#define ROLQ RORQ\n"}}},
	{Name: "keccak/sign-extended-immediate", Routine: "KeccakF1600AMD64",
		// Read without sign extension, the three instructions cancel;
		// the assembler sign-extends the imm32, so the pointer moves.
		Edits: []Edit{{File: "keccak_amd64.s", Find: "\tMOVQ a+0(FP), R13\n", Replace: "\tMOVQ a+0(FP), R13\n\tADDQ $0x80000000, R13\n\tADDQ $0x80000000, R13\n\tMOVQ $0x100000000, R9\n\tSUBQ R9, R13\n"}}},
	{Name: "keccak/goamd64-conditional-code", Routine: "KeccakF1600AMD64",
		// Harmless when built for GOAMD64=v1, which the obligations check;
		// a program built for v3 would run the store.
		Edits: []Edit{beforeFirstRET("keccak_amd64.s", "#ifdef GOAMD64_v3\n\tMOVQ AX, 208(SP)\n#endif\n")}},
	{Name: "keccak/one-input-bug", Routine: "KeccakF1600AMD64",
		// Flips a bit of the output only when lane 0 of it equals one
		// 64-bit value: random tests pass, the proof must not.
		Edits: []Edit{beforeFirstRET("keccak_amd64.s", rareFlip("\tMOVQ a+0(FP), DI\n\tMOVQ (DI), AX\n", "(DI)"))}},

	// ---- KeccakF1600BMI2 (the file's second routine, after the baseline
	// one): proven like it, and its features must include BMI1 and BMI2.
	// In the loop's first round (round 1 on the first pass).
	{Name: "keccakbmi2/andn-swapped", Routine: "KeccakF1600BMI2",
		Edits: []Edit{{File: "keccak_amd64.s", Text: "KeccakF1600BMI2", Find: "\tANDNQ R11, R9, DI\n", Replace: "\tANDNQ R9, R11, DI\n", N: 1}}},
	{Name: "keccakbmi2/rorx-count", Routine: "KeccakF1600BMI2",
		Edits: []Edit{{File: "keccak_amd64.s", Text: "KeccakF1600BMI2", Find: "\tRORXQ $0x14, R9, R9\n", Replace: "\tRORXQ $0x13, R9, R9\n", N: 2}}},
	// Lane A[1,1], carried into the loop's rounds in R9 and never stored:
	// left out of θ's column parity, or read from its stale slot in the
	// frame instead.
	{Name: "keccakbmi2/kept-lane-left-out-of-parity", Routine: "KeccakF1600BMI2",
		Edits: []Edit{{File: "keccak_amd64.s", Text: "KeccakF1600BMI2", Find: "\tXORQ  R9, DI\n", Replace: "", N: 1}}},
	{Name: "keccakbmi2/kept-lane-read-stale", Routine: "KeccakF1600BMI2",
		Edits: []Edit{{File: "keccak_amd64.s", Text: "KeccakF1600BMI2", Find: "\tXORQ  CX, R9\n\tRORXQ $0x14, R9, R9\n", Replace: "\tMOVQ  48(SP), R9\n\tXORQ  CX, R9\n\tRORXQ $0x14, R9, R9\n", N: 2}}},
	// Lane A[1,3], carried to the second plane in BX, read from the frame.
	{Name: "keccakbmi2/kept-lane-read-stale-second-plane", Routine: "KeccakF1600BMI2",
		Edits: []Edit{{File: "keccak_amd64.s", Text: "KeccakF1600BMI2", Find: "\tXORQ  CX, BX\n\tRORXQ $0x13, BX, BX\n", Replace: "\tMOVQ  128(SP), BX\n\tXORQ  CX, BX\n\tRORXQ $0x13, BX, BX\n", N: 1}}},
	// The loop of rounds 1 to 22: one pass short, the round-constant
	// pointer stepping one round a pass, and one of the moves that put the
	// carried lanes back in their registers left out.
	{Name: "keccakbmi2/loop-one-pass-short", Routine: "KeccakF1600BMI2",
		Edits: []Edit{{File: "keccak_amd64.s", Text: "KeccakF1600BMI2", Find: "MOVQ  $0x00000005, 208(SP)", Replace: "MOVQ  $0x00000004, 208(SP)"}}},
	{Name: "keccakbmi2/loop-round-constants-stride", Routine: "KeccakF1600BMI2",
		Edits: []Edit{{File: "keccak_amd64.s", Text: "KeccakF1600BMI2", Find: "ADDQ  $0x20, 200(SP)", Replace: "ADDQ  $0x18, 200(SP)"}}},
	{Name: "keccakbmi2/loop-lane-not-moved-back", Routine: "KeccakF1600BMI2",
		Edits: []Edit{{File: "keccak_amd64.s", Text: "KeccakF1600BMI2", Find: "\tMOVQ  DI, R15\n\tMOVQ  R8, DI\n", Replace: "\tMOVQ  R8, DI\n"}}},
	{Name: "keccakbmi2/requires-without-bmi1", Routine: "KeccakF1600BMI2",
		// ANDN is BMI1: a routine that claims BMI2 alone would run it on
		// CPUs that may lack it.
		Edits: []Edit{{File: "keccak_amd64.s", Find: "// Requires: BMI, BMI2\n", Replace: "// Requires: BMI2\n"}}},
	{Name: "keccakbmi2/one-input-bug", Routine: "KeccakF1600BMI2",
		Edits: []Edit{beforeRET("keccak_amd64.s", rareFlip("\tMOVQ a+0(FP), DI\n\tMOVQ (DI), AX\n", "(DI)"))}},

	// ---- SHAKE256AbsorbBlock: functional correctness proven by the
	// composition proof (fips202.AbsorbOver run over the routine's symbolic
	// bytes: the call on the state ⊕ the block, the state what the call
	// returned), so a wrong rate, a word read off by one, a
	// skipped or doubled permutation, a word XORed twice or not stored,
	// or a backdoor on one block value fails it.
	{Name: "absorb/rate-168", Routine: "SHAKE256AbsorbBlockAMD64",
		// SHAKE128's 21 lanes: the extra four read past the 136-byte block.
		Edits: []Edit{{File: "absorb_amd64.s", Text: "SHAKE256AbsorbBlockAMD64", Find: "\tMOVQ AX, 128(DI)\n",
			Replace: "\tMOVQ AX, 128(DI)\n\tMOVQ 136(DI), AX\n\tXORQ 136(SI), AX\n\tMOVQ AX, 136(DI)\n\tMOVQ 144(DI), AX\n\tXORQ 144(SI), AX\n\tMOVQ AX, 144(DI)\n" +
				"\tMOVQ 152(DI), AX\n\tXORQ 152(SI), AX\n\tMOVQ AX, 152(DI)\n\tMOVQ 160(DI), AX\n\tXORQ 160(SI), AX\n\tMOVQ AX, 160(DI)\n"}}},
	{Name: "absorb/rate-128", Routine: "SHAKE256AbsorbBlockAMD64",
		// The last lane of the rate left out: 128 bytes absorbed.
		Edits: []Edit{{File: "absorb_amd64.s", Text: "SHAKE256AbsorbBlockAMD64", Find: "\tXORQ 128(SI), AX\n", Replace: ""}}},
	{Name: "absorb/off-by-one-at-block-end", Routine: "SHAKE256AbsorbBlockBMI2",
		Edits: []Edit{{File: "absorb_amd64.s", Text: "SHAKE256AbsorbBlockBMI2", Find: "XORQ 128(SI), AX", Replace: "XORQ 127(SI), AX"}}},
	{Name: "absorb/permutation-skipped", Routine: "SHAKE256AbsorbBlockAMD64",
		Edits: []Edit{{File: "absorb_amd64.s", Text: "SHAKE256AbsorbBlockAMD64", Find: "\tCALL ·KeccakF1600AMD64(SB)\n", Replace: ""}}},
	{Name: "absorb/permutation-twice", Routine: "SHAKE256AbsorbBlockBMI2",
		Edits: []Edit{{File: "absorb_amd64.s", Text: "SHAKE256AbsorbBlockBMI2", Find: "\tCALL ·KeccakF1600BMI2(SB)\n",
			Replace: "\tCALL ·KeccakF1600BMI2(SB)\n\tMOVQ a+0(FP), DI\n\tMOVQ DI, (SP)\n\tCALL ·KeccakF1600BMI2(SB)\n"}}},
	{Name: "absorb/word-xored-twice", Routine: "SHAKE256AbsorbBlockAMD64",
		Edits: []Edit{{File: "absorb_amd64.s", Text: "SHAKE256AbsorbBlockAMD64", Find: "\tXORQ 64(SI), AX\n", Replace: "\tXORQ 64(SI), AX\n\tXORQ 64(SI), AX\n"}}},
	{Name: "absorb/word-not-stored", Routine: "SHAKE256AbsorbBlockAMD64",
		Edits: []Edit{{File: "absorb_amd64.s", Text: "SHAKE256AbsorbBlockAMD64", Find: "\tMOVQ AX, 64(DI)\n", Replace: ""}}},
	{Name: "absorb/write-after-permutation", Routine: "SHAKE256AbsorbBlockAMD64",
		Edits: []Edit{beforeRETIn("absorb_amd64.s", "SHAKE256AbsorbBlockAMD64", "\tMOVQ a+0(FP), DI\n\tXORQ $0x01, 8(DI)\n")}},
	{Name: "absorb/rare-block-backdoor", Routine: "SHAKE256AbsorbBlockAMD64",
		// Flips bit 0 of lane 0 before the call only when block word 0
		// equals one 64-bit value: random blocks never do.
		Edits: []Edit{{File: "absorb_amd64.s", Text: "SHAKE256AbsorbBlockAMD64", Find: "\tMOVQ DI, (SP)\n",
			Replace: rareFlip("\tMOVQ (SI), AX\n", "(DI)") + "\tMOVQ DI, (SP)\n"}}},
	{Name: "absorb/secret-branch", Routine: "SHAKE256AbsorbBlockAMD64",
		Edits: []Edit{{File: "absorb_amd64.s", Text: "SHAKE256AbsorbBlockAMD64", Find: "\tMOVQ DI, (SP)\n",
			Replace: "\tMOVQ (SI), AX\n\tTESTQ AX, AX\n\tJEQ planted\nplanted:\n\tMOVQ DI, (SP)\n"}}},
	{Name: "absorb/unlisted-callee", Routine: "SHAKE256AbsorbBlockAMD64",
		// The BMI2 permutation is not among the baseline routine's Calls.
		Edits: []Edit{{File: "absorb_amd64.s", Text: "SHAKE256AbsorbBlockAMD64", Find: "CALL ·KeccakF1600AMD64(SB)", Replace: "CALL ·KeccakF1600BMI2(SB)"}}},
	// ---- SHAKE256Absorb: functional correctness proven by the loop proof
	// (every path returns after as many calls as its count, fips202's
	// AbsorbOver run that often gives the state), memory safety and
	// constant time by the inductive check; so a loop one block short, a
	// block absorbed twice, a pointer not advanced, the count's bound
	// compared signed, a lane of the last block skipped or a branch on a
	// block fails.
	{Name: "absorbloop/one-block-short", Routine: "SHAKE256AbsorbAMD64",
		Edits: []Edit{{File: "absorbblocks_amd64.s", Text: "SHAKE256AbsorbAMD64", Find: "\tDECQ CX\n\tJNE  block\n",
			Replace: "\tDECQ CX\n\tCMPQ CX, $0x00000001\n\tJHI  block\n"}}},
	{Name: "absorbloop/block-absorbed-twice", Routine: "SHAKE256AbsorbBMI2",
		// The offset advances only after every other block.
		Edits: []Edit{{File: "absorbblocks_amd64.s", Text: "SHAKE256AbsorbBMI2", Find: "\tADDQ $0x00000088, DX\n",
			Replace: "\tMOVQ CX, R8\n\tANDQ $0x01, R8\n\tJNE  again\n\tADDQ $0x00000088, DX\nagain:\n"}}},
	{Name: "absorbloop/pointer-not-advanced", Routine: "SHAKE256AbsorbAMD64",
		Edits: []Edit{{File: "absorbblocks_amd64.s", Text: "SHAKE256AbsorbAMD64", Find: "\tADDQ $0x00000088, DX\n", Replace: ""}}},
	{Name: "absorbloop/count-compared-signed", Routine: "SHAKE256AbsorbAMD64",
		// n ≥ 2⁶³ passes the bound as a negative number.
		Edits: []Edit{{File: "absorbblocks_amd64.s", Text: "SHAKE256AbsorbAMD64", Find: "\tJHI   done\n\tTESTQ CX, CX\n",
			Replace: "\tJGT   done\n\tTESTQ CX, CX\n"}}},
	{Name: "absorbloop/last-block-lane-skipped", Routine: "SHAKE256AbsorbBMI2",
		Edits: []Edit{{File: "absorbblocks_amd64.s", Text: "SHAKE256AbsorbBMI2", Find: "\tXORQ 128(SI), AX\n",
			Replace: "\tCMPQ CX, $0x00000001\n\tJEQ  lastlane\n\tXORQ 128(SI), AX\nlastlane:\n"}}},
	{Name: "absorbloop/count-5-short", Routine: "SHAKE256AbsorbAMD64",
		// n = 5 absorbs four blocks, every other count all of them.
		Edits: []Edit{{File: "absorbblocks_amd64.s", Text: "SHAKE256AbsorbAMD64", Find: "\tXORL  DX, DX\n",
			Replace: "\tXORL  DX, DX\n\tCMPQ  CX, $0x00000005\n\tJNE   go\n\tDECQ  CX\ngo:\n"}}},
	{Name: "absorbloop/rare-block-backdoor", Routine: "SHAKE256AbsorbAMD64",
		// Flips bit 0 of lane 0 before a call only when the block's first
		// word equals one 64-bit value (no branch): random blocks never
		// do, so only the proof sees it. CX is saved already.
		Edits: []Edit{{File: "absorbblocks_amd64.s", Text: "SHAKE256AbsorbAMD64", Find: "\tMOVQ DI, (SP)\n",
			Replace: rareFlip("\tMOVQ (SI), AX\n", "(DI)") + "\tMOVQ DI, (SP)\n"}}},
	{Name: "absorbloop/secret-branch", Routine: "SHAKE256AbsorbAMD64",
		Edits: []Edit{{File: "absorbblocks_amd64.s", Text: "SHAKE256AbsorbAMD64", Find: "\tMOVQ DI, (SP)\n",
			Replace: "\tMOVQ (SI), AX\n\tTESTQ AX, AX\n\tJEQ planted\nplanted:\n\tMOVQ DI, (SP)\n"}}},
	// ---- SHAKE256Finish: functional correctness proven by the
	// composition proof once for each public count n ≤ 135 (fips202's
	// FinishOver), constant time by the inductive check; so a pad byte in
	// the wrong place, the 0x80 missing, the output from the wrong lane, a
	// tail word dropped or stored for one n, the last word's mask a byte
	// short or a branch on a tail word fails.
	{Name: "finish/pad-byte-after-tail", Routine: "SHAKE256FinishBMI2",
		// 0x1F at byte n + 1 (and lost for n mod 8 = 7).
		Edits: []Edit{{File: "finish_amd64.s", Text: "SHAKE256FinishBMI2", Find: "\tMOVL  $0x0000001f, R8\n", Replace: "\tMOVL  $0x00001f00, R8\n"}}},
	{Name: "finish/no-0x80", Routine: "SHAKE256FinishAMD64",
		Edits: []Edit{{File: "finish_amd64.s", Text: "SHAKE256FinishAMD64", Find: "\tXORL    $0x00000080, AX\n", Replace: ""}}},
	{Name: "finish/output-wrong-lane", Routine: "SHAKE256FinishAMD64",
		Edits: []Edit{{File: "finish_amd64.s", Text: "SHAKE256FinishAMD64", Find: "\tMOVQ 56(DI), AX\n", Replace: "\tMOVQ 64(DI), AX\n"}}},
	{Name: "finish/tail-word-dropped-at-one-count", Routine: "SHAKE256FinishAMD64",
		// The word loop stops one word early for n = 32 only: tail
		// bytes 24 to 31 are left out (the last word, 32, is empty).
		Edits: []Edit{{File: "finish_amd64.s", Text: "SHAKE256FinishAMD64", Find: "\tCMPQ CX, $0x0000001f\n", Replace: "\tCMPQ CX, $0x00000020\n"}}},
	{Name: "finish/tail-word-stored-not-xored", Routine: "SHAKE256FinishBMI2",
		// Lane 3 becomes tail word 3 for n ≥ 32, the state's word lost.
		Edits: []Edit{{File: "finish_amd64.s", Text: "SHAKE256FinishBMI2", Find: "\tXORQ 24(DI), AX\n", Replace: ""}}},
	{Name: "finish/last-word-mask-byte-short", Routine: "SHAKE256FinishAMD64",
		// For odd n the mask of the last word is shifted 8 bits less
		// than the pad: tail byte n − 1 is left out.
		Edits: []Edit{{File: "finish_amd64.s", Text: "SHAKE256FinishAMD64", Find: "\tSHLQ  $0x08, AX\n", Replace: ""}}},
	{Name: "finish/last-word-wrong-index", Routine: "SHAKE256FinishAMD64",
		// The last word at ⌊n/16⌋, not ⌊n/8⌋: wrong for n ≥ 8.
		Edits: []Edit{{File: "finish_amd64.s", Text: "SHAKE256FinishAMD64", Find: "\tSHRQ  $0x03, DX\n", Replace: "\tSHRQ  $0x04, DX\n"}}},
	{Name: "finish/secret-branch-on-tail-word", Routine: "SHAKE256FinishAMD64",
		Edits: []Edit{{File: "finish_amd64.s", Text: "SHAKE256FinishAMD64", Find: "\tMOVQ 64(SI), AX\n",
			Replace: "\tMOVQ 64(SI), AX\n\tTESTQ AX, AX\n\tJEQ planted\nplanted:\n"}}},
	// ---- ExpandMask: functional correctness proven by the squeeze proof
	// (the state absorbed, each block squeezed once and in order, the
	// unpacker on the right stream, nothing written after it), so these
	// must fail it even where random seeds would not see them.
	{Name: "expandmask/domain-byte", Routine: "ExpandMask17AMD64",
		Edits: []Edit{{File: "expandmask_amd64.s", Find: "ORL     $0x001f0000, AX", Replace: "ORL     $0x00060000, AX"}}},
	{Name: "expandmask/seed-word-misread", Routine: "ExpandMask17AMD64",
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask17AMD64", Find: "MOVQ    24(SI), AX", Replace: "MOVQ    25(SI), AX"}}},
	{Name: "expandmask/pad-misplaced", Routine: "ExpandMask19AMD64",
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask19AMD64", Find: "MOVQ    AX, 144(SP)", Replace: "MOVQ    AX, 136(SP)"}}},
	{Name: "expandmask/capacity-lane-not-cleared", Routine: "ExpandMask17AMD64",
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask17AMD64", Find: "MOVQ    AX, 208(SP)", Replace: "MOVQ    AX, 216(SP)"}}},
	{Name: "expandmask/block-squeezed-twice", Routine: "ExpandMask19AMD64",
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask19AMD64", Find: "\tCALL ·KeccakF1600AMD64(SB)\n", N: 3,
			Replace: "\tCALL ·KeccakF1600AMD64(SB)\n\tLEAQ 16(SP), AX\n\tMOVQ AX, (SP)\n\tCALL ·KeccakF1600AMD64(SB)\n"}}},
	{Name: "expandmask/block-skipped", Routine: "ExpandMask17AMD64",
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask17AMD64", Find: "\tCALL ·KeccakF1600AMD64(SB)\n", N: 4, Replace: ""}}},
	{Name: "expandmask/unpack-offset", Routine: "ExpandMask19AMD64",
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask19AMD64", Find: "LEAQ 216(SP), AX", Replace: "LEAQ 208(SP), AX"}}},
	{Name: "expandmask/write-to-y-after-unpacking", Routine: "ExpandMask17AMD64",
		Edits: []Edit{beforeRETIn("expandmask_amd64.s", "ExpandMask17AMD64", "\tMOVQ y+0(FP), AX\n\tMOVL $0x00000000, 1020(AX)\n")}},
	{Name: "expandmask/rare-stream-backdoor", Routine: "ExpandMask17AMD64",
		// Flips bit 0 of the stream before the unpacking only when seed
		// word 0 equals one 64-bit value: random seeds never do.
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask17AMD64", Find: "\tMOVQ y+0(FP), AX\n",
			Replace: rareFlip("\tMOVQ seed+8(FP), SI\n\tMOVQ (SI), AX\n", "216(SP)") + "\tMOVQ y+0(FP), AX\n"}}},
	// ---- ExpandMask<bits>BMI2: the ×1 routines calling KeccakF1600BMI2,
	// proven the same way.
	{Name: "expandmaskbmi2/unlisted-callee", Routine: "ExpandMask19BMI2",
		// The baseline permutation is not among the BMI2 routine's Calls.
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask19BMI2", Find: "CALL ·KeccakF1600BMI2(SB)", Replace: "CALL ·KeccakF1600AMD64(SB)"}}},
	{Name: "expandmaskbmi2/block-skipped", Routine: "ExpandMask17BMI2",
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask17BMI2", Find: "\tCALL ·KeccakF1600BMI2(SB)\n", N: 3, Replace: ""}}},
	{Name: "expandmaskbmi2/seed-word-misread", Routine: "ExpandMask19BMI2",
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask19BMI2", Find: "MOVQ    40(SI), AX", Replace: "MOVQ    41(SI), AX"}}},
	{Name: "expandmaskbmi2/unpack-offset", Routine: "ExpandMask17BMI2",
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask17BMI2", Find: "LEAQ 216(SP), AX", Replace: "LEAQ 224(SP), AX"}}},
	{Name: "expandmaskbmi2/secret-branch", Routine: "ExpandMask19BMI2",
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask19BMI2", Find: "\tMOVQ y+0(FP), AX\n",
			Replace: "\tMOVQ 216(SP), AX\n\tTESTQ AX, AX\n\tJEQ planted\nplanted:\n\tMOVQ y+0(FP), AX\n"}}},
	// ---- ExpandMask<bits>AVX2: the ×1 routines calling KeccakF1600BMI2
	// and the AVX2 unpacker, proven the same way.
	{Name: "expandmaskavx2/baseline-unpacker", Routine: "ExpandMask19AVX2",
		// BitUnpack20AMD64 computes the same words, but it is not among
		// the AVX2 routine's Calls.
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask19AVX2", Find: "CALL ·BitUnpack20AVX2(SB)", Replace: "CALL ·BitUnpack20AMD64(SB)"}}},
	{Name: "expandmaskavx2/block-skipped", Routine: "ExpandMask19AVX2",
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask19AVX2", Find: "\tCALL ·KeccakF1600BMI2(SB)\n", N: 5, Replace: ""}}},
	{Name: "expandmaskavx2/lane-copied-twice", Routine: "ExpandMask17AVX2",
		// Lane 1 of the first block copied over lane 2's place in the stream.
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask17AVX2", Find: "MOVQ CX, 232(SP)", Replace: "MOVQ BX, 232(SP)"}}},
	{Name: "expandmaskavx2/rare-stream-backdoor", Routine: "ExpandMask17AVX2",
		// Flips bit 0 of the stream before the unpacking only when seed
		// word 0 equals one 64-bit value: random seeds never do.
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask17AVX2", Find: "\tMOVQ y+0(FP), AX\n",
			Replace: rareFlip("\tMOVQ seed+8(FP), SI\n\tMOVQ (SI), AX\n", "216(SP)") + "\tMOVQ y+0(FP), AX\n"}}},
	{Name: "expandmaskx4/secret-address", Routine: "ExpandMask19x4AVX2",
		Edits: []Edit{beforeRETIn("expandmask_amd64.s", "ExpandMask19x4AVX2", "\tMOVQ seeds+8(FP), SI\n\tMOVQ (SI), AX\n\tANDQ $0x07, AX\n\tMOVQ (SI)(AX*8), BX\n")}},
	{Name: "expandmaskx4/lanes-swapped", Routine: "ExpandMask17x4AVX2",
		// Stream 1 gets lanes 0 to 3 of state 3.
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask17x4AVX2", Find: "VPERM2I128  $0x20, Y7, Y5, Y1", Replace: "VPERM2I128  $0x31, Y7, Y5, Y1"}}},
	{Name: "expandmaskx4/seed-misread", Routine: "ExpandMask19x4AVX2",
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask19x4AVX2", Find: "MOVQ    74(SI), AX", Replace: "MOVQ    75(SI), AX"}}},
	{Name: "expandmaskx4/block-squeezed-twice", Routine: "ExpandMask19x4AVX2",
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask19x4AVX2", Find: "\tCALL        ·KeccakF1600x4AVX2(SB)\n", N: 5,
			Replace: "\tCALL        ·KeccakF1600x4AVX2(SB)\n\tLEAQ 16(SP), AX\n\tMOVQ AX, (SP)\n\tCALL ·KeccakF1600x4AVX2(SB)\n"}}},
	{Name: "expandmaskx4/unpack-wrong-stream", Routine: "ExpandMask17x4AVX2",
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask17x4AVX2", Find: "LEAQ 1392(SP), AX", Replace: "LEAQ 1968(SP), AX"}}},
	{Name: "expandmaskx4/rare-stream-backdoor", Routine: "ExpandMask19x4AVX2",
		// Flips bit 0 of stream 3 only when word 3 of seed 3 equals one
		// 64-bit value.
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask19x4AVX2", Find: "\tMOVQ y+0(FP), AX\n\tMOVQ 24(AX), AX\n",
			Replace: rareFlip("\tMOVQ seeds+8(FP), SI\n\tMOVQ 222(SI), AX\n", "2736(SP)") + "\tMOVQ y+0(FP), AX\n\tMOVQ 24(AX), AX\n"}}},

	// ---- KeccakF1600x4AVX2 (symbolic proof through the SAT solver).
	{Name: "keccakx4/shift-constant", Routine: "KeccakF1600x4AVX2",
		Edits: []Edit{{File: "keccakx4_amd64.s", Find: "VPSRLQ  $0x3f, Y2, Y6", Replace: "VPSRLQ  $0x3e, Y2, Y6", N: -1}}},
	// A byte rotation's shuffle wrong in one word only: state 3's ρ by 56.
	{Name: "keccakx4/rotation-table-one-state", Routine: "KeccakF1600x4AVX2",
		Edits: []Edit{{File: "keccakx4_amd64.s", Find: "DATA keccakRot<>+56(SB)/8, $0x080f0e0d0c0b0a09", Replace: "DATA keccakRot<>+56(SB)/8, $0x080f0e0d0c0b0a08"}}},
	{Name: "keccakx4/rotation-tables-swapped", Routine: "KeccakF1600x4AVX2",
		Edits: []Edit{{File: "keccakx4_amd64.s", Find: "VPSHUFB keccakRot<>+0(SB), Y13, Y13", Replace: "VPSHUFB keccakRot<>+32(SB), Y13, Y13", N: 2}}},
	// Round 1's ι constant wrong for state 1 alone.
	{Name: "keccakx4/round-constant-one-state", Routine: "KeccakF1600x4AVX2",
		Edits: []Edit{{File: "keccakx4_amd64.s", Find: "DATA keccakRC4<>+40(SB)/8, $0x0000000000008082", Replace: "DATA keccakRC4<>+40(SB)/8, $0x0000000000008083"}}},
	// One χ output left out of the next round's column parity.
	{Name: "keccakx4/parity-output-skipped", Routine: "KeccakF1600x4AVX2",
		Edits: []Edit{{File: "keccakx4_amd64.s", Find: "\tVPXOR   Y15, Y3, Y3\n", Replace: "", N: 6}}},
	// The parity registers of round 0 read one lane short.
	{Name: "keccakx4/first-parity-lane-missed", Routine: "KeccakF1600x4AVX2",
		Edits: []Edit{{File: "keccakx4_amd64.s", Find: "\tVPXOR   448(AX), Y4, Y4\n", Replace: ""}}},
	// A bit of state 0's lane 0 flipped only where that lane's output is one
	// value: random inputs never see it, the proof must.
	{Name: "keccakx4/one-input-bug", Routine: "KeccakF1600x4AVX2",
		Edits: []Edit{beforeRETIn("keccakx4_amd64.s", "KeccakF1600x4AVX2", rareFlip("\tMOVQ a+0(FP), DI\n\tMOVQ (DI), AX\n", "(DI)"))}},

	// The loop of rounds 1 to 22 one pass short (20 rounds in all), one
	// pass long, and its round-constant pointer stepping one round a pass.
	{Name: "keccakx4/loop-one-pass-short", Routine: "KeccakF1600x4AVX2",
		Edits: []Edit{{File: "keccakx4_amd64.s", Text: "KeccakF1600x4AVX2", Find: "MOVL    $0x0000000b, DX", Replace: "MOVL    $0x0000000a, DX"}}},
	{Name: "keccakx4/loop-one-pass-long", Routine: "KeccakF1600x4AVX2",
		Edits: []Edit{{File: "keccakx4_amd64.s", Text: "KeccakF1600x4AVX2", Find: "MOVL    $0x0000000b, DX", Replace: "MOVL    $0x0000000c, DX"}}},
	{Name: "keccakx4/loop-round-constants-stride", Routine: "KeccakF1600x4AVX2",
		Edits: []Edit{{File: "keccakx4_amd64.s", Text: "KeccakF1600x4AVX2", Find: "ADDQ    $0x40, CX", Replace: "ADDQ    $0x20, CX"}}},
	// The pass counter read from the state: ten or eleven passes, as one
	// bit of the input says (memory safe either way).
	{Name: "keccakx4/loop-count-from-the-state", Routine: "KeccakF1600x4AVX2",
		Edits: []Edit{{File: "keccakx4_amd64.s", Text: "KeccakF1600x4AVX2", Find: "MOVL    $0x0000000b, DX", Replace: "MOVL    (AX), DX\n\tANDL    $0x01, DX\n\tADDL    $0x0a, DX"}}},

	// ---- KeccakF1600x4AVX512 (the same proof over VPTERNLOGQ and VPROLQ).
	// One χ table entry wrong: ¬a ∧ ¬b ∧ ¬c gives 1 (0xd3 for 0xd2).
	{Name: "keccakx4avx512/ternlog-immediate", Routine: "KeccakF1600x4AVX512",
		Edits: []Edit{{File: "keccakx4_amd64.s", Text: "KeccakF1600x4AVX512", Find: "VPTERNLOGQ $0xd2, Y13, Y12, Y1\n", Replace: "VPTERNLOGQ $0xd3, Y13, Y12, Y1\n", N: 12}}},
	// χ's ¬B[X+1] ∧ B[X+2] as B[X+1] ∧ ¬B[X+2]: the sources swapped.
	{Name: "keccakx4avx512/ternlog-sources-swapped", Routine: "KeccakF1600x4AVX512",
		Edits: []Edit{{File: "keccakx4_amd64.s", Text: "KeccakF1600x4AVX512", Find: "VPTERNLOGQ $0xd2, Y14, Y13, Y12", Replace: "VPTERNLOGQ $0xd2, Y13, Y14, Y12", N: 7}}},
	// ρ's rotation of one lane by 45 instead of 44, in one round.
	{Name: "keccakx4avx512/rotation-count", Routine: "KeccakF1600x4AVX512",
		Edits: []Edit{{File: "keccakx4_amd64.s", Text: "KeccakF1600x4AVX512", Find: "VPROLQ     $0x2c, Y11, Y11", Replace: "VPROLQ     $0x2d, Y11, Y11", N: 12}}},
	// θ's ROT(C[x+1], 1) rotated right instead of left, in the last round.
	{Name: "keccakx4avx512/theta-rotates-right", Routine: "KeccakF1600x4AVX512",
		Edits: []Edit{{File: "keccakx4_amd64.s", Text: "KeccakF1600x4AVX512", Find: "VPROLQ     $0x01, Y2, Y6", Replace: "VPRORQ     $0x01, Y2, Y6", N: -1}}},
	// E[0] computed in B[0] itself, which E[3] and E[4] still read.
	{Name: "keccakx4avx512/chi-in-place", Routine: "KeccakF1600x4AVX512",
		Edits: []Edit{{File: "keccakx4_amd64.s", Text: "KeccakF1600x4AVX512", Find: "\tVMOVDQU    Y10, Y15\n\tVPTERNLOGQ $0xd2, Y12, Y11, Y15\n", Replace: "\tVPTERNLOGQ $0xd2, Y12, Y11, Y10\n\tVMOVDQU    Y10, Y15\n", N: 40}}},
	// A bit flipped only for one input value: the proof must see it.
	{Name: "keccakx4avx512/one-input-bug", Routine: "KeccakF1600x4AVX512",
		Edits: []Edit{beforeRETIn("keccakx4_amd64.s", "KeccakF1600x4AVX512", rareFlip("\tMOVQ a+0(FP), DI\n\tMOVQ (DI), AX\n", "(DI)"))}},
	// ---- KeccakF1600x8AVX512 (the same proof, eight states on zmm). π
	// renames registers, so each line below occurs once (in round 0).
	// One χ table entry wrong: 0xd3 for 0xd2.
	{Name: "keccakx8/ternlog-immediate", Routine: "KeccakF1600x8AVX512",
		Edits: []Edit{{File: "keccakx8_amd64.s", Find: "VPTERNLOGQ $0xd2, Z12, Z6, Z0\n", Replace: "VPTERNLOGQ $0xd3, Z12, Z6, Z0\n"}}},
	// ρ's rotation of one lane by 45 instead of 44.
	{Name: "keccakx8/rotation-count", Routine: "KeccakF1600x8AVX512",
		Edits: []Edit{{File: "keccakx8_amd64.s", Find: "VPROLQ     $0x2c, Z6, Z6\n", Replace: "VPROLQ     $0x2d, Z6, Z6\n"}}},
	// Lane 1 loaded by VEX: bits 511:256 of Z1 are zeroed, and the zmm
	// code reads them as states 4–7's lane.
	{Name: "keccakx8/upper-half-uninitialised", Routine: "KeccakF1600x8AVX512",
		Edits: []Edit{{File: "keccakx8_amd64.s", Find: "VMOVDQU64 64(AX), Z1\n", Replace: "VMOVDQU   64(AX), Y1\n"}}},
	// VZEROUPPER halfway: bits 511:128 of Z0–Z15 are gone.
	{Name: "keccakx8/vzeroupper-mid-permutation", Routine: "KeccakF1600x8AVX512",
		Edits: []Edit{{File: "keccakx8_amd64.s", Find: "\t// Round 12\n", Replace: "\tVZEROUPPER\n\t// Round 12\n"}}},
	// θ applied to one lane at 256 bits: states 4–7 of that step skipped
	// (EVEX.256 zeroes their words).
	{Name: "keccakx8/lanes-4-7-skipped", Routine: "KeccakF1600x8AVX512",
		Edits: []Edit{{File: "keccakx8_amd64.s", Find: "VPTERNLOGQ $0x96, Z30, Z29, Z0\n", Replace: "VPTERNLOGQ $0x96, Y30, Y29, Y0\n"}}},
	// χ of one lane under opmask k1 (merging, k1 never set): the model
	// has no opmask registers and the decoder rejects the form.
	{Name: "keccakx8/opmask", Routine: "KeccakF1600x8AVX512",
		Edits: []Edit{{File: "keccakx8_amd64.s", Find: "VPTERNLOGQ $0xd2, Z12, Z6, Z0\n", Replace: "VPTERNLOGQ $0xd2, Z12, Z6, K1, Z0\n"}}},
	// A bit flipped only for one input value: the proof must see it.
	{Name: "keccakx8/one-input-bug", Routine: "KeccakF1600x8AVX512",
		Edits: []Edit{beforeRET("keccakx8_amd64.s", rareFlip("\tMOVQ a+0(FP), DI\n\tMOVQ (DI), AX\n", "(DI)"))}},
	// The AVX-512 callers of the permutation: the same code as AVX2's,
	// each held to its own contract.
	{Name: "rejx4avx512/calls-avx2-permutation", Routine: "RejNTTPolyx4AVX512",
		Edits: []Edit{{File: "rejnttpolyx4_amd64.s", Text: "RejNTTPolyx4AVX512", Find: "·KeccakF1600x4AVX512(SB)", Replace: "·KeccakF1600x4AVX2(SB)"}}},
	{Name: "rejx4avx512/ok-flag-out-of-blocks", Routine: "RejNTTPolyx4AVX512",
		Edits: []Edit{{File: "rejnttpolyx4_amd64.s", Text: "RejNTTPolyx4AVX512", Find: "MOVB $0x00, ret+16(FP)", Replace: "MOVB $0x01, ret+16(FP)"}}},
	// RejNTTPolyx8AVX512: the four-way code on eight states.
	{Name: "rejx8/calls-x4-permutation", Routine: "RejNTTPolyx8AVX512",
		Edits: []Edit{{File: "rejnttpolyx8_amd64.s", Find: "·KeccakF1600x8AVX512(SB)", Replace: "·KeccakF1600x4AVX512(SB)"}}},
	// States 4–7's lanes 0–3 read from states 0–3's half of the vectors.
	{Name: "rejx8/high-half-from-low", Routine: "RejNTTPolyx8AVX512",
		Edits: []Edit{{File: "rejnttpolyx8_amd64.s", Find: "VMOVDQU     40(SP), Y0\n", Replace: "VMOVDQU     8(SP), Y0\n"}}},
	// Polynomial 7's count left out of "all complete".
	{Name: "rejx8/count-7-unchecked", Routine: "RejNTTPolyx8AVX512",
		Edits: []Edit{{File: "rejnttpolyx8_amd64.s", Find: "\tANDQ 3200(SP), AX\n", Replace: ""}}},
	{Name: "rejx8/ok-flag-out-of-blocks", Routine: "RejNTTPolyx8AVX512",
		Edits: []Edit{{File: "rejnttpolyx8_amd64.s", Find: "MOVB $0x00, ret+16(FP)", Replace: "MOVB $0x01, ret+16(FP)"}}},
	{Name: "rejboundedx4avx512/calls-avx2-permutation", Routine: "RejBoundedPolyx4Eta4AVX512",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta4AVX512", Find: "·KeccakF1600x4AVX512(SB)", Replace: "·KeccakF1600x4AVX2(SB)"}}},
	{Name: "rejboundedx4avx512/ok-flag-out-of-blocks", Routine: "RejBoundedPolyx4Eta2AVX512",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta2AVX512", Find: "MOVB $0x00, ret+16(FP)", Replace: "MOVB $0x01, ret+16(FP)"}}},
	{Name: "expandmaskx4avx512/block-skipped", Routine: "ExpandMask19x4AVX512",
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask19x4AVX512", Find: "\tCALL        ·KeccakF1600x4AVX512(SB)\n", N: 3, Replace: ""}}},
	{Name: "expandmaskx4avx512/calls-avx2-permutation", Routine: "ExpandMask17x4AVX512",
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask17x4AVX512", Find: "·KeccakF1600x4AVX512(SB)", Replace: "·KeccakF1600x4AVX2(SB)", N: 2}}},
	// The AVX-512 ExpandA routines: groups of eight (ExpandA65AVX512's last
	// one entries 22 to 29, 22 and 23 sampled again), proven for every ρ.
	// The eight-way ExpandMask: streams 3 to 7 kept in y[0] to y[4] and
	// unpacked last first, states 4 to 7 in each lane vector's high half.
	{Name: "expandmaskx8/stream-7-read-from-y3", Routine: "ExpandMask17x8AVX512",
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask17x8AVX512", Find: "\tMOVQ y+0(FP), AX\n\tMOVQ 32(AX), AX\n\tMOVQ AX, 8(SP)\n",
			Replace: "\tMOVQ y+0(FP), AX\n\tMOVQ 24(AX), AX\n\tMOVQ AX, 8(SP)\n"}}},
	{Name: "expandmaskx8/high-states-from-low-half", Routine: "ExpandMask19x8AVX512",
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask19x8AVX512", Find: "VMOVDQU     48(SP), Y0", Replace: "VMOVDQU     16(SP), Y0"}}},
	// After the second permutation call, y[0]'s address not reloaded: R8
	// is what the callee left.
	{Name: "expandmaskx8/pointer-not-reloaded", Routine: "ExpandMask19x8AVX512",
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask19x8AVX512", Find: "\tCALL        ·KeccakF1600x8AVX512(SB)\n\tMOVQ        y+0(FP), AX\n\tMOVQ        (AX), R8\n", N: 2,
			Replace: "\tCALL        ·KeccakF1600x8AVX512(SB)\n\tMOVQ        y+0(FP), AX\n"}}},
	{Name: "expandmaskx8/block-skipped", Routine: "ExpandMask17x8AVX512",
		Edits: []Edit{{File: "expandmask_amd64.s", Text: "ExpandMask17x8AVX512", Find: "\tCALL        ·KeccakF1600x8AVX512(SB)\n", N: 3, Replace: ""}}},
	{Name: "expandaavx512/one-group-short", Routine: "ExpandA87AVX512",
		Edits: []Edit{{File: "expanda_amd64.s", Text: "ExpandA87AVX512", Find: "\tCALL    ·RejNTTPolyx8AVX512(SB)\n", Replace: "", N: -1}}},
	// The last group's first seed keeps group 2's s and r (entry 16's),
	// so entry 22 is sampled again from the wrong seed.
	{Name: "expandaavx512/last-group-seed-stale", Routine: "ExpandA65AVX512",
		Edits: []Edit{{File: "expanda_amd64.s", Text: "ExpandA65AVX512", Find: "\tMOVB    $0x02, 120(SP)\n\tMOVB    $0x04, 121(SP)\n", Replace: ""}}},
	// The last group one entry early: entry 21 gets entry 22's sample.
	{Name: "expandaavx512/last-group-shifted", Routine: "ExpandA65AVX512",
		Edits: []Edit{{File: "expanda_amd64.s", Text: "ExpandA65AVX512", Find: "LEAQ    22528(DI), AX\n\tMOVQ    AX, 24(SP)", Replace: "LEAQ    21504(DI), AX\n\tMOVQ    AX, 24(SP)", N: -1}}},
	// The last group on the four-way sampler, which is not among the calls.
	{Name: "expandaavx512/last-group-four-way", Routine: "ExpandA65AVX512",
		Edits: []Edit{{File: "expanda_amd64.s", Text: "ExpandA65AVX512", Find: "·RejNTTPolyx8AVX512(SB)", Replace: "·RejNTTPolyx4AVX512(SB)", N: -1}}},
	// A group of eight handed to the four-way sampler: entries 4 to 7 and
	// 12 to 15 never written.
	{Name: "expandaavx512/eight-to-four-way", Routine: "ExpandA44AVX512",
		Edits: []Edit{{File: "expanda_amd64.s", Text: "ExpandA44AVX512", Find: "·RejNTTPolyx8AVX512(SB)", Replace: "·RejNTTPolyx4AVX512(SB)", N: -1}}},
	// Entry 6 (r = 1, s = 2) sampled from the seed of r = 2, s = 1.
	{Name: "expandaavx512/seed-s-r-swapped", Routine: "ExpandA44AVX512",
		Edits: []Edit{{File: "expanda_amd64.s", Text: "ExpandA44AVX512", Find: "\tMOVB    $0x02, 324(SP)\n\tMOVB    $0x01, 325(SP)\n",
			Replace: "\tMOVB    $0x01, 324(SP)\n\tMOVB    $0x02, 325(SP)\n"}}},
	// The eighth seed of group 1 keeps group 0's s and r (entry 7's).
	{Name: "expandaavx512/seed-7-stale", Routine: "ExpandA87AVX512",
		Edits: []Edit{{File: "expanda_amd64.s", Text: "ExpandA87AVX512", Find: "\tMOVB    $0x01, 358(SP)\n\tMOVB    $0x02, 359(SP)\n", Replace: ""}}},
	// Polynomial 7 of group 0 written over entry 6: entry 7 never sampled.
	{Name: "expandaavx512/pointer-7-overlaps-6", Routine: "ExpandA44AVX512",
		Edits: []Edit{{File: "expanda_amd64.s", Text: "ExpandA44AVX512", Find: "LEAQ    7168(DI), AX", Replace: "LEAQ    6144(DI), AX"}}},
	// Random seeds never run out of the bound: only the proof sees the
	// first group's result left out of the mask.
	{Name: "expandaavx512/group-result-not-anded", Routine: "ExpandA87AVX512",
		Edits: []Edit{{File: "expanda_amd64.s", Text: "ExpandA87AVX512", Find: "\tANDQ    AX, 360(SP)\n", Replace: ""}}},
	// Under an opmask the form is outside the model: the decoder must
	// reject it, never guess. (A zmm-wide form is in the model now: bits
	// 511:256 read before any write are keccakx8/upper-half-uninitialised.)
	{Name: "keccakx4avx512/opmask", Routine: "KeccakF1600x4AVX512",
		Edits: []Edit{{File: "keccakx4_amd64.s", Text: "KeccakF1600x4AVX512", Find: "VPTERNLOGQ $0xd2, Y13, Y12, Y1\n", Replace: "VPTERNLOGQ $0xd2, Y13, Y12, K1, Y1\n", N: 5}}},
	// Register 16 in place of 15: a register the routine never wrote.
	{Name: "keccakx4avx512/register-16", Routine: "KeccakF1600x4AVX512",
		Edits: []Edit{{File: "keccakx4_amd64.s", Text: "KeccakF1600x4AVX512", Find: "\tVMOVDQU    Y10, Y15\n\tVPTERNLOGQ $0xd2, Y12, Y11, Y15\n", Replace: "\tVMOVDQU    Y10, Y15\n\tVPTERNLOGQ $0xd2, Y12, Y11, Y16\n", N: 2}}},

	// ---- NTTAVX512: the whole polynomial in zmm0–15.
	{Name: "nttx16/permute-index", Routine: "NTTAVX512",
		Edits: []Edit{{File: "ntt_amd64.s", Find: "DATA nttTwiddlesAVX512<>+132(SB)/4, $0x00000011", Replace: "DATA nttTwiddlesAVX512<>+132(SB)/4, $0x00000013"}}},
	// Lane 0 of a twiddle vector (lane 1 of it VPMULDQ never reads).
	{Name: "nttx16/twiddle-constant", Routine: "NTTAVX512",
		Edits: []Edit{{File: "ntt_amd64.s", Find: "DATA nttTwiddlesAVX512<>+192(SB)/4, $0x000064f7", Replace: "DATA nttTwiddlesAVX512<>+192(SB)/4, $0x000064f8"}}},
	{Name: "nttx16/shuffle-immediate", Routine: "NTTAVX512",
		Edits: []Edit{{File: "ntt_amd64.s", Text: "NTTAVX512", Find: "VSHUFI64X2  $0x44, Z1, Z0, Z28", Replace: "VSHUFI64X2  $0x54, Z1, Z0, Z28"}}},
	// A 256-bit add (EVEX.256, forced by Y16) zeroes bits 511:256.
	{Name: "nttx16/ymm-add", Routine: "NTTAVX512",
		Edits: []Edit{{File: "ntt_amd64.s", Text: "NTTAVX512", Find: "VPADDD    Z16, Z0, Z0", Replace: "VPADDD    Y16, Y0, Y0"}}},
	// A VEX load fills 256 bits: coefficients 8 to 15 read as zero.
	{Name: "nttx16/vex-load", Routine: "NTTAVX512",
		Edits: []Edit{{File: "ntt_amd64.s", Text: "NTTAVX512", Find: "VMOVDQU64 (DI), Z0", Replace: "VMOVDQU (DI), Y0"}}},
	{Name: "nttx16/secret-address", Routine: "NTTAVX512",
		Edits: []Edit{beforeRETIn("ntt_amd64.s", "NTTAVX512", "\tMOVL (DI), AX\n\tANDQ $0x07, AX\n\tMOVQ (DI)(AX*8), BX\n")}},
	// The twiddle vectors a layer reads again are read into registers
	// once: a register never loaded holds garbage; a 256-bit load
	// (EVEX.256, forced by Y20, which needs AVX512VL) zeroes lanes 8 to 15
	// of ζ·2³²; the entries of ζ·2³² and ζ·2³²·q⁻¹ exchanged.
	{Name: "nttx16/held-twiddle-unloaded", Routine: "NTTAVX512",
		Edits: []Edit{{File: "ntt_amd64.s", Text: "NTTAVX512", Find: "\tVMOVDQU64 nttTwiddlesAVX512<>+192(SB), Z20\n", Replace: ""}}},
	{Name: "nttx16/held-twiddle-upper-half", Routine: "NTTAVX512",
		Edits: []Edit{{File: "ntt_amd64.s", Text: "NTTAVX512", Find: "VMOVDQU64 nttTwiddlesAVX512<>+192(SB), Z20", Replace: "VMOVDQU64 nttTwiddlesAVX512<>+192(SB), Y20"}}},
	{Name: "nttx16/held-twiddles-exchanged", Routine: "NTTAVX512",
		Edits: []Edit{
			{File: "ntt_amd64.s", Text: "NTTAVX512", Find: "VMOVDQU64 nttTwiddlesAVX512<>+192(SB), Z20", Replace: "VMOVDQU64 nttTwiddlesAVX512<>+256(SB), Z20"},
			{File: "ntt_amd64.s", Text: "NTTAVX512", Find: "VMOVDQU64 nttTwiddlesAVX512<>+256(SB), Z21", Replace: "VMOVDQU64 nttTwiddlesAVX512<>+192(SB), Z21"}}},

	// ---- NTTInverseMontAVX2: NTTInverseAVX2's code, its last layer
	// scaled by 256⁻¹·2³². One lane of the scaling (its ζ·2³² form, then
	// its ζ·2³²·q⁻¹ form) back to NTTInverseAVX2's: coefficients lose the
	// factor 2³². (VPMULDQ reads the even lanes only: the same edit of an
	// odd lane, +452, changes nothing the routine computes, and vg prove
	// accepts it.)
	{Name: "nttinversemont/scale-lane-unscaled", Routine: "NTTInverseMontAVX2",
		Edits: []Edit{{File: "nttinverse_amd64.s", Find: "DATA nttInverseMontTwiddles<>+424(SB)/4, $0xffc355df", Replace: "DATA nttInverseMontTwiddles<>+424(SB)/4, $0x00047f45"}}},
	// NTTInverseMontAVX2 reads NTTInverseAVX2's table in its first loop:
	// an entry changed there is its mutant too.
	{Name: "nttinversemont/shared-block-table-entry", Routine: "NTTInverseMontAVX2",
		Edits: []Edit{{File: "nttinverse_amd64.s", Find: "DATA nttInverseBlockTwiddles<>+32(SB)/4, $0x1657e9ce", Replace: "DATA nttInverseBlockTwiddles<>+32(SB)/4, $0x1657e9cf"}}},
	{Name: "nttinversemont/scale-lane-q-inverse", Routine: "NTTInverseMontAVX2",
		Edits: []Edit{{File: "nttinverse_amd64.s", Find: "DATA nttInverseMontTwiddles<>+456(SB)/4, $0xf6ff35df", Replace: "DATA nttInverseMontTwiddles<>+456(SB)/4, $0x016d1f45"}}},
	// SignZ65AVX2's NTT⁻¹ of w without the 2³² (both routines are its
	// callees): w is 2⁻³²·NTT⁻¹(Â ∘ NTT(y)).
	{Name: "signz/w-inverse-unscaled", Routine: "SignZ65AVX2",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignZ65AVX2", Find: "CALL ·NTTInverseMontAVX2(SB)", Replace: "CALL ·NTTInverseAVX2(SB)"}}},
	// Its cs1 through the NTT⁻¹ times 2³²: ŝ1 is already in Montgomery form.
	{Name: "signz/cs1-inverse-scaled", Routine: "SignZ87AVX2",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignZ87AVX2", Find: "CALL ·NTTInverseAVX2(SB)", Replace: "CALL ·NTTInverseMontAVX2(SB)"}}},

	// ---- NTTInverseAVX512.
	{Name: "nttinvx16/twiddle-constant", Routine: "NTTInverseAVX512",
		Edits: []Edit{{File: "nttinverse_amd64.s", Find: "DATA nttInverseTwiddlesAVX512<>+192(SB)/4, $0x001e29ce", Replace: "DATA nttInverseTwiddlesAVX512<>+192(SB)/4, $0x001e29cf"}}},
	{Name: "nttinvx16/shuffle-immediate", Routine: "NTTInverseAVX512",
		Edits: []Edit{{File: "nttinverse_amd64.s", Text: "NTTInverseAVX512", Find: "VSHUFI64X2  $0x88, Z10, Z14, Z12", Replace: "VSHUFI64X2  $0x8c, Z10, Z14, Z12"}}},
	// A VEX store writes 256 of the 512 bits: coefficients 248 to 255 stay
	// as they came in.
	{Name: "nttinvx16/vex-store", Routine: "NTTInverseAVX512",
		Edits: []Edit{{File: "nttinverse_amd64.s", Text: "NTTInverseAVX512", Find: "VMOVDQU64   Z8, 960(DI)", Replace: "VMOVDQU     Y8, 960(DI)"}}},
	// The layer with len = 16 reads its twiddle from registers: Z28 not
	// loaded still holds coefficients; ζ·2³² read where ζ·2³²·q⁻¹ belongs.
	{Name: "nttinvx16/held-twiddle-unloaded", Routine: "NTTInverseAVX512",
		Edits: []Edit{{File: "nttinverse_amd64.s", Text: "NTTInverseAVX512", Find: "\tVMOVDQU64   nttInverseTwiddlesAVX512<>+4032(SB), Z28\n", Replace: ""}}},
	{Name: "nttinvx16/held-twiddle-entry", Routine: "NTTInverseAVX512",
		Edits: []Edit{{File: "nttinverse_amd64.s", Text: "NTTInverseAVX512", Find: "VMOVDQU64   nttInverseTwiddlesAVX512<>+4096(SB), Z13", Replace: "VMOVDQU64   nttInverseTwiddlesAVX512<>+4032(SB), Z13"}}},
	// A VEX load of the held ζ·2³²·q⁻¹ fills 256 bits and zeroes the rest:
	// lanes 8 to 15 get m = 0.
	{Name: "nttinvx16/held-twiddle-upper-half", Routine: "NTTInverseAVX512",
		Edits: []Edit{{File: "nttinverse_amd64.s", Text: "NTTInverseAVX512", Find: "VMOVDQU64   nttInverseTwiddlesAVX512<>+4096(SB), Z13", Replace: "VMOVDQU     nttInverseTwiddlesAVX512<>+4096(SB), Y13"}}},

	// ---- The AVX-512 products.
	{Name: "mulx16/qinv-constant", Routine: "MultiplyNTTAVX512",
		Edits: []Edit{{File: "nttmul_amd64.s", Find: "DATA mulConstsAVX512<>+64(SB)/4, $0x03802001", Replace: "DATA mulConstsAVX512<>+64(SB)/4, $0x03802003"}}},
	{Name: "mulx16/odd-index", Routine: "MultiplyNTTAVX512",
		Edits: []Edit{{File: "nttmul_amd64.s", Find: "DATA mulConstsAVX512<>+132(SB)/4, $0x00000011", Replace: "DATA mulConstsAVX512<>+132(SB)/4, $0x00000001"}}},
	// One odd-lane term of the row dropped.
	{Name: "mulaccx16/term-dropped", Routine: "MultiplyAccNTT5AVX512",
		Edits: []Edit{{File: "nttmulacc_amd64.s", Text: "MultiplyAccNTT5AVX512", Find: "\tVPADDQ     Z5, Z1, Z1\n", Replace: ""}}},
	// A row read 64 bytes off: a coefficient group of the next row.
	{Name: "mulaccx16/row-offset", Routine: "MultiplyAccNTT7AVX512",
		Edits: []Edit{{File: "nttmulacc_amd64.s", Text: "MultiplyAccNTT7AVX512", Find: "VMOVDQU64  1024(SI), Z2", Replace: "VMOVDQU64  1088(SI), Z2"}}},

	// ---- NTTAVX2 (functional correctness tested on random inputs).
	{Name: "ntt/twiddle-constant", Routine: "NTTAVX2",
		Edits: []Edit{{File: "ntt_amd64.s", Find: "DATA nttTwiddles<>+32(SB)/4, $0x000064f7", Replace: "DATA nttTwiddles<>+32(SB)/4, $0x000064f8"}}},
	{Name: "ntt/swapped-operands", Routine: "NTTAVX2",
		Edits: []Edit{{File: "ntt_amd64.s", Text: "NTTAVX2", Find: "VPSUBD   Y8, Y0, Y4", Replace: "VPSUBD   Y0, Y8, Y4"}}},
	{Name: "ntt/load-offset-off-by-four", Routine: "NTTAVX2",
		Edits: []Edit{{File: "ntt_amd64.s", Text: "NTTAVX2", Find: "VMOVDQU  896(DI), Y7", Replace: "VMOVDQU  900(DI), Y7"}}},
	{Name: "ntt/store-out-of-bounds", Routine: "NTTAVX2",
		Edits: []Edit{beforeRETIn("ntt_amd64.s", "NTTAVX2", "\tVMOVDQU Y0, 1024(DI)\n")}},
	{Name: "ntt/secret-address", Routine: "NTTAVX2",
		Edits: []Edit{beforeRETIn("ntt_amd64.s", "NTTAVX2", "\tMOVL (DI), AX\n\tANDQ $0x07, AX\n\tMOVQ (DI)(AX*8), BX\n")}},
	{Name: "ntt/pointer-from-callers-bp", Routine: "NTTAVX2",
		// The caller's BP plus a constant is not the argument slot, whatever
		// value a model might give BP.
		Edits: []Edit{{File: "ntt_amd64.s", Text: "NTTAVX2", Find: "\tMOVQ    w+0(FP), DI\n", Replace: "\tMOVQ BP, DI\n\tMOVQ $0x10000000008, AX\n\tADDQ AX, DI\n\tMOVQ (DI), DI\n"}}},
	{Name: "ntt/stack-beyond-what-is-checked", Routine: "NTTAVX2",
		// A frame the TEXT line does not declare: the assembler adds no
		// stack-bound check for it.
		Edits: []Edit{
			{File: "ntt_amd64.s", Text: "NTTAVX2", Find: "\tMOVQ    w+0(FP), DI\n", Replace: "\tPUSHQ BP\n\tMOVQ SP, BP\n\tSUBQ $0x1000, SP\n\tMOVQ    4112(SP), DI\n"},
			beforeRETIn("ntt_amd64.s", "NTTAVX2", "\tMOVQ AX, (SP)\n\tADDQ $0x1000, SP\n\tPOPQ BP\n"),
		}},
	{Name: "ntt/macro-unsigned-multiply", Routine: "NTTAVX2",
		Edits: []Edit{{File: "ntt_amd64.s", Find: "#include \"textflag.h\"\n", Replace: "#include \"textflag.h\"\n#define VPMULDQ VPMULUDQ\n"}}},

	// ---- MultiplyNTTAVX2, MultiplyAccNTT4AVX2.
	{Name: "mul/modulus-constant", Routine: "MultiplyNTTAVX2",
		Edits: []Edit{{File: "nttmul_amd64.s", Find: "DATA mulConsts<>+0(SB)/4, $0x007fe001", Replace: "DATA mulConsts<>+0(SB)/4, $0x007fe003"}}},
	{Name: "mul/read-out-of-bounds", Routine: "MultiplyNTTAVX2",
		Edits: []Edit{beforeRETIn("nttmul_amd64.s", "MultiplyNTTAVX2", "\tVMOVDQU 1024(DX), Y0\n")}},
	{Name: "mul/writes-read-only-input", Routine: "MultiplyNTTAVX2",
		Edits: []Edit{{File: "nttmul_amd64.s", Text: "MultiplyNTTAVX2", Find: "MOVQ    out+0(FP), DI", Replace: "MOVQ    a+8(FP), DI"}}},
	{Name: "mul/reads-write-only-output", Routine: "MultiplyNTTAVX2",
		Edits: []Edit{beforeRETIn("nttmul_amd64.s", "MultiplyNTTAVX2", "\tVMOVDQU (DI), Y0\n")}},
	{Name: "mul/pointer-from-other-argument", Routine: "MultiplyNTTAVX2",
		// b computed as a + 4 GiB: right only where the model happens to
		// put b there.
		Edits: []Edit{{File: "nttmul_amd64.s", Text: "MultiplyNTTAVX2", Find: "\tMOVQ    b+16(FP), DX\n", Replace: "\tMOVQ    a+8(FP), DX\n\tMOVQ    $0x100000000, AX\n\tADDQ    AX, DX\n"}}},
	// The odd words of a group come from loads 4 bytes on: one 8 bytes
	// on multiplies the wrong words; the last group's load 4 bytes on
	// (in place of its shift) reads past the end of a.
	{Name: "mul/odd-words-loaded-one-word-late", Routine: "MultiplyNTTAVX2",
		Edits: []Edit{{File: "nttmul_amd64.s", Text: "MultiplyNTTAVX2", Find: "VPMULDQ  4(DX), Y2, Y1", Replace: "VPMULDQ  8(DX), Y2, Y1"}}},
	{Name: "mul/last-group-odd-load-past-end", Routine: "MultiplyNTTAVX2",
		Edits: []Edit{{File: "nttmul_amd64.s", Text: "MultiplyNTTAVX2", Find: "\tVPSRLQ   $0x20, Y8, Y8\n\tVPSHUFD  $0xf5, Y9, Y9\n", Replace: "\tVMOVDQU  996(SI), Y8\n\tVPSHUFD  $0xf5, Y9, Y9\n"}}},
	// MultiplyNTT's loop runs fifteen passes and its last two groups
	// after it: a sixteenth pass reads past the polynomials.
	{Name: "mul/loop-pass-long", Routine: "MultiplyNTTAVX2",
		Edits: []Edit{{File: "nttmul_amd64.s", Text: "MultiplyNTTAVX2", Find: "MOVL    $0x0000000f, CX", Replace: "MOVL    $0x00000010, CX"}}},
	{Name: "mulacc4/read-beyond-rows", Routine: "MultiplyAccNTT4AVX2",
		Edits: []Edit{beforeRETIn("nttmulacc_amd64.s", "MultiplyAccNTT4AVX2", "\tVMOVDQU 4096(DX), Y0\n")}},
	// The rows' loop (sixteen passes of two groups): a pass short leaves
	// the last sixteen words unwritten, a pass long reads and writes past
	// the polynomials, a pointer left behind or advanced half a pass
	// multiplies the wrong words, and a count that is one less for one
	// value of a's first word (a backdoor no random input meets) makes
	// the loop's control depend on the input.
	{Name: "mulacc5/loop-pass-short", Routine: "MultiplyAccNTT5AVX2",
		Edits: []Edit{{File: "nttmulacc_amd64.s", Text: "MultiplyAccNTT5AVX2", Find: "MOVL    $0x00000010, CX", Replace: "MOVL    $0x0000000f, CX"}}},
	{Name: "mulacc7/loop-pass-long", Routine: "MultiplyAccNTT7AVX2",
		Edits: []Edit{{File: "nttmulacc_amd64.s", Text: "MultiplyAccNTT7AVX2", Find: "MOVL    $0x00000010, CX", Replace: "MOVL    $0x00000011, CX"}}},
	{Name: "mulacc5/loop-b-not-advanced", Routine: "MultiplyAccNTT5AVX2",
		Edits: []Edit{{File: "nttmulacc_amd64.s", Text: "MultiplyAccNTT5AVX2", Find: "\tADDQ     $0x00000040, DX\n", Replace: ""}}},
	{Name: "mulacc4/loop-a-half-step", Routine: "MultiplyAccNTT4AVX2",
		Edits: []Edit{{File: "nttmulacc_amd64.s", Text: "MultiplyAccNTT4AVX2", Find: "ADDQ     $0x00000040, SI", Replace: "ADDQ     $0x00000020, SI"}}},
	// The count left unset: CX is whatever the caller left there.
	{Name: "mulacc4/loop-count-unset", Routine: "MultiplyAccNTT4AVX2",
		Edits: []Edit{{File: "nttmulacc_amd64.s", Text: "MultiplyAccNTT4AVX2", Find: "\tMOVL    $0x00000010, CX\n", Replace: ""}}},
	{Name: "mulacc5/loop-count-backdoor", Routine: "MultiplyAccNTT5AVX2",
		Edits: []Edit{{File: "nttmulacc_amd64.s", Text: "MultiplyAccNTT5AVX2", Find: "\tMOVL    $0x00000010, CX\n",
			Replace: "\tMOVL (SI), AX\n\tXORL $0x00123456, AX\n\tMOVL AX, BX\n\tNOTL BX\n\tSUBL $0x00000001, AX\n\tANDL BX, AX\n\tSHRL $0x1f, AX\n" +
				"\tMOVL $0x00000010, CX\n\tSUBL AX, CX\n"}}},

	// ---- RejNTTPolyAMD64: memory safety and constant time proven by the
	// inductive check; the stream postcondition proven for every stream,
	// and the stream proven SHAKE128 of the seed (the absorb, and the
	// calls of the proven permutation); the stream tests reach the bound
	// and the rare values too.
	{Name: "rej/count-bound-off-by-one", Routine: "RejNTTPolyAMD64",
		Edits: []Edit{{File: "rejnttpoly_amd64.s", Text: "RejNTTPolyAMD64", Find: "CMPQ CX, $0x00000100", Replace: "CMPQ CX, $0x00000101", N: -1}}},
	{Name: "rej/store-scale", Routine: "RejNTTPolyAMD64",
		Edits: []Edit{{File: "rejnttpoly_amd64.s", Find: "MOVL AX, (DI)(CX*4)", Replace: "MOVL AX, (DI)(CX*8)"}}},
	{Name: "rej/frame-slot-overflow", Routine: "RejNTTPolyAMD64",
		Edits: []Edit{{File: "rejnttpoly_amd64.s", Find: "MOVQ    $0x00000010, 216(SP)", Replace: "MOVQ    $0x00000010, 224(SP)"}}},
	{Name: "rej/ok-flag-on-success", Routine: "RejNTTPolyAMD64",
		Edits: []Edit{{File: "rejnttpoly_amd64.s", Find: "MOVB $0x01, ret+16(FP)", Replace: "MOVB $0x00, ret+16(FP)"}}},
	{Name: "rej/ok-flag-out-of-blocks", Routine: "RejNTTPolyAMD64",
		Edits: []Edit{{File: "rejnttpoly_amd64.s", Find: "MOVB $0x00, ret+16(FP)", Replace: "MOVB $0x01, ret+16(FP)"}}},
	{Name: "rej/accepts-q", Routine: "RejNTTPolyAMD64",
		Edits: []Edit{{File: "rejnttpoly_amd64.s", Find: "CMPL AX, $0x007fe001", Replace: "CMPL AX, $0x007fe002"}}},
	{Name: "rej/fifteen-blocks", Routine: "RejNTTPolyAMD64",
		Edits: []Edit{{File: "rejnttpoly_amd64.s", Find: "MOVQ    $0x00000010, 216(SP)", Replace: "MOVQ    $0x0000000f, 216(SP)"}}},
	// The squeeze: the absorbed state and the calls of the permutation
	// are proven, so a wrong pad, a misread seed, a capacity lane left
	// uncleared, a state written between blocks or another buffer
	// permuted must each fail the proof.
	{Name: "rej/pad-suffix", Routine: "RejNTTPolyAMD64",
		Edits: []Edit{{File: "rejnttpoly_amd64.s", Find: "ORL     $0x001f0000, AX", Replace: "ORL     $0x001e0000, AX"}}},
	{Name: "rej/pad-final-bit", Routine: "RejNTTPolyAMD64",
		Edits: []Edit{{File: "rejnttpoly_amd64.s", Find: "MOVQ    $0x8000000000000000, AX", Replace: "MOVQ    $0x4000000000000000, AX"}}},
	{Name: "rej/seed-word-misread", Routine: "RejNTTPolyAMD64",
		Edits: []Edit{{File: "rejnttpoly_amd64.s", Find: "MOVQ    8(SI), AX", Replace: "MOVQ    9(SI), AX"}}},
	{Name: "rej/capacity-lane-not-cleared", Routine: "RejNTTPolyAMD64",
		Edits: []Edit{{File: "rejnttpoly_amd64.s", Find: "MOVQ    AX, 200(SP)", Replace: "MOVQ    AX, 192(SP)"}}},
	{Name: "rej/state-written-between-blocks", Routine: "RejNTTPolyAMD64",
		Edits: []Edit{{File: "rejnttpoly_amd64.s", Find: "\tDECQ AX\n", Replace: "\tDECQ AX\n\tMOVQ AX, 200(SP)\n"}}},
	{Name: "rej/permutes-another-buffer", Routine: "RejNTTPolyAMD64",
		Edits: []Edit{{File: "rejnttpoly_amd64.s", Find: "\tLEAQ 8(SP), AX\n", Replace: "\tMOVQ a+0(FP), AX\n"}}},
	{Name: "rej/squeezes-twice", Routine: "RejNTTPolyAMD64",
		Edits: []Edit{{File: "rejnttpoly_amd64.s", Find: "\tCALL ·KeccakF1600AMD64(SB)\n", Replace: "\tCALL ·KeccakF1600AMD64(SB)\n\tLEAQ 8(SP), AX\n\tMOVQ AX, (SP)\n\tCALL ·KeccakF1600AMD64(SB)\n"}}},
	// ---- RejNTTPolyBMI2: RejNTTPolyAMD64 calling KeccakF1600BMI2, proven
	// the same way. Random seeds never reach the bound, and the stream
	// tests write each block whatever the state holds, so only the proof
	// sees a budget of 15 blocks or the state written between blocks.
	{Name: "rejbmi2/unlisted-callee", Routine: "RejNTTPolyBMI2",
		Edits: []Edit{{File: "rejnttpoly_amd64.s", Text: "RejNTTPolyBMI2", Find: "CALL ·KeccakF1600BMI2(SB)", Replace: "CALL ·KeccakF1600AMD64(SB)"}}},
	{Name: "rejbmi2/fifteen-blocks", Routine: "RejNTTPolyBMI2",
		Edits: []Edit{{File: "rejnttpoly_amd64.s", Text: "RejNTTPolyBMI2", Find: "MOVQ    $0x00000010, 216(SP)", Replace: "MOVQ    $0x0000000f, 216(SP)"}}},
	{Name: "rejbmi2/state-written-between-blocks", Routine: "RejNTTPolyBMI2",
		Edits: []Edit{{File: "rejnttpoly_amd64.s", Text: "RejNTTPolyBMI2", Find: "\tDECQ AX\n", Replace: "\tDECQ AX\n\tMOVQ AX, 200(SP)\n"}}},
	{Name: "rejbmi2/pad-suffix", Routine: "RejNTTPolyBMI2",
		Edits: []Edit{{File: "rejnttpoly_amd64.s", Text: "RejNTTPolyBMI2", Find: "ORL     $0x001f0000, AX", Replace: "ORL     $0x001e0000, AX"}}},
	{Name: "rejbmi2/count-bound-off-by-one", Routine: "RejNTTPolyBMI2",
		Edits: []Edit{{File: "rejnttpoly_amd64.s", Text: "RejNTTPolyBMI2", Find: "CMPQ CX, $0x00000100", Replace: "CMPQ CX, $0x00000101", N: -1}}},

	// ---- RejBoundedPolyEta2AMD64 and Eta4: memory safety proven by the
	// inductive check; the stream postcondition proven for every stream
	// and the stream proven SHAKE256 of ρ′ ‖ r (the absorb, and the calls
	// of the proven permutation), and with it constant time against the
	// declared leak; the stream tests and the twin test run too.
	{Name: "rejbounded/eta2-accepts-15", Routine: "RejBoundedPolyEta2AMD64",
		Edits: []Edit{{File: "rejboundedpoly_amd64.s", Find: "CMPL    AX, $0x0f", Replace: "CMPL    AX, $0x10", N: 1}}},
	{Name: "rejbounded/eta4-accepts-9", Routine: "RejBoundedPolyEta4AMD64",
		Edits: []Edit{{File: "rejboundedpoly_amd64.s", Find: "CMPL    R9, $0x09", Replace: "CMPL    R9, $0x0a", N: 1}}},
	{Name: "rejbounded/ok-flag-out-of-blocks", Routine: "RejBoundedPolyEta4AMD64",
		Edits: []Edit{{File: "rejboundedpoly_amd64.s", Find: "MOVB    $0x00, ret+24(FP)", Replace: "MOVB    $0x01, ret+24(FP)", N: -1}}},
	{Name: "rejbounded/six-blocks", Routine: "RejBoundedPolyEta2AMD64",
		Edits: []Edit{{File: "rejboundedpoly_amd64.s", Find: "MOVQ    $0x00000007, 216(SP)", Replace: "MOVQ    $0x00000006, 216(SP)", N: 1}}},
	{Name: "rejbounded/branch-on-half-byte", Routine: "RejBoundedPolyEta2AMD64",
		Edits: []Edit{{File: "rejboundedpoly_amd64.s", Find: "\tMOVL    DX, (DI)(CX*4)\n",
			Replace: "\tMOVL    DX, (DI)(CX*4)\n\tCMPL AX, $0x03\n\tJNE planted\n\tMOVL DX, DX\nplanted:\n", N: 1}}},
	{Name: "rejbounded/load-indexed-by-half-byte", Routine: "RejBoundedPolyEta2AMD64",
		Edits: []Edit{{File: "rejboundedpoly_amd64.s", Find: "\tMOVL    DX, (DI)(CX*4)\n",
			Replace: "\tMOVL    DX, (DI)(CX*4)\n\tMOVL (DI)(AX*4), R10\n", N: 1}}},
	{Name: "rejbounded/non-doit-on-half-byte", Routine: "RejBoundedPolyEta4AMD64",
		Edits: []Edit{{File: "rejboundedpoly_amd64.s", Text: "RejBoundedPolyEta4AMD64", Find: "\tMOVBLZX (R8)(SI*1), R9\n",
			Replace: "\tMOVBLZX (R8)(SI*1), R9\n\tXCHGQ R9, R9\n"}}},
	// Changes the coefficient of the half-byte 14 (−2 becomes −1) only at
	// the first half-byte of the last block, which random seeds never
	// reach (η = 2 completes within two blocks but with negligible
	// probability): the proof, which covers every stream, must fail.
	{Name: "rejbounded/rare-input-backdoor", Routine: "RejBoundedPolyEta2AMD64",
		Edits: []Edit{{File: "rejboundedpoly_amd64.s", Text: "RejBoundedPolyEta2AMD64", Find: "\tMOVL    DX, (DI)(CX*4)\n",
			Replace: "\tMOVQ    216(SP), R11\n\tCMPQ    R11, $0x01\n\tJNE     backdoor\n\tCMPQ    SI, $0x00\n\tJNE     backdoor\n" +
				"\tMOVL    AX, R11\n\tXORL    $0x0e, R11\n\tMOVL    R11, BX\n\tNOTL    BX\n\tSUBL    $0x01, R11\n\tANDL    BX, R11\n\tSHRL    $0x1f, R11\n\tXORL    R11, DX\n" +
				"backdoor:\n\tMOVL    DX, (DI)(CX*4)\n"}}},
	// The squeeze, as RejNTTPolyAMD64's: a wrong pad, a misread seed or
	// nonce, a capacity lane left uncleared, the state written between
	// blocks, another buffer permuted or two squeezes per block must each
	// fail the proof.
	{Name: "rejbounded/pad-suffix", Routine: "RejBoundedPolyEta2AMD64",
		Edits: []Edit{{File: "rejboundedpoly_amd64.s", Find: "ORL     $0x001f0000, AX", Replace: "ORL     $0x001e0000, AX"}}},
	{Name: "rejbounded/pad-final-bit", Routine: "RejBoundedPolyEta4AMD64",
		Edits: []Edit{{File: "rejboundedpoly_amd64.s", Text: "RejBoundedPolyEta4AMD64", Find: "MOVQ    $0x8000000000000000, AX", Replace: "MOVQ    $0x4000000000000000, AX"}}},
	{Name: "rejbounded/seed-word-misread", Routine: "RejBoundedPolyEta2AMD64",
		Edits: []Edit{{File: "rejboundedpoly_amd64.s", Find: "MOVQ    56(SI), AX", Replace: "MOVQ    55(SI), AX"}}},
	{Name: "rejbounded/nonce-high-byte-dropped", Routine: "RejBoundedPolyEta4AMD64",
		Edits: []Edit{{File: "rejboundedpoly_amd64.s", Text: "RejBoundedPolyEta4AMD64", Find: "MOVWLZX (SI), AX", Replace: "MOVBLZX (SI), AX"}}},
	{Name: "rejbounded/capacity-lane-not-cleared", Routine: "RejBoundedPolyEta2AMD64",
		Edits: []Edit{{File: "rejboundedpoly_amd64.s", Find: "MOVQ    AX, 200(SP)", Replace: "MOVQ    AX, 192(SP)"}}},
	{Name: "rejbounded/state-written-between-blocks", Routine: "RejBoundedPolyEta4AMD64",
		Edits: []Edit{{File: "rejboundedpoly_amd64.s", Text: "RejBoundedPolyEta4AMD64", Find: "\tDECQ    AX\n", Replace: "\tDECQ    AX\n\tMOVQ    AX, 200(SP)\n"}}},
	{Name: "rejbounded/permutes-another-buffer", Routine: "RejBoundedPolyEta2AMD64",
		Edits: []Edit{{File: "rejboundedpoly_amd64.s", Find: "\tLEAQ 8(SP), AX\n", Replace: "\tMOVQ a+0(FP), AX\n"}}},
	{Name: "rejbounded/squeezes-twice", Routine: "RejBoundedPolyEta4AMD64",
		Edits: []Edit{{File: "rejboundedpoly_amd64.s", Text: "RejBoundedPolyEta4AMD64", Find: "\tCALL ·KeccakF1600AMD64(SB)\n", Replace: "\tCALL ·KeccakF1600AMD64(SB)\n\tLEAQ 8(SP), AX\n\tMOVQ AX, (SP)\n\tCALL ·KeccakF1600AMD64(SB)\n"}}},

	// ---- RejBoundedPolyx4Eta2AVX2 and Eta4: as the single sampler's,
	// with four polynomials: each mutant touches one of them (or the
	// transposition, the counts, the completion check), and the proof,
	// which covers every stream, must fail; the backdoor is one that
	// random seeds never reach.
	{Name: "rejboundedx4/eta2-accepts-15-poly2", Routine: "RejBoundedPolyx4Eta2AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta2AVX2", Find: "CMPL    AX, $0x0f", Replace: "CMPL    AX, $0x10", N: 9}}},
	{Name: "rejboundedx4/eta4-accepts-9-poly3", Routine: "RejBoundedPolyx4Eta4AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta4AVX2", Find: "CMPL    R9, $0x09", Replace: "CMPL    R9, $0x0a", N: 13}}},
	{Name: "rejboundedx4/ok-flag-out-of-blocks", Routine: "RejBoundedPolyx4Eta2AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta2AVX2", Find: "MOVB $0x00, ret+16(FP)", Replace: "MOVB $0x01, ret+16(FP)"}}},
	{Name: "rejboundedx4/six-blocks", Routine: "RejBoundedPolyx4Eta4AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta4AVX2", Find: "MOVQ    $0x00000007, 1384(SP)", Replace: "MOVQ    $0x00000006, 1384(SP)"}}},
	// Changes the coefficient of the half-byte 14 in polynomial 2 only,
	// at the first half-byte of the last block.
	{Name: "rejboundedx4/rare-input-backdoor-poly2", Routine: "RejBoundedPolyx4Eta2AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta2AVX2", Find: "\tMOVL    DX, (DI)(CX*4)\n", N: 17,
			Replace: "\tMOVQ    1384(SP), R11\n\tCMPQ    R11, $0x01\n\tJNE     backdoor\n\tCMPQ    SI, $0x00\n\tJNE     backdoor\n" +
				"\tMOVL    AX, R11\n\tXORL    $0x0e, R11\n\tMOVL    R11, BX\n\tNOTL    BX\n\tSUBL    $0x01, R11\n\tANDL    BX, R11\n\tSHRL    $0x1f, R11\n\tXORL    R11, DX\n" +
				"backdoor:\n\tMOVL    DX, (DI)(CX*4)\n"}}},
	{Name: "rejboundedx4/lanes-of-two-states-swapped", Routine: "RejBoundedPolyx4Eta4AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta4AVX2", Find: "VMOVDQU      Y1, 944(SP)\n\tVMOVDQU      Y2, 1080(SP)", Replace: "VMOVDQU      Y2, 944(SP)\n\tVMOVDQU      Y1, 1080(SP)"}}},
	{Name: "rejboundedx4/lane-16-from-another-state", Routine: "RejBoundedPolyx4Eta2AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta2AVX2", Find: "MOVQ         544(SP), AX", Replace: "MOVQ         536(SP), AX"}}},
	{Name: "rejboundedx4/poly1-reads-state2", Routine: "RejBoundedPolyx4Eta4AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta4AVX2", Find: "LEAQ 944(SP), R8", Replace: "LEAQ 1080(SP), R8"}}},
	{Name: "rejboundedx4/poly1-starts-from-poly2-count", Routine: "RejBoundedPolyx4Eta2AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta2AVX2", Find: "MOVQ 1360(SP), CX", Replace: "MOVQ 1368(SP), CX"}}},
	{Name: "rejboundedx4/completion-ignores-poly3", Routine: "RejBoundedPolyx4Eta4AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta4AVX2", Find: "\tANDQ 1376(SP), AX\n", Replace: ""}}},
	// The vector pass (eight half-bytes while the count is ≤ 248): its
	// tables, its bound, its conversion and its guard.
	{Name: "rejboundedx4/vector-pack-entry-out-of-order", Routine: "RejBoundedPolyx4Eta4AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Find: "DATA boundedPack<>+2880(SB)/4, $0x00000001", Replace: "DATA boundedPack<>+2880(SB)/4, $0x00000003"}}},
	{Name: "rejboundedx4/vector-count-of-all-accepted-7", Routine: "RejBoundedPolyx4Eta2AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Find: "DATA boundedCount<>+255(SB)/1, $0x08", Replace: "DATA boundedCount<>+255(SB)/1, $0x07"}}},
	{Name: "rejboundedx4/scalar-reads-a-complete-polynomial", Routine: "RejBoundedPolyx4Eta2AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta2AVX2", Find: "s2scalar:\n\tCMPQ    CX, $0x00000100\n\tJEQ     s2done\n", Replace: "s2scalar:\n"}}},
	{Name: "rejboundedx4/vector-count-is-the-pack-offset", Routine: "RejBoundedPolyx4Eta4AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta4AVX2", Find: "ADDQ         DX, CX", Replace: "ADDQ         AX, CX"}}},
	{Name: "rejboundedx4/vector-eta2-accepts-15", Routine: "RejBoundedPolyx4Eta2AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Find: "DATA boundedConsts<>+140(SB)/4, $0x0000000f", Replace: "DATA boundedConsts<>+140(SB)/4, $0x00000010"}}},
	{Name: "rejboundedx4/vector-eta4-rejects-8", Routine: "RejBoundedPolyx4Eta4AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Find: "DATA boundedConsts<>+148(SB)/4, $0x00000009", Replace: "DATA boundedConsts<>+148(SB)/4, $0x00000008"}}},
	{Name: "rejboundedx4/vector-eta2-wrong-mod-5", Routine: "RejBoundedPolyx4Eta2AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta2AVX2", Find: "VPSRLD       $0x06, Y3, Y3", Replace: "VPSRLD       $0x05, Y3, Y3", N: 3}}},
	{Name: "rejboundedx4/vector-count-skips-a-step", Routine: "RejBoundedPolyx4Eta4AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta4AVX2", Find: "\tADDQ         DX, CX\n", Replace: "\tADDQ         DX, CX\n\tANDQ         $0x000000fe, CX\n", N: 2}}},
	// With a count of 249 the vector pass writes a[249..256]: one past
	// the polynomial, only for streams that reach 249 exactly.
	{Name: "rejboundedx4/vector-writes-past-256-poly3", Routine: "RejBoundedPolyx4Eta4AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta4AVX2", Find: "CMPQ         CX, $0x000000f8", Replace: "CMPQ         CX, $0x000000f9", N: 4}}},
	{Name: "rejboundedx4/pad-suffix-state2", Routine: "RejBoundedPolyx4Eta2AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta2AVX2", Find: "MOVWLZX 196(SI), AX\n\tORL     $0x001f0000, AX", Replace: "MOVWLZX 196(SI), AX\n\tORL     $0x001e0000, AX"}}},
	{Name: "rejboundedx4/pad-last-bit-6", Routine: "RejBoundedPolyx4Eta4AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta4AVX2", Find: "MOVQ    $0x8000000000000000, AX", Replace: "MOVQ    $0x4000000000000000, AX"}}},
	{Name: "rejboundedx4/seed-word-misread", Routine: "RejBoundedPolyx4Eta2AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta2AVX2", Find: "MOVQ    140(SI), AX", Replace: "MOVQ    141(SI), AX"}}},
	{Name: "rejboundedx4/seed-of-another-poly", Routine: "RejBoundedPolyx4Eta4AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta4AVX2", Find: "MOVQ    66(SI), AX", Replace: "MOVQ    (SI), AX"}}},
	{Name: "rejboundedx4/nonce-high-byte-dropped", Routine: "RejBoundedPolyx4Eta2AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta2AVX2", Find: "MOVWLZX 262(SI), AX", Replace: "MOVBLZX 262(SI), AX"}}},
	{Name: "rejboundedx4/capacity-lane-not-cleared", Routine: "RejBoundedPolyx4Eta4AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta4AVX2", Find: "VMOVDQU Y0, 776(SP)", Replace: "VMOVDQU Y0, 744(SP)"}}},
	{Name: "rejboundedx4/squeezes-twice", Routine: "RejBoundedPolyx4Eta2AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta2AVX2", Find: "\tCALL ·KeccakF1600x4AVX2(SB)\n", Replace: "\tCALL ·KeccakF1600x4AVX2(SB)\n\tLEAQ 8(SP), AX\n\tMOVQ AX, (SP)\n\tCALL ·KeccakF1600x4AVX2(SB)\n"}}},
	{Name: "rejboundedx4/branch-on-half-byte-poly1", Routine: "RejBoundedPolyx4Eta4AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta4AVX2", Find: "\tMOVBLZX (R8)(SI*1), R9\n", N: 2,
			Replace: "\tMOVBLZX (R8)(SI*1), R9\n\tCMPL R9, $0x03\n\tJNE planted\n\tMOVL DX, DX\nplanted:\n"}}},
	// The scalar path, out of the loop, goes back to the loop's head
	// instead of past its bytes: it reads them again.
	{Name: "rejboundedx4/scalar-path-rereads", Routine: "RejBoundedPolyx4Eta4AVX2",
		Edits: []Edit{{File: "rejboundedpolyx4_amd64.s", Text: "RejBoundedPolyx4Eta4AVX2", Find: "JMP     s1pass", Replace: "JMP     s1reject"}}},

	// ---- The ℤq maps: functional correctness is proven, so a change of
	// what they compute fails the proof, on rare inputs too.
	// The odd lanes of one butterfly group multiplied by the even lanes'
	// twiddles (their own table entry is the one with odd lanes moved down).
	{Name: "ntt/twiddle-lane", Routine: "NTTAVX2",
		Edits: []Edit{{File: "ntt_amd64.s", Text: "NTTAVX2", Find: "VPMULDQ     960(R8), Y5, Y5", Replace: "VPMULDQ     896(R8), Y5, Y5"}}},
	// The odd lanes moved down from lanes 0 and 3 of each half (0xf4)
	// instead of 1 and 3 (0xf5), in the first butterfly group.
	{Name: "ntt/odd-lanes-shuffle", Routine: "NTTAVX2",
		Edits: []Edit{{File: "ntt_amd64.s", Text: "NTTAVX2", Find: "VPSHUFD  $0xf5, Y4, Y11", Replace: "VPSHUFD  $0xf4, Y4, Y11"}}},
	// The Montgomery product's high words taken from the low ones (0xa0)
	// in one group: the result is not congruent to the product.
	{Name: "nttinverse/high-words-shuffle", Routine: "NTTInverseAVX2",
		Edits: []Edit{{File: "nttinverse_amd64.s", Text: "NTTInverseAVX2", Find: "VPSHUFD     $0xf5, Y10, Y10", Replace: "VPSHUFD     $0xa0, Y10, Y10"}}},
	// The conditional add of q as the unsigned minimum of x and x + q
	// (VPMINUD): subtracting q, adding the rounding term 2²² instead,
	// the maximum, or the minimum left in the temporary, in one register.
	{Name: "ntt/conditional-add-subtracts", Routine: "NTTAVX2",
		Edits: []Edit{{File: "ntt_amd64.s", Text: "NTTAVX2", Find: "VPADDD      Y15, Y9, Y8", Replace: "VPSUBD      Y15, Y9, Y8"}}},
	{Name: "ntt/conditional-add-constant", Routine: "NTTAVX2",
		Edits: []Edit{{File: "ntt_amd64.s", Text: "NTTAVX2", Find: "VPADDD      Y15, Y9, Y8", Replace: "VPADDD      nttTwiddles<>+480(SB), Y9, Y8"}}},
	{Name: "ntt/unsigned-maximum", Routine: "NTTAVX2",
		Edits: []Edit{{File: "ntt_amd64.s", Text: "NTTAVX2", Find: "VPMINUD     Y8, Y9, Y9", Replace: "VPMAXUD     Y8, Y9, Y9"}}},
	{Name: "ntt/minimum-into-temporary", Routine: "NTTAVX2",
		Edits: []Edit{{File: "ntt_amd64.s", Text: "NTTAVX2", Find: "VPMINUD     Y8, Y9, Y9", Replace: "VPMINUD     Y8, Y9, Y8"}}},
	{Name: "nttinverse/twiddle-constant", Routine: "NTTInverseAVX2",
		Edits: []Edit{{File: "nttinverse_amd64.s", Find: "DATA nttInverseBlockTwiddles<>+0(SB)/4, $0x001e29ce", Replace: "DATA nttInverseBlockTwiddles<>+0(SB)/4, $0x001e29cf"}}},
	// The transforms' loops (four passes each): a pass short, a data
	// pointer not put back after the first loop, a twiddle block pointer
	// stepping one entry short, and a backdoor that runs one pass fewer
	// for one value of the first coefficient.
	{Name: "ntt/loop-pass-short", Routine: "NTTAVX2",
		Edits: []Edit{{File: "ntt_amd64.s", Text: "NTTAVX2", Find: "\tMOVL $0x00000004, CX\n", Replace: "\tMOVL $0x00000003, CX\n"}}},
	{Name: "ntt/loop-data-not-put-back", Routine: "NTTAVX2",
		Edits: []Edit{{File: "ntt_amd64.s", Text: "NTTAVX2", Find: "\tSUBQ     $0x00000080, DI\n", Replace: ""}}},
	{Name: "nttinverse/loop-twiddle-step-short", Routine: "NTTInverseAVX2",
		Edits: []Edit{{File: "nttinverse_amd64.s", Text: "NTTInverseAVX2", Find: "ADDQ        $0x00000400, R8", Replace: "ADDQ        $0x000003e0, R8"}}},
	{Name: "nttinverse/loop-count-backdoor", Routine: "NTTInverseAVX2",
		Edits: []Edit{{File: "nttinverse_amd64.s", Text: "NTTInverseAVX2", Find: "\tMOVL $0x00000004, CX\n",
			Replace: "\tMOVL (DI), AX\n\tXORL $0x00123456, AX\n\tMOVL AX, BX\n\tNOTL BX\n\tSUBL $0x00000001, AX\n\tANDL BX, AX\n\tSHRL $0x1f, AX\n" +
				"\tMOVL $0x00000004, CX\n\tSUBL AX, CX\n"}}},
	// a's odd words shifted down by 31 bits in the last group (the others
	// load them 4 bytes on): the odd products take a doubled factor, plus
	// a stray bit.
	{Name: "nttmul/odd-words-shift", Routine: "MultiplyNTTAVX2",
		Edits: []Edit{{File: "nttmul_amd64.s", Text: "MultiplyNTTAVX2", Find: "VPSRLQ   $0x20, Y8, Y8\n\tVPSHUFD", Replace: "VPSRLQ   $0x1f, Y8, Y8\n\tVPSHUFD"}}},
	{Name: "nttmul/qinv-lane", Routine: "MultiplyNTTAVX2",
		Edits: []Edit{{File: "nttmul_amd64.s", Find: "DATA mulConsts<>+40(SB)/4, $0x03802001", Replace: "DATA mulConsts<>+40(SB)/4, $0x03802003"}}},
	// out[i] + q where out[i] = a[i]: one input in q/8 or so, never drawn
	// at random, e.g. a[0] = 1, b[0] = 2³² mod q.
	{Name: "nttmul/rare-input-backdoor", Routine: "MultiplyNTTAVX2",
		Edits: []Edit{{File: "nttmul_amd64.s", Text: "MultiplyNTTAVX2", Find: "VPMINUD  Y2, Y0, Y0\n\tVMOVDQU  Y0, (DI)",
			Replace: "VPMINUD  Y2, Y0, Y0\n\tVMOVDQU  (SI), Y4\n\tVPCMPGTD Y4, Y0, Y3\n\tVPCMPGTD Y0, Y4, Y5\n\tVPOR     Y3, Y5, Y3\n\tVPANDN   Y15, Y3, Y3\n\tVPADDD   Y3, Y0, Y0\n\tVMOVDQU  Y0, (DI)"}}},
	{Name: "nttmulacc7/odd-product-into-even-sum", Routine: "MultiplyAccNTT7AVX2",
		Edits: []Edit{{File: "nttmulacc_amd64.s", Text: "MultiplyAccNTT7AVX2", Find: "VPADDQ   Y4, Y0, Y0", Replace: "VPADDQ   Y5, Y0, Y0"}}},

	// ---- PolyAdd, PolySub, ToMontgomeryPoly, ToMontgomeryT1Poly: the
	// ℤq proof covers every input, so a wrong constant, a lane or group
	// left out and a backdoor on one coefficient value are all caught.
	// Each backdoor adds q to the first group's outputs that equal
	// 0x5a5a5 (one value in q, next to never drawn at random), with the
	// value appended to the routine's table.
	{Name: "polyadd/modulus-lane", Routine: "PolyAddAVX2",
		Edits: []Edit{{File: "polyadd_amd64.s", Find: "DATA polyAddConsts<>+12(SB)/4, $0x007fe001", Replace: "DATA polyAddConsts<>+12(SB)/4, $0x007fe003"}}},
	{Name: "polyadd/rare-input-backdoor", Routine: "PolyAddAVX2",
		Edits: []Edit{
			{File: "polyadd_amd64.s", Text: "PolyAddAVX2", Find: "VPMINUD Y1, Y0, Y0\n\tVMOVDQU Y0, (DI)\n", Replace: "VPMINUD Y1, Y0, Y0\n" + backdoor("polyAddConsts<>+40(SB)", "Y0", "Y4", "Y5") + "\tVMOVDQU Y0, (DI)\n"},
			backdoorValue("polyadd_amd64.s", "polyAddConsts", 40)}},
	// The conditional subtraction of q as the unsigned minimum of x and
	// x − q: q − x instead, in the first group.
	{Name: "polyadd/conditional-subtraction-reversed", Routine: "PolyAddAVX2",
		Edits: []Edit{{File: "polyadd_amd64.s", Text: "PolyAddAVX2", Find: "VPSUBD  Y15, Y0, Y1", Replace: "VPSUBD  Y0, Y15, Y1"}}},
	{Name: "polyadd-sse2/group-not-stored", Routine: "PolyAddAMD64",
		Edits: []Edit{{File: "polyadd_amd64.s", Text: "PolyAddAMD64", Find: "\tMOVOU X3, 16(DI)\n", Replace: ""}}},
	{Name: "polysub/rare-input-backdoor", Routine: "PolySubAVX2",
		Edits: []Edit{
			{File: "polysub_amd64.s", Text: "PolySubAVX2", Find: "VPMINUD Y1, Y0, Y0\n\tVMOVDQU Y0, (DI)\n", Replace: "VPMINUD Y1, Y0, Y0\n" + backdoor("polySubConsts<>+40(SB)", "Y0", "Y4", "Y5") + "\tVMOVDQU Y0, (DI)\n"},
			backdoorValue("polysub_amd64.s", "polySubConsts", 40)}},
	{Name: "polysub-sse2/operands-swapped", Routine: "PolySubAMD64",
		Edits: []Edit{{File: "polysub_amd64.s", Text: "PolySubAMD64", Find: "\tPSUBL X1, X0\n", Replace: "\tPSUBL X0, X1\n\tMOVO  X1, X0\n"}}},
	// The coefficient loops (eight iterations of 128 bytes): one short,
	// b's pointer not advanced (every iteration adds b's first eighth),
	// the step one register short (the iterations overlap).
	{Name: "polyadd/loop-one-short", Routine: "PolyAddAVX2",
		Edits: []Edit{{File: "polyadd_amd64.s", Text: "PolyAddAVX2", Find: "\tMOVL    $0x00000008, CX\n", Replace: "\tMOVL    $0x00000007, CX\n"}}},
	{Name: "polysub-sse2/b-not-advanced", Routine: "PolySubAMD64",
		Edits: []Edit{{File: "polysub_amd64.s", Text: "PolySubAMD64", Find: "\tADDQ  $0x00000080, SI\n", Replace: ""}}},
	{Name: "tomontgomery/loop-step-short", Routine: "ToMontgomeryPolyAVX2",
		Edits: []Edit{{File: "tomontgomery_amd64.s", Text: "ToMontgomeryPolyAVX2", Find: "\tADDQ     $0x00000080, DI\n", Replace: "\tADDQ     $0x00000060, DI\n"}}},
	// Lane 7 of the first group takes the even product's high word.
	{Name: "tomontgomery/blend-lane", Routine: "ToMontgomeryPolyAVX2",
		Edits: []Edit{{File: "tomontgomery_amd64.s", Text: "ToMontgomeryPolyAVX2", Find: "VPBLENDD $0xaa, Y10, Y8, Y0", Replace: "VPBLENDD $0x2a, Y10, Y8, Y0"}}},
	{Name: "tomontgomery/rare-input-backdoor", Routine: "ToMontgomeryPolyAVX2",
		Edits: []Edit{
			{File: "tomontgomery_amd64.s", Text: "ToMontgomeryPolyAVX2", Find: "VPMINUD  Y12, Y0, Y0\n\tVMOVDQU  Y0, (DI)\n", Replace: "VPMINUD  Y12, Y0, Y0\n" + backdoor("toMontgomeryConsts<>+104(SB)", "Y0", "Y2", "Y3") + "\tVMOVDQU  Y0, (DI)\n"},
			backdoorValue("tomontgomery_amd64.s", "toMontgomeryConsts", 104)}},
	// q⁻¹ one off in lane 0: the low words of x·z and m·q differ.
	{Name: "tomontgomery-sse2/qinv-constant", Routine: "ToMontgomeryPolyAMD64",
		Edits: []Edit{{File: "tomontgomery_amd64.s", Find: "DATA toMontgomeryConstsSSE2<>+32(SB)/4, $0x7fe3f9ff", Replace: "DATA toMontgomeryConstsSSE2<>+32(SB)/4, $0x7fe3fa00"}}},
	// The first group multiplied by ToMontgomeryPoly's factor 2³² instead
	// of 2ᵈ·2³²: a consistent Montgomery product, only the factor wrong.
	{Name: "tomontgomeryt1/factor-of-other-routine", Routine: "ToMontgomeryT1PolyAVX2",
		Edits: []Edit{
			// Each edit takes the first read left of the other routine's
			// table: z, z·q⁻¹, then the odd lanes' z·q⁻¹ and z.
			{File: "tomontgomery_amd64.s", Text: "ToMontgomeryT1PolyAVX2", Find: "toMontgomeryT1Consts<>+32(SB)", Replace: "toMontgomeryConsts<>+32(SB)"},
			{File: "tomontgomery_amd64.s", Text: "ToMontgomeryT1PolyAVX2", Find: "toMontgomeryT1Consts<>+64(SB)", Replace: "toMontgomeryConsts<>+64(SB)"},
			{File: "tomontgomery_amd64.s", Text: "ToMontgomeryT1PolyAVX2", Find: "toMontgomeryT1Consts<>+64(SB)", Replace: "toMontgomeryConsts<>+64(SB)"},
			{File: "tomontgomery_amd64.s", Text: "ToMontgomeryT1PolyAVX2", Find: "toMontgomeryT1Consts<>+32(SB)", Replace: "toMontgomeryConsts<>+32(SB)"}}},
	// The even products' high words not shifted down in the first group.
	{Name: "tomontgomeryt1-sse2/even-lanes-unshifted", Routine: "ToMontgomeryT1PolyAMD64",
		Edits: []Edit{{File: "tomontgomery_amd64.s", Text: "ToMontgomeryT1PolyAMD64", Find: "\tPSRLQ   $0x20, X11\n", Replace: ""}}},

	// ---- MakeHint: functional correctness is proven (Algorithm 39's
	// split, and the count as the sum of the hints), so a wrong hint on
	// rare inputs is caught. Each backdoor flips the hint where z ⊕ r is
	// one 23-bit value: one pair in 2²³, next to never drawn at random.
	{Name: "makehint32/rare-input-backdoor", Routine: "MakeHint32AMD64",
		Edits: []Edit{{File: "makehint_amd64.s", Find: "SHRL $0x1f, BX\n\tMOVL BX, (DI)",
			Replace: "SHRL $0x1f, BX\n\tMOVL (SI), R11\n\tXORL AX, R11\n\tXORL $0x0005a5a5, R11\n\tSUBL $0x00000001, R11\n\tSHRL $0x1f, R11\n\tXORL R11, BX\n\tMOVL BX, (DI)"}}},
	{Name: "makehint88/rare-input-backdoor", Routine: "MakeHint88AVX2",
		Edits: []Edit{{File: "makehint_amd64.s", N: 2, Find: "VPSUBD   Y4, Y11, Y4\n\tVMOVDQU  Y4, (DI)",
			Replace: "VPSUBD   Y4, Y11, Y4\n\tVMOVDQU  (SI), Y5\n\tVPXOR    Y0, Y5, Y5\n\tVPXOR    makeHint88Consts<>+32(SB), Y5, Y5\n" +
				"\tVPCMPGTD Y11, Y5, Y5\n\tVPANDN   Y10, Y5, Y5\n\tVPAND    makeHint88Consts<>+32(SB), Y5, Y5\n\tVPXOR    Y5, Y4, Y4\n\tVMOVDQU  Y4, (DI)"}}},
	// The count leaves out lane 7's hints (positions 7, 15, …).
	{Name: "makehint32/count-skips-lane7", Routine: "MakeHint32AVX2",
		Edits: []Edit{{File: "makehint_amd64.s", Find: "\tADDL     28(SP), AX\n", Replace: ""}}},

	// ---- The norm checks: functional correctness is proven (each
	// position's result against Of(w) ≥ bound, the flag as their OR), so
	// a result wrong for one coefficient value is caught: each backdoor
	// flips the first position of each loop step where w = 0x5a5a5.
	{Name: "normexceeds/rare-input-backdoor", Routine: "NormExceedsAMD64",
		Edits: []Edit{{File: "normexceeds_amd64.s", Find: "SHRL $0x1f, BX\n\tORL  BX, R10",
			Replace: "SHRL $0x1f, BX\n\tMOVL (SI), R11\n\tXORL $0x0005a5a5, R11\n\tSUBL $0x00000001, R11\n\tSHRL $0x1f, R11\n\tXORL R11, BX\n\tORL  BX, R10"}}},
	{Name: "lowbitsexceed32/rare-input-backdoor", Routine: "LowBitsExceed32AMD64",
		Edits: []Edit{{File: "lowbitsexceed_amd64.s", Find: "SHRL $0x1f, BX\n\tORL  BX, R10",
			Replace: "SHRL $0x1f, BX\n\tMOVL (SI), R11\n\tXORL $0x0005a5a5, R11\n\tSUBL $0x00000001, R11\n\tSHRL $0x1f, R11\n\tXORL R11, BX\n\tORL  BX, R10"}}},

	// ---- ValgrindClientRequestAMD64: the block must stay unchanged.
	{Name: "valgrind/writes-request-block", Routine: "ValgrindClientRequestAMD64",
		Edits: []Edit{{File: "valgrind_amd64.s", Find: "XCHGQ BX, BX", Replace: "XCHGQ BX, BX\n\tMOVQ  DX, 40(AX)"}}},

	// ---- The baseline (SSE2) ℤq maps: functional correctness proven.
	{Name: "ntt-sse2/pmuludq-outside-mxcsr-bracket", Routine: "NTTAMD64",
		Edits: []Edit{{File: "ntt_amd64.s", Text: "NTTAMD64", Find: "\tLDMXCSR 4(SP)\n", Replace: ""}}},
	{Name: "ntt-sse2/reduction-shift", Routine: "NTTAMD64",
		Edits: []Edit{{File: "ntt_amd64.s", Text: "NTTAMD64", Find: "PSRAL      $0x17, X10", Replace: "PSRAL      $0x16, X10"}}},
	// 127q instead of 128q in one lane of the last layer's offset: still
	// ≡ 0 (mod q), wrong only where a sum exceeds 127q + b (large inputs).
	{Name: "nttinverse-sse2/offset-one-q-short", Routine: "NTTInverseAMD64",
		Edits: []Edit{{File: "nttinverse_amd64.s", Find: "DATA nttInverseTwiddlesSSE2<>+3636(SB)/4, $0x3ff00080", Replace: "DATA nttInverseTwiddlesSSE2<>+3636(SB)/4, $0x3f6fe07f"}}},
	{Name: "nttmul-sse2/read-out-of-bounds", Routine: "MultiplyNTTAMD64",
		Edits: []Edit{beforeRETIn("nttmul_amd64.s", "MultiplyNTTAMD64", "\tMOVOU 1024(DX), X0\n")}},
	{Name: "nttmulacc7-sse2/odd-product-into-even-sum", Routine: "MultiplyAccNTT7AMD64",
		Edits: []Edit{{File: "nttmulacc_amd64.s", Text: "MultiplyAccNTT7AMD64", Find: "PADDQ   X3, X1", Replace: "PADDQ   X2, X1"}}},

	// ---- RejNTTPolyx4AVX2.
	{Name: "rejx4/table-index-scale", Routine: "RejNTTPolyx4AVX2",
		Edits: []Edit{{File: "rejnttpolyx4_amd64.s", Find: "MOVBQZX   (R13)(AX*1), DX", Replace: "MOVBQZX   (R13)(AX*2), DX"}}},
	// A vector pass may complete a polynomial; the head after it must
	// leave at 256 before the scalar path reads a group.
	{Name: "rejx4/scalar-reads-a-complete-polynomial", Routine: "RejNTTPolyx4AVX2",
		Edits: []Edit{{File: "rejnttpolyx4_amd64.s", Text: "RejNTTPolyx4AVX2", Find: "s1scalar:\n\tCMPQ CX, $0x00000100\n\tJEQ  s1done\n", Replace: "s1scalar:\n"}}},
	{Name: "rejx4/pack-entry-offset-half", Routine: "RejNTTPolyx4AVX2",
		Edits: []Edit{{File: "rejnttpolyx4_amd64.s", Text: "RejNTTPolyx4AVX2", Find: "SHLL      $0x05, AX", Replace: "SHLL      $0x04, AX"}}},
	{Name: "rejx4/ok-flag-out-of-blocks", Routine: "RejNTTPolyx4AVX2",
		Edits: []Edit{{File: "rejnttpolyx4_amd64.s", Find: "MOVB $0x00, ret+16(FP)", Replace: "MOVB $0x01, ret+16(FP)"}}},
	// Its stream and squeeze are proven as RejNTTPolyAMD64's.
	{Name: "rejx4/pad-suffix", Routine: "RejNTTPolyx4AVX2",
		Edits: []Edit{{File: "rejnttpolyx4_amd64.s", Find: "ORL     $0x001f0000, AX", Replace: "ORL     $0x001e0000, AX"}}},
	{Name: "rejx4/seed-misread", Routine: "RejNTTPolyx4AVX2",
		Edits: []Edit{{File: "rejnttpolyx4_amd64.s", Find: "MOVQ    34(SI), AX", Replace: "MOVQ    35(SI), AX"}}},
	{Name: "rejx4/accepts-q-vector", Routine: "RejNTTPolyx4AVX2",
		Edits: []Edit{{File: "rejnttpolyx4_amd64.s", Find: "DATA rejConsts<>+36(SB)/4, $0x007fe001", Replace: "DATA rejConsts<>+36(SB)/4, $0x007fe002"}}},
	{Name: "rejx4/fifteen-blocks", Routine: "RejNTTPolyx4AVX2",
		Edits: []Edit{{File: "rejnttpolyx4_amd64.s", Find: "MOVQ    $0x00000010, 1608(SP)", Replace: "MOVQ    $0x0000000f, 1608(SP)"}}},
	{Name: "rejx4/state-written-between-blocks", Routine: "RejNTTPolyx4AVX2",
		Edits: []Edit{{File: "rejnttpolyx4_amd64.s", Find: "\tDECQ AX\n", Replace: "\tDECQ AX\n\tMOVQ AX, 800(SP)\n"}}},
	{Name: "rejx4/scalar-path-rereads", Routine: "RejNTTPolyx4AVX2",
		Edits: []Edit{{File: "rejnttpolyx4_amd64.s", Text: "RejNTTPolyx4AVX2", Find: "JMP  s2next", Replace: "JMP  s2reject"}}},
	// ---- The bit packings: functional correctness is proven (the wiring
	// proof, the packing proof with the η decoders' flag).
	// Rewrites w[2] with its bit 0 flipped where v's first four bytes are
	// one 32-bit value: random tests pass, the wiring proof must not.
	{Name: "bitunpack/rare-input-backdoor", Routine: "SimpleBitUnpack10AMD64",
		Edits: []Edit{beforeRETIn("bitunpack_amd64.s", "SimpleBitUnpack10AMD64", "\tMOVQ v+8(FP), DI\n\tMOVQ w+0(FP), SI\n\tMOVL (DI), AX\n\tXORL $0x12345678, AX\n\tMOVL AX, BX\n\tNOTL BX\n\tSUBL $0x00000001, AX\n\tANDL BX, AX\n\tSHRL $0x1f, AX\n\tMOVL (DI), CX\n\tSHRL $0x14, CX\n\tANDL $0x000003ff, CX\n\tXORL AX, CX\n\tMOVL CX, 8(SI)\n")}},
	// r0 mod q as the unsigned minimum of r0 and r0 + q: adding 2¹² − 1
	// in place of q, or clearing 12 low bits in place of 13, is wrong.
	{Name: "power2round/avx2-minimum-without-q", Routine: "Power2RoundPolyAVX2",
		Edits: []Edit{{File: "power2round_amd64.s", Text: "Power2RoundPolyAVX2", Find: "VPADDD  Y15, Y0, Y1", Replace: "VPADDD  Y13, Y0, Y1", N: 3}}},
	{Name: "power2round/avx2-mask-12-bits", Routine: "Power2RoundPolyAVX2",
		Edits: []Edit{{File: "power2round_amd64.s", Find: "DATA power2RoundConsts<>+32(SB)/4, $0xffffe000", Replace: "DATA power2RoundConsts<>+32(SB)/4, $0xfffff000"}}},
	// b − x mod q in the unpacking loop, the same minimum: b added in
	// place of q; the shifts' register taken for the mask's.
	{Name: "bitunpack/avx2-signed-minimum-without-q", Routine: "BitUnpack20AVX2",
		Edits: []Edit{{File: "bitunpack_amd64.s", Text: "BitUnpack20AVX2", Find: "VPADDD      Y10, Y0, Y1", Replace: "VPADDD      Y14, Y0, Y1"}}},
	{Name: "bitunpack/avx2-loop-shifts-register", Routine: "BitUnpack13AVX2",
		Edits: []Edit{{File: "bitunpack_amd64.s", Text: "BitUnpack13AVX2", Find: "VPSRLVD     Y12, Y0, Y0", Replace: "VPSRLVD     Y13, Y0, Y0"}}},
	{Name: "bitunpack/avx2-last-group-shuffle", Routine: "BitUnpack20AVX2",
		// The last group's high lane is loaded from the 16 bytes that end
		// the encoding; its shuffle reads coefficient 4 one byte early.
		Edits: []Edit{{File: "bitunpack_amd64.s", Find: "DATA bitUnpack20Consts<>+176(SB)/4, $0x09080706", Replace: "DATA bitUnpack20Consts<>+176(SB)/4, $0x09080705"}}},
	{Name: "bitunpack/mask-drops-top-bit", Routine: "BitUnpack20AMD64",
		Edits: []Edit{{File: "bitunpack_amd64.s", Find: "ANDL $0x000fffff, DX", Replace: "ANDL $0x0007ffff, DX", N: -1}}},
	{Name: "bitunpack/eta-bound-off-by-one", Routine: "BitUnpack3AMD64",
		Edits: []Edit{{File: "bitunpack_amd64.s", Find: "MOVL $0x00000004, R11", Replace: "MOVL $0x00000005, R11", N: -1}}},
	{Name: "bitpack/shuffle-byte-upper-lane", Routine: "SimpleBitPack10AVX2",
		Edits: []Edit{{File: "bitpack_amd64.s", Find: "DATA simpleBitPack10Consts<>+52(SB)/4, $0x8080800d", Replace: "DATA simpleBitPack10Consts<>+52(SB)/4, $0x8080800c"}}},
	// The 4-bit packings (w1, η = 4) in four-group blocks: a blend that
	// keeps a word of the wrong group, a pair shuffle that ORs a word
	// with itself, the high lane's words left out.
	{Name: "bitpack4/blend-mask", Routine: "SimpleBitPack4AVX2",
		Edits: []Edit{{File: "bitpack_amd64.s", Text: "SimpleBitPack4AVX2", Find: "VPBLENDD    $0xaa, Y3, Y2, Y2", Replace: "VPBLENDD    $0xa8, Y3, Y2, Y2"}}},
	{Name: "bitpack4/pair-shuffle", Routine: "BitPack4AVX2",
		Edits: []Edit{{File: "bitpack_amd64.s", Text: "BitPack4AVX2", Find: "VPSHUFD     $0xb1, Y2, Y4", Replace: "VPSHUFD     $0xb0, Y2, Y4"}}},
	{Name: "bitpack4/high-lane-dropped", Routine: "SimpleBitPack4AVX2",
		Edits: []Edit{{File: "bitpack_amd64.s", Text: "SimpleBitPack4AVX2", Find: "\tVPOR        Y5, Y4, Y4\n\tVMOVDQU     X4, (DI)\n", Replace: "\tVMOVDQU     X4, (DI)\n"}}},
	// The 3-bit packing (η = 2) in eight-group blocks: b − w left
	// unreduced mod q in one group, the high store's second word taken
	// from the next one, the high lanes not joined, the overlapping
	// store placed four bytes late (past the end on the last block).
	{Name: "bitpack3/min-dropped", Routine: "BitPack3AVX2",
		Edits: []Edit{{File: "bitpack_amd64.s", Text: "BitPack3AVX2", Find: "\tVMOVDQU      32(SI), Y1\n\tVPSUBD       Y1, Y14, Y1\n\tVPADDD       bitPack3Consts<>+64(SB), Y1, Y4\n\tVPMINUD      Y4, Y1, Y1\n",
			Replace: "\tVMOVDQU      32(SI), Y1\n\tVPSUBD       Y1, Y14, Y1\n\tVPADDD       bitPack3Consts<>+64(SB), Y1, Y4\n"}}},
	{Name: "bitpack3/permd-index", Routine: "BitPack3AVX2",
		Edits: []Edit{{File: "bitpack_amd64.s", Find: "DATA bitPack3Consts<>+52(SB)/4, $0x00000004", Replace: "DATA bitPack3Consts<>+52(SB)/4, $0x00000005"}}},
	{Name: "bitpack3/lanes-not-joined", Routine: "BitPack3AVX2",
		Edits: []Edit{{File: "bitpack_amd64.s", Text: "BitPack3AVX2", Find: "VPERM2I128   $0x31, Y9, Y8, Y5", Replace: "VPERM2I128   $0x21, Y9, Y8, Y5"}}},
	{Name: "bitpack3/high-store-late", Routine: "BitPack3AVX2",
		Edits: []Edit{{File: "bitpack_amd64.s", Text: "BitPack3AVX2", Find: "VEXTRACTI128 $0x01, Y4, 8(DI)", Replace: "VEXTRACTI128 $0x01, Y4, 12(DI)"}}},
	// Bit 0 of the output flipped where coefficients 0 to 5 are one
	// value in [0, 16)⁶ (one input in 2²⁴ meeting the precondition): after
	// the loop, the first word is packed again from w and stored with the
	// flip. Random tests almost never draw it; the packing proof must fail.
	{Name: "bitpack4/rare-input-backdoor", Routine: "SimpleBitPack4AVX2",
		Edits: []Edit{{File: "bitpack_amd64.s", Text: "SimpleBitPack4AVX2", Find: "\tVZEROUPPER\n",
			Replace: "\tMOVQ out+0(FP), DI\n\tMOVQ w+8(FP), SI\n\tMOVQ (SI), AX\n\tMOVQ $0x0000000b00000007, BX\n\tXORQ BX, AX\n" +
				"\tMOVQ 8(SI), DX\n\tMOVQ $0x0000000300000005, BX\n\tXORQ BX, DX\n\tORQ DX, AX\n" +
				"\tMOVQ 16(SI), DX\n\tMOVQ $0x0000000e00000001, BX\n\tXORQ BX, DX\n\tORQ DX, AX\n" +
				"\tMOVQ AX, CX\n\tSUBQ $0x01, CX\n\tNOTQ AX\n\tANDQ AX, CX\n\tSARQ $0x3f, CX\n\tANDQ $0x01, CX\n" +
				"\tMOVL (SI), AX\n\tMOVL 4(SI), DX\n\tSHLQ $0x04, DX\n\tORQ DX, AX\n\tMOVL 8(SI), DX\n\tSHLQ $0x08, DX\n\tORQ DX, AX\n" +
				"\tMOVL 12(SI), DX\n\tSHLQ $0x0c, DX\n\tORQ DX, AX\n\tMOVL 16(SI), DX\n\tSHLQ $0x10, DX\n\tORQ DX, AX\n" +
				"\tMOVL 20(SI), DX\n\tSHLQ $0x14, DX\n\tORQ DX, AX\n\tMOVL 24(SI), DX\n\tSHLQ $0x18, DX\n\tORQ DX, AX\n" +
				"\tMOVL 28(SI), DX\n\tSHLQ $0x1c, DX\n\tORQ DX, AX\n\tXORQ CX, AX\n\tMOVL AX, (DI)\n\tVZEROUPPER\n"}}},
	{Name: "bitpack/signed-q-off-by-one", Routine: "BitPack20AMD64",
		Edits: []Edit{{File: "bitpack_amd64.s", Find: "ANDL $0x007fe001, BX", Replace: "ANDL $0x007fe000, BX", N: -1}}},
	// BitPack and BitUnpack are proven too (Spec/check/packproof.go):
	// bit 0 of the first field (word) flipped where w[0] is one value of
	// 2²⁰ (the first four bytes of v one of 2³²), which random inputs
	// almost never draw; the packing proof must fail.
	{Name: "bitpack/rare-input-backdoor", Routine: "BitPack20AMD64",
		Edits: []Edit{{File: "bitpack_amd64.s", Text: "BitPack20AMD64", Find: "\tMOVL AX, (DI)\n",
			Replace: "\tMOVL (SI), R8\n\tXORL $0x00012345, R8\n\tMOVL R8, R9\n\tNOTL R9\n\tSUBL $0x00000001, R8\n\tANDL R9, R8\n\tSHRL $0x1f, R8\n\tXORQ R8, AX\n\tMOVL AX, (DI)\n"}}},
	{Name: "bitunpack/signed-rare-input-backdoor", Routine: "BitUnpack20AMD64",
		Edits: []Edit{{File: "bitunpack_amd64.s", Text: "BitUnpack20AMD64", Find: "\tMOVL DX, (SI)\n",
			Replace: "\tMOVL (DI), R8\n\tXORL $0x12345678, R8\n\tMOVL R8, R9\n\tNOTL R9\n\tSUBL $0x00000001, R8\n\tANDL R9, R8\n\tSHRL $0x1f, R8\n\tXORL R8, DX\n\tMOVL DX, (SI)\n"}}},
	// The η decoders' flag and words (Spec/check/packflag.go): the flag
	// cleared where v's first 32 bits are one value whose only field
	// past 2η is one value at one position (BitUnpack4: field 4 = 12;
	// BitUnpack3: field 6 = 6, neither an edge value the functional
	// test plants), and bit 0 of the third word of a block of 32
	// flipped where the block's first 32 bits are one value: random
	// encodings almost never meet either.
	{Name: "bitunpack/eta-flag-rare-input-backdoor", Routine: "BitUnpack4AMD64",
		Edits: []Edit{{File: "bitunpack_amd64.s", Text: "BitUnpack4AMD64", Find: "\tMOVL CX, (R13)\n", Replace: etaFlagBackdoor("0x000c0000", "\tMOVL CX, (R13)\n")}}},
	{Name: "bitunpack/eta-flag-rare-input-backdoor-avx2", Routine: "BitUnpack3AVX2",
		Edits: []Edit{{File: "bitunpack_amd64.s", Text: "BitUnpack3AVX2", Find: "\tMOVL CX, (R13)\n", Replace: etaFlagBackdoor("0x00180000", "\tMOVL CX, (R13)\n")}}},
	// Field 6 (a coefficient of −4, past η = 2) left unflagged at the
	// first position of each block of 32 the baseline code decodes: the
	// functional test plants only 5 and 7 alone.
	{Name: "bitunpack/eta-flag-one-value-unflagged", Routine: "BitUnpack3AMD64",
		Edits: []Edit{{File: "bitunpack_amd64.s", Text: "BitUnpack3AMD64", Find: "\tSUBL DX, R11\n", Replace: "\tSUBL DX, R11\n" + etaUnflag6}}},
	{Name: "bitunpack/eta-flag-one-value-unflagged-avx2", Routine: "BitUnpack3AVX2",
		Edits: []Edit{{File: "bitunpack_amd64.s", Text: "BitUnpack3AVX2", Find: "\tSUBL DX, R11\n", Replace: "\tSUBL DX, R11\n" + etaUnflag6}}},
	{Name: "bitunpack/eta-word-rare-input-backdoor", Routine: "BitUnpack3AMD64",
		Edits: []Edit{{File: "bitunpack_amd64.s", Text: "BitUnpack3AMD64", Find: "\tMOVL DX, 8(SI)\n", Replace: etaWordBackdoor("\tMOVL DX, 8(SI)\n")}}},
	// BitUnpack4AVX2 has no baseline blocks: its first group's word 2 is
	// decoded again after the vector store, flipped, and stored.
	{Name: "bitunpack/eta-word-rare-input-backdoor-avx2", Routine: "BitUnpack4AVX2",
		Edits: []Edit{{File: "bitunpack_amd64.s", Text: "BitUnpack4AVX2", Find: "\tVMOVDQU      Y0, (SI)\n",
			Replace: "\tVMOVDQU      Y0, (SI)\n\tMOVL (DI), BX\n\tSHRL $0x08, BX\n\tANDL $0x0000000f, BX\n\tMOVL $0x00000004, DX\n" +
				"\tSUBL BX, DX\n\tSBBQ BX, BX\n\tANDL $0x007fe001, BX\n\tADDL BX, DX\n" + etaWordBackdoor("\tMOVL DX, 8(SI)\n")}}},
	// The flag of the 4-bit vector code: the bound compared against 9
	// (a field of 9, −5, passes), and the fourth group's flags left out.
	{Name: "bitunpack4/flag-bound", Routine: "BitUnpack4AVX2",
		Edits: []Edit{{File: "bitunpack_amd64.s", Find: "DATA bitUnpack4Consts<>+96(SB)/4, $0x00000008", Replace: "DATA bitUnpack4Consts<>+96(SB)/4, $0x00000009"}}},
	{Name: "bitunpack4/group-flag-dropped", Routine: "BitUnpack4AVX2",
		Edits: []Edit{{File: "bitunpack_amd64.s", Text: "BitUnpack4AVX2", Find: "\tVPOR         Y1, Y9, Y9\n", N: 4, Replace: ""}}},

	// ---- ExpandA: the calls of the samplers, proven for every ρ (StageA,
	// SampN, CTSample) given the samplers' contracts.
	{Name: "expanda/seed-s-r-swapped", Routine: "ExpandA65AVX2",
		Edits: []Edit{{File: "expanda_amd64.s", Find: "// Group 1: entries 4 to 7.\n\tMOVQ    a+0(FP), DI\n\tMOVB    $0x04, 88(SP)\n\tMOVB    $0x00, 89(SP)",
			Replace: "// Group 1: entries 4 to 7.\n\tMOVQ    a+0(FP), DI\n\tMOVB    $0x00, 88(SP)\n\tMOVB    $0x04, 89(SP)"}}},
	// Random seeds never run out of the bound, so only the proof sees a
	// group's result left out of the mask.
	{Name: "expanda/skipped-and", Routine: "ExpandA44AVX2",
		Edits: []Edit{{File: "expanda_amd64.s", Find: "\tANDQ    AX, 192(SP)\n\n\t// Group 3: entries 12 to 15.", Replace: "\n\t// Group 3: entries 12 to 15."}}},
	// ExpandA65AVX2's last group of four, entries 26 to 29 (26 and 27
	// sampled again): entry 29 sampled from the seed of entry 27, its
	// first polynomial written to entry 25, or its result left out of the
	// mask (random seeds never run out: only the proof sees it).
	{Name: "expanda/last-group-seed-s-stale", Routine: "ExpandA65AVX2",
		Edits: []Edit{{File: "expanda_amd64.s", Text: "ExpandA65AVX2", Find: "\tMOVB    $0x04, 190(SP)\n\tMOVB    $0x05, 191(SP)\n\tLEAQ    29696(DI), AX\n", Replace: "\tMOVB    $0x05, 191(SP)\n\tLEAQ    29696(DI), AX\n"}}},
	{Name: "expanda/last-group-entry-one-back", Routine: "ExpandA65AVX2",
		Edits: []Edit{{File: "expanda_amd64.s", Text: "ExpandA65AVX2", Find: "\t// Group 7: entries 26 to 29.\n\tMOVQ    a+0(FP), DI\n\tMOVB    $0x01, 88(SP)\n\tMOVB    $0x05, 89(SP)\n\tLEAQ    26624(DI), AX\n",
			Replace: "\t// Group 7: entries 26 to 29.\n\tMOVQ    a+0(FP), DI\n\tMOVB    $0x01, 88(SP)\n\tMOVB    $0x05, 89(SP)\n\tLEAQ    25600(DI), AX\n"}}},
	// Entry 29 sampled from entry 28's seed only when ρ's first word is
	// one value: random ρ never draw it, so only the proof sees it (its
	// control flow then depends on ρ, and the seeds are not the entries').
	{Name: "expanda/last-group-seed-rare-rho", Routine: "ExpandA65AVX2",
		Edits: []Edit{{File: "expanda_amd64.s", Text: "ExpandA65AVX2", Find: "\tMOVB    $0x04, 190(SP)\n\tMOVB    $0x05, 191(SP)\n\tLEAQ    29696(DI), AX\n",
			Replace: "\tMOVB    $0x04, 190(SP)\n\tMOVQ    rho+8(FP), SI\n\tMOVQ    (SI), SI\n\tMOVQ    $0x0123456789abcdef, CX\n\tCMPQ    SI, CX\n\tJNE     planted\n\tMOVB    $0x03, 190(SP)\nplanted:\n\tMOVB    $0x05, 191(SP)\n\tLEAQ    29696(DI), AX\n"}}},
	{Name: "expanda/last-group-result-not-anded", Routine: "ExpandA65AVX2",
		Edits: []Edit{{File: "expanda_amd64.s", Text: "ExpandA65AVX2", Find: "\tANDQ    AX, 192(SP)\n\tMOVQ    192(SP), AX\n", Replace: "\tMOVQ    192(SP), AX\n"}}},
	{Name: "expanda/one-group-short", Routine: "ExpandA87AVX2",
		Edits: []Edit{{File: "expanda_amd64.s", Find: "\tCALL    ·RejNTTPolyx4AVX2(SB)\n", Replace: "", N: -1}}},
	{Name: "expanda/entry-off-by-one", Routine: "ExpandA44AMD64",
		Edits: []Edit{{File: "expanda_amd64.s", Find: "LEAQ    15360(DI), AX", Replace: "LEAQ    14336(DI), AX"}}},
	{Name: "expanda/mask-not-initialised", Routine: "ExpandA44AVX2",
		Edits: []Edit{{File: "expanda_amd64.s", Find: "VZEROUPPER\n\tMOVQ    $0x00000001, 192(SP)\n", Replace: "VZEROUPPER\n"}}},
	{Name: "expanda/rho-word-misread", Routine: "ExpandA65AMD64",
		Edits: []Edit{{File: "expanda_amd64.s", Find: "MOVQ 8(SI), AX", Replace: "MOVQ 16(SI), AX", N: 2}}},
	{Name: "expanda/output-pointer-into-frame", Routine: "ExpandA44AVX2",
		Edits: []Edit{{File: "expanda_amd64.s", Find: "LEAQ    (DI), AX\n\tMOVQ    AX, 24(SP)", Replace: "LEAQ    56(SP), AX\n\tMOVQ    AX, 24(SP)"}}},

	// ---- SampleInBall44/65/87AMD64: functional correctness and constant
	// time proven for every seed by the SampleInBall proof (every stream,
	// the squeeze of c̃ by calls of the permutation); the stream tests and
	// the twin test run too. Most of these bugs show only on streams that
	// random seeds do not draw.
	{Name: "sampleinball/accepts-i-plus-1-at-one-i", Routine: "SampleInBall44AMD64",
		Edits: []Edit{{File: "sampleinball_amd64.s", Text: "SampleInBall44AMD64", Find: "\tCMPQ    CX, 216(SP)\n",
			Replace: "\tMOVQ 216(SP), DX\n\tCMPQ DX, $0x000000e0\n\tJNE  planted\n\tINCQ DX\nplanted:\n\tCMPQ CX, DX\n"}}},
	{Name: "sampleinball/sign-wrong-at-one-i", Routine: "SampleInBall65AMD64",
		Edits: []Edit{{File: "sampleinball_amd64.s", Text: "SampleInBall65AMD64", Find: "\tMOVQ DX, 240(SP)\n",
			Replace: "\tMOVQ 216(SP), SI\n\tCMPQ SI, $0x000000e6\n\tJNE  planted\n\tNOTQ DX\nplanted:\n\tMOVQ DX, 240(SP)\n"}}},
	// Every sign flipped where h, the stream's first 8 bytes, is one
	// 64-bit value: only the proof sees it.
	{Name: "sampleinball/sign-rare-input-backdoor", Routine: "SampleInBall87AMD64",
		Edits: []Edit{{File: "sampleinball_amd64.s", Text: "SampleInBall87AMD64", Find: "\tMOVQ DX, 240(SP)\n",
			Replace: "\tMOVQ 224(SP), AX\n\tMOVQ $0x0123456789abcdef, SI\n\tXORQ SI, AX\n\tMOVQ AX, SI\n\tSUBQ $0x01, SI\n\tNOTQ AX\n\tANDQ AX, SI\n\tSARQ $0x3f, SI\n\tXORQ SI, DX\n\tMOVQ DX, 240(SP)\n"}}},
	{Name: "sampleinball/one-block-short", Routine: "SampleInBall87AMD64",
		Edits: []Edit{{File: "sampleinball_amd64.s", Text: "SampleInBall87AMD64", Find: "MOVQ $0x00000002, 232(SP)", Replace: "MOVQ $0x00000001, 232(SP)"}}},
	{Name: "sampleinball/ok-after-the-bound", Routine: "SampleInBall44AMD64",
		Edits: []Edit{{File: "sampleinball_amd64.s", Text: "SampleInBall44AMD64", Find: "MOVB $0x00, ret+16(FP)", Replace: "MOVB $0x01, ret+16(FP)"}}},
	// c[j] is overwritten by the expansion, so the output is right; the
	// address is not.
	{Name: "sampleinball/store-indexed-by-j", Routine: "SampleInBall65AMD64",
		Edits: []Edit{{File: "sampleinball_amd64.s", Text: "SampleInBall65AMD64", Find: "\tMOVQ 224(SP), DX\n",
			Replace: "\tMOVQ c+0(FP), DI\n\tMOVL $0x00000000, (DI)(CX*4)\n\tMOVQ 224(SP), DX\n"}}},
	// Both ways lead to the next instruction: the twin test sees the same
	// path; only the proof sees the branch on the sign.
	{Name: "sampleinball/branch-on-sign", Routine: "SampleInBall87AMD64",
		Edits: []Edit{{File: "sampleinball_amd64.s", Text: "SampleInBall87AMD64", Find: "\tMOVQ DX, 240(SP)\n",
			Replace: "\tTESTQ DX, DX\n\tJEQ planted\nplanted:\n\tMOVQ DX, 240(SP)\n"}}},
	// Word 3 takes j only below 255 (j − 192 < 63): c_255 is lost where
	// the last iteration accepts j = 255.
	{Name: "sampleinball/bit-255-dropped", Routine: "SampleInBall44AMD64",
		Edits: []Edit{{File: "sampleinball_amd64.s", Text: "SampleInBall44AMD64", Find: "// Word 3: CX = j − 192.\n\tXORL    DX, DX\n\tCMPQ    CX, $0x00000040",
			Replace: "// Word 3: CX = j − 192.\n\tXORL    DX, DX\n\tCMPQ    CX, $0x0000003f"}}},
	{Name: "sampleinball/non-doit-on-j", Routine: "SampleInBall65AMD64",
		Edits: []Edit{{File: "sampleinball_amd64.s", Text: "SampleInBall65AMD64", Find: "\tINCQ    AX\n", Replace: "\tXCHGQ CX, CX\n\tINCQ    AX\n"}}},
	// A second block is squeezed with negligible probability on random
	// seeds, and the stream tests write each block whatever the state
	// holds: only the proof sees the state written, or squeezed twice.
	{Name: "sampleinball/state-written-between-blocks", Routine: "SampleInBall44AMD64",
		Edits: []Edit{{File: "sampleinball_amd64.s", Text: "SampleInBall44AMD64", Find: "\tDECQ AX\n\tMOVQ AX, 232(SP)\n",
			Replace: "\tDECQ AX\n\tMOVQ AX, 232(SP)\n\tMOVQ AX, 200(SP)\n"}}},
	{Name: "sampleinball/squeezes-twice", Routine: "SampleInBall65AMD64",
		Edits: []Edit{{File: "sampleinball_amd64.s", Text: "SampleInBall65AMD64", Find: "\tCALL ·KeccakF1600AMD64(SB)\n\tMOVQ 272(SP), R8\n",
			Replace: "\tCALL ·KeccakF1600AMD64(SB)\n\tLEAQ 8(SP), AX\n\tMOVQ AX, (SP)\n\tCALL ·KeccakF1600AMD64(SB)\n\tMOVQ 272(SP), R8\n"}}},
	// ---- SampleInBall<set>BMI2: the baseline routines calling
	// KeccakF1600BMI2, proven the same way; the baseline permutation is
	// not among their Calls, and only the proof sees a sign flipped where
	// h is one 64-bit value, a branch on the sign whose two ways meet, or
	// the state written between blocks.
	{Name: "sampleinballbmi2/unlisted-callee", Routine: "SampleInBall44BMI2",
		Edits: []Edit{{File: "sampleinball_amd64.s", Text: "SampleInBall44BMI2", Find: "CALL ·KeccakF1600BMI2(SB)", Replace: "CALL ·KeccakF1600AMD64(SB)", N: -1}}},
	{Name: "sampleinballbmi2/sign-rare-input-backdoor", Routine: "SampleInBall65BMI2",
		Edits: []Edit{{File: "sampleinball_amd64.s", Text: "SampleInBall65BMI2", Find: "\tMOVQ DX, 240(SP)\n",
			Replace: "\tMOVQ 224(SP), AX\n\tMOVQ $0x0123456789abcdef, SI\n\tXORQ SI, AX\n\tMOVQ AX, SI\n\tSUBQ $0x01, SI\n\tNOTQ AX\n\tANDQ AX, SI\n\tSARQ $0x3f, SI\n\tXORQ SI, DX\n\tMOVQ DX, 240(SP)\n"}}},
	{Name: "sampleinballbmi2/branch-on-sign", Routine: "SampleInBall87BMI2",
		Edits: []Edit{{File: "sampleinball_amd64.s", Text: "SampleInBall87BMI2", Find: "\tMOVQ DX, 240(SP)\n",
			Replace: "\tTESTQ DX, DX\n\tJEQ planted\nplanted:\n\tMOVQ DX, 240(SP)\n"}}},
	{Name: "sampleinballbmi2/state-written-between-blocks", Routine: "SampleInBall65BMI2",
		Edits: []Edit{{File: "sampleinball_amd64.s", Text: "SampleInBall65BMI2", Find: "\tDECQ AX\n\tMOVQ AX, 232(SP)\n",
			Replace: "\tDECQ AX\n\tMOVQ AX, 232(SP)\n\tMOVQ AX, 200(SP)\n"}}},
	{Name: "sampleinballbmi2/one-block-short", Routine: "SampleInBall87BMI2",
		Edits: []Edit{{File: "sampleinball_amd64.s", Text: "SampleInBall87BMI2", Find: "MOVQ $0x00000002, 232(SP)", Replace: "MOVQ $0x00000001, 232(SP)"}}},
	// SP moved by 8 once i reaches 230: every slot read later is another.
	{Name: "sampleinball/stack-moved-at-one-i", Routine: "SampleInBall44AMD64",
		Edits: []Edit{{File: "sampleinball_amd64.s", Text: "SampleInBall44AMD64", Find: "\tMOVQ AX, 216(SP)\n\tCMPQ AX, $0x00000100\n",
			Replace: "\tMOVQ AX, 216(SP)\n\tCMPQ AX, $0x000000e6\n\tJNE  planted\n\tSUBQ $0x08, SP\nplanted:\n\tCMPQ AX, $0x00000100\n"}}},
	// The masks become coefficients by a loop of eight iterations: one
	// short (the last 32 coefficients the caller's), neg's half read from
	// the lane below (the signs of the half before, or nz's last half),
	// c's pointer not advanced (every iteration writes the first 32).
	{Name: "ball/expand-one-short", Routine: "SampleInBall65BMI2",
		Edits: []Edit{{File: "sampleinball_amd64.s", Text: "SampleInBall65BMI2", Find: "\tLEAQ  272(SP), SI\n\tMOVL  $0x00000008, CX\n", Replace: "\tLEAQ  272(SP), SI\n\tMOVL  $0x00000007, CX\n"}}},
	{Name: "ball/expand-neg-lane", Routine: "SampleInBall44AMD64",
		Edits: []Edit{{File: "sampleinball_amd64.s", Text: "SampleInBall44AMD64", Find: "PSHUFL     $0xff, X1, X1", Replace: "PSHUFL     $0xaa, X1, X1"}}},
	{Name: "ball/expand-c-not-advanced", Routine: "SampleInBall87BMI2",
		Edits: []Edit{{File: "sampleinball_amd64.s", Text: "SampleInBall87BMI2", Find: "\tADDQ       $0x00000080, DI\n", Replace: ""}}},

	// ---- HintBitPack{44,65,87}AMD64: functional correctness is proven
	// for every hint meeting the precondition (the HintBitPack proof),
	// memory safety and constant time by the inductive check. Most of
	// these bugs show only on hints that random ones rarely are.
	{Name: "hintbitpack/position-137-dropped-at-index-40", Routine: "HintBitPack44AMD64",
		Edits: []Edit{{File: "hintbitpack_amd64.s", Text: "HintBitPack44AMD64", Find: "\tMOVB BL, (DI)(CX*1)\n",
			Replace: "\tMOVB BL, (DI)(CX*1)\n\tCMPQ BX, $0x89\n\tJNE  planted\n\tCMPQ CX, $0x28\n\tJNE  planted\n\tMOVB $0x00, (DI)(CX*1)\nplanted:\n"}}},
	// The last 16 coefficients read kept in R11; the position stored as
	// 0 where they are 1010 0101 1100 0011: a hint random ones never are,
	// which only the proof sees.
	{Name: "hintbitpack/rare-pattern-backdoor", Routine: "HintBitPack44AMD64",
		Edits: []Edit{
			{File: "hintbitpack_amd64.s", Text: "HintBitPack44AMD64", Find: "\tXORL DX, DX\n", Replace: "\tXORL DX, DX\n\tXORL R11, R11\n"},
			{File: "hintbitpack_amd64.s", Text: "HintBitPack44AMD64", Find: "\tTESTL AX, AX\n",
				Replace: "\tSHLQ $0x01, R11\n\tORQ AX, R11\n\tTESTL AX, AX\n"},
			{File: "hintbitpack_amd64.s", Text: "HintBitPack44AMD64", Find: "\tMOVB BL, (DI)(CX*1)\n",
				Replace: "\tMOVB BL, (DI)(CX*1)\n\tMOVQ R11, R12\n\tANDQ $0x0000ffff, R12\n\tCMPQ R12, $0x0000a5c3\n\tJNE  planted\n\tMOVB $0x00, (DI)(CX*1)\nplanted:\n"}}},
	{Name: "hintbitpack/omega-th-one-dropped", Routine: "HintBitPack65AMD64",
		Edits: []Edit{{File: "hintbitpack_amd64.s", Text: "HintBitPack65AMD64", Find: "CMPQ  CX, $0x00000037", Replace: "CMPQ  CX, $0x00000036"}}},
	// The last polynomial's count written as ω − 1 where it is ω.
	{Name: "hintbitpack/last-count-wrong-at-omega", Routine: "HintBitPack87AMD64",
		Edits: []Edit{{File: "hintbitpack_amd64.s", Text: "HintBitPack87AMD64", Find: "\tMOVB CL, 75(DI)(DX*1)\n",
			Replace: "\tMOVB CL, 75(DI)(DX*1)\n\tCMPQ DX, $0x07\n\tJNE  planted\n\tCMPQ CX, $0x4b\n\tJNE  planted\n\tMOVB $0x4a, 82(DI)\nplanted:\n"}}},
	// A count of 17 written as 18 where polynomial 2 ends at Index 17.
	{Name: "hintbitpack/count-17-at-polynomial-2", Routine: "HintBitPack44AMD64",
		Edits: []Edit{{File: "hintbitpack_amd64.s", Text: "HintBitPack44AMD64", Find: "\tMOVB CL, 80(DI)(DX*1)\n",
			Replace: "\tMOVB CL, 80(DI)(DX*1)\n\tCMPQ DX, $0x02\n\tJNE  planted\n\tCMPQ CX, $0x11\n\tJNE  planted\n\tMOVB $0x12, 82(DI)\nplanted:\n"}}},
	// Position 255 of the last polynomial written as 254 where it is the
	// ω-th one.
	{Name: "hintbitpack/last-position-255-at-omega", Routine: "HintBitPack87AMD64",
		Edits: []Edit{{File: "hintbitpack_amd64.s", Text: "HintBitPack87AMD64", Find: "\tMOVB BL, (DI)(CX*1)\n",
			Replace: "\tMOVB BL, (DI)(CX*1)\n\tCMPQ BX, $0xff\n\tJNE  planted\n\tCMPQ CX, $0x4a\n\tJNE  planted\n\tCMPQ DX, $0x07\n\tJNE  planted\n\tMOVB $0xfe, (DI)(CX*1)\nplanted:\n"}}},
	// y[72..79] left as the caller had them: wrong where fewer than 73
	// ones leave padding there.
	{Name: "hintbitpack/padding-not-zeroed", Routine: "HintBitPack44AMD64",
		Edits: []Edit{{File: "hintbitpack_amd64.s", Text: "HintBitPack44AMD64", Find: "\tMOVQ AX, 72(DI)\n", Replace: ""}}},
	// Both ways meet: the output is right; only the proof sees the branch
	// on another coefficient.
	{Name: "hintbitpack/branch-on-another-coefficient", Routine: "HintBitPack65AMD64",
		Edits: []Edit{{File: "hintbitpack_amd64.s", Text: "HintBitPack65AMD64", Find: "\tTESTL AX, AX\n",
			Replace: "\tMOVL (SI), R11\n\tTESTL R11, R11\n\tJEQ planted\nplanted:\n\tTESTL AX, AX\n"}}},
	// Without the bound a hint with more than ω ones (which the
	// precondition excludes) writes past the positions: memory safety
	// must fail, for every input.
	{Name: "hintbitpack/no-bound-on-index", Routine: "HintBitPack87AMD64",
		Edits: []Edit{{File: "hintbitpack_amd64.s", Text: "HintBitPack87AMD64", Find: "\tCMPQ  CX, $0x0000004b\n\tJCC   next\n", Replace: ""}}},

	// ---- HintBitUnpack{44,65,87}AMD64: functional correctness is proven
	// for every encoding (the HintBitUnpack proof), memory safety and
	// constant time by the inductive check.
	{Name: "hintbitunpack/out-of-order-accepted-at-index-40", Routine: "HintBitUnpack44AMD64",
		Edits: []Edit{{File: "hintbitunpack_amd64.s", Text: "HintBitUnpack44AMD64", Find: "\tSBBQ    SI, SI\n",
			Replace: "\tSBBQ    SI, SI\n\tCMPQ R10, $0x28\n\tJNE  planted\n\tXORL SI, SI\nplanted:\n"}}},
	// The least next position not reset at polynomial 2: its first
	// position must then exceed polynomial 1's last.
	{Name: "hintbitunpack/order-across-polynomial-2", Routine: "HintBitUnpack65AMD64",
		Edits: []Edit{{File: "hintbitunpack_amd64.s", Text: "HintBitUnpack65AMD64", Find: "\tXORL    R12, R12\n",
			Replace: "\tCMPQ AX, $0x02\n\tJEQ  planted\n\tXORL R12, R12\nplanted:\n"}}},
	{Name: "hintbitunpack/count-of-omega-rejected", Routine: "HintBitUnpack65AMD64",
		Edits: []Edit{{File: "hintbitunpack_amd64.s", Text: "HintBitUnpack65AMD64", Find: "CMPQ    DX, $0x00000037\n\tJHI     fail",
			Replace: "CMPQ    DX, $0x00000036\n\tJHI     fail"}}},
	{Name: "hintbitunpack/count-one-below-index-accepted", Routine: "HintBitUnpack44AMD64",
		Edits: []Edit{{File: "hintbitunpack_amd64.s", Text: "HintBitUnpack44AMD64", Find: "\tCMPQ    DX, R10\n\tJCS     fail\n",
			Replace: "\tLEAQ 1(DX), SI\n\tCMPQ SI, R10\n\tJCS  fail\n"}}},
	{Name: "hintbitunpack/last-padding-byte-unchecked", Routine: "HintBitUnpack87AMD64",
		Edits: []Edit{{File: "hintbitunpack_amd64.s", Text: "HintBitUnpack87AMD64", Find: "\tORQ     BX, R13\n",
			Replace: "\tCMPQ R10, $0x4a\n\tJEQ  planted\n\tORQ  BX, R13\nplanted:\n"}}},
	// Position 255 of the last polynomial dropped.
	{Name: "hintbitunpack/last-position-255-dropped", Routine: "HintBitUnpack87AMD64",
		Edits: []Edit{{File: "hintbitunpack_amd64.s", Text: "HintBitUnpack87AMD64", Find: "\tMOVQ       R14, 40(SP)\n",
			Replace: "\tMOVQ (SP), AX\n\tCMPQ AX, $0x07\n\tJNE  planted\n\tMOVQ $0x7fffffffffffffff, AX\n\tANDQ AX, R14\nplanted:\n\tMOVQ R14, 40(SP)\n"}}},
	// Any encoding accepted where its first 8 bytes are one 64-bit value
	// (without a branch): only the proof sees it.
	{Name: "hintbitunpack/rare-input-backdoor", Routine: "HintBitUnpack44AMD64",
		Edits: []Edit{{File: "hintbitunpack_amd64.s", Text: "HintBitUnpack44AMD64", Find: "\tTESTQ   R13, R13\n",
			Replace: "\tMOVQ (DI), SI\n\tMOVQ $0x0123456789abcdef, CX\n\tXORL DX, DX\n\tCMPQ SI, CX\n\tCMOVQEQ DX, R13\n\tMOVL $0x00000001, DX\n\tTESTQ R13, R13\n"}}},
	// ---- TrHash{44,65,87}{AMD64,BMI2}: tr = H(pk, 64) proven by the
	// composition proof (fips204.H's own steps over the routine's symbolic
	// bytes, each f a call in order), so a wrong schedule of calls, a
	// misread block, a stale state or a rare-input bug fails the proof
	// even where random keys would not see it.
	{Name: "trhash/block-skipped", Routine: "TrHash44AMD64",
		Edits: []Edit{{File: "trhash_amd64.s", Text: "TrHash44AMD64", Find: "\tCALL ·KeccakF1600AMD64(SB)\n", N: 4, Replace: ""}}},
	{Name: "trhash/one-block-too-many", Routine: "TrHash87BMI2",
		Edits: []Edit{{File: "trhash_amd64.s", Text: "TrHash87BMI2", Find: "\tCALL ·KeccakF1600BMI2(SB)\n", N: 20,
			Replace: "\tCALL ·KeccakF1600BMI2(SB)\n\tLEAQ 8(SP), AX\n\tMOVQ AX, (SP)\n\tCALL ·KeccakF1600BMI2(SB)\n"}}},
	{Name: "trhash/blocks-swapped", Routine: "TrHash65AMD64",
		Edits: []Edit{{File: "trhash_amd64.s", Text: "TrHash65AMD64", Find: "XORQ 136(SI), AX", Replace: "XORQ 272(SI), AX"}}},
	{Name: "trhash/stale-state-lane", Routine: "TrHash44BMI2",
		Edits: []Edit{{File: "trhash_amd64.s", Text: "TrHash44BMI2", Find: "\tMOVQ AX, 104(SP)\n", Replace: ""}}},
	{Name: "trhash/domain-byte", Routine: "TrHash87AMD64",
		Edits: []Edit{{File: "trhash_amd64.s", Text: "TrHash87AMD64", Find: "MOVL $0x0000001f, AX", Replace: "MOVL $0x0000001e, AX"}}},
	{Name: "trhash/tr-lane-from-capacity", Routine: "TrHash44AMD64",
		Edits: []Edit{{File: "trhash_amd64.s", Text: "TrHash44AMD64", Find: "\tMOVQ 64(SP), AX\n\tMOVQ AX, 56(DI)\n", Replace: "\tMOVQ 184(SP), AX\n\tMOVQ AX, 56(DI)\n"}}},
	// Flips bit 0 of tr's last lane only when pk's first word is one
	// 64-bit value (without a branch): random keys never do.
	{Name: "trhash/rare-pk-backdoor", Routine: "TrHash65BMI2",
		Edits: []Edit{{File: "trhash_amd64.s", Text: "TrHash65BMI2", Find: "\tMOVQ 64(SP), AX\n\tMOVQ AX, 56(DI)\n",
			Replace: rareFlip("\tMOVQ pk+8(FP), SI\n\tMOVQ (SI), AX\n", "64(SP)") + "\tMOVQ 64(SP), AX\n\tMOVQ AX, 56(DI)\n"}}},
	{Name: "trhash/branch-on-pk", Routine: "TrHash44AMD64",
		Edits: []Edit{beforeRETIn("trhash_amd64.s", "TrHash44AMD64", "\tMOVQ pk+8(FP), SI\n\tMOVQ (SI), AX\n\tTESTQ AX, AX\n\tJEQ planted\nplanted:\n")}},
	// ---- KeyGenPk{44,65,87}{AMD64,AVX2}: Algorithm 6, lines 6 and 8,
	// proven by the composition proof (fips204.KeyGenPkOver over the
	// routine's symbolic values, each Power2Round and SimpleBitPack a
	// call): bugs in the schedule of calls that random keys may or may not
	// see, each must fail the proof.
	{Name: "keygenpk/t1-packed-into-another-place", Routine: "KeyGenPk44AMD64",
		Edits: []Edit{{File: "keygenpk_amd64.s", Text: "KeyGenPk44AMD64", Find: "LEAQ 32(AX), AX", Replace: "LEAQ 352(AX), AX"}}},
	{Name: "keygenpk/power2round-of-another-t", Routine: "KeyGenPk65AMD64",
		Edits: []Edit{{File: "keygenpk_amd64.s", Text: "KeyGenPk65AMD64", Find: "\tMOVQ t+24(FP), AX\n", Replace: "\tMOVQ t+24(FP), AX\n\tLEAQ 1024(AX), AX\n"}}},
	{Name: "keygenpk/loop-one-short", Routine: "KeyGenPk87AVX2",
		Edits: []Edit{{File: "keygenpk_amd64.s", Text: "KeyGenPk87AVX2", Find: "\tCALL ·Power2RoundPolyAVX2(SB)\n", N: 8, Replace: ""}}},
	{Name: "keygenpk/calls-swapped", Routine: "KeyGenPk44AMD64",
		Edits: []Edit{{File: "keygenpk_amd64.s", Text: "KeyGenPk44AMD64", Find: "\tLEAQ 24(SP), AX\n\tMOVQ AX, (SP)\n\tMOVQ t0+8(FP), AX\n\tMOVQ AX, 8(SP)\n\tMOVQ t+24(FP), AX\n\tMOVQ AX, 16(SP)\n\tCALL ·Power2RoundPolyAMD64(SB)\n\n\t// pk[32+320i:] = SimpleBitPack(t1, 2^10 − 1) (Algorithm 22, line 3).\n\tMOVQ pk+0(FP), AX\n\tLEAQ 32(AX), AX\n\tMOVQ AX, (SP)\n\tLEAQ 24(SP), AX\n\tMOVQ AX, 8(SP)\n\tCALL ·SimpleBitPack10AMD64(SB)\n",
			Replace: "\tMOVQ pk+0(FP), AX\n\tLEAQ 32(AX), AX\n\tMOVQ AX, (SP)\n\tLEAQ 24(SP), AX\n\tMOVQ AX, 8(SP)\n\tCALL ·SimpleBitPack10AMD64(SB)\n\n\t// pk[32+320i:] = SimpleBitPack(t1, 2^10 − 1) (Algorithm 22, line 3).\n\tLEAQ 24(SP), AX\n\tMOVQ AX, (SP)\n\tMOVQ t0+8(FP), AX\n\tMOVQ AX, 8(SP)\n\tMOVQ t+24(FP), AX\n\tMOVQ AX, 16(SP)\n\tCALL ·Power2RoundPolyAMD64(SB)\n"}}},
	{Name: "keygenpk/t0-to-another-entry", Routine: "KeyGenPk87AVX2",
		Edits: []Edit{{File: "keygenpk_amd64.s", Text: "KeyGenPk87AVX2", Find: "\tMOVQ t0+8(FP), AX\n", Replace: "\tMOVQ t0+8(FP), AX\n\tLEAQ 1024(AX), AX\n"}}},
	{Name: "keygenpk/branch-on-secret-coefficient", Routine: "KeyGenPk65AVX2",
		Edits: []Edit{beforeRETIn("keygenpk_amd64.s", "KeyGenPk65AVX2", "\tMOVQ t+24(FP), SI\n\tMOVL (SI), AX\n\tTESTL AX, AX\n\tJEQ planted\nplanted:\n")}},
	// Flips a bit of t1 before its packing only when t's first two words
	// are one 64-bit value (without a branch): random keys never do.
	{Name: "keygenpk/rare-t-backdoor", Routine: "KeyGenPk44AVX2",
		Edits: []Edit{{File: "keygenpk_amd64.s", Text: "KeyGenPk44AVX2", Find: "\tMOVQ pk+0(FP), AX\n\tLEAQ 32(AX), AX\n",
			Replace: rareFlip("\tMOVQ t+24(FP), SI\n\tMOVQ (SI), AX\n", "24(SP)") + "\tMOVQ pk+0(FP), AX\n\tLEAQ 32(AX), AX\n"}}},
	// ---- KeyGenT{44,65,87}{AMD64,AVX2}: Algorithm 6, line 5, proven by
	// the composition proof (fips204.KeyGenTOver over the routine's
	// symbolic values in the normal form over T_q, each NTT, NTT⁻¹,
	// ToMontgomery, MultiplyAccNTT and PolyAdd a call with a checked Op).
	{Name: "keygent/missing-tomontgomery", Routine: "KeyGenT44AMD64",
		Edits: []Edit{{File: "keygent_amd64.s", Text: "KeyGenT44AMD64", Find: "\tCALL ·ToMontgomeryPolyAMD64(SB)\n", N: 2, Replace: ""}}},
	{Name: "keygent/s2-of-another-row", Routine: "KeyGenT65AVX2",
		Edits: []Edit{{File: "keygent_amd64.s", Text: "KeyGenT65AVX2", Find: "\tMOVQ s2+16(FP), AX\n\tLEAQ 1024(AX), AX\n", Replace: "\tMOVQ s2+16(FP), AX\n"}}},
	{Name: "keygent/row-loop-one-short", Routine: "KeyGenT87AVX2",
		Edits: []Edit{
			{File: "keygent_amd64.s", Text: "KeyGenT87AVX2", Find: "\tCALL ·MultiplyAccNTT7AVX2(SB)\n", N: 8, Replace: ""},
			{File: "keygent_amd64.s", Text: "KeyGenT87AVX2", Find: "\tCALL ·NTTInverseAVX2(SB)\n", N: 8, Replace: ""},
			{File: "keygent_amd64.s", Text: "KeyGenT87AVX2", Find: "\tCALL ·PolyAddAVX2(SB)\n", N: 8, Replace: ""}}},
	// Row 1 of Â at the stride of a column (k = 6 polynomials, not ℓ = 5).
	{Name: "keygent/ahat-row-and-column-swapped", Routine: "KeyGenT65AMD64",
		Edits: []Edit{{File: "keygent_amd64.s", Text: "KeyGenT65AMD64", Find: "\tMOVQ aHat+24(FP), AX\n\tLEAQ 5120(AX), AX\n", Replace: "\tMOVQ aHat+24(FP), AX\n\tLEAQ 6144(AX), AX\n"}}},
	{Name: "keygent/ntt-skipped-for-one-s1", Routine: "KeyGenT44AVX2",
		Edits: []Edit{{File: "keygent_amd64.s", Text: "KeyGenT44AVX2", Find: "\tCALL ·NTTAVX2(SB)\n", N: 3, Replace: ""}}},
	{Name: "keygent/nttinverse-skipped-for-one-row", Routine: "KeyGenT65AVX2",
		Edits: []Edit{{File: "keygent_amd64.s", Text: "KeyGenT65AVX2", Find: "\tCALL ·NTTInverseAVX2(SB)\n", N: 2, Replace: ""}}},
	{Name: "keygent/branch-on-secret-s2", Routine: "KeyGenT44AMD64",
		Edits: []Edit{beforeRETIn("keygent_amd64.s", "KeyGenT44AMD64", "\tMOVQ s2+16(FP), SI\n\tMOVL (SI), AX\n\tTESTL AX, AX\n\tJEQ planted\nplanted:\n")}},
	// Flips bit 0 of t[0][0] only when s2's first two words are one 64-bit
	// value (without a branch): random keys never do.
	{Name: "keygent/rare-s2-backdoor", Routine: "KeyGenT87AMD64",
		Edits: []Edit{beforeRETIn("keygent_amd64.s", "KeyGenT87AMD64", rareFlip("\tMOVQ t+0(FP), DI\n\tMOVQ s2+16(FP), SI\n\tMOVQ (SI), AX\n", "(DI)"))}},
	// ---- KeyGenSeed{44,65,87}{AMD64,BMI2}: Algorithm 6, line 1, proven
	// by the composition proof (fips204.KeyGenSeedOver).
	{Name: "keygenseed/k-and-l-of-another-set", Routine: "KeyGenSeed65AMD64",
		Edits: []Edit{{File: "keygenseed_amd64.s", Text: "KeyGenSeed65AMD64", Find: "MOVL $0x001f0506, AX", Replace: "MOVL $0x001f0404, AX"}}},
	{Name: "keygenseed/rare-xi-backdoor", Routine: "KeyGenSeed87BMI2",
		Edits: []Edit{{File: "keygenseed_amd64.s", Text: "KeyGenSeed87BMI2", Find: "\tMOVQ 8(SP), AX\n\tMOVQ AX, (DI)\n",
			Replace: rareFlip("\tMOVQ xi+8(FP), SI\n\tMOVQ (SI), AX\n", "8(SP)") + "\tMOVQ seed+0(FP), DI\n\tMOVQ 8(SP), AX\n\tMOVQ AX, (DI)\n"}}},
	// ---- KeyGen{44,65,87}{AMD64,AVX2}: Algorithm 6 as one routine,
	// proven by the composition proof (fips204.KeyGenFormsOver over the
	// routine's symbolic values; ExpandA, RejBoundedPoly and BitPack calls
	// with checked Ops): schedule bugs random keys may or may not see.
	{Name: "keygen/power2round-and-pack-swapped", Routine: "KeyGen44AMD64",
		Edits: []Edit{{File: "keygen_amd64.s", Text: "KeyGen44AMD64",
			Find:    "\tLEAQ 232(SP), AX\n\tMOVQ AX, (SP)\n\tMOVQ t0+48(FP), AX\n\tMOVQ AX, 8(SP)\n\tMOVQ t+40(FP), AX\n\tMOVQ AX, 16(SP)\n\tCALL ·Power2RoundPolyAMD64(SB)\n\n\t// pk = … ‖ SimpleBitPack(t1, 2^10 − 1) (Algorithm 22, line 3).\n\tMOVQ pk+0(FP), AX\n\tLEAQ 32(AX), AX\n\tMOVQ AX, (SP)\n\tLEAQ 232(SP), AX\n\tMOVQ AX, 8(SP)\n\tCALL ·SimpleBitPack10AMD64(SB)\n",
			Replace: "\tMOVQ pk+0(FP), AX\n\tLEAQ 32(AX), AX\n\tMOVQ AX, (SP)\n\tLEAQ 232(SP), AX\n\tMOVQ AX, 8(SP)\n\tCALL ·SimpleBitPack10AMD64(SB)\n\tLEAQ 232(SP), AX\n\tMOVQ AX, (SP)\n\tMOVQ t0+48(FP), AX\n\tMOVQ AX, 8(SP)\n\tMOVQ t+40(FP), AX\n\tMOVQ AX, 16(SP)\n\tCALL ·Power2RoundPolyAMD64(SB)\n"}}},
	// s1[2] sampled with nonce 3 (ExpandS, Algorithm 33, line 2).
	{Name: "keygen/expands-nonce-off-by-one", Routine: "KeyGen44AMD64",
		Edits: []Edit{{File: "keygen_amd64.s", Text: "KeyGen44AMD64", Find: "MOVB    $0x02, 1552(SP)", Replace: "MOVB    $0x03, 1552(SP)"}}},
	// The third lane of the four-way sampler's first group: nonce 3 for r = 2.
	{Name: "keygen/expands-nonce-off-by-one-four-way", Routine: "KeyGen65AVX2",
		Edits: []Edit{{File: "keygen_amd64.s", Text: "KeyGen65AVX2", Find: "MOVB    $0x02, 1452(SP)", Replace: "MOVB    $0x03, 1452(SP)"}}},
	// skEncode packs s2[0] where s1[0] belongs (Algorithm 24, line 3).
	{Name: "keygen/skencode-s2-for-s1", Routine: "KeyGen44AMD64",
		Edits: []Edit{{File: "keygen_amd64.s", Text: "KeyGen44AMD64", Find: "\tMOVQ s1Hat+24(FP), AX\n\tMOVQ AX, 8(SP)\n\tCALL ·BitPack3AMD64(SB)\n",
			Replace: "\tMOVQ s2+32(FP), AX\n\tMOVQ AX, 8(SP)\n\tCALL ·BitPack3AMD64(SB)\n"}}},
	// tr copied from the state before its last permutation (stale).
	{Name: "keygen/tr-from-stale-state", Routine: "KeyGen87AVX2",
		Edits: []Edit{{File: "keygen_amd64.s", Text: "KeyGen87AVX2", Find: "\tCALL ·KeccakF1600BMI2(SB)\n", N: -1, Replace: ""}}},
	// ExpandA's result not ANDed into the one returned.
	{Name: "keygen/expanda-failure-ignored", Routine: "KeyGen65AMD64",
		Edits: []Edit{{File: "keygen_amd64.s", Text: "KeyGen65AMD64", Find: "\tCALL    ·ExpandA65AMD64(SB)\n\tMOVBQZX 16(SP), AX\n\tANDQ    AX, 1560(SP)\n", Replace: "\tCALL    ·ExpandA65AMD64(SB)\n"}}},
	{Name: "keygen/branch-on-secret-xi", Routine: "KeyGen44AVX2",
		Edits: []Edit{beforeRETIn("keygen_amd64.s", "KeyGen44AVX2", "\tMOVQ xi+56(FP), SI\n\tMOVL (SI), AX\n\tTESTL AX, AX\n\tJEQ planted\nplanted:\n")}},
	// Flips a bit of pk's t1 only when ξ's first eight bytes are one
	// value (without a branch): random keys never do.
	{Name: "keygen/rare-xi-backdoor", Routine: "KeyGen87AMD64",
		Edits: []Edit{beforeRETIn("keygen_amd64.s", "KeyGen87AMD64", rareFlip("\tMOVQ pk+0(FP), DI\n\tMOVQ xi+56(FP), SI\n\tMOVQ (SI), AX\n", "40(DI)"))}},
	// ExpandA gets a copy of ρ in t1's room, which a later call
	// overwrites: a public buffer of the callee holding what the routine
	// does not output (the taint run lets pk's bytes pass only).
	{Name: "keygen/expanda-rho-from-scratch", Routine: "KeyGen44AMD64",
		Edits: []Edit{{File: "keygen_amd64.s", Text: "KeyGen44AMD64", Find: "\tMOVQ    pk+0(FP), AX\n\tMOVQ    AX, 8(SP)\n",
			Replace: "\tMOVQ 32(SP), AX\n\tMOVQ AX, 232(SP)\n\tMOVQ 40(SP), AX\n\tMOVQ AX, 240(SP)\n\tMOVQ 48(SP), AX\n\tMOVQ AX, 248(SP)\n\tMOVQ 56(SP), AX\n\tMOVQ AX, 256(SP)\n\tLEAQ 232(SP), AX\n\tMOVQ AX, 8(SP)\n"}}},
	// ExpandA first samples from K, put in pk's room for ρ, then again
	// from ρ, which stays: the taint run lets pk's bytes pass, but the
	// first call's are not what the routine outputs there (K would leak
	// through the samplers' timing).
	{Name: "keygen/expanda-on-k-in-pk", Routine: "KeyGen44AMD64",
		Edits: []Edit{{File: "keygen_amd64.s", Text: "KeyGen44AMD64", Find: "\tMOVQ    aHat+16(FP), AX\n\tMOVQ    AX, (SP)\n\tMOVQ    pk+0(FP), AX\n\tMOVQ    AX, 8(SP)\n\tCALL    ·ExpandA44AMD64(SB)\n\tMOVBQZX 16(SP), AX\n\tANDQ    AX, 1560(SP)\n",
			Replace: "\tMOVQ pk+0(FP), DI\n\tMOVQ 128(SP), AX\n\tMOVQ AX, 0(DI)\n\tMOVQ 136(SP), AX\n\tMOVQ AX, 8(DI)\n\tMOVQ 144(SP), AX\n\tMOVQ AX, 16(DI)\n\tMOVQ 152(SP), AX\n\tMOVQ AX, 24(DI)\n\tMOVQ    aHat+16(FP), AX\n\tMOVQ    AX, (SP)\n\tMOVQ    pk+0(FP), AX\n\tMOVQ    AX, 8(SP)\n\tCALL    ·ExpandA44AMD64(SB)\n\tMOVBQZX 16(SP), AX\n\tANDQ    AX, 1560(SP)\n\tMOVQ pk+0(FP), DI\n\tMOVQ 32(SP), AX\n\tMOVQ AX, 0(DI)\n\tMOVQ 40(SP), AX\n\tMOVQ AX, 8(DI)\n\tMOVQ 48(SP), AX\n\tMOVQ AX, 16(DI)\n\tMOVQ 56(SP), AX\n\tMOVQ AX, 24(DI)\n\tMOVQ    aHat+16(FP), AX\n\tMOVQ    AX, (SP)\n\tMOVQ    pk+0(FP), AX\n\tMOVQ    AX, 8(SP)\n\tCALL    ·ExpandA44AMD64(SB)\n\tMOVBQZX 16(SP), AX\n\tANDQ    AX, 1560(SP)\n"}}},
	// ---- Verify: composition bugs only a proof over every input sees.
	// The norm check of z[0] ignored where z[0]'s first coefficient has
	// one value (no branch): no vector or random signature hits it.
	{Name: "verify/norm-skipped-on-rare-z", Routine: "Verify44AMD64",
		Edits: []Edit{{File: "verify_amd64.s", Text: "Verify44AMD64", Find: "\tMOVL 1072(SP), AX\n\tXORL $0x00000001, AX\n\tANDQ AX, 1080(SP)\n",
			Replace: "\tMOVL 1072(SP), AX\n\tXORL $0x00000001, AX\n\tMOVQ work+32(FP), DX\n\tMOVL (DX), DX\n\tXORL $0x0001ffff, DX\n\tMOVL DX, BX\n\tNOTL BX\n\tSUBL $0x00000001, DX\n\tANDL BX, DX\n\tSHRL $0x1f, DX\n\tORL DX, AX\n\tANDQ AX, 1080(SP)\n"}}},
	// The last byte of c̃'s first lane not compared (Algorithm 8, line 13).
	{Name: "verify/ctilde-byte-not-compared", Routine: "Verify87AMD64",
		Edits: []Edit{{File: "verify_amd64.s", Text: "Verify87AMD64", Find: "\tXORQ (SI), AX\n", Replace: "\tXORQ (SI), AX\n\tSHLQ $0x08, AX\n"}}},
	// NTT⁻¹ before the difference of line 9: the calls swapped.
	{Name: "verify/sub-and-inverse-swapped", Routine: "Verify65AVX2",
		Edits: []Edit{{File: "verify_amd64.s", Text: "Verify65AVX2",
			Find:    "\tMOVQ work+32(FP), AX\n\tLEAQ 12288(AX), AX\n\tMOVQ AX, (SP)\n\tMOVQ work+32(FP), AX\n\tLEAQ 13312(AX), AX\n\tMOVQ AX, 8(SP)\n\tCALL ·PolySubAVX2(SB)\n\tMOVQ work+32(FP), AX\n\tLEAQ 12288(AX), AX\n\tMOVQ AX, (SP)\n\tCALL ·NTTInverseMontAVX2(SB)\n",
			Replace: "\tMOVQ work+32(FP), AX\n\tLEAQ 12288(AX), AX\n\tMOVQ AX, (SP)\n\tCALL ·NTTInverseMontAVX2(SB)\n\tMOVQ work+32(FP), AX\n\tLEAQ 12288(AX), AX\n\tMOVQ AX, (SP)\n\tMOVQ work+32(FP), AX\n\tLEAQ 13312(AX), AX\n\tMOVQ AX, 8(SP)\n\tCALL ·PolySubAVX2(SB)\n"}}},
	// NTT(c) not scaled by 2⁻³² on the AVX2 path: NTT(c) ∘ NTT(t1)·2ᵈ·2³²
	// then lacks the 2⁻³² that Â ∘ NTT(z) carries.
	{Name: "verify/c-not-from-montgomery", Routine: "Verify65AVX2",
		Edits: []Edit{{File: "verify_amd64.s", Text: "Verify65AVX2", Find: "\tCALL ·FromMontgomeryPolyAVX2(SB)\n", Replace: ""}}},
	// FromMontgomeryPoly's constant times q⁻¹ one off in one lane (an even
	// lane: VPMULDQ reads those): the Montgomery reduction of lane 2 no
	// longer cancels the low half.
	{Name: "frommontgomery/qinv-lane", Routine: "FromMontgomeryPolyAVX2",
		Edits: []Edit{{File: "tomontgomery_amd64.s", Find: "DATA fromMontgomeryConsts<>+72(SB)/4, $0x03802001", Replace: "DATA fromMontgomeryConsts<>+72(SB)/4, $0x03802002"}}},
	// HintBitUnpack's ⊥ not ANDed into the result (Algorithm 8, line 3).
	{Name: "verify/hint-rejection-ignored", Routine: "Verify44AVX2",
		Edits: []Edit{{File: "verify_amd64.s", Text: "Verify44AVX2", Find: "\tCALL    ·HintBitUnpack44AMD64(SB)\n\tMOVBQZX 16(SP), AX\n\tANDQ    AX, 1080(SP)\n", Replace: "\tCALL    ·HintBitUnpack44AMD64(SB)\n"}}},
	// UseHint of ML-DSA-44's γ2 in ML-DSA-65 (Algorithm 8, line 10).
	{Name: "verify/usehint-wrong-gamma2", Routine: "Verify65AMD64",
		Edits: []Edit{{File: "verify_amd64.s", Text: "Verify65AMD64", Find: "CALL ·UseHint32AMD64(SB)", N: -1, Replace: "CALL ·UseHint88AMD64(SB)"}}},
	// SampleInBall's running out not ANDed into the result.
	{Name: "verify/ball-bound-ignored", Routine: "Verify87AVX2",
		Edits: []Edit{{File: "verify_amd64.s", Text: "Verify87AVX2", Find: "\tCALL    ·SampleInBall87BMI2(SB)\n\tMOVBQZX 16(SP), AX\n", Replace: "\tCALL    ·SampleInBall87BMI2(SB)\n\tMOVQ $0x00000001, AX\n"}}},
	// Row 1 of line 9 multiplies t̂1[0] instead of t̂1[1].
	{Name: "verify/t1-of-another-row", Routine: "Verify44AMD64",
		Edits: []Edit{{File: "verify_amd64.s", Text: "Verify44AMD64", Find: "\tMOVQ t1Hat+24(FP), AX\n\tLEAQ 1024(AX), AX\n", Replace: "\tMOVQ t1Hat+24(FP), AX\n"}}},
	// The verdict flipped where c̃'s first eight bytes have one value (no
	// branch): accepts such a forged signature.
	{Name: "verify/rare-ctilde-backdoor", Routine: "Verify87AMD64",
		Edits: []Edit{{File: "verify_amd64.s", Text: "Verify87AMD64", Find: "\tMOVQ 1336(SP), AX\n\tMOVB AL, ret+40(FP)\n",
			Replace: rareFlip("\tMOVQ sig+0(FP), SI\n\tMOVQ (SI), AX\n", "1336(SP)") + "\tMOVQ 1336(SP), AX\n\tMOVB AL, ret+40(FP)\n"}}},
	// ---- KeyGen and Verify of the AVX-512 path: the same composition
	// proof over the AVX-512 callees' contracts.
	// Row 1 of line 9 multiplies Â's row 0 by NTT(z).
	{Name: "verify/avx512-a-of-another-row", Routine: "Verify44AVX512",
		Edits: []Edit{{File: "verify_amd64.s", Text: "Verify44AVX512", Find: "\tMOVQ aHat+16(FP), AX\n\tLEAQ 4096(AX), AX\n", Replace: "\tMOVQ aHat+16(FP), AX\n"}}},
	// The norm check of z[0] ignored where z[0]'s first coefficient is
	// γ1 − 1 (no branch): no vector or random signature hits it.
	{Name: "verify/avx512-norm-skipped-on-rare-z", Routine: "Verify65AVX512",
		Edits: []Edit{{File: "verify_amd64.s", Text: "Verify65AVX512", Find: "\tMOVL 1072(SP), AX\n\tXORL $0x00000001, AX\n\tANDQ AX, 1080(SP)\n",
			Replace: "\tMOVL 1072(SP), AX\n\tXORL $0x00000001, AX\n\tMOVQ work+32(FP), DX\n\tMOVL (DX), DX\n\tXORL $0x0007ffff, DX\n\tMOVL DX, BX\n\tNOTL BX\n\tSUBL $0x00000001, DX\n\tANDL BX, DX\n\tSHRL $0x1f, DX\n\tORL DX, AX\n\tANDQ AX, 1080(SP)\n"}}},
	// t[2] = NTT⁻¹(Â[1] ∘ ŝ1) + s2[2]: the product of another row
	// (Algorithm 6, line 5).
	{Name: "keygen/avx512-a-of-another-row", Routine: "KeyGen65AVX512",
		Edits: []Edit{{File: "keygen_amd64.s", Text: "KeyGen65AVX512", Find: "\tMOVQ aHat+16(FP), AX\n\tLEAQ 10240(AX), AX\n", Replace: "\tMOVQ aHat+16(FP), AX\n\tLEAQ 5120(AX), AX\n"}}},
	// A bit of pk's t1 flipped only when ξ's first eight bytes have one
	// value (no branch): random keys never do.
	{Name: "keygen/avx512-rare-xi-backdoor", Routine: "KeyGen44AVX512",
		Edits: []Edit{beforeRETIn("keygen_amd64.s", "KeyGen44AVX512", rareFlip("\tMOVQ pk+0(FP), DI\n\tMOVQ xi+56(FP), SI\n\tMOVQ (SI), AX\n", "40(DI)"))}},
	// ---- Sign (Algorithm 7 from line 7 over the stages): loop and
	// composition bugs only a proof over every κ and every outcome sees.
	// The ‖z‖∞ check's outcome not the one branched on: an attempt goes
	// on whatever SignZ found.
	{Name: "signloop/z-check-not-branched-on", Routine: "Sign44AVX2",
		Edits: []Edit{{File: "sign_amd64.s", Text: "Sign44AVX2", Find: "\tMOVBQZX 64(SP), AX\n", Replace: "\tMOVQ $0x00000001, AX\n"}}},
	// The ‖r0‖∞ check skipped for one value of κ (a branch on public κ,
	// so constant time holds): only the induction over κ sees it.
	{Name: "signloop/r0-check-skipped-at-one-kappa", Routine: "Sign44AVX2",
		Edits: []Edit{{File: "sign_amd64.s", Text: "Sign44AVX2", Find: "\tMOVBQZX 32(SP), AX\n",
			Replace: "\tMOVBQZX 32(SP), AX\n\tMOVQ scratch+56(FP), DX\n\tMOVWLZX 128(DX), DX\n\tCMPL DX, $0x00000a28\n\tJNE keep\n\tMOVQ $0x00000001, AX\nkeep:\n"}}},
	// κ advanced by ℓ + 1 (line 31).
	{Name: "signloop/kappa-advanced-wrongly", Routine: "Sign87AMD64",
		Edits: []Edit{{File: "sign_amd64.s", Text: "Sign87AMD64", Find: "\tADDL    $0x00000007, AX\n", Replace: "\tADDL    $0x00000008, AX\n"}}},
	// One attempt past the bound of Appendix C.
	{Name: "signloop/bound-one-attempt-late", Routine: "Sign44AVX2",
		Edits: []Edit{{File: "sign_amd64.s", Text: "Sign44AVX2", Find: "\tCMPL    AX, $0x00000cb8\n", Replace: "\tCMPL    AX, $0x00000cbc\n"}}},
	// SignR0 and SignHint called in the other order.
	{Name: "signloop/stages-swapped", Routine: "Sign44AVX2",
		Edits: []Edit{{File: "sign_amd64.s", Text: "Sign44AVX2", Find: "\tCALL    ·SignR044AVX2(SB)\n", Replace: "\tCALL    ·SignHint44AVX2(SB)\n"},
			{File: "sign_amd64.s", Text: "Sign44AVX2", Find: "\tCALL    ·SignHint44AVX2(SB)\n", Replace: "\tCALL    ·SignR044AVX2(SB)\n", N: 2}}},
	// A rejection that tells more than which check failed: a branch on
	// a byte of z after the ‖z‖∞ check.
	{Name: "signloop/rejection-leaks-z", Routine: "Sign44AVX2",
		Edits: []Edit{{File: "sign_amd64.s", Text: "Sign44AVX2", Find: "\tMOVBQZX 64(SP), AX\n",
			Replace: "\tMOVQ acc+8(FP), DX\n\tMOVBQZX 64(DX), DX\n\tTESTQ DX, DX\n\tJEQ leaked\nleaked:\n\tMOVBQZX 64(SP), AX\n"}}},
	// κ stored back into in[128:130] only in its low byte: from κ = 256 on
	// SignZ samples y of a stale κ.
	{Name: "signloop/stale-kappa-high-byte", Routine: "Sign44AVX2",
		Edits: []Edit{{File: "sign_amd64.s", Text: "Sign44AVX2", Find: "\tSHRL    $0x08, AX\n\tMOVB    AL, 129(DI)\n", Replace: ""}}},
	// One word of ρ″ not copied into SignZ's input: a stale buffer.
	{Name: "signloop/stale-rho-word", Routine: "Sign65AVX512",
		Edits: []Edit{{File: "sign_amd64.s", Text: "Sign65AVX512", Find: "\tMOVQ 19712(DI), AX\n\tMOVQ AX, 64(DI)\n", Replace: ""}}},
	// z[0]'s first word flipped before sigEncode where c̃'s first eight
	// bytes have one value (no branch): σ and acc then hold a z no stage
	// computed; only a proof over every input sees it.
	{Name: "signloop/rare-ctilde-z-backdoor", Routine: "Sign44AVX2",
		Edits: []Edit{{File: "sign_amd64.s", Text: "Sign44AVX2", Find: "\tMOVQ sigma+0(FP), AX\n\tMOVQ AX, (SP)\n",
			Replace: rareFlip("\tMOVQ acc+8(FP), SI\n\tMOVQ (SI), AX\n", "64(SI)") + "\tMOVQ sigma+0(FP), AX\n\tMOVQ AX, (SP)\n"}}},
	// The accepted attempt returns false.
	{Name: "signloop/accept-returns-false", Routine: "Sign87AVX2",
		Edits: []Edit{{File: "sign_amd64.s", Text: "Sign87AVX2", Find: "\tMOVL $0x00000001, AX\n\tMOVB AL, ret+64(FP)\n", Replace: "\tMOVL $0x00000000, AX\n\tMOVB AL, ret+64(FP)\n"}}},
	// ---- The Sign stages (SignZ, SignR0, SignHint): composition bugs only
	// a proof over every input sees.
	// The check of ‖z[0]‖∞ ignored where its first coefficient has one
	// value (no branch): no vector hits it.
	{Name: "sign/z-check-skipped-on-rare-z", Routine: "SignZ44AVX2",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignZ44AVX2", Find: "\tCALL ·NormExceedsAVX2(SB)\n\tMOVL 40(SP), AX\n\tXORL $0x00000001, AX\n",
			Replace: "\tCALL ·NormExceedsAVX2(SB)\n\tMOVL 40(SP), AX\n\tXORL $0x00000001, AX\n\tMOVQ z+24(FP), DX\n\tMOVL (DX), DX\n\tXORL $0x0001ffff, DX\n\tMOVL DX, BX\n\tNOTL BX\n\tSUBL $0x00000001, DX\n\tANDL BX, DX\n\tSHRL $0x1f, DX\n\tORL DX, AX\n"}}},
	// The check of ‖LowBits(w[0] − cs2[0])‖∞ ignored where its first
	// coefficient has one value (no branch).
	{Name: "sign/lowbits-check-skipped-on-rare-w", Routine: "SignR044AVX2",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignR044AVX2", Find: "\tCALL ·LowBitsExceed88AVX2(SB)\n\tMOVL 40(SP), AX\n\tXORL $0x00000001, AX\n",
			Replace: "\tCALL ·LowBitsExceed88AVX2(SB)\n\tMOVL 40(SP), AX\n\tXORL $0x00000001, AX\n\tMOVQ w+0(FP), DX\n\tMOVL (DX), DX\n\tXORL $0x0001ffff, DX\n\tMOVL DX, BX\n\tNOTL BX\n\tSUBL $0x00000001, DX\n\tANDL BX, DX\n\tSHRL $0x1f, DX\n\tORL DX, AX\n"}}},
	// y[1] of ExpandMask's seed κ + 2 (Algorithm 34, line 3): κ advanced
	// wrongly.
	{Name: "sign/kappa-advanced-wrongly", Routine: "SignZ44AVX2",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignZ44AVX2", Find: "\tADDL    $0x00000001, AX\n", Replace: "\tADDL    $0x00000002, AX\n"}}},
	// y[4], from ExpandMask's second call, of seed κ + 5.
	{Name: "sign/second-call-kappa", Routine: "SignZ65AVX2",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignZ65AVX2", Find: "\tADDL    $0x00000004, AX\n", Replace: "\tADDL    $0x00000005, AX\n"}}},
	// MakeHint(w[i] − cs2[i], ct0[i]): the arguments of line 26 swapped.
	{Name: "sign/makehint-arguments-swapped", Routine: "SignHint44AVX2",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignHint44AVX2",
			Find:    "\tMOVQ work+32(FP), AX\n\tMOVQ AX, 8(SP)\n\tMOVQ wcs2+8(FP), AX\n\tMOVQ 80(SP), CX\n\tLEAQ (AX)(CX*1), AX\n\tMOVQ AX, 16(SP)\n",
			Replace: "\tMOVQ wcs2+8(FP), AX\n\tMOVQ 80(SP), CX\n\tLEAQ (AX)(CX*1), AX\n\tMOVQ AX, 8(SP)\n\tMOVQ work+32(FP), AX\n\tMOVQ AX, 16(SP)\n"}}},
	// A rejection that tells which row failed: a branch on the flag of
	// line 23's LowBits check.
	{Name: "sign/rejection-leaks-which-check", Routine: "SignR044AVX2",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignR044AVX2", Find: "\tCALL ·LowBitsExceed88AVX2(SB)\n",
			Replace: "\tCALL ·LowBitsExceed88AVX2(SB)\n\tMOVL 40(SP), CX\n\tTESTL CX, CX\n\tJNE leaked\nleaked:\n"}}},
	// w[0] − cs2[0] not computed: LowBits gets w[0], stale, and the
	// caller's MakeHint too.
	{Name: "sign/stale-w-without-cs2", Routine: "SignR044AVX2",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignR044AVX2", Find: "\tCALL ·PolySubAVX2(SB)\n", Replace: ""}}},
	// cs2[0] of NTT(s2[1]): another row of the key.
	{Name: "sign/cs2-of-another-row", Routine: "SignR044AMD64",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignR044AMD64", Find: "\tMOVQ s2Hat+16(FP), AX\n", Replace: "\tMOVQ s2Hat+16(FP), AX\n\tLEAQ 1024(AX), AX\n"}}},
	// No h[i]'s count of ones added (line 28).
	{Name: "sign/hint-count-dropped", Routine: "SignHint44AVX2",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignHint44AVX2", Find: "\tMOVL 64(SP), AX\n\tADDL 72(SP), AX\n\tMOVL AX, 72(SP)\n", Replace: ""}}},
	// At most ω + 1 ones accepted (line 28).
	{Name: "sign/omega-off-by-one", Routine: "SignHint44AVX2",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignHint44AVX2", Find: "\tMOVL $0x00000050, AX\n", Replace: "\tMOVL $0x00000051, AX\n"}}},
	// ‖ct0[7]‖∞ < γ2 (line 28) not ANDed in: the last row's check skipped.
	{Name: "sign/last-ct0-check-skipped", Routine: "SignHint87AVX2",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignHint87AVX2", N: -1,
			Find: "\tCALL ·NormExceedsAVX2(SB)\n\tMOVL 40(SP), AX\n\tXORL $0x00000001, AX\n\tANDQ AX, 48(SP)\n", Replace: "\tCALL ·NormExceedsAVX2(SB)\n"}}},
	// The first stage's outcome flipped where c̃'s first eight bytes have
	// one value (no branch): a rejected z would go on, or z be rejected.
	{Name: "sign/rare-ctilde-backdoor", Routine: "SignZ44AVX2",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignZ44AVX2", Find: "\tMOVQ 48(SP), AX\n\tMOVB AL, ret+64(FP)\n",
			Replace: rareFlip("\tMOVQ cTilde+0(FP), SI\n\tMOVQ (SI), AX\n", "48(SP)") + "\tMOVQ 48(SP), AX\n\tMOVB AL, ret+64(FP)\n"}}},
	// The third stage's outcome flipped where w − cs2's first two words
	// have one value: a rejected h would be output.
	{Name: "sign/rare-w-hint-backdoor", Routine: "SignHint65AMD64",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignHint65AMD64", Find: "\tMOVQ 48(SP), AX\n\tMOVB AL, ret+40(FP)\n",
			Replace: rareFlip("\tMOVQ wcs2+8(FP), SI\n\tMOVQ (SI), AX\n", "48(SP)") + "\tMOVQ 48(SP), AX\n\tMOVB AL, ret+40(FP)\n"}}},
	// One word of y not copied where NTT(y) is made: a stale buffer.
	{Name: "sign/y-copy-word-stale", Routine: "SignZ44AMD64",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignZ44AMD64", Find: "\tMOVQ 248(SI), AX\n\tMOVQ AX, 248(DI)\n", Replace: ""}}},
	// The copy of y a loop of 256 bytes an iteration: one iteration short
	// (y[3]'s last quarter stale), the source not advanced (every quarter
	// y[0]'s first), or a count the loop meets only after 2³² rounds.
	{Name: "sign/y-copy-one-short", Routine: "SignZ44AMD64",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignZ44AMD64", Find: "\tMOVL $0x00000010, CX\n\nycopy:", Replace: "\tMOVL $0x0000000f, CX\n\nycopy:"}}},
	{Name: "sign/y-copy-source-not-advanced", Routine: "SignZ65AVX2",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignZ65AVX2", Find: "\tADDQ    $0x00000100, SI\n", Replace: ""}}},
	{Name: "sign/y-copy-count-zero", Routine: "SignZ87AVX2",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignZ87AVX2", Find: "\tMOVL $0x0000001c, CX\n\nycopy:", Replace: "\tMOVL $0x00000000, CX\n\nycopy:"}}},
	// The copy's count one less for one value of κ (a public input no
	// random κ is likely to meet): control flow that depends on the input.
	{Name: "sign/y-copy-count-kappa-backdoor", Routine: "SignZ65AVX2",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignZ65AVX2", Find: "\tMOVL $0x00000014, CX\n\nycopy:",
			Replace: "\tMOVL $0x00000014, CX\n\tMOVQ in+32(FP), AX\n\tMOVWLZX 128(AX), AX\n\tCMPL AX, $0x00001234\n\tJNE planted\n\tDECL CX\nplanted:\n\nycopy:"}}},
	// The stages loop over k and ℓ with CALLs inside, the count and the
	// offsets i·stride in the frame: w1's offset not advanced (every row
	// packed at row 0), the columns one short (z[3] neither made nor
	// checked), a rows count read from the norm check's flag, which the
	// callee writes, and SignR0's rows one long (w[4] of four).
	{Name: "sign/rows-w1-offset-not-advanced", Routine: "SignZ65AVX2",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignZ65AVX2", Find: "\tADDQ $0x00000080, AX\n\tMOVQ AX, 1408(SP)\n", Replace: "\tMOVQ AX, 1408(SP)\n"}}},
	{Name: "sign/columns-one-short", Routine: "SignZ44AVX2",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignZ44AVX2", Find: "\tMOVQ $0x00000004, 56(SP)\n\ncolumns:", Replace: "\tMOVQ $0x00000003, 56(SP)\n\ncolumns:"}}},
	{Name: "sign/hint-rows-count-from-flag", Routine: "SignHint87AVX2",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignHint87AVX2", Find: "\tMOVQ 56(SP), AX\n\tDECQ AX\n", Replace: "\tMOVQ 40(SP), AX\n\tDECQ AX\n"}}},
	{Name: "sign/r0-rows-one-long", Routine: "SignR044AMD64",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignR044AMD64", Find: "\tMOVQ $0x00000004, 56(SP)\n\nrows:", Replace: "\tMOVQ $0x00000005, 56(SP)\n\nrows:"}}},
	// c̃'s hash XORs each block in by a loop over its lanes: the tail's
	// loop one lane short, a block's state pointer not advanced (every
	// lane XORed into lane 0), or the tail's count 0 (2³² rounds).
	{Name: "sign/absorb-tail-lane-short", Routine: "SignZ65AVX2",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignZ65AVX2", Find: "\tMOVL $0x00000002, CX\n\nabsorb6:", Replace: "\tMOVL $0x00000001, CX\n\nabsorb6:"}}},
	{Name: "sign/absorb-state-not-advanced", Routine: "SignZ44AVX2",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignZ44AVX2", Find: "\tADDQ $0x00000008, DI\n\tDECL CX\n\tJNE  absorb1\n", Replace: "\tDECL CX\n\tJNE  absorb1\n"}}},
	{Name: "sign/absorb-tail-count-zero", Routine: "SignZ65AVX2",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignZ65AVX2", Find: "\tMOVL $0x00000002, CX\n\nabsorb6:", Replace: "\tMOVL $0x00000000, CX\n\nabsorb6:"}}},
	// cHat cleared by a loop before SampleInBall: one iteration short
	// leaves its last 64 bytes as the caller's.
	{Name: "sign/chat-clear-one-short", Routine: "SignZ65AVX2",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignZ65AVX2", Find: "\tMOVL $0x00000010, CX\n\nclear:", Replace: "\tMOVL $0x0000000f, CX\n\nclear:"}}},
	// SampleInBall's running out not ANDed into the result.
	{Name: "sign/ball-bound-ignored", Routine: "SignZ65AMD64",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignZ65AMD64", Find: "\tCALL    ·SampleInBall65AMD64(SB)\n\tMOVBQZX 16(SP), AX\n",
			Replace: "\tCALL    ·SampleInBall65AMD64(SB)\n\tMOVQ $0x00000001, AX\n"}}},
	// ---- SigEncode: σ = sigEncode(c̃, z mod± q, h) by calls of BitPack
	// and HintBitPack.
	// z of γ1 = 2¹⁹ packed by the BitPack of γ1 = 2¹⁷: the wrong bound,
	// its mod± not z's.
	{Name: "sigencode/z-packed-with-wrong-bound", Routine: "SigEncode65AVX2",
		Edits: []Edit{{File: "sigencode_amd64.s", Text: "SigEncode65AVX2", Find: "\tCALL ·BitPack20AVX2(SB)\n", Replace: "\tCALL ·BitPack18AVX2(SB)\n"}}},
	// HintBitPack gets h one coefficient on (a hint index off by one).
	{Name: "sigencode/hint-index-off-by-one", Routine: "SigEncode44AVX2",
		Edits: []Edit{{File: "sigencode_amd64.s", Text: "SigEncode44AVX2", Find: "\tMOVQ h+24(FP), AX\n", Replace: "\tMOVQ h+24(FP), AX\n\tLEAQ 4(AX), AX\n"}}},
	// HintBitPack gets z (of h's size in ML-DSA-44) for h.
	{Name: "sigencode/hint-from-z", Routine: "SigEncode44AVX2",
		Edits: []Edit{{File: "sigencode_amd64.s", Text: "SigEncode44AVX2", Find: "\tMOVQ h+24(FP), AX\n", Replace: "\tMOVQ z+16(FP), AX\n"}}},
	// Bytes 8 to 15 of c̃ not copied into σ.
	{Name: "sigencode/ctilde-bytes-dropped", Routine: "SigEncode87AMD64",
		Edits: []Edit{{File: "sigencode_amd64.s", Text: "SigEncode87AMD64", Find: "\tMOVQ 8(SI), AX\n\tMOVQ AX, 8(DI)\n", Replace: ""}}},
	// c̃ shifted by a byte in σ.
	{Name: "sigencode/ctilde-shifted", Routine: "SigEncode65AMD64",
		Edits: []Edit{{File: "sigencode_amd64.s", Text: "SigEncode65AMD64", Find: "\tMOVQ sigma+0(FP), DI\n", Replace: "\tMOVQ sigma+0(FP), DI\n\tLEAQ 1(DI), DI\n"}}},
	// HintBitPack's ω + k bytes one byte early: the count bytes at the
	// wrong place, the last BitPack's last byte overwritten.
	{Name: "sigencode/hint-bytes-one-early", Routine: "SigEncode87AVX2",
		Edits: []Edit{{File: "sigencode_amd64.s", Text: "SigEncode87AVX2", Find: "\tLEAQ 4544(AX), AX\n", Replace: "\tLEAQ 4543(AX), AX\n"}}},
	// Bit 0 of σ's first byte flipped where c̃'s first eight bytes have one
	// value (no branch; c̃ is public): random inputs never do.
	{Name: "sigencode/rare-ctilde-byte", Routine: "SigEncode44AMD64",
		Edits: []Edit{{File: "sigencode_amd64.s", Text: "SigEncode44AMD64", Find: "\tMOVQ (SI), AX\n\tMOVQ AX, (DI)\n",
			Replace: "\tMOVQ (SI), R8\n" + rareFlip("\tMOVQ (SI), AX\n", "R8") + "\tMOVQ R8, (DI)\n"}}},
	// z[1] packed first, z[0] second: the two calls' order swapped.
	{Name: "sigencode/bitpack-calls-swapped", Routine: "SigEncode44AVX2",
		Edits: []Edit{
			{File: "sigencode_amd64.s", Text: "SigEncode44AVX2", Find: "\tLEAQ 32(AX), AX\n\tMOVQ AX, (SP)\n\tMOVQ z+16(FP), AX\n",
				Replace: "\tLEAQ 32(AX), AX\n\tMOVQ AX, (SP)\n\tMOVQ z+16(FP), AX\n\tLEAQ 1024(AX), AX\n"},
			{File: "sigencode_amd64.s", Text: "SigEncode44AVX2", Find: "\tLEAQ 608(AX), AX\n\tMOVQ AX, (SP)\n\tMOVQ z+16(FP), AX\n\tLEAQ 1024(AX), AX\n",
				Replace: "\tLEAQ 608(AX), AX\n\tMOVQ AX, (SP)\n\tMOVQ z+16(FP), AX\n"}}},
	// SignZ65AVX2's one-way ExpandMask for y[4] (after the four-way
	// call for y[0..3]) seeded with κ + 3, y[3]'s seed.
	{Name: "sign/single-expandmask-kappa", Routine: "SignZ65AVX2",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignZ65AVX2", Find: "\tADDL    $0x00000004, AX\n", Replace: "\tADDL    $0x00000003, AX\n"}}},
	// y[4] written into y[3]'s place by the one-way call: y[3] overwritten,
	// y[4] left as it was.
	{Name: "sign/single-expandmask-into-y3", Routine: "SignZ65AVX2",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignZ65AVX2", Find: "\tLEAQ    4096(AX), AX\n\tMOVQ    AX, (SP)\n\tLEAQ    1096(SP), AX\n", Replace: "\tLEAQ    3072(AX), AX\n\tMOVQ    AX, (SP)\n\tLEAQ    1096(SP), AX\n"}}},
	// The AVX-512 stages. y[6], from the eight-way ExpandMask's seventh
	// lane, of seed κ + 7.
	{Name: "sign/avx512-eight-way-lane-kappa", Routine: "SignZ87AVX512",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignZ87AVX512", Find: "\tADDL    $0x00000006, AX\n", Replace: "\tADDL    $0x00000007, AX\n"}}},
	// w[0] by the AVX-512 NTT, a callee of the routine, where its NTT⁻¹
	// belongs (line 12).
	{Name: "sign/avx512-ntt-for-inverse", Routine: "SignZ65AVX512",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignZ65AVX512", Find: "\tCALL ·NTTInverseAVX512(SB)\n", Replace: "\tCALL ·NTTAVX512(SB)\n"}}},
	// cs2[0] by the AVX2 product where the routine declares the AVX-512
	// one: a callee outside its contract.
	{Name: "sign/avx512-undeclared-callee", Routine: "SignR065AVX512",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignR065AVX512", Find: "\tCALL ·MultiplyNTTAVX512(SB)\n", Replace: "\tCALL ·MultiplyNTTAVX2(SB)\n"}}},
	// The check of ‖z[0]‖∞ ignored where its first coefficient has one
	// value (no branch).
	{Name: "sign/avx512-z-check-skipped-on-rare-z", Routine: "SignZ65AVX512",
		Edits: []Edit{{File: "signstage_amd64.s", Text: "SignZ65AVX512", Find: "\tCALL ·NormExceedsAVX2(SB)\n\tMOVL 40(SP), AX\n\tXORL $0x00000001, AX\n",
			Replace: "\tCALL ·NormExceedsAVX2(SB)\n\tMOVL 40(SP), AX\n\tXORL $0x00000001, AX\n\tMOVQ z+24(FP), DX\n\tMOVL (DX), DX\n\tXORL $0x0007ffff, DX\n\tMOVL DX, BX\n\tNOTL BX\n\tSUBL $0x00000001, DX\n\tANDL BX, DX\n\tSHRL $0x1f, DX\n\tORL DX, AX\n"}}},
}
