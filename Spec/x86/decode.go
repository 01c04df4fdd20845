package x86

import (
	"fmt"
	"strings"
)

// This file decodes x86-64 machine code into the Insn the semantics run.
// It accepts exactly the encodings the generated assembly uses, each
// citing its opcode line in the Intel SDM Vol. 2; any other byte sequence
// (another opcode, prefix, operand form or addressing mode) is an error.
// Operands come out in Go's order (sources first, destination last), the
// way the parser gives them, so both feed the same semantics.

// DecodeError is machine code the decoder does not accept.
type DecodeError struct {
	Off int
	Msg string
}

func (e *DecodeError) Error() string { return fmt.Sprintf("+%#x: %s", e.Off, e.Msg) }

// ripTarget is the Mem.Pseudo of a RIP-relative operand before it is
// resolved to a data symbol; Disp then holds the absolute address.
const ripTarget = "RIP"

// callTarget is the Mem.Pseudo of a CALL rel32 operand before it is
// resolved to a function symbol; Disp then holds the absolute address.
const callTarget = "CALL"

// decoder state for one instruction.
type dec struct {
	code  []byte
	start int // offset of the instruction in code
	p     int // next byte
	addr  uint64
	opsz  bool // 66 prefix
	rep   byte // F2/F3 prefix, 0 if none
	rex   byte // 0 if none
	vex   bool
	vL    bool // VEX.L: 256 bits
	vW    bool
	vv    int  // VEX.vvvv (already inverted)
	vpp   byte // VEX.pp: 0 none, 1 66, 2 F3, 3 F2
	vmap  byte // 1: 0F, 2: 0F38, 3: 0F3A
	rexR  bool
	rexX  bool
	rexB  bool
	rexW  bool
	form  string // the SDM opcode line the instruction matched
	// disp8N scales an 8-bit displacement (EVEX's compressed disp8*N,
	// SDM Vol. 2A, 2.7.5); 0 or 1 means unscaled.
	disp8N int
}

func (d *dec) wText() string {
	if d.rexW {
		return "REX.W + "
	}
	return ""
}

func (d *dec) errf(format string, a ...any) error {
	return &DecodeError{Off: d.start, Msg: fmt.Sprintf(format, a...)}
}

func (d *dec) byte() (byte, error) {
	if d.p >= len(d.code) {
		return 0, d.errf("instruction runs past the end of the routine")
	}
	b := d.code[d.p]
	d.p++
	return b, nil
}

func (d *dec) imm(n int) (int64, error) {
	if d.p+n > len(d.code) {
		return 0, d.errf("immediate runs past the end of the routine")
	}
	var u uint64
	for i := 0; i < n; i++ {
		u |= uint64(d.code[d.p+i]) << (8 * i)
	}
	d.p += n
	// Sign-extend (SDM Vol. 2A, 2.2.1.5: immediates are sign-extended to
	// the operand size; callers that want zero extension mask).
	sh := 64 - 8*uint(n)
	return int64(u<<sh) >> sh, nil
}

// modrm is a decoded ModRM (and SIB, displacement) operand pair.
type modrm struct {
	reg int // ModRM.reg with REX.R / VEX.R
	rm  Operand
	mem bool
	ext int // ModRM.reg without extension (the /digit)
}

// decodeModRM reads ModRM, SIB and displacement (SDM Vol. 2A, 2.1.5,
// Tables 2-2 and 2-3; 64-bit mode: 2.2.1.2–2.2.1.6). rmClass says what a
// register r/m names: 'r' GPR, 'b' byte register, 'x' XMM, 'y' YMM.
func (d *dec) decodeModRM(rmClass byte) (modrm, error) {
	var out modrm
	b, err := d.byte()
	if err != nil {
		return out, err
	}
	mod, reg, rm := b>>6, int(b>>3&7), int(b&7)
	out.ext = reg
	out.reg = reg
	if d.rexR {
		out.reg += 8
	}
	if mod == 3 {
		n := rm
		if d.rexB {
			n += 8
		}
		out.rm = regOperand(rmClass, n)
		return out, nil
	}
	out.mem = true
	m := Mem{Base: NoReg, Index: NoReg, Scale: 1}
	dispSize := 0
	switch mod {
	case 1:
		dispSize = 1
	case 2:
		dispSize = 4
	}
	switch {
	case rm == 4:
		// SIB follows (Table 2-3).
		s, err := d.byte()
		if err != nil {
			return out, err
		}
		scale, index, base := s>>6, int(s>>3&7), int(s&7)
		if d.rexX {
			index += 8
		}
		if index != 4 { // index 4 without REX.X: no index
			m.Index = Reg(index)
			m.Scale = 1 << scale
		} else if scale != 0 {
			return out, d.errf("SIB with no index but a scale")
		}
		if base == 5 && mod == 0 {
			return out, d.errf("SIB without a base register (disp32 only) is not accepted")
		}
		if d.rexB {
			base += 8
		}
		m.Base = Reg(base)
	case rm == 5 && mod == 0:
		// RIP-relative: disp32 from the end of the instruction
		// (SDM Vol. 2A, 2.2.1.6). The end is known only after any
		// immediate; resolveRIP finishes it.
		m.Pseudo = ripTarget
		dispSize = 4
	default:
		n := rm
		if d.rexB {
			n += 8
		}
		m.Base = Reg(n)
	}
	m.DispBytes = dispSize
	if dispSize > 0 {
		v, err := d.imm(dispSize)
		if err != nil {
			return out, err
		}
		if dispSize == 1 && d.disp8N > 1 {
			v *= int64(d.disp8N)
		}
		m.Disp = v
	}
	out.rm = Operand{Kind: KMem, Mem: m}
	return out, nil
}

func regOperand(class byte, n int) Operand {
	switch class {
	case 'b':
		return Operand{Kind: KReg, Reg: Reg(48 + n)}
	case 'x', 'y', 'z':
		return Operand{Kind: KReg, Reg: vecReg(class, n)}
	}
	return Operand{Kind: KReg, Reg: Reg(n)}
}

func immOperand(v int64) Operand { return Operand{Kind: KImm, Imm: v} }

// Decode decodes one instruction at code[off:]; addr is its address (for
// RIP-relative operands). It returns the instruction and its length.
// Branch targets come out as labels naming the target offset in code
// (LabelAt); RIP-relative operands as Mem{Pseudo: "RIP", Disp: address}.
func Decode(code []byte, off int, addr uint64) (*Insn, int, error) {
	d := &dec{code: code, start: off, p: off, addr: addr}
	in, err := d.decode()
	if err != nil {
		return nil, 0, err
	}
	n := d.p - off
	for i := range in.Args {
		a := &in.Args[i]
		if a.Kind == KMem && a.Mem.Pseudo == ripTarget {
			a.Mem.Disp = int64(addr) + int64(n) + a.Mem.Disp
		}
	}
	code0, ok := opcodes[in.Op]
	if !ok {
		return nil, 0, d.errf("decoded %s, which the model does not have", in.Op)
	}
	in.code = code0
	if err := checkForm(in); err != nil {
		return nil, 0, d.errf("%v", err)
	}
	for i := range in.Args {
		in.Args[i].Text = in.Args[i].goText()
	}
	in.Text = in.goText()
	in.Form = d.form
	if in.Form == "" {
		return nil, 0, d.errf("internal: %s decoded without an SDM form", in.Op)
	}
	return in, n, nil
}

// LabelAt names the branch target at byte offset off.
func LabelAt(off int) string { return fmt.Sprintf("+%#x", off) }

