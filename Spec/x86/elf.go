package x86

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"strings"
)

// Binary is a linked amd64 ELF executable: the checker reads the routines'
// machine code and the read-only data they reference from it, so that
// what is checked is what the Go assembler and linker produced.
type Binary struct {
	Path string
	f    *elf.File
	syms []elf.Symbol
	// named indexes syms by name, in the symbol table's order.
	named map[string][]int
	lastK int64 // k of the last stack-bound check read (−1: none)
	// Statics names the file-local data symbols (name<>) the package's
	// assembly declares. A routine may read only its own package's data:
	// symbols named pkg.…, or one of these, when the binary holds exactly
	// one symbol of that name (so no other package's table of the same
	// name is the one read).
	Statics map[string]bool
	// data caches each section's bytes: (*elf.Section).Data reads the
	// whole section from the file on every call.
	data map[*elf.Section][]byte
}

// Go's stack constants on linux/amd64 (runtime/internal stack.go,
// cmd/internal/objabi): StackSmall, and StackNosplit, the most a chain of
// NOSPLIT functions may use.
const (
	stackSmall   = 128
	stackNosplit = 800
)

// OpenBinary opens an ELF executable.
func OpenBinary(path string) (*Binary, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	if f.Machine != elf.EM_X86_64 || f.Class != elf.ELFCLASS64 {
		f.Close()
		return nil, fmt.Errorf("%s: not an x86-64 ELF file", path)
	}
	syms, err := f.Symbols()
	if err != nil {
		f.Close()
		return nil, err
	}
	named := map[string][]int{}
	for i, s := range syms {
		named[s.Name] = append(named[s.Name], i)
	}
	return &Binary{Path: path, f: f, syms: syms, named: named}, nil
}

// Close releases the file.
func (b *Binary) Close() error { return b.f.Close() }

// symbol is the first symbol named name.
func (b *Binary) symbol(name string) (elf.Symbol, bool) {
	if i := b.named[name]; len(i) > 0 {
		return b.syms[i[0]], true
	}
	return elf.Symbol{}, false
}

// Count is the number of symbols named name.
func (b *Binary) Count(name string) int { return len(b.named[name]) }

// sectionBytes returns the bytes of [addr, addr+n) from the section that
// holds them, and the section.
func (b *Binary) sectionBytes(addr, n uint64) ([]byte, *elf.Section, error) {
	for _, s := range b.f.Sections {
		if s.Type != elf.SHT_PROGBITS || s.Flags&elf.SHF_ALLOC == 0 {
			continue
		}
		if addr >= s.Addr && addr+n <= s.Addr+s.Size && addr+n >= addr {
			data, ok := b.data[s]
			if !ok {
				var err error
				if data, err = s.Data(); err != nil {
					return nil, nil, err
				}
				if b.data == nil {
					b.data = map[*elf.Section][]byte{}
				}
				b.data[s] = data
			}
			return data[addr-s.Addr : addr-s.Addr+n], s, nil
		}
	}
	return nil, nil, fmt.Errorf("no section holds %#x..%#x", addr, addr+n)
}

// The stack-bound check the Go linker's assembler puts before the body of
// a routine that is not NOSPLIT (cmd/internal/obj/x86, stacksplit):
//
//	MOVQ (TLS), R14          64 4C 8B 34 25 F8 FF FF FF
//	[LEAQ -k(SP), R12]       4C 8D A4 24 <k32> | 4C 8D 64 24 <k8>  (frames beyond the small limit)
//	CMPQ R12|SP, 16(R14)     4D 3B 66 10 | 49 3B 66 10
//	JLS  tail                0F 86 <rel32>
//	…body…
//	tail: CALL runtime.morestack_noctxt(SB); JMP start
//
// It only decides whether the goroutine's stack must grow before the body
// runs (morestack then restarts the routine); it reads no argument and
// writes no memory. The decoder accepts exactly these bytes, checks that
// the branch goes to the tail, that the tail is the routine's last ten
// bytes, calls runtime.morestack_noctxt and jumps back to the start, and
// hands the body to the model. R12 and R14 hold the check's values, which
// the model leaves as the caller's garbage (so a body that read them
// would be rejected, not trusted).
var (
	splitLoadG   = []byte{0x64, 0x4C, 0x8B, 0x34, 0x25, 0xF8, 0xFF, 0xFF, 0xFF}
	splitLeaR12  = []byte{0x4C, 0x8D, 0xA4, 0x24}
	splitLeaR12b = []byte{0x4C, 0x8D, 0x64, 0x24} // disp8
	splitCmpR12  = []byte{0x4D, 0x3B, 0x66, 0x10}
	splitCmpSP   = []byte{0x49, 0x3B, 0x66, 0x10}
	splitJLS     = []byte{0x0F, 0x86}
	morestackSym = "runtime.morestack_noctxt.abi0"
)

