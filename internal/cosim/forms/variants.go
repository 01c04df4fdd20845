package forms

import (
	"fmt"
	"os"
	"sort"
	"strings"
)

// NoHarness lists the mnemonics whose forms cannot run inside a
// cosimulation harness, with the argument that covers them instead.
var NoHarness = map[string]string{
	"RET": "RET leaves the harness. The model treats RET as the end of the routine; " +
		"Spec/check requires SP at RET to equal its value at entry and rejects every " +
		"access to the saved BP and return address (a Hidden region), so the RET the CPU " +
		"runs pops the caller's return address, as Go's ABI0 expects. The routines' " +
		"differential tests return through it on the CPU.",
	"CALL": "CALL transfers control to another routine, which the model does not run: " +
		"Spec/check replaces the callee by its contract after checking the call's " +
		"frame discipline (Spec/check, call.go), and the whole-routine cosimulation " +
		"runs the callers on the CPU against the model with the callees' contracts.",
}

// NoHarnessReason is the argument for a form without harness, or "".
func NoHarnessReason(form string) string {
	mn, _, _ := strings.Cut(form, " ")
	return NoHarness[mn]
}

// Variant is one representative instruction of a form.
type Variant struct {
	Form   string
	Text   string // canonical instruction text, e.g. "VPXOR Y1, Y9, Y14"
	Uses   int    // lines of the input it stands for
	Source string // "go/asm" or "catalog" (set by Plan)
}

// gprPool is the order in which GPRs are renamed. AX, CX and DX keep their
// names (MULQ and shifts use them implicitly); SP, BP, R14 and R15 are not
// used by representatives.
var gprPool = []string{"R8", "R9", "R10", "R11", "SI", "DI", "R12", "R13", "BX"}

// vecPool is the order in which vector registers are renamed;
// vecPoolHigh, for registers 16–31 (EVEX only), keeps them in 16–31 so
// that EVEX.R', EVEX.V' and EVEX.X meet the CPU.
var (
	vecPool     = []int{1, 9, 14, 4, 11, 6, 2, 13}
	vecPoolHigh = []int{17, 25, 30, 20, 27, 22, 18, 29}
)

// Canonical returns the representative text of in. Two lines with the same
// form, the same aliasing between operands, the same immediates, the same
// addressing shape (index or not, scale, displacement zero or not and its
// sign) share a representative.
func Canonical(in Insn) (string, error) {
	return canonicalSeq([]Insn{in})
}

// canonicalSeq renames the registers of several instructions together, so
// that aliasing between them is kept; the texts are joined by PairSep.
func canonicalSeq(seq []Insn) (string, error) {
	gpr := map[string]string{}
	vec := map[string]int{}
	var texts []string
	for _, in := range seq {
		t, err := canonicalWith(in, gpr, vec)
		if err != nil {
			return "", err
		}
		texts = append(texts, t)
	}
	return strings.Join(texts, PairSep), nil
}