func (d *dec) decode() (*Insn, error) {
	// Legacy prefixes (SDM Vol. 2A, 2.1.1): only 66, F2 and F3 are
	// accepted, each at most once.
	for {
		if d.p >= len(d.code) {
			return nil, d.errf("empty instruction")
		}
		b := d.code[d.p]
		switch {
		case b == 0x66 && !d.opsz:
			d.opsz = true
		case (b == 0xF2 || b == 0xF3) && d.rep == 0:
			d.rep = b
		default:
			goto prefixesDone
		}
		d.p++
	}
prefixesDone:
	b, err := d.byte()
	if err != nil {
		return nil, err
	}
	switch {
	case b >= 0x40 && b <= 0x4F:
		// REX (SDM Vol. 2A, 2.2.1): must come right before the opcode.
		d.rex = b
		d.rexW, d.rexR, d.rexX, d.rexB = b&8 != 0, b&4 != 0, b&2 != 0, b&1 != 0
		if b, err = d.byte(); err != nil {
			return nil, err
		}
		if b == 0xC4 || b == 0xC5 || b == 0x62 || b >= 0x40 && b <= 0x4F {
			return nil, d.errf("REX before VEX or EVEX, or a second REX")
		}
		return d.legacy(b)
	case b == 0xC5 || b == 0xC4:
		if d.opsz || d.rep != 0 {
			return nil, d.errf("legacy prefix before VEX (#UD)")
		}
		return d.vexInsn(b)
	case b == 0x62:
		// In 64-bit mode 62 is EVEX, never BOUND (SDM Vol. 2A, 2.7.1).
		if d.opsz || d.rep != 0 {
			return nil, d.errf("legacy prefix before EVEX (#UD)")
		}
		return d.evexInsn()
	}
	return d.legacy(b)
}

// aluOps are the group-1 operations by ModRM.reg / opcode row
// (SDM Vol. 2A, Table A-6, group 1; rows 00–3F of Table A-2).
var aluOps = [8]string{"ADD", "OR", "ADC", "SBB", "AND", "SUB", "XOR", "CMP"}

// shiftOps are the group-2 operations by ModRM.reg (Table A-6, group 2).
var shiftOps = [8]string{"ROL", "ROR", "", "", "SHL", "SHR", "", "SAR"}

// jccNames maps the condition nibble (SDM Vol. 2A, Jcc; Table B-1) to
// Go's mnemonic.
var jccNames = [16]string{"", "", "JCS", "JCC", "JEQ", "JNE", "JLS", "JHI", "JMI", "JPL", "", "", "JLT", "JGE", "JLE", "JGT"}

func (d *dec) suffix() (string, error) {
	if d.opsz {
		return "", d.errf("operand-size prefix not accepted here")
	}
	if d.rexW {
		return "Q", nil
	}
	return "L", nil
}

func (d *dec) noPrefix() error {
	if d.opsz || d.rep != 0 {
		return d.errf("unexpected legacy prefix")
	}
	return nil
}

