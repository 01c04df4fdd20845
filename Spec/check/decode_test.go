package check

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/vg-crypto/vg/Spec/x86"
)

var (
	builtOnce sync.Once
	builtAsm  *Built
	builtErr  error
)

// buildRepoAsm builds go/asm once per test binary.
func buildRepoAsm(t *testing.T) *Built {
	t.Helper()
	builtOnce.Do(func() { builtAsm, builtErr = BuildAsm("../..", nil) })
	if builtErr != nil {
		t.Fatal(builtErr)
	}
	return builtAsm
}

// TestDecoderMatchesObjdump decodes every routine of go/asm and compares
// each instruction with GNU objdump's disassembly of the same bytes:
// address, mnemonic and every operand (registers, immediates, memory
// operands, branch targets and RIP-relative addresses).
func TestDecoderMatchesObjdump(t *testing.T) {
	if _, err := exec.LookPath("objdump"); err != nil {
		// As check_ct treats valgrind: CI (.ci/run installs binutils)
		// fails without it; elsewhere the cross-check is skipped, and
		// says so.
		if os.Getenv("CI") == "true" {
			t.Fatalf("objdump (binutils) is required for this test under CI=true: %v", err)
		}
		t.Skipf("objdump (binutils) not found, the decoder's cross-check against it is skipped: %v", err)
	}
	b := buildRepoAsm(t)
	// One objdump run over the span of every routine: objdump reads the
	// whole binary each time it starts.
	type routine struct {
		name string
		f    *x86.File
		r    *x86.Routine
	}
	var rs []routine
	lo, hi := ^uint64(0), uint64(0)
	for _, name := range b.Routines {
		f, err := b.Bin.Routine(AsmPackage, name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		r := f.Routines[0]
		rs = append(rs, routine{name, f, r})
		lo, hi = min(lo, r.Addr), max(hi, r.Addr+uint64(len(r.Code)))
	}
	if len(rs) == 0 {
		t.Fatal("no routine decoded")
	}
	out, err := exec.Command("objdump", "-d", "--no-show-raw-insn", "-M", "suffix",
		fmt.Sprintf("--start-address=%#x", lo), fmt.Sprintf("--stop-address=%#x", hi), b.Bin.Path).Output()
	if err != nil {
		t.Fatalf("objdump: %v", err)
	}
	all := parseObjdump(string(out))
	// By address, so that each routine's lines are one run found by
	// binary search (a scan of every line per routine took most of the
	// test's time).
	sort.SliceStable(all, func(i, j int) bool { return all[i].addr < all[j].addr })
	entry := map[string]uint64{} // a callee's entry, decoded once
	total := 0
	for _, x := range rs {
		name, f, r := x.name, x.f, x.r
		byAddr := map[uint64]string{}
		end := r.Addr + uint64(len(r.Code))
		for _, l := range all[sort.Search(len(all), func(i int) bool { return all[i].addr >= r.Addr }):] {
			if l.addr >= end {
				break
			}
			byAddr[l.addr] = l.text
		}
		for _, in := range r.Insns {
			addr := r.Addr + uint64(in.Off)
			want, ok := byAddr[addr]
			if !ok {
				t.Errorf("%s+%#x: objdump has no instruction at this address (decoded %s)", name, in.Off, in.Text)
				continue
			}
			var got string
			if in.Op != "CALL" {
				got = attSyntax(in, f, r)
			} else {
				// objdump names the target's address: the callee's entry.
				callee := in.Args[0].Mem.Name
				a, ok := entry[callee]
				if !ok {
					cf, err := b.Bin.Routine(AsmPackage, callee)
					if err != nil {
						t.Errorf("%s+%#x: %s: %v", name, in.Off, in.Text, err)
						continue
					}
					a = cf.Routines[0].Addr
					entry[callee] = a
				}
				got = fmt.Sprintf("callq %x", a)
			}
			if normObjdump(want) != got {
				t.Errorf("%s+%#x: decoded %q as %q, objdump says %q", name, in.Off, in.Text, got, normObjdump(want))
			}
			delete(byAddr, addr)
			total++
		}
		// Everything objdump shows outside the stack check must be decoded.
		for a, s := range byAddr {
			off := int(a - r.Addr)
			if off >= r.Start && off < r.End {
				t.Errorf("%s+%#x: objdump shows %q, the decoder produced nothing there", name, off, s)
			}
		}
	}
	t.Logf("%d instructions of %d routines agree with objdump", total, len(b.Routines))
	if total < 1000 {
		t.Errorf("only %d instructions compared", total)
	}
}

type objLine struct {
	addr uint64
	text string
}

var objRe = regexp.MustCompile(`^\s*([0-9a-f]+):\t(.*)$`)

func parseObjdump(s string) []objLine {
	var out []objLine
	for _, line := range strings.Split(s, "\n") {
		m := objRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		a, _ := strconv.ParseUint(m[1], 16, 64)
		out = append(out, objLine{a, m[2]})
	}
	return out
}

var spaces = regexp.MustCompile(`\s+`)

// normObjdump drops the symbolic comments and the "<sym+off>" of branch
// targets and normalises spacing: "mnemonic op1,op2".
func normObjdump(s string) string {
	if i := strings.Index(s, "#"); i >= 0 {
		s = s[:i]
	}
	if i := strings.Index(s, "<"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(spaces.ReplaceAllString(s, " "))
	return s
}

var attMnemonic = map[string]string{
	"MOVBQZX": "movzbq", "MOVBLZX": "movzbl", "MOVWLZX": "movzwl", "MOVWQZX": "movzwq",
	"JEQ": "je", "JNE": "jne", "JCS": "jb", "JCC": "jae", "JLT": "jl", "JGE": "jge",
	"JLE": "jle", "JGT": "jg", "JLS": "jbe", "JHI": "ja", "JMI": "js", "JPL": "jns",
	"JMP": "jmp", "RET": "retq", "VPERM2I128": "vperm2i128",
	// Go's spellings of the legacy-SSE2 instructions.
	"MOVOU": "movdqu", "MOVO": "movdqa", "PADDL": "paddd", "PSUBL": "psubd", "PMULULQ": "pmuludq",
	"PSHUFL": "pshufd", "PSRAL": "psrad", "PSLLL": "pslld", "PUNPCKLLQ": "punpckldq", "PUNPCKHLQ": "punpckhdq",
	// objdump -M suffix spells the condition, then the size.
	"CMOVQEQ": "cmoveq", "CMOVQNE": "cmovneq", "CMOVQCS": "cmovbq", "CMOVQCC": "cmovaeq",
	"CMOVLCS": "cmovbl", "CMOVLCC": "cmovael",
}

var gpr64 = []string{"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"}
var gpr8 = []string{"al", "cl", "dl", "bl", "spl", "bpl", "sil", "dil", "r8b", "r9b", "r10b", "r11b", "r12b", "r13b", "r14b", "r15b"}
var gpr32 = []string{"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi", "r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d", "r15d"}

// attSyntax renders a decoded instruction the way objdump -M suffix
// prints it, from the decoder's own fields.
func attSyntax(in *x86.Insn, f *x86.File, r *x86.Routine) string {
	mn, ok := attMnemonic[in.Op]
	if !ok {
		mn = strings.ToLower(in.Op)
	}
	w32 := strings.HasSuffix(in.Op, "L") && !strings.HasPrefix(in.Op, "V")
	if in.Op == "MOVWLZX" || in.Op == "MOVBLZX" || in.Op == "VMOVMSKPS" || in.Op == "VPMOVMSKB" || strings.HasPrefix(in.Op, "CMOVL") {
		w32 = true
	}
	if len(in.Args) == 2 && in.Args[0].Kind == x86.KReg && in.Args[1].Kind == x86.KReg && strings.Contains(in.Form, "7F /r") {
		// A register move in the store encoding (Go's assembler writes
		// VMOVDQU Y1, Y2 so): objdump marks it with ".s".
		mn += ".s"
	}
	if in.Op == "JMP" && strings.Contains(in.Form, "E9") {
		mn = "jmpq"
	}
	if in.Op == "MOVQ" && len(in.Args) == 2 && in.Args[0].Kind == x86.KImm && (in.Args[0].Imm != int64(int32(in.Args[0].Imm)) || in.Args[0].Imm < 0 && in.Args[1].Kind == x86.KReg) {
		mn = "movabsq"
	}
	var ops []string
	args := in.Args
	if strings.Contains(in.Form, "D1 /") {
		// The count-1 form has no immediate; objdump omits the count.
		args = args[1:]
	}
	for _, a := range args {
		switch a.Kind {
		case x86.KReg:
			switch {
			case a.Reg.IsGPR():
				if w32 {
					ops = append(ops, "%"+gpr32[a.Reg])
				} else {
					ops = append(ops, "%"+gpr64[a.Reg])
				}
			case a.Reg.IsByte():
				ops = append(ops, "%"+gpr8[a.Reg-48])
			case a.Reg.IsX():
				ops = append(ops, fmt.Sprintf("%%xmm%d", a.Reg.Vec()))
			case a.Reg.IsZ():
				ops = append(ops, fmt.Sprintf("%%zmm%d", a.Reg.Vec()))
			default:
				ops = append(ops, fmt.Sprintf("%%ymm%d", a.Reg.Vec()))
			}
		case x86.KImm:
			v := uint64(a.Imm)
			if w32 {
				v &= 0xffffffff
			}
			ops = append(ops, fmt.Sprintf("$0x%x", v))
		case x86.KLabel:
			off, _ := strconv.ParseInt(strings.TrimPrefix(a.Label, "+"), 0, 64)
			ops = append(ops, fmt.Sprintf("%x", r.Addr+uint64(off)))
		case x86.KMem:
			m := a.Mem
			if m.Pseudo == "SB" {
				addr := int64(f.Data[m.Name].Addr) + m.Disp
				rel := addr - int64(r.Addr) - int64(in.Off) - int64(insnLen(r, in))
				ops = append(ops, fmt.Sprintf("%s(%%rip)", hexSigned(rel)))
				continue
			}
			s := ""
			if m.Disp != 0 || m.DispBytes > 0 {
				s = hexSigned(m.Disp)
			}
			s += "(%" + gpr64[m.Base]
			if m.Index != x86.NoReg {
				s += fmt.Sprintf(",%%%s,%d", gpr64[m.Index], m.Scale)
			}
			ops = append(ops, s+")")
		}
	}
	if len(ops) == 0 {
		return mn
	}
	if strings.HasPrefix(in.Op, "CMP") {
		// Go writes CMP in Intel's order, AT&T reverses it.
		ops[0], ops[1] = ops[1], ops[0]
	}
	// objdump prints "(%r13)" as "0x0(%r13)" when the encoding has a zero
	// displacement byte; normalise both sides by the encoding below.
	return mn + " " + strings.Join(ops, ",")
}

func hexSigned(v int64) string {
	if v < 0 {
		return fmt.Sprintf("-0x%x", -v)
	}
	return fmt.Sprintf("0x%x", v)
}

func insnLen(r *x86.Routine, in *x86.Insn) int {
	for i, x := range r.Insns {
		if x == in {
			if i+1 < len(r.Insns) {
				return r.Insns[i+1].Off - in.Off
			}
			return r.End - in.Off
		}
	}
	return 0
}

// TestTextMatchesBytes compares every routine's parsed text with its
// decoded machine code, line for line.
func TestTextMatchesBytes(t *testing.T) {
	b := buildRepoAsm(t)
	texts, err := ParseAsmDir("../../go/asm")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range b.Routines {
		f, err := b.Bin.Routine(AsmPackage, name)
		if err != nil {
			t.Fatal(err)
		}
		tr := texts[name]
		if tr == nil {
			t.Errorf("%s: no TEXT in go/asm", name)
			continue
		}
		if err := x86.MatchText(tr.Routine(name), f.Routines[0]); err != nil {
			t.Error(err)
		}
	}
}
