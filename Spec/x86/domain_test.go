package x86

import (
	"os/exec"
	"strings"
	"testing"
)

func TestTaintPropagation(t *testing.T) {
	d := Taint{}
	sec := TV{V: 0x1234, S: ^uint64(0), I: ^uint64(0)}
	pub := d.Const(0xff)
	if r := d.And(sec, pub); r.S != 0xff {
		t.Errorf("AND with public 0xff: S = %#x, want 0xff (public zeros elsewhere)", r.S)
	}
	if r := d.Or(sec, d.Const(^uint64(0))); r.S != 0 {
		t.Errorf("OR with public ones: S = %#x, want 0", r.S)
	}
	low := TV{V: 1, S: 0x10}
	if r := d.Add(low, pub); r.S != 0xfffffffffffffff0 {
		t.Errorf("ADD: S = %#x, want bits ≥ 4", r.S)
	}
	if r := d.Shr(sec, 60); r.S != 0xf {
		t.Errorf("SHR: S = %#x", r.S)
	}
	if r := d.Ite(TV{V: 1, S: 1}, pub, pub); r.S != ^uint64(0) {
		t.Errorf("ITE on a secret condition must be secret: %#x", r.S)
	}
	if r := d.Dep(pub, TV{S: 1}); r.S == 0 {
		t.Error("Dep lost the selector's taint")
	}
}

// The taint machine: a table lookup with a secret index is reported
// through the address hook; the zeroing idiom yields public zero.
func TestTaintMachine(t *testing.T) {
	m := NewMachine[TV](Taint{}, TV{})
	m.AddRegion("mem", Buffer, memBase, 64, true, TV{})
	m.Start(&Routine{Name: "t", Labels: map[string]int{}})
	m.GPR[AX] = TV{V: 3, S: ^uint64(0)}
	m.GPR[DI] = TV{V: memBase}
	var addrs []TV
	m.Obs = &recObs{addrs: &addrs}
	for _, l := range []string{"ANDQ $7, AX", "MOVQ (DI)(AX*8), BX", "XORQ AX, AX"} {
		in, err := ParseInsn(l)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Exec(in); err != nil {
			t.Fatal(err)
		}
	}
	if len(addrs) != 1 || addrs[0].S == 0 {
		t.Errorf("secret address not seen: %+v", addrs)
	}
	if m.GPR[AX].S != 0 || m.GPR[AX].V != 0 {
		t.Errorf("XOR AX, AX = %+v, want public 0", m.GPR[AX])
	}
	// A public value shifted by a secret count is secret.
	m.GPR[CX] = TV{V: 0, S: 1}
	m.GPR[DX] = TV{V: 1}
	in, _ := ParseInsn("SHLQ CX, DX")
	if err := m.Exec(in); err != nil {
		t.Fatal(err)
	}
	if m.GPR[DX].S == 0 {
		t.Error("SHLQ by a secret count left the result public")
	}
}

type recObs struct{ addrs *[]TV }

func (o *recObs) Branch(*Machine[TV], *Insn, TV) error { return nil }
func (o *recObs) Address(_ *Machine[TV], _ *Insn, a TV, _ int, _ bool) error {
	*o.addrs = append(*o.addrs, a)
	return nil
}
func (o *recObs) After(*Machine[TV], *Insn, []TV) error { return nil }

// The symbolic domain runs the same semantics; z3 proves the result of a
// θ-like step equal to its specification, and refutes a wrong one.
func TestSymbolicWithZ3(t *testing.T) {
	z3, err := exec.LookPath("z3")
	if err != nil {
		t.Skip("z3 not installed")
	}
	s := NewSym()
	m := NewMachine[*Term](s, s.Const(0))
	m.Start(&Routine{Name: "t", Labels: map[string]int{}})
	a, b, c := s.Var("a"), s.Var("b"), s.Var("c")
	m.GPR[AX], m.GPR[BX], m.GPR[CX] = a, b, c
	m.Vec[0] = [8]*Term{a, b, c, a}
	m.Vec[1] = [8]*Term{c, c, b, b}
	for _, l := range []string{
		"MOVQ BX, DX", "ROLQ $1, DX", "XORQ AX, DX", // d = a ⊕ rol(b, 1)
		"NOTQ CX", "ANDQ BX, CX", "XORQ DX, CX", // c' = (¬c ∧ b) ⊕ d
		"ADDQ AX, CX", "SHRQ $3, CX", // (c' + a) >> 3
		"VPANDN Y1, Y0, Y2",                                          // ¬Y0 ∧ Y1
		"VPSLLQ $1, Y2, Y3", "VPSRLQ $63, Y2, Y4", "VPOR Y3, Y4, Y2", // rotate by 1
	} {
		in, err := ParseInsn(l)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Exec(in); err != nil {
			t.Fatal(err)
		}
	}
	d := s.Xor(a, s.Rol(b, 1))
	want := s.Shr(s.Add(s.Xor(s.And(s.Not(c), b), d), a), 3)
	wantY := s.Rol(s.And(s.Not(a), c), 1)
	solve := func(x, y *Term) string {
		cmd := exec.Command(z3, "-in")
		cmd.Stdin = strings.NewReader(SMTNotEqual(x, y))
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("z3: %v\n%s", err, out)
		}
		return strings.TrimSpace(string(out))
	}
	// Build the expectations independently of the folding: a fresh domain.
	if got := solve(m.GPR[CX], want); got != "unsat" {
		t.Errorf("CX ≠ spec: z3 says %s", got)
	}
	if got := solve(m.Vec[2][0], wantY); got != "unsat" {
		t.Errorf("Y2[0] ≠ spec: z3 says %s", got)
	}
	if got := solve(m.GPR[CX], s.Shr(s.Add(d, a), 3)); got != "sat" {
		t.Errorf("a wrong spec was not refuted: z3 says %s", got)
	}
	if !strings.Contains(SMTNotEqual(m.GPR[CX], want), "rotate_left") {
		t.Error("SMT-LIB output lacks the rotation")
	}
}

