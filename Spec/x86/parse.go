package x86

import (
	"fmt"
	"strconv"
	"strings"
)

// Reg names a machine register: the 16 general purpose registers in
// encoding order (AX=0 … R15=15), then X0–X15 (16–31), then Y0–Y15
// (32–47), the byte registers (48–63), X16–X31 (64–79), Y16–Y31 (80–95)
// and Z0–Z31 (96–127). X, Y and Z registers name the same vector register
// at 128, 256 and 512 bits; registers 16–31 exist only for EVEX forms.
type Reg int8

// NoReg marks an absent base or index register.
const NoReg Reg = -1

var gprNames = [16]string{"AX", "CX", "DX", "BX", "SP", "BP", "SI", "DI",
	"R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15"}

// Register numbers used by the semantics.
const (
	AX Reg = iota
	CX
	DX
	BX
	SP
	BP
	SI
	DI
)

// IsGPR, IsX, IsY, IsZ and IsByte classify a register.
func (r Reg) IsGPR() bool  { return r >= 0 && r < 16 }
func (r Reg) IsX() bool    { return r >= 16 && r < 32 || r >= 64 && r < 80 }
func (r Reg) IsY() bool    { return r >= 32 && r < 48 || r >= 80 && r < 96 }
func (r Reg) IsZ() bool    { return r >= 96 }
func (r Reg) IsByte() bool { return r >= 48 && r < 64 }

// Byte registers (48–63) name the low byte of a general register, in its
// encoding order: Go's AL, CL, DL, BL, SPB, BPB, SIB, DIB, R8B–R15B (SDM
// Vol. 2A, Table 3-1, the r8 column with a REX prefix). AH–BH are not
// modelled. They are operands only (of SETcc); ParseReg, which reads the
// register names of hints, does not accept them.
var byteNames = [16]string{"AL", "CL", "DL", "BL", "SPB", "BPB", "SIB", "DIB",
	"R8B", "R9B", "R10B", "R11B", "R12B", "R13B", "R14B", "R15B"}

// GPR returns the general register whose low byte the byte register r is.
func (r Reg) GPR() Reg { return r - 48 }

// parseByteReg parses a byte register name.
func parseByteReg(s string) (Reg, bool) {
	for i, n := range byteNames {
		if s == n {
			return Reg(48 + i), true
		}
	}
	return NoReg, false
}

// Vec returns the vector register number 0–31 of an X, Y or Z register.
func (r Reg) Vec() int {
	switch {
	case r >= 96:
		return int(r) - 96
	case r >= 64:
		return int(r)&15 + 16
	}
	return int(r) & 15
}

// vecReg returns vector register n (0–31) at class 'x', 'y' or 'z'.
func vecReg(class byte, n int) Reg {
	switch {
	case class == 'z':
		return Reg(96 + n)
	case n >= 16 && class == 'x':
		return Reg(64 + n - 16)
	case n >= 16:
		return Reg(80 + n - 16)
	case class == 'x':
		return Reg(16 + n)
	}
	return Reg(32 + n)
}

func (r Reg) String() string {
	switch {
	case r.IsGPR():
		return gprNames[r]
	case r.IsX():
		return fmt.Sprintf("X%d", r.Vec())
	case r.IsY():
		return fmt.Sprintf("Y%d", r.Vec())
	case r.IsZ():
		return fmt.Sprintf("Z%d", r.Vec())
	case r.IsByte():
		return byteNames[r-48]
	}
	return "none"
}

// ParseReg parses a Go assembler register name.
func ParseReg(s string) (Reg, bool) {
	for i, n := range gprNames {
		if s == n {
			return Reg(i), true
		}
	}
	if len(s) >= 2 && (s[0] == 'X' || s[0] == 'Y' || s[0] == 'Z') {
		n, err := strconv.Atoi(s[1:])
		if err == nil && n >= 0 && n < 32 && strconv.Itoa(n) == s[1:] {
			return vecReg(s[0]+'x'-'X', n), true
		}
	}
	return NoReg, false
}

