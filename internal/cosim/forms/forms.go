// Package forms reads Go amd64 assembler text, names the instruction form of
// each line (mnemonic and operand kinds, e.g. "VPXOR ymm, ymm, ymm" or
// "MOVQ m64, r64") and reduces the lines of a form to a few representative
// instructions for cosimulation.
//
// A representative renames registers canonically (keeping which operands
// alias each other), replaces memory operands by a base register with an
// optional index and a displacement of 0 or ±24, keeps every immediate value
// the input uses and sends branches to the label "taken". The cosimulation
// generator (internal/cosim/gen) and its test both use this package, so the
// test can tell whether every form of go/asm has a harness.
package forms

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/vg-crypto/vg/Spec/x86"
)

// Operand is one operand of an instruction line.
type Operand struct {
	Kind  string // r64 r32 r16 r8 cl xmm ymm zmm imm m8 m16 m32 m64 m128 m256 m512 label
	Text  string // as written
	Reg   string // register family ("AX", "R8", "X3" for both X3 and Y3); "" if none
	Imm   int64  // immediate value when Kind is "imm"
	Mem   *Mem   // memory operand when Kind starts with "m"
	Label string // branch target when Kind is "label"
}

// Mem is a memory operand disp(Base)(Index*Scale), or sym+disp(SB|FP|SP).
type Mem struct {
	Sym   string // symbol name, "" if none
	Disp  int64
	Base  string // register family or "SB", "FP", "SP"; "" if none
	Index string // register family, "" if none
	Scale int
}

// Insn is one instruction line.
type Insn struct {
	File     string
	Routine  string // the TEXT symbol the line belongs to
	Line     int
	Text     string // trimmed, comment removed
	Mnemonic string
	Ops      []Operand
}

// Form is the instruction form: mnemonic and operand kinds in Go order.
func (in Insn) Form() string {
	if len(in.Ops) == 0 {
		return in.Mnemonic
	}
	k := make([]string, len(in.Ops))
	for i, o := range in.Ops {
		k[i] = o.Kind
	}
	return in.Mnemonic + " " + strings.Join(k, ", ")
}

// MemOp returns the memory operand of in, or nil.
func (in Insn) MemOp() *Mem {
	for _, o := range in.Ops {
		if o.Mem != nil {
			return o.Mem
		}
	}
	return nil
}

// MemWidth returns the width in bits of the memory operand, 0 if none.
func (in Insn) MemWidth() int {
	for _, o := range in.Ops {
		if o.Mem != nil {
			w, _ := strconv.Atoi(o.Kind[1:])
			return w
		}
	}
	return 0
}

// IsBranch reports whether in is a jump (conditional or not).
// Wide reports whether a sequence holds an AVX-512 (EVEX) instruction: an
// EVEX-only mnemonic, or any naming a zmm register or a vector register
// 16–31, which only EVEX encodes. Its harness loads and stores zmm0–31
// (all 512 bits of 32 registers), so that the bits above 256 and the
// registers 16–31 are compared too.
func Wide(ins []Insn) bool {
	for _, in := range ins {
		if inf, ok := x86.Lookup(in.Mnemonic); ok && strings.HasPrefix(inf.Feature, "AVX512") {
			return true
		}
		for _, o := range in.Ops {
			n, err := strconv.Atoi(strings.TrimPrefix(o.Reg, "X"))
			if o.Kind == "zmm" || (o.Kind == "xmm" || o.Kind == "ymm") && err == nil && n >= 16 {
				return true
			}
		}
	}
	return false
}

func (in Insn) IsBranch() bool { return strings.HasPrefix(in.Mnemonic, "J") }

// byteName is the Go name of the low byte of each 64-bit register.
var byteName = map[string]string{
	"AX": "AL", "BX": "BL", "CX": "CL", "DX": "DL",
	"SI": "SIB", "DI": "DIB", "BP": "BPB", "SP": "SPB",
	"R8": "R8B", "R9": "R9B", "R10": "R10B", "R11": "R11B",
	"R12": "R12B", "R13": "R13B", "R14": "R14B", "R15": "R15B",
}