func canonicalWith(in Insn, gpr map[string]string, vec map[string]int) (string, error) {
	renameGPR := func(r string) (string, error) {
		if r == "AX" || r == "CX" || r == "DX" {
			return r, nil
		}
		if n, ok := gpr[r]; ok {
			return n, nil
		}
		if len(gpr) == len(gprPool) {
			return "", fmt.Errorf("too many registers")
		}
		n := gprPool[len(gpr)]
		gpr[r] = n
		return n, nil
	}
	var ops []string
	for _, o := range in.Ops {
		switch {
		case o.Kind == "imm":
			ops = append(ops, o.Text)
		case o.Kind == "label":
			ops = append(ops, "taken")
		case o.Kind == "xmm" || o.Kind == "ymm" || o.Kind == "zmm":
			n, ok := vec[o.Reg]
			if !ok {
				if len(vec) == len(vecPool) {
					return "", fmt.Errorf("too many vector registers in %q", in.Text)
				}
				n = vecPool[len(vec)]
				var r int
				if fmt.Sscanf(o.Reg, "X%d", &r); r >= 16 {
					n = vecPoolHigh[len(vec)]
				}
				vec[o.Reg] = n
			}
			ops = append(ops, fmt.Sprintf("%c%d", o.Text[0], n))
		case o.Mem != nil:
			m := o.Mem
			base := m.Base
			if base == "SB" || base == "FP" || base == "SP" {
				base = "·" + base // a register of its own, never an alias
			}
			b, err := renameGPR(base)
			if err != nil {
				return "", err
			}
			s := ""
			switch {
			case m.Disp > 0:
				s = "24"
			case m.Disp < 0:
				s = "-24"
			}
			s += "(" + b + ")"
			if m.Index != "" {
				x, err := renameGPR(m.Index)
				if err != nil {
					return "", err
				}
				s += fmt.Sprintf("(%s*%d)", x, m.Scale)
			}
			ops = append(ops, s)
		case o.Reg != "": // GPR or cl
			n, err := renameGPR(o.Reg)
			if err != nil {
				return "", err
			}
			if o.Text == byteName[o.Reg] { // keep the byte-register spelling
				n = byteName[n]
			}
			ops = append(ops, n)
		default:
			return "", fmt.Errorf("operand %q", o.Text)
		}
	}
	if len(ops) == 0 {
		return in.Mnemonic, nil
	}
	return in.Mnemonic + " " + strings.Join(ops, ", "), nil
}

// Variants returns the representatives of insns, sorted by form then text.
func Variants(insns []Insn) ([]Variant, error) {
	idx := map[string]int{}
	var out []Variant
	for _, in := range insns {
		t, err := Canonical(in)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", in.File, in.Line, err)
		}
		if i, ok := idx[t]; ok {
			out[i].Uses++
			continue
		}
		idx[t] = len(out)
		out = append(out, Variant{Form: in.Form(), Text: t, Uses: 1})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Form != out[j].Form {
			return out[i].Form < out[j].Form
		}
		return out[i].Text < out[j].Text
	})
	return out, nil
}

