// Package x86 is **Trusted**: a model of the x86-64 instructions vg's
// generated assembly uses, read from the machine code the Go toolchain
// builds, so that what is checked is what runs.
//
// # Decoding
//
// OpenBinary opens a linked ELF executable; Binary.Routine decodes one
// routine's bytes (decode.go: each accepted encoding cites its SDM opcode
// line, anything else is an error) into the same Insn the parser gives,
// resolves RIP-relative operands to the read-only data symbols holding
// them (their bytes become the routine's Data) and names branch targets by
// byte offset. The Go assembler's prologue and epilogue (PUSHQ BP, SUBQ
// $n, SP, …) are instructions like any other; the stack-bound check before
// a non-NOSPLIT body is recognised byte for byte and not run (elf.go).
// MatchText compares a decoded routine with its parsed text.
//
// # Parsing
//
// ParseFile parses a go/asm file: TEXT (frame and argument sizes, flags),
// DATA/GLOBL read-only tables, labels, "// Requires:" feature lines and
// instructions. ParseInsn parses one instruction line, e.g.
// "VPXOR Y1, Y2, Y3" or "MOVQ a+0(FP), AX". Operands keep Go's order
// (sources first, destination last). An instruction or operand form the
// model does not have is an error naming file:line; nothing is ignored.
//
// # Semantics
//
// Machine[V] holds 16 general registers, 32 vector registers (eight 64-bit
// words each; X registers are the low two, Y the low four), the status flags CF PF AF ZF
// SF OF (computed lazily; flags an instruction leaves undefined are an
// error to read), MXCSR, and memory as bounded Regions. Every instruction
// is written once, in sem.go, over a value Domain[V]:
//
//   - Conc (V = uint64): plain concrete execution;
//   - Taint (V = TV): concrete values with per-bit secret and
//     input-dependence taint;
//   - Sym (V = *Term): 64-bit bit-vector terms, printable as SMT-LIB 2
//     (SMT, SMTNotEqual) for z3;
//   - Interval (V = AV): intervals with congruences and secrecy, for the
//     inductive checks of Spec/check.
//
// isa.go lists every mnemonic with its Intel SDM Vol. 2 entry, the CPU
// feature it needs (avo's names) and whether it is on Intel's data
// operand independent timing (DOIT) list.
//
// # Entry points for cosimulation
//
// A concrete machine runs one instruction at a time:
//
//	m := x86.NewMachine[uint64](x86.Conc{}, 0)
//	m.AddRegion("mem", x86.Buffer, base, 256, true, 0) // memory operands must fall in a region
//	m.Start(&x86.Routine{Labels: map[string]int{}})     // needed only for branches
//	in, err := x86.ParseInsn("VPSHUFB Y1, Y2, Y3")
//	err = m.Exec(in)
//	// read m.GPR, m.Vec, m.Flag(x86.CF), m.MXCSR, region bytes
//
// m.Flag returns an error wrapping ErrUndefined for a flag the SDM leaves
// undefined after the last instruction; a cosimulation should skip those
// bits. A conditional branch with a concrete condition moves m.PC to the
// label's index when taken.
package x86