// GPRs in the order of their hardware numbers (Go's REG_AX... order).
var GPRs = []string{"AX", "CX", "DX", "BX", "SP", "BP", "SI", "DI",
	"R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15"}

// ParseFile returns the instruction lines of one .s file.
func ParseFile(name string) ([]Insn, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var out []Insn
	routine := ""
	for i, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "TEXT" {
			routine = strings.TrimSuffix(f[1], ",")
		}
		in, ok, err := ParseLine(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, i+1, err)
		}
		if ok {
			in.File, in.Line, in.Routine = filepath.Base(name), i+1, routine
			out = append(out, in)
		}
	}
	return out, nil
}

// Collect returns the instruction lines of every .s file in dir, in file order.
func Collect(dir string) ([]Insn, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.s"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no .s files in %s", dir)
	}
	sort.Strings(files)
	var out []Insn
	for _, f := range files {
		ins, err := ParseFile(f)
		if err != nil {
			return nil, err
		}
		out = append(out, ins...)
	}
	return out, nil
}

// directives are lines that are not instructions (NO_LOCAL_POINTERS is
// funcdata.h's FUNCDATA macro).
var directives = map[string]bool{
	"TEXT": true, "DATA": true, "GLOBL": true, "PCDATA": true, "FUNCDATA": true, "NO_LOCAL_POINTERS": true,
}

// ParseLine parses one line of Go assembler. ok is false for blank lines,
// comments, directives and labels. The instruction itself is read by
// Spec/x86's parser (x86.ParseInsn), so that this package accepts exactly
// the instructions and operand forms the model does; Operand's kinds add
// the widths the mnemonic implies.
func ParseLine(line string) (in Insn, ok bool, err error) {
	if i := strings.Index(line, "//"); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimSpace(line)
	// A label may precede an instruction on the same line.
	if i := strings.Index(line, ":"); i > 0 && isIdent(line[:i]) {
		line = strings.TrimSpace(line[i+1:])
	}
	if line == "" || strings.HasPrefix(line, "#") {
		return in, false, nil
	}
	if strings.Contains(line, ";") {
		return in, false, fmt.Errorf("several instructions on one line: %q", line)
	}
	if mn, _, _ := strings.Cut(strings.ReplaceAll(line, "\t", " "), " "); directives[mn] {
		return in, false, nil
	}
	x, err := x86.ParseInsn(line)
	if err != nil {
		return in, false, fmt.Errorf("%q: %v", line, err)
	}
	in.Text, in.Mnemonic = line, x.Op
	for _, a := range x.Args {
		in.Ops = append(in.Ops, operand(a))
	}
	if err := classify(&in); err != nil {
		return in, false, fmt.Errorf("%q: %v", line, err)
	}
	return in, true, nil
}