// splitCheck returns the offsets where the body starts and ends (the tail
// starts), or 0, len(code) when there is no stack-bound check.
func (b *Binary) splitCheck(code []byte, addr uint64) (int, int, error) {
	b.lastK = -1 // no check
	if !bytes.HasPrefix(code, splitLoadG) {
		return 0, len(code), nil
	}
	b.lastK = 0 // CMPQ SP, 16(R14) unless a LEAQ says otherwise
	p := len(splitLoadG)
	switch {
	case bytes.HasPrefix(code[p:], splitLeaR12):
		if p+len(splitLeaR12)+4 > len(code) {
			return 0, 0, fmt.Errorf("stack check: truncated LEAQ")
		}
		b.lastK = -int64(int32(binary.LittleEndian.Uint32(code[p+len(splitLeaR12):])))
		p += len(splitLeaR12) + 4
		if !bytes.HasPrefix(code[p:], splitCmpR12) {
			return 0, 0, fmt.Errorf("stack check: LEAQ not followed by CMPQ R12, 16(R14)")
		}
		p += len(splitCmpR12)
	case bytes.HasPrefix(code[p:], splitLeaR12b):
		if p+len(splitLeaR12b)+1 > len(code) {
			return 0, 0, fmt.Errorf("stack check: truncated LEAQ")
		}
		b.lastK = -int64(int8(code[p+len(splitLeaR12b)]))
		p += len(splitLeaR12b) + 1
		if !bytes.HasPrefix(code[p:], splitCmpR12) {
			return 0, 0, fmt.Errorf("stack check: LEAQ not followed by CMPQ R12, 16(R14)")
		}
		p += len(splitCmpR12)
	case bytes.HasPrefix(code[p:], splitCmpSP):
		p += len(splitCmpSP)
	default:
		return 0, 0, fmt.Errorf("stack check: unrecognised comparison")
	}
	if !bytes.HasPrefix(code[p:], splitJLS) || p+6 > len(code) {
		return 0, 0, fmt.Errorf("stack check: no JLS")
	}
	rel := int32(binary.LittleEndian.Uint32(code[p+2:]))
	p += 6
	tail := p + int(rel)
	if tail != len(code)-10 {
		return 0, 0, fmt.Errorf("stack check: JLS to +%#x, not the 10-byte tail at +%#x", tail, len(code)-10)
	}
	t := code[tail:]
	if t[0] != 0xE8 || t[5] != 0xE9 {
		return 0, 0, fmt.Errorf("stack check: tail is not CALL; JMP")
	}
	call := int64(addr) + int64(tail) + 5 + int64(int32(binary.LittleEndian.Uint32(t[1:])))
	ms, ok := b.symbol(morestackSym)
	if !ok || uint64(call) != ms.Value {
		return 0, 0, fmt.Errorf("stack check: tail calls %#x, not %s", call, morestackSym)
	}
	back := tail + 10 + int(int32(binary.LittleEndian.Uint32(t[6:])))
	if back != 0 {
		return 0, 0, fmt.Errorf("stack check: tail jumps to +%#x, not the start", back)
	}
	return p, tail, nil
}