// Forms returns the sorted distinct forms of insns.
func Forms(insns []Insn) []string {
	seen := map[string]bool{}
	var out []string
	for _, in := range insns {
		if f := in.Form(); !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// Plan returns the representatives to cosimulate: those of the .s files in
// asmDir (Source "go/asm"), then those of the catalog file that go/asm does
// not already have (Source "catalog"), then the lines of the exact file as
// written, without renaming (Source "exact"), then the pairs of the pairs
// file (Source "pair"). It also returns go/asm's lines.
func Plan(asmDir, catalog, exact, pairs string) ([]Variant, []Insn, error) {
	asm, err := Collect(asmDir)
	if err != nil {
		return nil, nil, err
	}
	va, err := Variants(asm)
	if err != nil {
		return nil, nil, err
	}
	seen := map[string]bool{}
	for i := range va {
		va[i].Source = "go/asm"
		seen[va[i].Text] = true
	}
	cat, err := ParseFile(catalog)
	if err != nil {
		return nil, nil, err
	}
	vc, err := Variants(cat)
	if err != nil {
		return nil, nil, err
	}
	for _, v := range vc {
		if !seen[v.Text] {
			seen[v.Text] = true
			v.Source = "catalog"
			va = append(va, v)
		}
	}
	ex, err := ParseFile(exact)
	if err != nil {
		return nil, nil, err
	}
	for _, in := range ex {
		if !seen[in.Text] {
			seen[in.Text] = true
			va = append(va, Variant{Form: in.Form(), Text: in.Text, Uses: 1, Source: "exact"})
		}
	}
	vp, err := ParsePairs(pairs)
	if err != nil {
		return nil, nil, err
	}
	seen2 := map[string]bool{}
	for _, v := range va {
		seen2[v.Text] = true
	}
	fp, err := FlagPairs(asm)
	if err != nil {
		return nil, nil, err
	}
	for _, v := range fp {
		if !seen2[v.Text] {
			seen2[v.Text] = true
			va = append(va, v)
		}
	}
	for _, v := range vp {
		if !seen2[v.Text] {
			seen2[v.Text] = true
			va = append(va, v)
		}
	}
	return va, asm, nil
}

// writesFlags reports whether in sets (or leaves undefined) status flags.
func writesFlags(in Insn) bool {
	if in.Mnemonic == "RORXQ" {
		return false // RORX: "Flags Affected: None."
	}
	for _, p := range []string{"ADD", "SUB", "ADC", "SBB", "CMP", "AND", "OR", "XOR", "TEST",
		"INC", "DEC", "NEG", "SH", "SA", "RO", "IMUL", "MUL", "POPCNT"} {
		if strings.HasPrefix(in.Mnemonic, p) {
			return true
		}
	}
	return false
}

// ReadsFlags reports whether in reads status flags: a conditional jump,
// SETcc, CMOVcc, ADC or SBB.
func ReadsFlags(in Insn) bool {
	mn := in.Mnemonic
	return strings.HasPrefix(mn, "J") && mn != "JMP" || strings.HasPrefix(mn, "SET") ||
		strings.HasPrefix(mn, "CMOV") || strings.HasPrefix(mn, "ADC") || strings.HasPrefix(mn, "SBB")
}

// FlagPairs returns, for each instruction of insns that reads flags, the
// instruction that last set them on the fall-through path (in the same
// routine, with no JMP or RET between), renamed together with it: the
// producer and consumer pairs that go/asm runs (Source "go/asm").
func FlagPairs(insns []Insn) ([]Variant, error) {
	idx := map[string]int{}
	var out []Variant
	for i, c := range insns {
		if !ReadsFlags(c) {
			continue
		}
		for j := i - 1; j >= 0; j-- {
			p := insns[j]
			if p.Routine != c.Routine || p.File != c.File || p.Mnemonic == "JMP" || p.Mnemonic == "RET" {
				break
			}
			if !writesFlags(p) {
				continue
			}
			t, err := canonicalSeq([]Insn{p, c})
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", c.File, c.Line, err)
			}
			if k, ok := idx[t]; ok {
				out[k].Uses++
			} else {
				idx[t] = len(out)
				out = append(out, Variant{Form: p.Form() + PairSep + c.Form(), Text: t, Uses: 1, Source: "go/asm"})
			}
			break
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Text < out[j].Text })
	return out, nil
}

// PairSep separates the two instructions of a pair in a Variant's Text and
// Form.
const PairSep = "; "

// ParsePairs reads a file of instruction pairs, "A; B" on each line, run as
// written.
func ParsePairs(name string) ([]Variant, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var out []Variant
	for i, line := range strings.Split(string(b), "\n") {
		if j := strings.Index(line, "//"); j >= 0 {
			line = line[:j]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		parts := strings.Split(line, ";")
		if len(parts) != 2 {
			return nil, fmt.Errorf("%s:%d: want two instructions separated by ;", name, i+1)
		}
		var texts, kinds []string
		for _, p := range parts {
			in, ok, err := ParseLine(p)
			if err != nil || !ok {
				return nil, fmt.Errorf("%s:%d: %q: %v", name, i+1, p, err)
			}
			texts, kinds = append(texts, in.Text), append(kinds, in.Form())
		}
		out = append(out, Variant{Form: strings.Join(kinds, PairSep), Text: strings.Join(texts, PairSep), Uses: 1, Source: "pair"})
	}
	return out, nil
}

// ParseText parses the Text of a Variant: one instruction, or the two of a
// pair.
func ParseText(text string) ([]Insn, error) {
	var out []Insn
	for _, p := range strings.Split(text, PairSep) {
		in, ok, err := ParseLine(p)
		if err != nil || !ok {
			return nil, fmt.Errorf("%q: %v", p, err)
		}
		out = append(out, in)
	}
	return out, nil
}
