package x86

import "testing"

// NosplitRoom: a caller whose check allows its whole frame leaves the
// linker's nosplit limit, less the return address; one without a check
// leaves none.
func TestNosplitRoom(t *testing.T) {
	push := &Insn{Op: "PUSHQ", Args: []Operand{{Kind: KReg, Reg: BP}}}
	mov := &Insn{Op: "MOVQ", Args: []Operand{{Kind: KReg, Reg: SP}, {Kind: KReg, Reg: BP}}}
	// A 216-byte frame and the saved BP: the assembler's check has
	// k = 224 − StackSmall.
	caller := &Routine{Frame: 216, Prologue: true, Insns: []*Insn{push, mov}, StackCheck: true, StackBound: 96}
	if u := StackUse(caller); u != 224 {
		t.Fatalf("StackUse = %d, want 224", u)
	}
	if n := NosplitRoom(caller); n != stackNosplit-8 {
		t.Errorf("NosplitRoom = %d, want %d", n, stackNosplit-8)
	}
	caller.StackCheck = false
	if n := NosplitRoom(caller); n != -1 {
		t.Errorf("NosplitRoom without a check = %d, want -1", n)
	}
}
