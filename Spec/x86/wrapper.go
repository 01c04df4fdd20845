package x86

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"strings"
)

// What a Go call reaches. Go code calls an assembly routine through the
// ABIInternal symbol pkg.name; since the routine's body is ABI0
// (pkg.name.abi0), the toolchain makes pkg.name a wrapper that stores the
// register arguments in the ABI0 argument slots, calls the body, restores
// the registers ABIInternal keeps fixed (X15 = 0, R14 = g) and loads the
// results back into registers (cmd/compile, ssagen/abi.go; the register
// assignment of the Go internal ABI). The checker proves the body; GoEntry
// checks that the code at the address a Go function value of name holds
// is exactly such a wrapper around it, byte for byte:
//
//	PUSHQ BP                     55
//	MOVQ SP, BP                  48 89 E5
//	SUBQ $n, SP                  48 83 EC ib | 48 81 EC id
//	MOVQ/MOVL/MOVW/MOVB r, k(SP) stores of AX, BX, CX, DI, SI, R8–R11, k < n
//	[NOP]                        the SDM's recommended multi-byte NOPs
//	CALL pkg.name.abi0           E8 cd
//	XORPS X15, X15               45 0F 57 FF
//	MOVQ (TLS), R14              64 4C 8B 34 25 F8 FF FF FF
//	MOVQ/MOVL/MOVZBL… k(SP), r   loads of the same registers, k < n
//	ADDQ $n, SP                  48 83 C4 ib | 48 81 C4 id
//	POPQ BP                      5D
//	RET                          C3
//
// and nothing else: no other call, branch, memory access or register.

// abiIntRegs are the integer registers of the Go internal ABI's argument
// sequence on amd64, by their 4-bit register numbers.
var abiIntRegs = map[byte]bool{0: true, 3: true, 1: true, 7: true, 6: true, 8: true, 9: true, 10: true, 11: true}

