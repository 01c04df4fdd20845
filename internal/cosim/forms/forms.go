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
)

// Operand is one operand of an instruction line.
type Operand struct {
	Kind  string // r64 r32 r16 r8 cl xmm ymm imm m8 m16 m32 m64 m128 m256 label
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
func (in Insn) IsBranch() bool { return strings.HasPrefix(in.Mnemonic, "J") }

// gprFamily maps every GPR name Go's assembler accepts to its 64-bit register.
var gprFamily = map[string]string{}

// byteName is the Go name of the low byte of each 64-bit register.
var byteName = map[string]string{
	"AX": "AL", "BX": "BL", "CX": "CL", "DX": "DL",
	"SI": "SIB", "DI": "DIB", "BP": "BPB", "SP": "SPB",
}

func init() {
	for _, r := range []string{"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP"} {
		gprFamily[r] = r
		gprFamily[byteName[r]] = r
	}
	for i := 8; i < 16; i++ {
		r := fmt.Sprintf("R%d", i)
		gprFamily[r] = r
		gprFamily[r+"B"] = r
		byteName[r] = r + "B"
	}
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

// directives are lines that are not instructions.
var directives = map[string]bool{
	"TEXT": true, "DATA": true, "GLOBL": true, "PCDATA": true, "FUNCDATA": true,
}

// ParseLine parses one line of Go assembler. ok is false for blank lines,
// comments, directives and labels.
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
	mn, rest, _ := strings.Cut(line, " ")
	if i := strings.IndexByte(mn, '\t'); i >= 0 {
		mn, rest = line[:i], line[i+1:]
	}
	if directives[mn] {
		return in, false, nil
	}
	in.Text, in.Mnemonic = line, mn
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return in, true, nil
	}
	for _, t := range splitOperands(rest) {
		op, err := parseOperand(strings.TrimSpace(t))
		if err != nil {
			return in, false, fmt.Errorf("%q: %v", line, err)
		}
		in.Ops = append(in.Ops, op)
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

// splitOperands splits at commas outside parentheses.
func splitOperands(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// parseOperand gives the operand its syntactic kind; classify refines
// register and memory widths from the mnemonic.
func parseOperand(s string) (Operand, error) {
	o := Operand{Text: s}
	switch {
	case s == "":
		return o, fmt.Errorf("empty operand")
	case s[0] == '$':
		v, err := parseInt(s[1:])
		if err != nil {
			return o, fmt.Errorf("immediate %q: %v", s, err)
		}
		o.Kind, o.Imm = "imm", v
	case gprFamily[s] != "":
		o.Kind, o.Reg = "gpr", gprFamily[s]
	case isVec(s):
		o.Reg = "X" + s[1:]
		o.Kind = map[byte]string{'X': "xmm", 'Y': "ymm"}[s[0]]
	case strings.Contains(s, "("):
		m, err := parseMem(s)
		if err != nil {
			return o, err
		}
		o.Kind, o.Mem = "mem", m
	case isIdent(s):
		o.Kind, o.Label = "label", s
	default:
		return o, fmt.Errorf("operand %q not understood", s)
	}
	return o, nil
}

func isVec(s string) bool {
	if len(s) < 2 || (s[0] != 'X' && s[0] != 'Y') {
		return false
	}
	n, err := strconv.Atoi(s[1:])
	return err == nil && n >= 0 && n < 16 && strconv.Itoa(n) == s[1:]
}

func parseInt(s string) (int64, error) {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(strings.TrimPrefix(s, "("), ")")
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	u, err := strconv.ParseUint(s, 0, 64)
	if err != nil {
		return 0, err
	}
	if neg {
		return -int64(u), nil
	}
	return int64(u), nil
}

// parseMem parses [sym][+-disp](base)[(index*scale)].
func parseMem(s string) (*Mem, error) {
	m := &Mem{Scale: 1}
	i := strings.Index(s, "(")
	head, tail := s[:i], s[i:]
	if head != "" {
		sym, off := head, ""
		if j := strings.LastIndexAny(head, "+-"); j >= 0 {
			sym, off = head[:j], head[j:]
		}
		if sym != "" && !isDigit(sym[0]) && sym[0] != '-' {
			m.Sym = sym
		} else {
			sym, off = "", head
		}
		if off != "" {
			d, err := parseInt(strings.TrimPrefix(off, "+"))
			if err != nil {
				return nil, fmt.Errorf("displacement in %q: %v", s, err)
			}
			m.Disp = d
		}
	}
	parts := strings.Split(strings.TrimSuffix(strings.TrimPrefix(tail, "("), ")"), ")(")
	if len(parts) > 2 {
		return nil, fmt.Errorf("memory operand %q not understood", s)
	}
	switch b := parts[0]; {
	case b == "SB" || b == "FP" || b == "SP" && m.Sym != "":
		m.Base = b
	case gprFamily[b] != "" && b == gprFamily[b]:
		m.Base = b
	default:
		return nil, fmt.Errorf("base %q in %q", b, s)
	}
	if len(parts) == 2 {
		idx, sc, ok := strings.Cut(parts[1], "*")
		if !ok || gprFamily[idx] != idx {
			return nil, fmt.Errorf("index in %q", s)
		}
		n, err := strconv.Atoi(sc)
		if err != nil || (n != 1 && n != 2 && n != 4 && n != 8) {
			return nil, fmt.Errorf("scale in %q", s)
		}
		m.Index, m.Scale = idx, n
	}
	return m, nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

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