func (d *dec) legacy(op byte) (*Insn, error) {
	gpr := func(n int) Operand { return regOperand('r', n) }
	switch {
	case op < 0x40 && op&7 <= 3 && op&7 != 0 && op&7 != 2 && aluOps[op>>3] != "":
		// 01 /r ADD r/m, r; 03 /r ADD r, r/m; and likewise 09/0B OR,
		// 11/13 ADC, 19/1B SBB, 21/23 AND, 29/2B SUB, 31/33 XOR, 39/3B CMP
		// (SDM Vol. 2A/2B, each entry's "REX.W + 01 /r" etc. lines).
		if err := d.noPrefix(); err != nil {
			return nil, err
		}
		sfx, _ := d.suffix()
		mr, err := d.decodeModRM('r')
		if err != nil {
			return nil, err
		}
		name := aluOps[op>>3] + sfx
		d.form = fmt.Sprintf("SDM Vol. 2, %s: %s%02X /r", aluOps[op>>3], d.wText(), op)
		if name[:3] == "CMP" { // Go writes CMP in Intel's operand order
			if op&2 == 0 {
				return insn(name, mr.rm, gpr(mr.reg)), nil
			}
			return insn(name, gpr(mr.reg), mr.rm), nil
		}
		if op&2 == 0 { // r/m ← r/m op r
			return insn(name, gpr(mr.reg), mr.rm), nil
		}
		return insn(name, mr.rm, gpr(mr.reg)), nil
	case op < 0x40 && op&7 == 5:
		// 05 id ADD EAX, imm32; REX.W + 05 id ADD RAX, imm32 sign-extended;
		// likewise 0D OR, 15 ADC, 1D SBB, 25 AND, 2D SUB, 35 XOR, 3D CMP
		// (SDM Vol. 2A/2B, each entry's "REX.W + 05 id" etc. lines).
		if err := d.noPrefix(); err != nil {
			return nil, err
		}
		if d.rex&^0x48 != 0 {
			return nil, d.errf("accumulator form with REX %#x", d.rex)
		}
		sfx, _ := d.suffix()
		v, err := d.imm(4)
		if err != nil {
			return nil, err
		}
		name := aluOps[op>>3] + sfx
		d.form = fmt.Sprintf("SDM Vol. 2, %s: %s%02X id", aluOps[op>>3], d.wText(), op)
		if name[:3] == "CMP" {
			return insn(name, gpr(0), immOperand(v)), nil
		}
		return insn(name, immOperand(v), gpr(0)), nil
	case op == 0x81 || op == 0x83:
		// 81 /digit id, 83 /digit ib: group 1 with an immediate,
		// sign-extended to the operand size (SDM Vol. 2A, ADD "REX.W + 81
		// /0 id", "REX.W + 83 /0 ib", and the same lines of OR, ADC, SBB,
		// AND, SUB, XOR, CMP).
		if err := d.noPrefix(); err != nil {
			return nil, err
		}
		sfx, _ := d.suffix()
		mr, err := d.decodeModRM('r')
		if err != nil {
			return nil, err
		}
		n := 4
		if op == 0x83 {
			n = 1
		}
		v, err := d.imm(n)
		if err != nil {
			return nil, err
		}
		name := aluOps[mr.ext] + sfx
		d.form = fmt.Sprintf("SDM Vol. 2, %s: %s%02X /%d i%c", aluOps[mr.ext], d.wText(), op, mr.ext, "bd"[n/4])
		if name[:3] == "CMP" {
			return insn(name, mr.rm, immOperand(v)), nil
		}
		return insn(name, immOperand(v), mr.rm), nil
	case op == 0x89 || op == 0x8B:
		// 89 /r MOV r/m64, r64; 8B /r MOV r64, r/m64 (SDM Vol. 2B, MOV).
		if err := d.noPrefix(); err != nil {
			return nil, err
		}
		sfx, _ := d.suffix()
		mr, err := d.decodeModRM('r')
		if err != nil {
			return nil, err
		}
		d.form = fmt.Sprintf("SDM Vol. 2B, MOV: %s%02X /r", d.wText(), op)
		if op == 0x89 {
			return insn("MOV"+sfx, gpr(mr.reg), mr.rm), nil
		}
		return insn("MOV"+sfx, mr.rm, gpr(mr.reg)), nil
	case op == 0x88:
		// 88 /r MOV r/m8, r8 (SDM Vol. 2B, MOV); a store from AL, CL, DL
		// or BL only: without REX, reg 4 to 7 name AH to BH, and REX
		// forms are not accepted.
		if err := d.noPrefix(); err != nil {
			return nil, err
		}
		if d.rex != 0 {
			return nil, d.errf("REX on MOV r/m8, r8")
		}
		mr, err := d.decodeModRM('r')
		if err != nil {
			return nil, err
		}
		if !mr.mem || mr.reg > 3 {
			return nil, d.errf("88 /r: only a store of AL, CL, DL or BL is accepted")
		}
		d.form = "SDM Vol. 2B, MOV: 88 /r"
		return insn("MOVB", Operand{Kind: KReg, Reg: Reg(48 + mr.reg)}, mr.rm), nil
	case op == 0xC7:
		// C7 /0 id MOV r/m32, imm32; REX.W + C7 /0 id MOV r/m64, imm32
		// sign-extended (SDM Vol. 2B, MOV).
		if err := d.noPrefix(); err != nil {
			return nil, err
		}
		sfx, _ := d.suffix()
		mr, err := d.decodeModRM('r')
		if err != nil {
			return nil, err
		}
		if mr.ext != 0 {
			return nil, d.errf("C7 /%d not accepted", mr.ext)
		}
		v, err := d.imm(4)
		if err != nil {
			return nil, err
		}
		d.form = "SDM Vol. 2B, MOV: " + d.wText() + "C7 /0 id"
		return insn("MOV"+sfx, immOperand(v), mr.rm), nil
	case op >= 0xB8 && op <= 0xBF:
		// B8+rd id MOV r32, imm32; REX.W + B8+rd io MOV r64, imm64
		// (SDM Vol. 2B, MOV).
		if err := d.noPrefix(); err != nil {
			return nil, err
		}
		n := int(op - 0xB8)
		if d.rexB {
			n += 8
		}
		d.form = "SDM Vol. 2B, MOV: " + d.wText() + "B8+rd i" + map[bool]string{false: "d", true: "o"}[d.rexW]
		if d.rexW {
			v, err := d.imm(8)
			if err != nil {
				return nil, err
			}
			return insn("MOVQ", immOperand(v), gpr(n)), nil
		}
		v, err := d.imm(4)
		if err != nil {
			return nil, err
		}
		return insn("MOVL", immOperand(int64(uint32(v))), gpr(n)), nil
	case op == 0xC6:
		// C6 /0 ib MOV r/m8, imm8 (SDM Vol. 2B, MOV); memory only.
		if err := d.noPrefix(); err != nil {
			return nil, err
		}
		mr, err := d.decodeModRM('r')
		if err != nil {
			return nil, err
		}
		if mr.ext != 0 || !mr.mem || d.rexW {
			return nil, d.errf("C6 form not accepted")
		}
		v, err := d.imm(1)
		if err != nil {
			return nil, err
		}
		d.form = "SDM Vol. 2B, MOV: C6 /0 ib"
		return insn("MOVB", immOperand(v&0xff), mr.rm), nil
	case op == 0x87:
		// REX.W + 87 /r XCHG r/m64, r64 (SDM Vol. 2D, XCHG); registers
		// only, since with memory XCHG is locked.
		if err := d.noPrefix(); err != nil {
			return nil, err
		}
		mr, err := d.decodeModRM('r')
		if err != nil {
			return nil, err
		}
		if mr.mem || !d.rexW {
			return nil, d.errf("XCHG form not accepted")
		}
		d.form = "SDM Vol. 2D, XCHG: REX.W + 87 /r"
		return insn("XCHGQ", gpr(mr.reg), mr.rm), nil
	case op >= 0x90 && op <= 0x97 && d.rexW:
		// REX.W + 90+rd XCHG RAX, r64 (SDM Vol. 2D, XCHG).
		if err := d.noPrefix(); err != nil {
			return nil, err
		}
		n := int(op - 0x90)
		if d.rexB {
			n += 8
		}
		d.form = "SDM Vol. 2D, XCHG: REX.W + 90+rd"
		return insn("XCHGQ", gpr(n), gpr(0)), nil
	case op == 0x8D:
		// REX.W + 8D /r LEA r64, m (SDM Vol. 2A, LEA).
		if err := d.noPrefix(); err != nil {
			return nil, err
		}
		mr, err := d.decodeModRM('r')
		if err != nil {
			return nil, err
		}
		if !mr.mem || !d.rexW {
			return nil, d.errf("LEA form not accepted")
		}
		d.form = "SDM Vol. 2A, LEA: REX.W + 8D /r"
		return insn("LEAQ", mr.rm, gpr(mr.reg)), nil
	case op == 0x85:
		// REX.W + 85 /r TEST r/m64, r64; 85 /r TEST r/m32, r32 (SDM Vol.
		// 2B, TEST). Go writes the register first.
		if err := d.noPrefix(); err != nil {
			return nil, err
		}
		sfx, _ := d.suffix()
		mr, err := d.decodeModRM('r')
		if err != nil {
			return nil, err
		}
		d.form = "SDM Vol. 2B, TEST: " + d.wText() + "85 /r"
		return insn("TEST"+sfx, gpr(mr.reg), mr.rm), nil
	case op == 0xF7:
		// REX.W + F7 /2 NOT r/m64 (SDM Vol. 2B, NOT); F7 /2 NOT r/m32;
		// REX.W + F7 /0 id TEST r/m64, imm32 (SDM Vol. 2B, TEST).
		if err := d.noPrefix(); err != nil {
			return nil, err
		}
		sfx, _ := d.suffix()
		mr, err := d.decodeModRM('r')
		if err != nil {
			return nil, err
		}
		switch mr.ext {
		case 0:
			v, err := d.imm(4)
			if err != nil {
				return nil, err
			}
			d.form = "SDM Vol. 2B, TEST: " + d.wText() + "F7 /0 id"
			return insn("TEST"+sfx, immOperand(v), mr.rm), nil
		case 2:
			d.form = "SDM Vol. 2B, NOT: " + d.wText() + "F7 /2"
			return insn("NOT"+sfx, mr.rm), nil
		}
		return nil, d.errf("F7 /%d not accepted", mr.ext)
	case op == 0xFF:
		// REX.W + FF /1 DEC r/m64 (SDM Vol. 2A, DEC); REX.W + FF /0 INC.
		if err := d.noPrefix(); err != nil {
			return nil, err
		}
		sfx, _ := d.suffix()
		mr, err := d.decodeModRM('r')
		if err != nil {
			return nil, err
		}
		d.form = fmt.Sprintf("SDM Vol. 2A, INC/DEC: %sFF /%d", d.wText(), mr.ext)
		switch mr.ext {
		case 0:
			return insn("INC"+sfx, mr.rm), nil
		case 1:
			return insn("DEC"+sfx, mr.rm), nil
		}
		return nil, d.errf("FF /%d not accepted", mr.ext)
	case op == 0xC1 || op == 0xD1:
		// C1 /digit ib and D1 /digit (count 1): ROL /0, ROR /1, SHL /4,
		// SHR /5, SAR /7 (SDM Vol. 2B, RCL/RCR/ROL/ROR and SAL/SAR/SHL/SHR,
		// "REX.W + C1 /0 ib", "REX.W + D1 /0", …).
		if err := d.noPrefix(); err != nil {
			return nil, err
		}
		sfx, _ := d.suffix()
		mr, err := d.decodeModRM('r')
		if err != nil {
			return nil, err
		}
		name := shiftOps[mr.ext]
		if name == "" || (name[:2] == "RO" && sfx != "Q") {
			return nil, d.errf("%02X /%d not accepted", op, mr.ext)
		}
		count := int64(1)
		d.form = fmt.Sprintf("SDM Vol. 2B, %s: %s%02X /%d", name, d.wText(), op, mr.ext)
		if op == 0xC1 {
			d.form += " ib"
			v, err := d.imm(1)
			if err != nil {
				return nil, err
			}
			count = v & 0xff
		}
		return insn(name+sfx, immOperand(count), mr.rm), nil
	case op == 0x0F:
		return d.twoByte()
	case op == 0x74 || op == 0x75 || op == 0x72 || op == 0x73 || op == 0x76 || op == 0x77 ||
		op == 0x78 || op == 0x79 || op >= 0x7C && op <= 0x7F:
		// 7x cb Jcc rel8 (SDM Vol. 2A, Jcc).
		if err := d.noPrefix(); err != nil {
			return nil, err
		}
		if d.rex != 0 {
			return nil, d.errf("REX on a branch")
		}
		v, err := d.imm(1)
		if err != nil {
			return nil, err
		}
		d.form = fmt.Sprintf("SDM Vol. 2A, Jcc: %02X cb", op)
		return d.branch(jccNames[op&15], v), nil
	case op == 0xEB || op == 0xE9:
		// EB cb JMP rel8; E9 cd JMP rel32 (SDM Vol. 2A, JMP).
		if err := d.noPrefix(); err != nil {
			return nil, err
		}
		if d.rex != 0 {
			return nil, d.errf("REX on a branch")
		}
		n := 4
		if op == 0xEB {
			n = 1
		}
		v, err := d.imm(n)
		if err != nil {
			return nil, err
		}
		d.form = fmt.Sprintf("SDM Vol. 2A, JMP: %02X c%c", op, "bd"[n/4])
		return d.branch("JMP", v), nil
	case op == 0xE8:
		// E8 cd CALL rel32 (SDM Vol. 2A, CALL): the target is
		// resolved to a function symbol by Binary.Routine.
		if err := d.noPrefix(); err != nil {
			return nil, err
		}
		if d.rex != 0 {
			return nil, d.errf("REX on CALL")
		}
		v, err := d.imm(4)
		if err != nil {
			return nil, err
		}
		d.form = "SDM Vol. 2A, CALL: E8 cd"
		target := int64(d.addr) + int64(d.p-d.start) + v
		return insn("CALL", Operand{Kind: KMem, Mem: Mem{Base: NoReg, Index: NoReg, Scale: 1, Pseudo: callTarget, Disp: target}}), nil
	case op == 0xC3:
		// C3 RET near (SDM Vol. 2B, RET).
		if err := d.noPrefix(); err != nil {
			return nil, err
		}
		if d.rex != 0 {
			return nil, d.errf("REX on RET")
		}
		d.form = "SDM Vol. 2B, RET: C3"
		return insn("RET"), nil
	case op >= 0x50 && op <= 0x5F:
		// 50+rd PUSH r64; 58+rd POP r64 (SDM Vol. 2B, PUSH and POP).
		if err := d.noPrefix(); err != nil {
			return nil, err
		}
		if d.rex&^1 != 0 && d.rex != 0x40 {
			return nil, d.errf("PUSH/POP with REX %#x", d.rex)
		}
		n := int(op & 7)
		if d.rexB {
			n += 8
		}
		d.form = fmt.Sprintf("SDM Vol. 2B, PUSH/POP: %02X+rd", op&^7)
		if op < 0x58 {
			return insn("PUSHQ", gpr(n)), nil
		}
		return insn("POPQ", gpr(n)), nil
	}
	return nil, d.errf("opcode %02X not accepted", op)
}