// Routine decodes the routine pkg.name (its ABI0 body, "pkg.name.abi0",
// when the linker made an ABI wrapper) into a File holding that routine
// and every read-only data symbol it references. Insns carry their byte
// offset in Line and the symbol in File; labels name byte offsets
// (LabelAt). The routine's Frame is read from its prologue (see FrameSize).
func (b *Binary) Routine(pkg, name string) (*File, error) {
	sym, ok := b.symbol(pkg + "." + name + ".abi0")
	if !ok {
		sym, ok = b.symbol(pkg + "." + name)
	}
	if !ok {
		return nil, fmt.Errorf("%s: no symbol %s.%s in %s", name, pkg, name, b.Path)
	}
	if elf.ST_TYPE(sym.Info) != elf.STT_FUNC {
		return nil, fmt.Errorf("%s: symbol is not a function", name)
	}
	code, sec, err := b.sectionBytes(sym.Value, sym.Size)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if sec.Flags&elf.SHF_EXECINSTR == 0 {
		return nil, fmt.Errorf("%s: not in an executable section", name)
	}
	start, end, err := b.splitCheck(code, sym.Value)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	r := &Routine{Name: name, Labels: map[string]int{}, File: sym.Name, Prologue: true,
		Code: code, Start: start, End: end, Addr: sym.Value}
	for off := start; off < end; {
		in, n, err := Decode(code[:end], off, sym.Value+uint64(off))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		in.File, in.Line, in.Off = sym.Name, off, off
		r.Labels[LabelAt(off)] = len(r.Insns)
		r.Insns = append(r.Insns, in)
		off += n
	}
	f := &File{Name: b.Path, Routines: []*Routine{r}, Data: map[string]*Data{}}
	for _, in := range r.Insns {
		for i := range in.Args {
			a := &in.Args[i]
			switch {
			case a.Kind == KLabel:
				if _, ok := r.Labels[a.Label]; !ok {
					return nil, fmt.Errorf("%s: %s: branch to %s, not an instruction of the body", name, in, a.Label)
				}
			case a.Kind == KMem && a.Mem.Pseudo == ripTarget:
				if err := b.resolve(pkg, f, in, a); err != nil {
					return nil, fmt.Errorf("%s: %v", name, err)
				}
			case a.Kind == KMem && a.Mem.Pseudo == callTarget:
				if err := b.resolveCall(pkg, in, a); err != nil {
					return nil, fmt.Errorf("%s: %v", name, err)
				}
			}
		}
		in.Text = in.goText()
	}
	r.Frame = FrameSize(r)
	r.StackCheck, r.StackBound = b.lastK >= 0, b.lastK
	// The stack the model gives the routine must be stack the goroutine
	// has. With the bound check, SP − k is above the guard, which leaves
	// at least StackSmall (128) bytes below SP − k; without it (NOSPLIT,
	// or a small leaf the assembler marked so), the linker allows a chain
	// of such routines StackNosplit (800) bytes in all.
	used := StackUse(r)
	switch {
	case b.lastK >= 0 && used > b.lastK+stackSmall:
		return nil, fmt.Errorf("%s: uses %d bytes of stack, the bound check allows %d", name, used, b.lastK+stackSmall)
	case b.lastK < 0 && used > stackNosplit:
		return nil, fmt.Errorf("%s: uses %d bytes of stack without a bound check (at most %d)", name, used, stackNosplit)
	}
	return f, nil
}

// resolveCall turns a CALL rel32 target into name(SB): the target must be
// the first byte of a function symbol of package pkg (its ABI0 body).
func (b *Binary) resolveCall(pkg string, in *Insn, a *Operand) error {
	addr := uint64(a.Mem.Disp)
	for i := range b.syms {
		s := &b.syms[i]
		if elf.ST_TYPE(s.Info) != elf.STT_FUNC || s.Value != addr {
			continue
		}
		n, ok := strings.CutPrefix(s.Name, pkg+".")
		if !ok {
			continue
		}
		n = strings.TrimSuffix(n, ".abi0")
		if n == "" || strings.ContainsAny(n, ".·") {
			continue
		}
		a.Mem.Pseudo, a.Mem.Name, a.Mem.Disp = "SB", n, 0
		return nil
	}
	return fmt.Errorf("%s: CALL to %#x, which is not the start of a routine of %s", in, addr, pkg)
}