// OpKind is the kind of an operand.
type OpKind int

// Operand kinds.
const (
	KReg   OpKind = iota // AX, X3, Y7, AL
	KImm                 // $123, $-1, $0x1f
	KMem                 // off(base)(index*scale), name+off(FP), sym<>+off(SB)
	KLabel               // branch target
	KAddr                // $sym<>(SB): address of a symbol (unused by avo; rejected by semantics)
)

// Mem is a memory operand. Pseudo is "FP", "SB" or "" (hardware
// registers); Name is the symbol (argument name for FP, data symbol for SB,
// local name for the pseudo-SP form name-8(SP)).
type Mem struct {
	Base   Reg
	Index  Reg
	Scale  int
	Disp   int64
	Pseudo string
	Name   string
	// DispBytes is the size of a decoded displacement (0, 1 or 4).
	DispBytes int
}

// Operand is one parsed operand.
type Operand struct {
	Kind  OpKind
	Reg   Reg
	Imm   int64
	Mem   Mem
	Label string
	Text  string
}

// Insn is one instruction line. Op is the Go mnemonic; Args are in Go's
// order (sources first, destination last).
type Insn struct {
	Op   string
	Args []Operand
	File string
	Line int
	Text string
	// Off is the byte offset in the routine of a decoded instruction.
	Off int
	// Form cites the SDM opcode line a decoded instruction matched.
	Form string
	code opcode
	// evex: EVEX-encoded (decoded from an EVEX prefix; parsed, when an
	// operand is a zmm register or a vector register 16–31, which only
	// EVEX encodes). An EVEX form needs AVX512F (Features).
	evex bool
}

// Pos returns "file:line".
func (in *Insn) Pos() string { return fmt.Sprintf("%s:%d", in.File, in.Line) }

func (in *Insn) String() string { return fmt.Sprintf("%s: %s", in.Pos(), in.Text) }

// Routine is one TEXT symbol: its instructions and labels.
type Routine struct {
	Name     string // without the leading middle dot
	Flags    string // e.g. "NOSPLIT"
	Frame    int    // $frame
	ArgSize  int    // -args
	Requires []string
	Insns    []*Insn
	Labels   map[string]int // label → index of the next instruction
	File     string
	Line     int
	// Prologue is set for a routine decoded from machine code: the
	// assembler's prologue and epilogue are among Insns, and SP at entry
	// points at the return address. A routine parsed from text leaves
	// them implicit (Frame bytes of frame below a saved BP).
	Prologue bool
	// Code is the machine code of a decoded routine, Addr its address;
	// the model runs Code[Start:End] (after the stack-bound check).
	Code       []byte
	Addr       uint64
	Start, End int
	// StackCheck is set for a decoded routine that begins with the Go
	// linker's stack-bound check (it grows the goroutine's stack itself
	// before using it), with StackBound the bytes below SP it allows.
	StackCheck bool
	StackBound int64
	// NoLocalPointers: the text declares NO_LOCAL_POINTERS (read from the
	// text, like Requires).
	NoLocalPointers bool
	// NoEscape: the routine's Go declaration has //go:noescape, so Go
	// callers may pass it buffers on the goroutine stack, which move
	// when the stack does (read from the declaration by Spec/check).
	NoEscape bool
}

// Data is a DATA/GLOBL symbol: a read-only table.
type Data struct {
	Name  string
	Size  int
	Flags string
	Bytes []byte
	set   []bool
	Line  int
	Addr  uint64 // address in the binary, for decoded data
}

// File is a parsed assembly file.
type File struct {
	Name     string
	Routines []*Routine
	Data     map[string]*Data
}

// Routine returns the routine called name, or nil.
func (f *File) Routine(name string) *Routine {
	for _, r := range f.Routines {
		if r.Name == name {
			return r
		}
	}
	return nil
}