func (d *dec) branch(name string, rel int64) *Insn {
	target := int64(d.p) + rel
	return insn(name, Operand{Kind: KLabel, Label: LabelAt(int(target))})
}

// twoByte decodes 0F xx legacy opcodes.
func (d *dec) twoByte() (*Insn, error) {
	op, err := d.byte()
	if err != nil {
		return nil, err
	}
	gpr := func(n int) Operand { return regOperand('r', n) }
	switch {
	case op == 0xB6 || op == 0xB7:
		// 0F B6 /r MOVZX r32, r/m8; REX.W + 0F B6 /r MOVZX r64, r/m8;
		// 0F B7 /r MOVZX r32, r/m16; REX.W + 0F B7 (SDM Vol. 2B, MOVZX).
		// A byte register without REX would be AH–BH: memory only.
		if err := d.noPrefix(); err != nil {
			return nil, err
		}
		mr, err := d.decodeModRM('r')
		if err != nil {
			return nil, err
		}
		if !mr.mem {
			return nil, d.errf("MOVZX from a register not accepted")
		}
		d.form = fmt.Sprintf("SDM Vol. 2B, MOVZX: %s0F %02X /r", d.wText(), op)
		name := map[bool]string{false: "MOVBLZX", true: "MOVBQZX"}[d.rexW]
		if op == 0xB7 {
			name = map[bool]string{false: "MOVWLZX", true: "MOVWQZX"}[d.rexW]
		}
		return insn(name, mr.rm, gpr(mr.reg)), nil
	case op >= 0x42 && op <= 0x45:
		// REX.W + 0F 42 /r CMOVB r64, r/m64 (Go's CMOVQCS), 0F 43 CMOVAE
		// (CMOVQCC), 0F 44 CMOVE (CMOVQEQ), 0F 45 CMOVNE (CMOVQNE); without
		// REX.W, 0F 42 and 0F 43 only (CMOVLCS, CMOVLCC) (SDM Vol. 2A,
		// CMOVcc).
		if err := d.noPrefix(); err != nil {
			return nil, err
		}
		sfx, _ := d.suffix()
		if sfx == "L" && op > 0x43 {
			return nil, d.errf("0F %02X without REX.W not accepted", op)
		}
		mr, err := d.decodeModRM('r')
		if err != nil {
			return nil, err
		}
		d.form = fmt.Sprintf("SDM Vol. 2A, CMOVcc: %s0F %02X /r", d.wText(), op)
		cc := map[byte]string{0x42: "CS", 0x43: "CC", 0x44: "EQ", 0x45: "NE"}[op]
		return insn("CMOV"+sfx+cc, mr.rm, gpr(mr.reg)), nil
	case op == 0x92 || op == 0x93:
		// 0F 92 SETC r/m8 (Go's SETCS), 0F 93 SETNC r/m8 (SETCC) (SDM
		// Vol. 2B, SETcc). The assembler's encoding only: ModRM.reg 0, no
		// REX.W or REX.R. A register r/m of 4–7 without REX would be
		// AH–BH, which are not modelled.
		if err := d.noPrefix(); err != nil {
			return nil, err
		}
		if d.rexW || d.rexR {
			return nil, d.errf("SETcc with REX.W or REX.R")
		}
		mr, err := d.decodeModRM('b')
		if err != nil {
			return nil, err
		}
		if mr.ext != 0 {
			return nil, d.errf("SETcc with ModRM.reg %d", mr.ext)
		}
		if !mr.mem && d.rex == 0 && mr.rm.Reg.GPR() >= 4 {
			return nil, d.errf("SETcc of AH, CH, DH or BH")
		}
		d.form = fmt.Sprintf("SDM Vol. 2B, SETcc: 0F %02X", op)
		return insn(map[byte]string{0x92: "SETCS", 0x93: "SETCC"}[op], mr.rm), nil
	case op >= 0x80 && op <= 0x8F && jccNames[op&15] != "":
		// 0F 8x cd Jcc rel32 (SDM Vol. 2A, Jcc).
		if err := d.noPrefix(); err != nil {
			return nil, err
		}
		if d.rex != 0 {
			return nil, d.errf("REX on a branch")
		}
		v, err := d.imm(4)
		if err != nil {
			return nil, err
		}
		d.form = fmt.Sprintf("SDM Vol. 2A, Jcc: 0F %02X cd", op)
		return d.branch(jccNames[op&15], v), nil
	case op == 0xAE && d.rex == 0:
		// NP 0F AE /2 LDMXCSR m32; NP 0F AE /3 STMXCSR m32 (SDM Vol. 2A,
		// LDMXCSR; Vol. 2B, STMXCSR); NP 0F AE E8 LFENCE (Vol. 2A, LFENCE).
		if err := d.noPrefix(); err != nil {
			return nil, err
		}
		if d.p < len(d.code) && d.code[d.p] == 0xE8 {
			d.p++
			d.form = "SDM Vol. 2A, LFENCE: NP 0F AE E8"
			return insn("LFENCE"), nil
		}
		mr, err := d.decodeModRM('r')
		if err != nil {
			return nil, err
		}
		if !mr.mem || mr.ext != 2 && mr.ext != 3 {
			return nil, d.errf("0F AE /%d not accepted", mr.ext)
		}
		if mr.ext == 2 {
			d.form = "SDM Vol. 2A, LDMXCSR: NP 0F AE /2"
			return insn("LDMXCSR", mr.rm), nil
		}
		d.form = "SDM Vol. 2B, STMXCSR: NP 0F AE /3"
		return insn("STMXCSR", mr.rm), nil
	}
	for _, f := range sseForms {
		if f.opc != op || !(f.pfx == 0x66 && d.opsz && d.rep == 0 || f.pfx == 0xF3 && d.rep == 0xF3 && !d.opsz) {
			continue
		}
		if d.rexW {
			return nil, d.errf("%s with REX.W not accepted", f.op)
		}
		at := d.p
		mr, err := d.decodeModRM('x')
		if err != nil {
			return nil, err
		}
		if f.ext >= 0 && int8(mr.ext) != f.ext {
			d.p = at // another group member may match
			continue
		}
		if mr.mem && !f.mem {
			// A 16-byte legacy-SSE memory operand must be aligned
			// (#GP otherwise); the model does not check alignment.
			return nil, d.errf("%s with a memory operand not accepted", f.op)
		}
		d.form = "SDM Vol. 2, " + f.sdm
		reg := regOperand('x', mr.reg)
		switch f.layout {
		case "rr":
			return insn(f.op, mr.rm, reg), nil
		case "Rm":
			return insn(f.op, reg, mr.rm), nil
		case "ir":
			v, err := d.imm(1)
			if err != nil {
				return nil, err
			}
			return insn(f.op, immOperand(v&0xff), mr.rm), nil
		case "irr":
			v, err := d.imm(1)
			if err != nil {
				return nil, err
			}
			return insn(f.op, immOperand(v&0xff), mr.rm, reg), nil
		}
	}
	return nil, d.errf("opcode 0F %02X not accepted", op)
}