func TestIntervalDomain(t *testing.T) {
	d := NewInterval()
	x := d.RangeOf(0, 165, 3, 0, false)
	y := d.Add(x, d.Const(3))
	if y.Lo != 3 || y.Hi != 168 || y.Mod != 3 || y.Rem != 0 {
		t.Errorf("x+3 = %+v", y)
	}
	p := d.Add(d.Const(1<<32), d.Mul(d.RangeOf(0, 255, 0, 0, false), d.Const(4)))
	if p.Lo != 1<<32 || p.Hi != 1<<32+1020 || p.Mod != 4 {
		t.Errorf("base + 4i = %+v", p)
	}
	if a := d.And(d.Top(false), d.Const(0x7fffff)); a.Hi != 0x7fffff {
		t.Errorf("AND mask = %+v", a)
	}
	if e := d.Eq(x, x); e.Lo != 1 || e.Hi != 1 {
		t.Errorf("x = x should be known: %+v", e)
	}
	if u := d.Ult(d.RangeOf(0, 9, 0, 0, false), d.Const(10)); u.Lo != 1 || u.Hi != 1 {
		t.Errorf("[0,9] < 10 = %+v", u)
	}
	if u := d.Ult(d.RangeOf(0, 10, 0, 0, false), d.Const(10)); u.Lo != 0 || u.Hi != 1 {
		t.Errorf("[0,10] < 10 = %+v", u)
	}
	if s := d.Sub(d.RangeOf(0, 5, 0, 0, false), d.Const(1)); s.Hi != ^uint64(0) || s.Lo != 0 {
		t.Errorf("possible wrap must give top: %+v", s)
	}
	bs := make([]AV, 8)
	d.Bytes(x, bs)
	if w := d.FromBytes(bs); w.ID != x.ID || w.Hi != 165 {
		t.Errorf("split/join lost the word: %+v", w)
	}
	if w := d.FromBytes(bs[:4]); w.Hi > 0xffff || w.ID == x.ID {
		t.Errorf("partial join = %+v", w)
	}
	if !Empty(norm(AV{Lo: 1, Hi: 2, Mod: 5, Rem: 0})) {
		t.Error("[1,2] ∩ 5ℤ should be empty")
	}
	if !Empty(norm(AV{Lo: 0, Hi: 1, Mod: 5, Rem: 3})) {
		t.Error("[0,1] ∩ (3 + 5ℤ) should be empty")
	}
	big := d.RangeOf(0, 1<<40, 1<<40, 0, false)
	if p := d.Mul(big, d.Const(1<<30)); p.Mod != 1<<30 && p.Hi != ^uint64(0) {
		t.Errorf("overflowing modulus kept: %+v", p)
	}
}

// Flags of a logic instruction in the symbolic domain (a logic thunk has
// no operands; reading CF must not touch them).
func TestSymbolicLogicFlags(t *testing.T) {
	s := NewSym()
	m := NewMachine[*Term](s, s.Const(0))
	m.GPR[AX], m.GPR[BX] = s.Var("a"), s.Var("b")
	in, _ := ParseInsn("XORL AX, BX")
	if err := m.Exec(in); err != nil {
		t.Fatal(err)
	}
	for _, f := range []int{CF, OF, ZF, SF, PF} {
		if _, err := m.Flag(f); err != nil {
			t.Errorf("flag %s: %v", flagNames[f], err)
		}
	}
	if v, _ := m.Flag(CF); v != s.Const(0) {
		t.Errorf("CF after XOR = %v, want 0", v)
	}
}

// TestIntervalMulByZero: a product with the constant 0 is exactly 0, also
// when the other factor carries a congruence.
func TestIntervalMulByZero(t *testing.T) {
	d := NewInterval()
	x := d.RangeOf(8, 800, 8, 0, true)
	for _, p := range []AV{d.Mul(x, d.Const(0)), d.Mul(d.Const(0), x)} {
		if !p.Exact() || p.Lo != 0 || !p.S {
			t.Errorf("x·0 = %+v, want exactly 0 and secret", p)
		}
	}
}