// ParseError is an error at a position in an assembly file.
type ParseError struct {
	File string
	Line int
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// ParseFile parses a Go amd64 assembly file in the subset avo emits:
// #include, TEXT, DATA, GLOBL, labels, instructions and // comments (a
// "// Requires: A, B" comment before TEXT names its CPU features). Anything
// else is an error naming file:line.
func ParseFile(name, src string) (*File, error) {
	f := &File{Name: name, Data: map[string]*Data{}}
	var cur *Routine
	var requires []string
	for i, raw := range strings.Split(src, "\n") {
		line := i + 1
		perr := func(format string, a ...any) error {
			return &ParseError{name, line, fmt.Sprintf(format, a...)}
		}
		text := strings.TrimSpace(raw)
		if c := strings.Index(text, "//"); c >= 0 {
			comment := strings.TrimSpace(text[c+2:])
			if rest, ok := strings.CutPrefix(comment, "Requires:"); ok && c == 0 {
				requires = nil
				for _, ft := range strings.Split(rest, ",") {
					if ft = strings.TrimSpace(ft); ft != "" {
						requires = append(requires, ft)
					}
				}
			}
			text = strings.TrimSpace(text[:c])
		}
		if text == "" {
			continue
		}
		if strings.HasPrefix(text, "#include") {
			continue
		}
		// Labels: "name:" alone or before an instruction.
		if c := strings.Index(text, ":"); c > 0 && isIdent(text[:c]) {
			if cur == nil {
				return nil, perr("label outside TEXT")
			}
			lab := text[:c]
			if _, dup := cur.Labels[lab]; dup {
				return nil, perr("duplicate label %s", lab)
			}
			cur.Labels[lab] = len(cur.Insns)
			text = strings.TrimSpace(text[c+1:])
			if text == "" {
				continue
			}
		}
		op, rest, _ := strings.Cut(text, " ")
		if j := strings.IndexByte(op, '\t'); j >= 0 {
			op, rest = op[:j], op[j+1:]+" "+rest
		}
		rest = strings.TrimSpace(rest)
		args := splitArgs(rest)
		switch op {
		case "TEXT":
			r, err := parseText(args)
			if err != nil {
				return nil, perr("%v", err)
			}
			r.File, r.Line, r.Requires = name, line, requires
			requires = nil
			if f.Routine(r.Name) != nil {
				return nil, perr("duplicate TEXT %s", r.Name)
			}
			f.Routines = append(f.Routines, r)
			cur = r
		case "DATA":
			if err := parseDataLine(f, args, line); err != nil {
				return nil, perr("%v", err)
			}
		case "GLOBL":
			if err := parseGlobl(f, args, line); err != nil {
				return nil, perr("%v", err)
			}
			cur = nil
		case "NO_LOCAL_POINTERS":
			// funcdata.h's macro: the frame holds no pointer the garbage
			// collector must see. No machine code.
			if cur == nil || len(args) != 0 || len(cur.Insns) != 0 {
				return nil, perr("NO_LOCAL_POINTERS must open a TEXT body")
			}
			cur.NoLocalPointers = true
		default:
			if cur == nil {
				return nil, perr("instruction outside TEXT: %s", text)
			}
			in, err := parseInsn(op, args)
			if err != nil {
				return nil, perr("%v", err)
			}
			in.File, in.Line, in.Text = name, line, text
			cur.Insns = append(cur.Insns, in)
		}
	}
	for _, r := range f.Routines {
		for _, in := range r.Insns {
			for _, a := range in.Args {
				if a.Kind == KLabel {
					if _, ok := r.Labels[a.Label]; !ok {
						return nil, &ParseError{name, in.Line, "undefined label " + a.Label}
					}
				}
			}
		}
	}
	for _, d := range f.Data {
		if d.Size == 0 {
			return nil, &ParseError{name, d.Line, "DATA " + d.Name + " without GLOBL"}
		}
	}
	return f, nil
}

// ParseInsn parses a single instruction line such as "VPXOR Y1, Y2, Y3" or
// "MOVQ a+0(FP), AX". Branch targets are accepted as labels without being
// resolved.
func ParseInsn(line string) (*Insn, error) {
	text := strings.TrimSpace(line)
	if c := strings.Index(text, "//"); c >= 0 {
		text = strings.TrimSpace(text[:c])
	}
	op, rest, _ := strings.Cut(text, " ")
	in, err := parseInsn(op, splitArgs(strings.TrimSpace(rest)))
	if err != nil {
		return nil, err
	}
	in.File, in.Line, in.Text = "<line>", 1, text
	return in, nil
}

func splitArgs(s string) []string {
	if s == "" {
		return nil
	}
	parts := strings.Split(s, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		ok := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9'
		if !ok {
			return false
		}
	}
	return true
}

// parseText parses "·Name(SB), NOSPLIT, $frame-args".
func parseText(args []string) (*Routine, error) {
	if len(args) < 2 || len(args) > 3 {
		return nil, fmt.Errorf("TEXT: want symbol, [flags,] $frame-args")
	}
	sym := args[0]
	if !strings.HasSuffix(sym, "(SB)") {
		return nil, fmt.Errorf("TEXT symbol %q not (SB)", sym)
	}
	sym = strings.TrimSuffix(sym, "(SB)")
	sym = strings.TrimPrefix(sym, "·")
	if !isIdent(sym) {
		return nil, fmt.Errorf("TEXT symbol %q", args[0])
	}
	r := &Routine{Name: sym, Labels: map[string]int{}}
	size := args[len(args)-1]
	if len(args) == 3 {
		r.Flags = args[1]
	}
	fa, ok := strings.CutPrefix(size, "$")
	if !ok {
		return nil, fmt.Errorf("TEXT size %q", size)
	}
	fs, as, ok := strings.Cut(fa, "-")
	if !ok {
		return nil, fmt.Errorf("TEXT size %q lacks -args", size)
	}
	var err error
	if r.Frame, err = strconv.Atoi(fs); err != nil || r.Frame < 0 {
		return nil, fmt.Errorf("TEXT frame %q", fs)
	}
	if r.ArgSize, err = strconv.Atoi(as); err != nil || r.ArgSize < 0 {
		return nil, fmt.Errorf("TEXT args %q", as)
	}
	return r, nil
}

// parseDataLine parses "DATA sym<>+off(SB)/width, $value".
func parseDataLine(f *File, args []string, line int) error {
	if len(args) != 2 {
		return fmt.Errorf("DATA: want sym+off(SB)/n, $v")
	}
	loc, wstr, ok := strings.Cut(args[0], "/")
	if !ok {
		return fmt.Errorf("DATA lacks /width")
	}
	width, err := strconv.Atoi(wstr)
	if err != nil || (width != 1 && width != 2 && width != 4 && width != 8) {
		return fmt.Errorf("DATA width %q", wstr)
	}
	m, err := parseMem(loc)
	if err != nil || m.Pseudo != "SB" || m.Name == "" || m.Index != NoReg {
		return fmt.Errorf("DATA location %q", loc)
	}
	vs, ok := strings.CutPrefix(args[1], "$")
	if !ok {
		return fmt.Errorf("DATA value %q", args[1])
	}
	v, err := parseInt(vs)
	if err != nil {
		return fmt.Errorf("DATA value %q: %v", args[1], err)
	}
	d := f.Data[m.Name]
	if d == nil {
		d = &Data{Name: m.Name, Line: line}
		f.Data[m.Name] = d
	}
	if d.Size != 0 {
		return fmt.Errorf("DATA %s after its GLOBL", m.Name)
	}
	end := int(m.Disp) + width
	if m.Disp < 0 || end > 1<<20 {
		return fmt.Errorf("DATA offset %d", m.Disp)
	}
	for len(d.Bytes) < end {
		d.Bytes = append(d.Bytes, 0)
		d.set = append(d.set, false)
	}
	for i := 0; i < width; i++ {
		if d.set[int(m.Disp)+i] {
			return fmt.Errorf("DATA %s byte %d set twice", m.Name, int(m.Disp)+i)
		}
		d.Bytes[int(m.Disp)+i] = byte(uint64(v) >> (8 * i))
		d.set[int(m.Disp)+i] = true
	}
	return nil
}

// parseGlobl parses "GLOBL sym<>(SB), FLAGS, $size".
func parseGlobl(f *File, args []string, line int) error {
	if len(args) != 3 && len(args) != 2 {
		return fmt.Errorf("GLOBL: want sym(SB), flags, $size")
	}
	m, err := parseMem(args[0])
	if err != nil || m.Pseudo != "SB" || m.Name == "" {
		return fmt.Errorf("GLOBL symbol %q", args[0])
	}
	ss, ok := strings.CutPrefix(args[len(args)-1], "$")
	if !ok {
		return fmt.Errorf("GLOBL size %q", args[len(args)-1])
	}
	n, err := strconv.Atoi(ss)
	if err != nil || n <= 0 {
		return fmt.Errorf("GLOBL size %q", ss)
	}
	d := f.Data[m.Name]
	if d == nil {
		d = &Data{Name: m.Name, Line: line}
		f.Data[m.Name] = d
	}
	if d.Size != 0 {
		return fmt.Errorf("duplicate GLOBL %s", m.Name)
	}
	if len(d.Bytes) > n {
		return fmt.Errorf("DATA %s beyond GLOBL size %d", m.Name, n)
	}
	if len(args) == 3 {
		d.Flags = args[1]
		if !strings.Contains(d.Flags, "RODATA") {
			return fmt.Errorf("GLOBL %s is not RODATA: only read-only tables are modelled", m.Name)
		}
	} else {
		return fmt.Errorf("GLOBL %s without flags: only RODATA tables are modelled", m.Name)
	}
	for len(d.Bytes) < n {
		d.Bytes = append(d.Bytes, 0)
		d.set = append(d.set, false)
	}
	d.Size = n
	return nil
}

func parseInt(s string) (int64, error) {
	neg := false
	if strings.HasPrefix(s, "-") {
		neg, s = true, s[1:]
	} else if strings.HasPrefix(s, "+") {
		s = s[1:]
	}
	if strings.HasPrefix(s, "~") {
		v, err := parseInt(s[1:])
		if err != nil {
			return 0, err
		}
		if neg {
			return -^v, nil
		}
		return ^v, nil
	}
	u, err := strconv.ParseUint(s, 0, 64)
	if err != nil {
		return 0, err
	}
	if neg {
		return -int64(u), nil
	}
	return int64(u), nil
}

func parseInsn(op string, args []string) (*Insn, error) {
	if !isIdent(op) {
		return nil, fmt.Errorf("bad mnemonic %q", op)
	}
	code, ok := opcodes[op]
	if !ok {
		return nil, fmt.Errorf("unknown instruction %s (not in the model)", op)
	}
	in := &Insn{Op: op, code: code}
	for _, a := range args {
		o, err := parseOperand(a, isBranch(code))
		if err != nil {
			return nil, fmt.Errorf("%s: operand %q: %v", op, a, err)
		}
		in.Args = append(in.Args, o)
		if o.Kind == KReg && (o.Reg.IsZ() || (o.Reg.IsX() || o.Reg.IsY()) && o.Reg.Vec() >= 16) {
			in.evex = true
		}
	}
	if err := checkForm(in); err != nil {
		return nil, err
	}
	return in, nil
}

func parseOperand(s string, branch bool) (Operand, error) {
	o := Operand{Text: s}
	if s == "" {
		return o, fmt.Errorf("empty operand")
	}
	if r, ok := ParseReg(s); ok {
		o.Kind, o.Reg = KReg, r
		return o, nil
	}
	if r, ok := parseByteReg(s); ok {
		o.Kind, o.Reg = KReg, r
		return o, nil
	}
	if v, ok := strings.CutPrefix(s, "$"); ok {
		if strings.Contains(v, "(") {
			return o, fmt.Errorf("address immediates are not modelled")
		}
		n, err := parseInt(v)
		if err != nil {
			return o, err
		}
		o.Kind, o.Imm = KImm, n
		return o, nil
	}
	if strings.Contains(s, "(") {
		m, err := parseMem(s)
		if err != nil {
			return o, err
		}
		o.Kind, o.Mem = KMem, m
		return o, nil
	}
	if branch && isIdent(s) {
		o.Kind, o.Label = KLabel, s
		return o, nil
	}
	return o, fmt.Errorf("unrecognised operand")
}

// parseMem parses [name[<>]][±off](base)[(index*scale)] and name+off(FP|SB).
func parseMem(s string) (Mem, error) {
	m := Mem{Base: NoReg, Index: NoReg, Scale: 1}
	p := strings.IndexByte(s, '(')
	if p < 0 {
		return m, fmt.Errorf("no (")
	}
	pre, rest := s[:p], s[p:]
	// Parenthesised groups.
	var groups []string
	for rest != "" {
		if rest[0] != '(' {
			return m, fmt.Errorf("junk %q", rest)
		}
		q := strings.IndexByte(rest, ')')
		if q < 0 {
			return m, fmt.Errorf("unbalanced (")
		}
		groups = append(groups, rest[1:q])
		rest = rest[q+1:]
	}
	if len(groups) == 0 || len(groups) > 2 {
		return m, fmt.Errorf("bad memory operand")
	}
	// Displacement and optional symbol.
	name := ""
	off := pre
	if i := strings.LastIndexAny(pre, "+-"); i > 0 {
		name, off = pre[:i], pre[i:]
	} else if pre != "" && !(pre[0] >= '0' && pre[0] <= '9') && pre[0] != '-' && pre[0] != '+' {
		name, off = pre, ""
	}
	if off != "" {
		d, err := parseInt(off)
		if err != nil {
			return m, fmt.Errorf("offset %q", off)
		}
		m.Disp = d
	}
	switch groups[0] {
	case "FP", "SB":
		m.Pseudo = groups[0]
	default:
		r, ok := ParseReg(groups[0])
		if !ok || !r.IsGPR() {
			return m, fmt.Errorf("base %q", groups[0])
		}
		m.Base = r
	}
	if name != "" {
		n := strings.TrimSuffix(strings.TrimPrefix(name, "·"), "<>")
		if !isIdent(n) {
			return m, fmt.Errorf("symbol %q", name)
		}
		m.Name = n
	}
	if m.Pseudo == "FP" && m.Name == "" {
		return m, fmt.Errorf("FP reference without an argument name")
	}
	if m.Pseudo == "SB" && m.Name == "" {
		return m, fmt.Errorf("SB reference without a symbol")
	}
	if m.Pseudo == "" && m.Name != "" && m.Base != SP {
		return m, fmt.Errorf("symbol on a register base")
	}
	if len(groups) == 2 {
		if m.Pseudo == "FP" {
			return m, fmt.Errorf("index on FP reference")
		}
		ix, sc, ok := strings.Cut(groups[1], "*")
		r, rok := ParseReg(ix)
		if !rok || !r.IsGPR() || r == SP {
			return m, fmt.Errorf("index %q", groups[1])
		}
		m.Index = r
		if ok {
			n, err := strconv.Atoi(sc)
			if err != nil || (n != 1 && n != 2 && n != 4 && n != 8) {
				return m, fmt.Errorf("scale %q", sc)
			}
			m.Scale = n
		}
	}
	return m, nil
}
