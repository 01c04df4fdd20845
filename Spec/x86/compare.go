package x86

import (
	"fmt"
	"strings"
)

// MatchText compares a routine decoded from machine code (bin) with the
// same routine parsed from its assembly text, instruction by instruction.
// The only instructions the bytes may add are the assembler's prologue
// (PUSHQ BP; MOVQ SP, BP; SUBQ $n, SP) at the start and its epilogue
// (ADDQ $n, SP; POPQ BP) before each RET. Immediates must be equal at the
// operand's width after the CPU's sign extension, name+off(FP) must be
// the SP offset the frame gives, branch targets must correspond.
//
// On success it adds the text's labels to bin.Labels (so hints written
// against the text name the decoded instructions) and gives each decoded
// instruction the text's file:line. The comparison is a diagnostic: the
// checker's obligations run on bin whatever the text says.
func MatchText(text, bin *Routine) error {
	frame := FrameSize(bin)
	saves := SavesBP(bin)
	fpOff := int64(8) // the return address
	if saves {
		fpOff += int64(frame) + 8
	}
	idx := map[int]int{} // text index → bin index of the same instruction
	j := 0
	if saves {
		j = 2
		if frame > 0 {
			j = 3
		}
	}
	epilogue := func(j int) bool {
		if !saves {
			return false
		}
		if frame > 0 {
			if j+1 >= len(bin.Insns) {
				return false
			}
			a := bin.Insns[j]
			if a.Op != "ADDQ" || a.Args[0].Kind != KImm || a.Args[0].Imm != int64(frame) || a.Args[1].Kind != KReg || a.Args[1].Reg != SP {
				return false
			}
			j++
		}
		return isInsn(bin.Insns[j], "POPQ", BP)
	}
	// at[i] is where control lands for a label before text instruction i:
	// the epilogue's first instruction when the assembler put one there.
	at := map[int]int{}
	for i, t := range text.Insns {
		at[i] = j
		if t.Op == "RET" && epilogue(j) {
			if frame > 0 {
				j++
			}
			j++
		}
		if j >= len(bin.Insns) {
			return fmt.Errorf("%s: %s: the machine code ends before this instruction", text.Name, t)
		}
		idx[i] = j
		b := bin.Insns[j]
		if err := matchInsn(t, b, fpOff); err != nil {
			return fmt.Errorf("%s: %s: text and machine code differ: %v (machine code +%#x: %s)", text.Name, t, err, b.Off, b.Text)
		}
		j++
	}
	if j != len(bin.Insns) {
		return fmt.Errorf("%s: the machine code has %d instructions after the text's last (+%#x: %s)", text.Name, len(bin.Insns)-j, bin.Insns[j].Off, bin.Insns[j].Text)
	}
	at[len(text.Insns)] = len(bin.Insns)
	for i, t := range text.Insns {
		for k, a := range t.Args {
			if a.Kind != KLabel {
				continue
			}
			want := at[text.Labels[a.Label]]
			got := bin.Labels[bin.Insns[idx[i]].Args[k].Label]
			if got != want {
				return fmt.Errorf("%s: %s: the machine code branches to +%#x, the text to %s", text.Name, t, bin.Insns[got].Off, a.Label)
			}
		}
	}
	for l, i := range text.Labels {
		bin.Labels[l] = at[i]
	}
	for i, t := range text.Insns {
		b := bin.Insns[idx[i]]
		b.File, b.Line = t.File, t.Line
		b.Text = fmt.Sprintf("%s (+%#x)", b.Text, b.Off)
	}
	return nil
}

// immWidth is the width at which an immediate is compared.
func immWidth(op string) uint {
	switch {
	case strings.HasPrefix(op, "V"):
		return 8
	case op == "MOVB":
		return 8
	case strings.HasSuffix(op, "L"):
		return 32
	}
	return 64
}

func matchInsn(t, b *Insn, fpOff int64) error {
	if t.Op != b.Op {
		return fmt.Errorf("mnemonic %s vs %s", t.Op, b.Op)
	}
	if len(t.Args) != len(b.Args) {
		return fmt.Errorf("%d operands vs %d", len(t.Args), len(b.Args))
	}
	for k := range t.Args {
		x, y := t.Args[k], b.Args[k]
		if x.Kind != y.Kind {
			return fmt.Errorf("operand %d: kinds differ", k+1)
		}
		switch x.Kind {
		case KReg:
			if x.Reg != y.Reg {
				return fmt.Errorf("operand %d: %s vs %s", k+1, x.Reg, y.Reg)
			}
		case KImm:
			w := immWidth(t.Op)
			mask := ^uint64(0)
			if w < 64 {
				mask = 1<<w - 1
			}
			if uint64(x.Imm)&mask != uint64(y.Imm)&mask {
				return fmt.Errorf("operand %d: immediate %#x in the text, %#x executed", k+1, uint64(x.Imm)&mask, uint64(y.Imm)&mask)
			}
		case KMem:
			xm, ym := x.Mem, y.Mem
			switch xm.Pseudo {
			case "FP":
				xm = Mem{Base: SP, Index: NoReg, Scale: 1, Disp: xm.Disp + fpOff}
			case "SB":
				if ym.Pseudo != "SB" || strings.Split(ym.Name, "@")[0] != xm.Name || xm.Disp != ym.Disp {
					return fmt.Errorf("operand %d: %s vs %s", k+1, x.Text, y.Text)
				}
				continue
			case "":
				if xm.Name != "" {
					return fmt.Errorf("operand %d: pseudo-SP references are not compared", k+1)
				}
			}
			if ym.Pseudo != "" || xm.Base != ym.Base || xm.Index != ym.Index || xm.Disp != ym.Disp ||
				(xm.Index != NoReg && xm.Scale != ym.Scale) {
				return fmt.Errorf("operand %d: %s vs %s", k+1, x.Text, y.Text)
			}
		}
	}
	return nil
}
