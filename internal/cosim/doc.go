// Package cosim cross-checks the x86-64 model of Spec/x86 against the CPU
// it runs on ("cosimulation"): random machine states go through an
// instruction on the CPU and in the model, and every output bit the Intel
// SDM defines must agree.
//
// # What runs
//
// Representative instructions (package internal/cosim/forms), each a
// function of the generated harness_amd64.s:
//   - every instruction form of go/asm (mnemonic and operand kinds), with
//     every immediate go/asm uses and every aliasing between operands it
//     uses; RET alone is argued instead (forms.NoHarness);
//   - every pair of go/asm where an instruction reads flags (Jcc, SETcc,
//     CMOVcc, ADC, SBB) that the last flag setter before it on the
//     fall-through path set;
//   - catalog/catalog.txt: the project's instruction list, so that a form is
//     checked before the emitter uses it, with a spread of immediates;
//   - catalog/exact.txt: lines run without renaming, so that every register
//     name the model parses meets the CPU;
//   - catalog/pairs.txt: flag setters followed by flag readers and keepers.
//
// The CPU side: a harness function stores the State's address in its frame,
// calls cosimLoad (every GPR but SP, the status flags, all 16 ymm, MXCSR),
// runs the instruction(s), records a branch, and calls cosimStore. A case
// with an AVX-512 instruction (Case.Wide, forms.Wide) calls cosimLoadZ and
// cosimStoreZ instead, which load and store all 512 bits of zmm0–31
// (State.Z), so the bits above 256 and the registers 16–31 are compared;
// catalog pairs of a VEX or legacy-SSE write followed by an EVEX
// instruction check what those writes do to bits 511:128. Memory operands
// use a base (and index) register pointing into State.Mem.
//
// # Tests
//
//   - TestCosim: the concrete domain, 10,000 random states per
//     representative of go/asm, the catalog and exact.txt, 1,000 per catalog
//     pair (1,000 and 100 with -short; $VG_COSIM_STATES sets the first,
//     which CI keeps at 4,000 to stay within its time); flags
//     the SDM leaves undefined are left out of the comparison and must be
//     undefined in the model too; it fails when a form of go/asm has no
//     harness or no model semantics, and lists what it covered (-v).
//   - TestCosimSym: the symbolic domain; z3 evaluates the SMT-LIB text the
//     model prints for each output under the input values.
//   - TestCosimTaint, TestCosimInterval: the abstract domains' values
//     contain the CPU's, and what they call independent of secret (or
//     input) data does not change on the CPU when only that data changes.
//   - TestDataTables: go/asm's DATA tables as the Go assembler lays them
//     down against the bytes the model's parser reads.
//   - TestFrameLayout: for the frame size of each routine of go/asm, the
//     stack layout Spec/check assumes and the model's FP and pseudo-SP
//     addresses against those the Go toolchain builds.
//   - TestFormsCovered, TestCollectorMatchesModelParser, gen's TestUpToDate:
//     the harness matches go/asm, and the collector sees what the model's
//     parser sees.
//   - TestRoundTrip, TestLayout: the harness alone.
//
// # Commands
//
//	go run ./internal/cosim/gen          # after go/asm changes
//	go run ./internal/cosim/gen -check   # fails on drift
//	go test ./internal/cosim/... [-short] [-v] [-cosim.seed=N] [-cosim.states=N] [-cosim.symstates=N] [-cosim.asm=DIR]
//
// # Limits
//
// Memory operands address a 256-byte buffer; SB, FP and SP bases become
// registers. The abstract-domain tests keep address registers, shift
// counts, MXCSR and the memory LDMXCSR loads concrete, and run fewer states
// than TestCosim. Spec/x86 exports no flag setter: the tests set the
// input flags through the Machine's unexported fields by reflection and
// read them back through Flag, so a change of those fields fails the tests
// instead of passing them.
package cosim

// go generate ./... runs go/asm's emitter first (its import path sorts
// first), then this generator.
//go:generate go run ./gen