// sseForm is one accepted legacy-SSE opcode 0F xx with its mandatory
// prefix (66 or F3), ModRM.reg digit for group forms (-1 otherwise),
// operand layout (as vexForm's, without vvvv: "rr" rm, reg; "Rm" reg, rm;
// "ir" imm8, rm; "irr" imm8, rm, reg) and whether a memory operand is
// accepted (unaligned moves only).
type sseForm struct {
	op     string
	pfx    byte
	opc    byte
	ext    int8
	layout string
	mem    bool
	sdm    string
}

var sseForms = []sseForm{
	{"MOVOU", 0xF3, 0x6F, -1, "rr", true, "F3 0F 6F /r MOVDQU xmm1, xmm2/m128"},
	{"MOVOU", 0xF3, 0x7F, -1, "Rm", true, "F3 0F 7F /r MOVDQU xmm2/m128, xmm1"},
	{"MOVO", 0x66, 0x6F, -1, "rr", false, "66 0F 6F /r MOVDQA xmm1, xmm2/m128"},
	{"MOVO", 0x66, 0x7F, -1, "Rm", false, "66 0F 7F /r MOVDQA xmm2/m128, xmm1"},
	{"PXOR", 0x66, 0xEF, -1, "rr", false, "66 0F EF /r PXOR xmm1, xmm2/m128"},
	{"PAND", 0x66, 0xDB, -1, "rr", false, "66 0F DB /r PAND xmm1, xmm2/m128"},
	{"POR", 0x66, 0xEB, -1, "rr", false, "66 0F EB /r POR xmm1, xmm2/m128"},
	{"PADDL", 0x66, 0xFE, -1, "rr", false, "66 0F FE /r PADDD xmm1, xmm2/m128"},
	{"PADDQ", 0x66, 0xD4, -1, "rr", false, "66 0F D4 /r PADDQ xmm1, xmm2/m128"},
	{"PSUBL", 0x66, 0xFA, -1, "rr", false, "66 0F FA /r PSUBD xmm1, xmm2/m128"},
	{"PMULULQ", 0x66, 0xF4, -1, "rr", false, "66 0F F4 /r PMULUDQ xmm1, xmm2/m128"},
	{"PUNPCKLLQ", 0x66, 0x62, -1, "rr", false, "66 0F 62 /r PUNPCKLDQ xmm1, xmm2/m128"},
	{"PUNPCKHLQ", 0x66, 0x6A, -1, "rr", false, "66 0F 6A /r PUNPCKHDQ xmm1, xmm2/m128"},
	{"PUNPCKLQDQ", 0x66, 0x6C, -1, "rr", false, "66 0F 6C /r PUNPCKLQDQ xmm1, xmm2/m128"},
	{"PUNPCKHQDQ", 0x66, 0x6D, -1, "rr", false, "66 0F 6D /r PUNPCKHQDQ xmm1, xmm2/m128"},
	{"PSHUFL", 0x66, 0x70, -1, "irr", false, "66 0F 70 /r ib PSHUFD xmm1, xmm2/m128, imm8"},
	{"PSRLQ", 0x66, 0x73, 2, "ir", false, "66 0F 73 /2 ib PSRLQ xmm1, imm8"},
	{"PSLLQ", 0x66, 0x73, 6, "ir", false, "66 0F 73 /6 ib PSLLQ xmm1, imm8"},
	{"PSRAL", 0x66, 0x72, 4, "ir", false, "66 0F 72 /4 ib PSRAD xmm1, imm8"},
	{"PSLLL", 0x66, 0x72, 6, "ir", false, "66 0F 72 /6 ib PSLLD xmm1, imm8"},
}

// vexForm is one accepted VEX opcode: map, pp, opcode, W (0, 1 or -1 for
// WIG) and how its operands are laid out.
type vexForm struct {
	op     string
	vmap   byte // 1: 0F, 2: 0F38, 3: 0F3A
	pp     byte // 0: none, 1: 66, 2: F3, 3: F2
	opc    byte
	w      int8 // 0, 1, or -1 (ignored)
	ext    int8 // ModRM.reg digit for group forms, -1 otherwise
	layout string
	sdm    string
}

