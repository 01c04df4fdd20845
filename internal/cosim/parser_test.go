package cosim

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	x86 "github.com/vg-crypto/vg/Spec/x86"
	"github.com/vg-crypto/vg/internal/cosim/forms"
)

// TestCollectorMatchesModelParser checks that the form collector sees
// exactly the instruction lines Spec/x86's parser sees in go/asm, in the
// same order, so no emitted instruction escapes the coverage check.
func TestCollectorMatchesModelParser(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(asmDir(t), "*.s"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no go/asm/*.s files: %v", err)
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := x86.ParseFile(filepath.Base(name), string(src))
		if err != nil {
			t.Errorf("model parser: %v", err)
			continue
		}
		var model []*x86.Insn
		for _, r := range f.Routines {
			model = append(model, r.Insns...)
		}
		ours, err := forms.ParseFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if len(ours) != len(model) {
			t.Errorf("%s: collector sees %d instructions, model parser %d", name, len(ours), len(model))
			continue
		}
		for i := range ours {
			if d := sameOperands(ours[i], model[i]); d != "" {
				t.Errorf("%s:%d: collector and model parser differ: %s", filepath.Base(name), ours[i].Line, d)
			}
		}
	}
}

var asmFlag = flag.String("cosim.asm", "", "directory of the assembly to cover (default: go/asm)")

// asmDir is go/asm, found from this package's directory, or -cosim.asm.
func asmDir(t *testing.T) string {
	t.Helper()
	if *asmFlag != "" {
		return *asmFlag
	}
	d, err := filepath.Abs(filepath.Join("..", "..", "go", "asm"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// sameOperands compares one line as the collector and the model parser
// read it: text, mnemonic, and each operand's kind, register, immediate,
// memory parts or label. It returns "" when they agree.
func sameOperands(o forms.Insn, m *x86.Insn) string {
	if o.Text != m.Text || o.Mnemonic != m.Op || len(o.Ops) != len(m.Args) {
		return fmt.Sprintf("%q (%d operands) vs %q (%d operands)", o.Text, len(o.Ops), m.Text, len(m.Args))
	}
	for i, a := range o.Ops {
		b := m.Args[i]
		bad := false
		switch {
		case a.Kind == "imm":
			bad = b.Kind != x86.KImm || b.Imm != a.Imm
		case a.Kind == "label":
			bad = b.Kind != x86.KLabel || b.Label != a.Label
		case a.Mem != nil:
			bm := b.Mem
			base := bm.Pseudo
			if base == "" {
				base = bm.Base.String()
			}
			index := ""
			if bm.Index != x86.NoReg {
				index = bm.Index.String()
			}
			bad = b.Kind != x86.KMem || base != a.Mem.Base || index != a.Mem.Index ||
				bm.Disp != a.Mem.Disp || (index != "" && bm.Scale != a.Mem.Scale)
		default: // registers
			want := a.Reg
			switch a.Kind {
			case "ymm":
				want = "Y" + a.Reg[1:]
			case "zmm":
				want = "Z" + a.Reg[1:]
			}
			got := b.Reg
			if a.Kind == "r8" && got.IsByte() {
				// The collector names a byte register by its
				// 64-bit register; the model by the byte register.
				got = got.GPR()
			}
			bad = b.Kind != x86.KReg || got.String() != want
		}
		if bad {
			return fmt.Sprintf("%q operand %d: collector %+v, model %+v", o.Text, i, a, b)
		}
	}
	return ""
}