// nops are Intel's recommended multi-byte NOP sequences (SDM Vol. 2B,
// NOP, Table 4-12), which the assembler puts before a CALL to align it.
var nops = [][]byte{
	{0x90},
	{0x66, 0x90},
	{0x0F, 0x1F, 0x00},
	{0x0F, 0x1F, 0x40, 0x00},
	{0x0F, 0x1F, 0x44, 0x00, 0x00},
	{0x66, 0x0F, 0x1F, 0x44, 0x00, 0x00},
	{0x0F, 0x1F, 0x80, 0x00, 0x00, 0x00, 0x00},
	{0x0F, 0x1F, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
	{0x66, 0x0F, 0x1F, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
}

var (
	wrapXorX15 = []byte{0x45, 0x0F, 0x57, 0xFF}
	wrapLoadG  = []byte{0x64, 0x4C, 0x8B, 0x34, 0x25, 0xF8, 0xFF, 0xFF, 0xFF}
)

// funcAt is the function symbol that starts at addr.
func (b *Binary) funcAt(addr uint64) (elf.Symbol, bool) {
	for _, s := range b.syms {
		if elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Value == addr && s.Size > 0 {
			return s, true
		}
	}
	return elf.Symbol{}, false
}

// SymbolEntries gives, for each routine name, the address of the one
// symbol pkg.name: the entry of a program that was not run (GoEntry then
// checks it is the ABI wrapper).
func (b *Binary) SymbolEntries(pkg string, names []string) (map[string]uint64, error) {
	out := map[string]uint64{}
	for _, name := range names {
		if n := b.Count(pkg + "." + name); n != 1 {
			return nil, fmt.Errorf("%s: %d symbols %s.%s, not one", name, n, pkg, name)
		}
		s, _ := b.symbol(pkg + "." + name)
		out[name] = s.Value
	}
	return out, nil
}

// GoEntry checks that pc, the code pointer of the Go function value
// pkg.name in the running program, starts the symbol pkg.name and that
// this symbol is the toolchain's wrapper around pkg.name.abi0, the body
// the checker decodes (see Routine).
func (b *Binary) GoEntry(pkg, name string, pc uint64) error {
	sym, ok := b.funcAt(pc)
	if !ok {
		return fmt.Errorf("%s: a Go call reaches %#x, where no function symbol starts", name, pc)
	}
	if sym.Name != pkg+"."+name {
		return fmt.Errorf("%s: a Go call reaches %s, not %s.%s", name, sym.Name, pkg, name)
	}
	body, ok := b.symbol(pkg + "." + name + ".abi0")
	if !ok {
		return fmt.Errorf("%s: no ABI0 body %s.%s.abi0 behind the Go symbol", name, pkg, name)
	}
	code, sec, err := b.sectionBytes(sym.Value, sym.Size)
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	if sec.Flags&elf.SHF_EXECINSTR == 0 {
		return fmt.Errorf("%s: the Go symbol is not in an executable section", name)
	}
	if err := checkWrapper(code, sym.Value, body.Value); err != nil {
		return fmt.Errorf("%s: the Go symbol is not the toolchain's ABI wrapper of %s.abi0: %v", name, name, err)
	}
	return nil
}

// checkWrapper matches code (at addr) against the wrapper shape above,
// calling target.
func checkWrapper(code []byte, addr, target uint64) error {
	p := 0
	want := func(bs []byte, what string) error {
		if !bytes.HasPrefix(code[p:], bs) {
			return fmt.Errorf("+%#x: not %s", p, what)
		}
		p += len(bs)
		return nil
	}
	if err := want([]byte{0x55, 0x48, 0x89, 0xE5}, "PUSHQ BP; MOVQ SP, BP"); err != nil {
		return err
	}
	n, err := frameImm(code, &p, 0xEC)
	if err != nil {
		return err
	}
	// Stores of argument registers into the frame, then optional NOPs.
	for {
		k, ok := slotMove(code[p:], true, n)
		if !ok {
			break
		}
		p += k
	}
	for {
		k := nopLen(code[p:])
		if k == 0 {
			break
		}
		p += k
	}
	if p+5 > len(code) || code[p] != 0xE8 {
		return fmt.Errorf("+%#x: not CALL rel32", p)
	}
	call := int64(addr) + int64(p) + 5 + int64(int32(binary.LittleEndian.Uint32(code[p+1:])))
	if uint64(call) != target {
		return fmt.Errorf("+%#x: CALL %#x, not the body at %#x", p, call, target)
	}
	p += 5
	if err := want(wrapXorX15, "XORPS X15, X15"); err != nil {
		return err
	}
	if err := want(wrapLoadG, "MOVQ (TLS), R14"); err != nil {
		return err
	}
	for {
		k, ok := slotMove(code[p:], false, n)
		if !ok {
			break
		}
		p += k
	}
	m, err := frameImm(code, &p, 0xC4)
	if err != nil {
		return err
	}
	if m != n {
		return fmt.Errorf("ADDQ $%d, SP after SUBQ $%d, SP", m, n)
	}
	if err := want([]byte{0x5D, 0xC3}, "POPQ BP; RET"); err != nil {
		return err
	}
	if p != len(code) {
		return fmt.Errorf("%d bytes after RET", len(code)-p)
	}
	return nil
}

// frameImm reads SUBQ (modrm EC) or ADDQ (C4) $n, SP with an 8- or
// 32-bit immediate.
func frameImm(code []byte, p *int, modrm byte) (int64, error) {
	c := code[*p:]
	switch {
	case len(c) >= 4 && c[0] == 0x48 && c[1] == 0x83 && c[2] == modrm:
		*p += 4
		return int64(int8(c[3])), nil
	case len(c) >= 7 && c[0] == 0x48 && c[1] == 0x81 && c[2] == modrm:
		*p += 7
		return int64(int32(binary.LittleEndian.Uint32(c[3:]))), nil
	}
	return 0, fmt.Errorf("+%#x: not SUBQ/ADDQ $n, SP", *p)
}

// slotMove reads one move between an ABI argument register and k(SP),
// 0 ≤ k < n: a store (MOV r/m, r: 88, 89) when store is set, else a
// load (MOV r, r/m: 8A, 8B; MOVZX: 0F B6, 0F B7). It returns its length.
func slotMove(c []byte, store bool, n int64) (int, bool) {
	i := 0
	if i < len(c) && c[i] == 0x66 { // 16-bit operand
		i++
	}
	rex := byte(0)
	if i < len(c) && c[i]&0xF0 == 0x40 {
		rex = c[i]
		i++
	}
	if rex&0x03 != 0 { // REX.X or REX.B: SP is the base, with no index
		return 0, false
	}
	if i >= len(c) {
		return 0, false
	}
	switch {
	case store && (c[i] == 0x88 || c[i] == 0x89):
		i++
	case !store && (c[i] == 0x8A || c[i] == 0x8B):
		i++
	case !store && c[i] == 0x0F && i+1 < len(c) && (c[i+1] == 0xB6 || c[i+1] == 0xB7):
		i += 2
	default:
		return 0, false
	}
	if i+1 >= len(c) || c[i+1] != 0x24 { // SIB: base SP, no index
		return 0, false
	}
	modrm := c[i]
	reg := (modrm>>3)&7 | (rex&0x04)<<1
	if modrm&7 != 4 || !abiIntRegs[reg] {
		return 0, false
	}
	var k int64
	switch modrm >> 6 {
	case 0:
		i += 2
	case 1:
		if i+2 >= len(c) {
			return 0, false
		}
		k = int64(int8(c[i+2]))
		i += 3
	case 2:
		if i+5 >= len(c) {
			return 0, false
		}
		k = int64(int32(binary.LittleEndian.Uint32(c[i+2:])))
		i += 6
	default:
		return 0, false
	}
	if k < 0 || k >= n {
		return 0, false
	}
	return i, true
}

func nopLen(c []byte) int {
	for _, n := range nops {
		if bytes.HasPrefix(c, n) {
			return len(n)
		}
	}
	return 0
}

// PackageSymbols lists the function and data symbols of package pkg
// (named pkg.…), for the check that a package holds nothing but what
// was proven.
func (b *Binary) PackageSymbols(pkg string) []string {
	var out []string
	for _, s := range b.syms {
		t := elf.ST_TYPE(s.Info)
		if (t == elf.STT_FUNC || t == elf.STT_OBJECT) && strings.HasPrefix(s.Name, pkg+".") {
			out = append(out, s.Name)
		}
	}
	return out
}