// Operand layouts, in Go order:
//
//	"rvr"   rm, vvvv, reg          (VPXOR Y1, Y2, Y3 = reg ← vvvv op rm)
//	"ir?v"  imm8, rm, vvvv         (shift by immediate: vvvv ← rm shifted)
//	"irr"   imm8, rm, reg
//	"irvr"  imm8, rm, vvvv, reg
//	"ixvr"  imm8, rm as xmm, vvvv, reg   (insert a 128-bit half)
//	"iRx"   imm8, reg, rm as xmm         (extract a 128-bit half)
//	"rr"    rm, reg                (loads)
//	"Rm"    reg, rm                (stores)
//	"xr"    rm as xmm, reg         (broadcast)
//	"gr"    rm (vector), reg as GPR
//	"gvg"   rm, vvvv, reg, all GPRs (ANDN: reg ← ¬vvvv ∧ rm)
//	"igg"   imm8, rm, reg, GPRs (RORX)
//	"-"     no operands
var vexForms = []vexForm{
	{"VMOVDQU", 1, 2, 0x6F, -1, -1, "rr", "VEX.128/256.F3.0F.WIG 6F /r VMOVDQU"},
	{"VMOVDQU", 1, 2, 0x7F, -1, -1, "Rm", "VEX.128/256.F3.0F.WIG 7F /r VMOVDQU"},
	{"VPXOR", 1, 1, 0xEF, -1, -1, "rvr", "VEX.NDS.128/256.66.0F.WIG EF /r VPXOR"},
	{"VPOR", 1, 1, 0xEB, -1, -1, "rvr", "VEX.NDS.128/256.66.0F.WIG EB /r VPOR"},
	{"VPAND", 1, 1, 0xDB, -1, -1, "rvr", "VEX.NDS.128/256.66.0F.WIG DB /r VPAND"},
	{"VPANDN", 1, 1, 0xDF, -1, -1, "rvr", "VEX.NDS.128/256.66.0F.WIG DF /r VPANDN"},
	{"VPADDD", 1, 1, 0xFE, -1, -1, "rvr", "VEX.NDS.128/256.66.0F.WIG FE /r VPADDD"},
	{"VPADDQ", 1, 1, 0xD4, -1, -1, "rvr", "VEX.NDS.128/256.66.0F.WIG D4 /r VPADDQ"},
	{"VPSUBD", 1, 1, 0xFA, -1, -1, "rvr", "VEX.NDS.128/256.66.0F.WIG FA /r VPSUBD"},
	{"VPUNPCKLQDQ", 1, 1, 0x6C, -1, -1, "rvr", "VEX.NDS.128/256.66.0F.WIG 6C /r VPUNPCKLQDQ"},
	{"VPUNPCKHQDQ", 1, 1, 0x6D, -1, -1, "rvr", "VEX.NDS.128/256.66.0F.WIG 6D /r VPUNPCKHQDQ"},
	{"VPCMPGTD", 1, 1, 0x66, -1, -1, "rvr", "VEX.NDS.128/256.66.0F.WIG 66 /r VPCMPGTD"},
	{"VPMULDQ", 2, 1, 0x28, -1, -1, "rvr", "VEX.NDS.128/256.66.0F38.WIG 28 /r VPMULDQ"},
	{"VPMULUDQ", 1, 1, 0xF4, -1, -1, "rvr", "VEX.NDS.128/256.66.0F.WIG F4 /r VPMULUDQ"},
	{"VPMULLD", 2, 1, 0x40, -1, -1, "rvr", "VEX.NDS.128/256.66.0F38.WIG 40 /r VPMULLD"},
	{"VPMINUD", 2, 1, 0x3B, -1, -1, "rvr", "VEX.NDS.128/256.66.0F38.WIG 3B /r VPMINUD"},
	{"VPSHUFB", 2, 1, 0x00, -1, -1, "rvr", "VEX.NDS.128/256.66.0F38.WIG 00 /r VPSHUFB"},
	{"VPERMD", 2, 1, 0x36, 0, -1, "rvr", "VEX.NDS.256.66.0F38.W0 36 /r VPERMD"},
	{"VPSRLVD", 2, 1, 0x45, 0, -1, "rvr", "VEX.NDS.128/256.66.0F38.W0 45 /r VPSRLVD"},
	{"VPSLLVD", 2, 1, 0x47, 0, -1, "rvr", "VEX.NDS.128/256.66.0F38.W0 47 /r VPSLLVD"},
	{"VPSRLQ", 1, 1, 0x73, -1, 2, "irv", "VEX.NDD.128/256.66.0F.WIG 73 /2 ib VPSRLQ"},
	{"VPSLLQ", 1, 1, 0x73, -1, 6, "irv", "VEX.NDD.128/256.66.0F.WIG 73 /6 ib VPSLLQ"},
	{"VPSRLD", 1, 1, 0x72, -1, 2, "irv", "VEX.NDD.128/256.66.0F.WIG 72 /2 ib VPSRLD"},
	{"VPSRAD", 1, 1, 0x72, -1, 4, "irv", "VEX.NDD.128/256.66.0F.WIG 72 /4 ib VPSRAD"},
	{"VPSLLD", 1, 1, 0x72, -1, 6, "irv", "VEX.NDD.128/256.66.0F.WIG 72 /6 ib VPSLLD"},
	{"VPSHUFD", 1, 1, 0x70, -1, -1, "irr", "VEX.128/256.66.0F.WIG 70 /r ib VPSHUFD"},
	{"VPERMQ", 3, 1, 0x00, 1, -1, "irr", "VEX.256.66.0F3A.W1 00 /r ib VPERMQ"},
	{"VPBLENDD", 3, 1, 0x02, 0, -1, "irvr", "VEX.NDS.128/256.66.0F3A.W0 02 /r ib VPBLENDD"},
	{"VPERM2I128", 3, 1, 0x46, 0, -1, "irvr", "VEX.NDS.256.66.0F3A.W0 46 /r ib VPERM2I128"},
	{"VINSERTI128", 3, 1, 0x38, 0, -1, "ixvr", "VEX.NDS.256.66.0F3A.W0 38 /r ib VINSERTI128"},
	{"VEXTRACTI128", 3, 1, 0x39, 0, -1, "iRx", "VEX.256.66.0F3A.W0 39 /r ib VEXTRACTI128"},
	{"VPBROADCASTQ", 2, 1, 0x59, 0, -1, "xr", "VEX.128/256.66.0F38.W0 59 /r VPBROADCASTQ"},
	{"VPBROADCASTD", 2, 1, 0x58, 0, -1, "xr", "VEX.128/256.66.0F38.W0 58 /r VPBROADCASTD"},
	{"VMOVMSKPS", 1, 0, 0x50, -1, -1, "gr", "VEX.128/256.0F.WIG 50 /r VMOVMSKPS"},
	{"VPMOVMSKB", 1, 1, 0xD7, -1, -1, "gr", "VEX.128/256.66.0F.WIG D7 /r VPMOVMSKB"},
	{"VZEROUPPER", 1, 0, 0x77, -1, -1, "-", "VEX.128.0F.WIG 77 VZEROUPPER"},
	// General-register forms: VEX.L must be 0 (LZ, #UD otherwise); only the
	// 64-bit operand size (W1) is accepted.
	{"ANDNQ", 2, 0, 0xF2, 1, -1, "gvg", "VEX.LZ.0F38.W1 F2 /r ANDN r64a, r64b, r/m64"},
	{"RORXQ", 3, 3, 0xF0, 1, -1, "igg", "VEX.LZ.F2.0F3A.W1 F0 /r ib RORX r64, r/m64, imm8"},
}