func isIdent(s string) bool {
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// operand gives a parsed operand its syntactic kind; classify refines
// register and memory widths from the mnemonic.
func operand(a x86.Operand) Operand {
	o := Operand{Text: a.Text}
	switch a.Kind {
	case x86.KImm:
		o.Kind, o.Imm = "imm", a.Imm
	case x86.KLabel:
		o.Kind, o.Label = "label", a.Label
	case x86.KMem:
		m := &Mem{Sym: a.Mem.Name, Disp: a.Mem.Disp, Base: a.Mem.Pseudo, Scale: a.Mem.Scale}
		if m.Base == "" {
			m.Base = a.Mem.Base.String()
		}
		if a.Mem.Index != x86.NoReg {
			m.Index = a.Mem.Index.String()
		}
		o.Kind, o.Mem = "mem", m
	case x86.KReg:
		switch r := a.Reg; {
		case r.IsX(), r.IsY(), r.IsZ():
			o.Reg = fmt.Sprintf("X%d", r.Vec())
			o.Kind = "xmm"
			if r.IsY() {
				o.Kind = "ymm"
			} else if r.IsZ() {
				o.Kind = "zmm"
			}
		case r.IsByte():
			o.Kind, o.Reg = "gpr", r.GPR().String()
		default:
			o.Kind, o.Reg = "gpr", r.String()
		}
	}
	return o
}

// gprWidths gives the widths of GPR (or scalar memory) operands of the
// mnemonics whose widths do not follow the last letter of their name.
var gprWidths = map[string][]int{
	"MOVBLZX": {8, 32}, "MOVBQZX": {8, 64}, "MOVWLZX": {16, 32},
	"MOVWQZX": {16, 64}, "MOVLQZX": {32, 64},
	"VPMOVMSKB": {0, 32}, "VMOVMSKPS": {0, 32}, "MOVMSKPS": {0, 32}, "PMOVMSKB": {0, 32},
}

// vecMemWidths gives the memory width of vector mnemonics whose memory
// operand is narrower than their register operands.
var vecMemWidths = map[string]int{
	"VPBROADCASTQ": 64, "VPBROADCASTD": 32, "VINSERTI128": 128,
	"VEXTRACTI128": 128, "MOVQ": 64, "STMXCSR": 32, "LDMXCSR": 32,
	"VPSLLQ": 128, "VPSRLQ": 128, "VPSLLD": 128, "VPSRLD": 128, "VPSRAD": 128,
}

// scalarWidth is the operand width a GPR mnemonic implies by its name.
func scalarWidth(mn string) int {
	switch {
	case strings.HasPrefix(mn, "SET"):
		return 8
	case strings.HasPrefix(mn, "CMOVQ"):
		return 64
	case strings.HasPrefix(mn, "CMOVL"):
		return 32
	}
	switch mn[len(mn)-1] {
	case 'Q':
		return 64
	case 'L':
		return 32
	case 'W':
		return 16
	case 'B':
		return 8
	}
	return 0
}

// classify turns "gpr" and "mem" kinds into sized kinds.
func classify(in *Insn) error {
	mn := in.Mnemonic
	vec := false
	vecWidth := 0
	for _, o := range in.Ops {
		switch o.Kind {
		case "xmm":
			vec = true
			vecWidth = max(vecWidth, 128)
		case "ymm":
			vec = true
			vecWidth = max(vecWidth, 256)
		case "zmm":
			vec = true
			vecWidth = max(vecWidth, 512)
		}
	}
	isShift := strings.HasPrefix(mn, "SH") || strings.HasPrefix(mn, "SA") || strings.HasPrefix(mn, "RO")
	for i := range in.Ops {
		o := &in.Ops[i]
		w := 0
		if ws, ok := gprWidths[mn]; ok && len(ws) == len(in.Ops) {
			w = ws[i]
		} else if vec {
			w = 64 // MOVQ between a GPR and an xmm
			if mn == "VPMOVMSKB" || mn == "VMOVMSKPS" {
				w = 32
			}
		} else {
			w = scalarWidth(mn)
		}
		switch o.Kind {
		case "gpr":
			if isShift && i == 0 && len(in.Ops) == 2 {
				if o.Reg != "CX" {
					return fmt.Errorf("shift count in %s, not CX", o.Text)
				}
				o.Kind = "cl"
				continue
			}
			if w == 0 {
				return fmt.Errorf("width of %s in %s unknown", o.Text, mn)
			}
			o.Kind = fmt.Sprintf("r%d", w)
		case "mem":
			switch {
			case vecMemWidths[mn] != 0:
				w = vecMemWidths[mn]
			case vec:
				w = vecWidth
			case mn == "MOVOU" || mn == "MOVO" || strings.HasPrefix(mn, "P"):
				w = 128
			case mn == "LEAQ":
				w = 64 // LEAQ computes an address; "m64" names the operand
			}
			if w == 0 {
				return fmt.Errorf("width of %s in %s unknown", o.Text, mn)
			}
			o.Kind = fmt.Sprintf("m%d", w)
		}
	}
	return nil
}