// resolve turns a RIP-relative operand into sym+off(SB), where sym is the
// read-only data symbol of package pkg holding the address. Its bytes
// become a Data.
func (b *Binary) resolve(pkg string, f *File, in *Insn, a *Operand) error {
	addr := uint64(a.Mem.Disp)
	var hit *elf.Symbol
	for i := range b.syms {
		s := &b.syms[i]
		if elf.ST_TYPE(s.Info) == elf.STT_OBJECT && s.Size > 0 && addr >= s.Value && addr < s.Value+s.Size {
			hit = s
			break
		}
	}
	if hit == nil {
		return fmt.Errorf("%s: RIP-relative address %#x is in no data symbol", in, addr)
	}
	data, sec, err := b.sectionBytes(hit.Value, hit.Size)
	if err != nil {
		return err
	}
	if sec.Flags&elf.SHF_WRITE != 0 || sec.Flags&elf.SHF_EXECINSTR != 0 {
		return fmt.Errorf("%s: data symbol %s is in %s, not read-only data", in, hit.Name, sec.Name)
	}
	if !strings.HasPrefix(hit.Name, pkg+".") && (!b.Statics[hit.Name] || b.Count(hit.Name) != 1) {
		return fmt.Errorf("%s: data symbol %s is not one of %s's own tables", in, hit.Name, pkg)
	}
	name := hit.Name
	if d, ok := f.Data[name]; ok && d.Addr != hit.Value {
		name = fmt.Sprintf("%s@%#x", hit.Name, hit.Value)
	}
	if _, ok := f.Data[name]; !ok {
		f.Data[name] = &Data{Name: name, Size: int(hit.Size), Flags: "RODATA", Bytes: append([]byte(nil), data...), Addr: hit.Value}
	}
	a.Mem.Pseudo, a.Mem.Name, a.Mem.Disp = "SB", name, int64(addr-hit.Value)
	return nil
}

// FrameSize reads the frame size from the Go assembler's prologue as decoded:
// PUSHQ BP; MOVQ SP, BP; SUBQ $n, SP gives n; a routine whose first
// instructions are not that has no frame (0) and no saved BP. The checker
// does not rely on the pattern for soundness: the model runs the
// prologue and epilogue, and n only sizes the stack the model provides.
func FrameSize(r *Routine) int {
	if len(r.Insns) < 2 || !isInsn(r.Insns[0], "PUSHQ", BP) || !isMove(r.Insns[1], SP, BP) {
		return 0
	}
	if len(r.Insns) >= 3 && r.Insns[2].Op == "SUBQ" && r.Insns[2].Args[0].Kind == KImm &&
		r.Insns[2].Args[1].Kind == KReg && r.Insns[2].Args[1].Reg == SP && r.Insns[2].Args[0].Imm > 0 {
		return int(r.Insns[2].Args[0].Imm)
	}
	return 0
}

// StackUse is the stack r uses below its return address: its frame and,
// when it saves BP, that slot.
func StackUse(r *Routine) int64 {
	used := int64(r.Frame)
	if SavesBP(r) {
		used += 8
	}
	return used
}

// NosplitRoom is the stack a routine without a stack-bound check may use
// below its return address when caller CALLs it from its frame, or −1 if
// caller has no check. Caller's check runs its body only with SP − k above
// the goroutine's stack guard, which lies StackNosplit + StackSmall bytes
// above the stack's lowest byte (the runtime's stackGuard on linux/amd64);
// caller's frame and saved BP take StackUse(caller) bytes below SP, and
// the CALL 8 more for the return address.
func NosplitRoom(caller *Routine) int64 {
	if !caller.StackCheck {
		return -1
	}
	return caller.StackBound + stackSmall + stackNosplit - StackUse(caller) - 8
}

// SavesBP reports whether r begins with the prologue that saves BP.
func SavesBP(r *Routine) bool {
	return r.Prologue && len(r.Insns) >= 2 && isInsn(r.Insns[0], "PUSHQ", BP) && isMove(r.Insns[1], SP, BP)
}

func isInsn(in *Insn, op string, reg Reg) bool {
	return in.Op == op && len(in.Args) == 1 && in.Args[0].Kind == KReg && in.Args[0].Reg == reg
}

func isMove(in *Insn, from, to Reg) bool {
	return in.Op == "MOVQ" && len(in.Args) == 2 && in.Args[0].Kind == KReg && in.Args[0].Reg == from &&
		in.Args[1].Kind == KReg && in.Args[1].Reg == to
}