// vexInsn decodes a VEX-encoded instruction (SDM Vol. 2A, 2.3.5–2.3.6:
// C5 = two-byte VEX with R̄ vvvv̄ L pp, map 0F, W = 0; C4 = three-byte VEX
// with R̄ X̄ B̄ m-mmmm, then W vvvv̄ L pp).
func (d *dec) vexInsn(first byte) (*Insn, error) {
	d.vex = true
	b1, err := d.byte()
	if err != nil {
		return nil, err
	}
	var b2 byte
	if first == 0xC5 {
		d.rexR = b1&0x80 == 0
		b2 = b1
		d.vmap = 1
	} else {
		d.rexR = b1&0x80 == 0
		d.rexX = b1&0x40 == 0
		d.rexB = b1&0x20 == 0
		d.vmap = b1 & 0x1F
		if d.vmap < 1 || d.vmap > 3 {
			return nil, d.errf("VEX map %d not accepted", d.vmap)
		}
		if b2, err = d.byte(); err != nil {
			return nil, err
		}
		d.vW = b2&0x80 != 0
	}
	d.vv = int(^b2>>3) & 15
	d.vL = b2&4 != 0
	d.vpp = b2 & 3
	op, err := d.byte()
	if err != nil {
		return nil, err
	}
	vc := byte('x')
	if d.vL {
		vc = 'y'
	}
	for _, f := range vexForms {
		if f.vmap != d.vmap || f.pp != d.vpp || f.opc != op {
			continue
		}
		d.form = "SDM Vol. 2, " + f.sdm
		if f.w >= 0 && (f.w == 1) != d.vW {
			continue
		}
		if f.layout == "-" {
			if d.vL || d.vv != 0 {
				return nil, d.errf("%s with VEX.L or vvvv set", f.op)
			}
			return insn(f.op), nil
		}
		rmc := vc
		switch f.layout {
		case "xr", "ixvr", "iRx":
			rmc = 'x'
		case "gvg", "igg":
			if d.vL {
				return nil, d.errf("%s with VEX.L = 1 (#UD)", f.op)
			}
			rmc = 'r'
		}
		at := d.p
		mr, err := d.decodeModRM(rmc)
		if err != nil {
			return nil, err
		}
		if f.ext >= 0 && int8(mr.ext) != f.ext {
			d.p = at // another group member may match
			continue
		}
		if (f.op == "VPERMD" || f.op == "VPERMQ" || f.op == "VPERM2I128" || f.op == "VINSERTI128" || f.op == "VEXTRACTI128") && !d.vL {
			return nil, d.errf("%s requires VEX.L = 1 (#UD)", f.op)
		}
		// vvvv must be 1111b (here 0) where the form does not use it.
		usesV := strings.Contains(f.layout, "v")
		if !usesV && d.vv != 0 {
			return nil, d.errf("%s with vvvv ≠ 1111b (#UD)", f.op)
		}
		reg := regOperand(vc, mr.reg)
		vvvv := regOperand(vc, d.vv)
		switch f.layout {
		case "rvr":
			return insn(f.op, mr.rm, vvvv, reg), nil
		case "irv":
			v, err := d.imm(1)
			if err != nil {
				return nil, err
			}
			return insn(f.op, immOperand(v&0xff), mr.rm, vvvv), nil
		case "irr":
			v, err := d.imm(1)
			if err != nil {
				return nil, err
			}
			return insn(f.op, immOperand(v&0xff), mr.rm, reg), nil
		case "irvr", "ixvr":
			v, err := d.imm(1)
			if err != nil {
				return nil, err
			}
			return insn(f.op, immOperand(v&0xff), mr.rm, vvvv, reg), nil
		case "iRx":
			v, err := d.imm(1)
			if err != nil {
				return nil, err
			}
			return insn(f.op, immOperand(v&0xff), reg, mr.rm), nil
		case "rr", "xr":
			return insn(f.op, mr.rm, reg), nil
		case "Rm":
			return insn(f.op, reg, mr.rm), nil
		case "gvg":
			return insn(f.op, mr.rm, regOperand('r', d.vv), regOperand('r', mr.reg)), nil
		case "igg":
			v, err := d.imm(1)
			if err != nil {
				return nil, err
			}
			return insn(f.op, immOperand(v&0xff), mr.rm, regOperand('r', mr.reg)), nil
		case "gr":
			if mr.mem {
				return nil, d.errf("%s from memory (#UD)", f.op)
			}
			return insn(f.op, mr.rm, regOperand('r', mr.reg)), nil
		}
	}
	return nil, d.errf("VEX map %d pp %d opcode %02X W %v not accepted", d.vmap, d.vpp, op, d.vW)
}

func insn(op string, args ...Operand) *Insn {
	return &Insn{Op: op, Args: args}
}

// goText renders an operand in Go assembler syntax.
func (o Operand) goText() string {
	switch o.Kind {
	case KReg:
		return o.Reg.String()
	case KImm:
		return fmt.Sprintf("$%#x", o.Imm)
	case KLabel:
		return o.Label
	case KMem:
		m := o.Mem
		var s string
		switch m.Pseudo {
		case "SB":
			s = fmt.Sprintf("%s+%d(SB)", m.Name, m.Disp)
		case ripTarget:
			s = fmt.Sprintf("%#x(RIP)", m.Disp)
		case callTarget:
			s = fmt.Sprintf("%#x", m.Disp)
		default:
			if m.Disp != 0 {
				s = fmt.Sprintf("%d", m.Disp)
			}
			s += "(" + m.Base.String() + ")"
		}
		if m.Index != NoReg {
			s += fmt.Sprintf("(%s*%d)", m.Index, m.Scale)
		}
		return s
	}
	return "?"
}

func (in *Insn) goText() string {
	var parts []string
	for _, a := range in.Args {
		parts = append(parts, a.goText())
	}
	if len(parts) == 0 {
		return in.Op
	}
	return in.Op + " " + strings.Join(parts, ", ")
}

// ---- AVX-512 (EVEX) ----
//
// The EVEX forms below are accepted at 128, 256 and 512 bits (EVEX.L'L 00,
// 01 or 10; the first two need AVX512VL) on vector registers 0–31
// (EVEX.R', EVEX.V' and, for a register r/m, EVEX.X give bit 4 of the
// register number, SDM Vol. 2A, 2.7.2), without an opmask (aaa = 000),
// zeroing (z = 0) or embedded broadcast/rounding (b = 0). No routine needs
// masking, so the model has no opmask registers and every other EVEX
// encoding is rejected (Spec/SOUNDNESS.md, "AVX-512").

// evexForms are the accepted EVEX opcodes, with vexForm's fields and
// layouts ("rm": reg ← rm; "Rm": rm ← reg); every one is of tuple type
// Full or Full Mem (SDM Vol. 2A, Tables 2-34 and 2-35), so with b = 0 a
// disp8 is scaled by the vector length in bytes.
var evexForms = []vexForm{
	{"VPTERNLOGQ", 3, 1, 0x25, 1, -1, "irvr", "EVEX.128/256/512.66.0F3A.W1 25 /r ib VPTERNLOGQ"},
	{"VPROLQ", 1, 1, 0x72, 1, 1, "irv", "EVEX.128/256/512.66.0F.W1 72 /1 ib VPROLQ"},
	{"VPRORQ", 1, 1, 0x72, 1, 0, "irv", "EVEX.128/256/512.66.0F.W1 72 /0 ib VPRORQ"},
	{"VPXORQ", 1, 1, 0xEF, 1, -1, "rvr", "EVEX.128/256/512.66.0F.W1 EF /r VPXORQ"},
	{"VMOVDQU64", 1, 2, 0x6F, 1, -1, "rm", "EVEX.128/256/512.F3.0F.W1 6F /r VMOVDQU64 xmm1/ymm1/zmm1, xmm2/m128, ymm2/m256, zmm2/m512"},
	{"VMOVDQU64", 1, 2, 0x7F, 1, -1, "Rm", "EVEX.128/256/512.F3.0F.W1 7F /r VMOVDQU64 xmm2/m128, ymm2/m256, zmm2/m512, xmm1/ymm1/zmm1"},
	// The EVEX forms of instructions the model has as VEX (their
	// semantics are the VEX ones, at 512 bits too).
	{"VPADDD", 1, 1, 0xFE, 0, -1, "rvr", "EVEX.128/256/512.66.0F.W0 FE /r VPADDD"},
	{"VPSUBD", 1, 1, 0xFA, 0, -1, "rvr", "EVEX.128/256/512.66.0F.W0 FA /r VPSUBD"},
	{"VPADDQ", 1, 1, 0xD4, 1, -1, "rvr", "EVEX.128/256/512.66.0F.W1 D4 /r VPADDQ"},
	{"VPMULDQ", 2, 1, 0x28, 1, -1, "rvr", "EVEX.128/256/512.66.0F38.W1 28 /r VPMULDQ"},
	{"VPMULUDQ", 1, 1, 0xF4, 1, -1, "rvr", "EVEX.128/256/512.66.0F.W1 F4 /r VPMULUDQ"},
	{"VPMULLD", 2, 1, 0x40, 0, -1, "rvr", "EVEX.128/256/512.66.0F38.W0 40 /r VPMULLD"},
	{"VPUNPCKLQDQ", 1, 1, 0x6C, 1, -1, "rvr", "EVEX.128/256/512.66.0F.W1 6C /r VPUNPCKLQDQ"},
	{"VPUNPCKHQDQ", 1, 1, 0x6D, 1, -1, "rvr", "EVEX.128/256/512.66.0F.W1 6D /r VPUNPCKHQDQ"},
	{"VPUNPCKLDQ", 1, 1, 0x62, 0, -1, "rvr", "EVEX.128/256/512.66.0F.W0 62 /r VPUNPCKLDQ"},
	{"VPUNPCKHDQ", 1, 1, 0x6A, 0, -1, "rvr", "EVEX.128/256/512.66.0F.W0 6A /r VPUNPCKHDQ"},
	{"VPSRLQ", 1, 1, 0x73, 1, 2, "irv", "EVEX.128/256/512.66.0F.W1 73 /2 ib VPSRLQ"},
	{"VPSLLQ", 1, 1, 0x73, 1, 6, "irv", "EVEX.128/256/512.66.0F.W1 73 /6 ib VPSLLQ"},
	{"VPSRLD", 1, 1, 0x72, 0, 2, "irv", "EVEX.128/256/512.66.0F.W0 72 /2 ib VPSRLD"},
	{"VPSRAD", 1, 1, 0x72, 0, 4, "irv", "EVEX.128/256/512.66.0F.W0 72 /4 ib VPSRAD"},
	{"VPSLLD", 1, 1, 0x72, 0, 6, "irv", "EVEX.128/256/512.66.0F.W0 72 /6 ib VPSLLD"},
	{"VPSHUFD", 1, 1, 0x70, 0, -1, "irr", "EVEX.128/256/512.66.0F.W0 70 /r ib VPSHUFD"},
	{"VSHUFI64X2", 3, 1, 0x43, 1, -1, "irvr", "EVEX.256/512.66.0F3A.W1 43 /r ib VSHUFI64X2"},
	{"VPERMT2D", 2, 1, 0x7E, 0, -1, "rvr", "EVEX.128/256/512.66.0F38.W0 7E /r VPERMT2D"},
}

// evexInsn decodes an EVEX-encoded instruction after its 62 byte (SDM Vol.
// 2A, 2.7.1, Table 2-30): P0 = R̄ X̄ B̄ R̄' 0 0 m m; P1 = W vvvv̄ 1 pp;
// P2 = z L'L b V̄' aaa.
func (d *dec) evexInsn() (*Insn, error) {
	d.vex = true
	var p [3]byte
	for i := range p {
		b, err := d.byte()
		if err != nil {
			return nil, err
		}
		p[i] = b
	}
	d.rexR = p[0]&0x80 == 0
	d.rexX = p[0]&0x40 == 0
	d.rexB = p[0]&0x20 == 0
	highR := p[0]&0x10 == 0 // R': ModRM.reg + 16
	if p[0]&0x0C != 0 {
		return nil, d.errf("EVEX P0 bits 3:2 not 00")
	}
	d.vmap = p[0] & 3
	if d.vmap == 0 {
		return nil, d.errf("EVEX map 0 not accepted")
	}
	d.vW = p[1]&0x80 != 0
	d.vv = int(^p[1]>>3) & 15
	if p[1]&4 == 0 {
		return nil, d.errf("EVEX P1 bit 2 not 1 (#UD)")
	}
	d.vpp = p[1] & 3
	z, ll, bc, highV, aaa := p[2]&0x80 != 0, p[2]>>5&3, p[2]&0x10 != 0, p[2]&8 == 0, p[2]&7
	switch {
	case aaa != 0:
		return nil, d.errf("EVEX opmask k%d not accepted", aaa)
	case z:
		return nil, d.errf("EVEX zeroing-masking not accepted")
	case bc:
		return nil, d.errf("EVEX.b (broadcast or embedded rounding) not accepted")
	case ll > 2:
		return nil, d.errf("EVEX.L'L = 11 (reserved, #UD)")
	}
	if highV {
		d.vv += 16
	}
	d.vL = ll == 1
	vc, n := [3]byte{'x', 'y', 'z'}[ll], 16<<ll
	d.disp8N = n
	op, err := d.byte()
	if err != nil {
		return nil, err
	}
	for _, f := range evexForms {
		if f.vmap != d.vmap || f.pp != d.vpp || f.opc != op || (f.w == 1) != d.vW {
			continue
		}
		at := d.p
		mr, err := d.decodeModRM(vc)
		if err != nil {
			return nil, err
		}
		if f.ext >= 0 && int8(mr.ext) != f.ext {
			d.p = at // another group member may match
			continue
		}
		if !mr.mem && d.rexX {
			// EVEX.X is bit 4 of a register r/m (2.7.2).
			mr.rm = regOperand(vc, mr.rm.Reg.Vec()+16)
		}
		if highR {
			if f.ext >= 0 {
				// ModRM.reg is an opcode extension here; R' is kept
				// at its encoders' value 1.
				return nil, d.errf("%s with EVEX.R' = 0 not accepted", f.op)
			}
			mr.reg += 16
		}
		// vvvv and V' must be 1111b and 1 (here 0) where the form does not
		// use them (2.7.2).
		if !strings.Contains(f.layout, "v") && d.vv != 0 {
			return nil, d.errf("%s with EVEX.V'vvvv ≠ 11111b (#UD)", f.op)
		}
		if f.op == "VSHUFI64X2" && ll == 0 {
			return nil, d.errf("VSHUFI64X2 with EVEX.L'L = 00 (no 128-bit form, #UD)")
		}
		d.form = "SDM Vol. 2, " + f.sdm
		reg, vvvv := regOperand(vc, mr.reg), regOperand(vc, d.vv)
		var in *Insn
		switch f.layout {
		case "rvr":
			in = insn(f.op, mr.rm, vvvv, reg)
		case "rm":
			in = insn(f.op, mr.rm, reg)
		case "Rm":
			in = insn(f.op, reg, mr.rm)
		default:
			v, err := d.imm(1)
			if err != nil {
				return nil, err
			}
			switch f.layout {
			case "irvr":
				in = insn(f.op, immOperand(v&0xff), mr.rm, vvvv, reg)
			case "irv":
				in = insn(f.op, immOperand(v&0xff), mr.rm, vvvv)
			case "irr":
				in = insn(f.op, immOperand(v&0xff), mr.rm, reg)
			default:
				return nil, d.errf("internal: EVEX layout %q", f.layout)
			}
		}
		in.evex = true
		return in, nil
	}
	return nil, d.errf("EVEX map %d pp %d opcode %02X W %v not accepted", d.vmap, d.vpp, op, d.vW)
}
