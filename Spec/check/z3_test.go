package check

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/vg-crypto/vg/Spec/x86"
)

// TestZ3Sample: z3 agrees on a true equality, disagrees on a false one
// (the planted case: a query the SAT side wrongly called unsat), and the
// sample takes the first z3First queries, then one in z3Every.
func TestZ3Sample(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		var z z3Sample
		if err := z.equal(nil, nil, time.Now()); err != nil || !strings.Contains(z.note(), "no second opinion") {
			t.Fatalf("without z3: %v, %q", err, z.note())
		}
		t.Skip("z3 not on PATH: the second opinion is not run")
	}
	s := x86.NewSym()
	x, y := s.Var("x"), s.Var("y")
	deadline := time.Now().Add(time.Minute)
	// A budget no loaded machine exhausts: the sample's count is what is
	// tested here, not z3's speed.
	z := z3Sample{budget: time.Minute}
	if err := z.equal(s.Add(x, y), s.Add(y, x), deadline); err != nil {
		t.Fatalf("x + y = y + x: %v", err)
	}
	if err := z.equal(s.Add(x, y), s.Sub(x, y), deadline); err == nil || !strings.Contains(err.Error(), "disagreement") {
		t.Fatalf("x + y = x − y: %v, want a disagreement", err)
	}
	if err := z.holds([]*x86.Term{s.Eq(x, s.Const(3))}, s.Eq(s.Add(x, x), s.Const(6)), deadline); err != nil {
		t.Fatalf("x = 3 ⇒ x + x = 6: %v", err)
	}
	if err := z.holds([]*x86.Term{s.Eq(x, s.Const(3))}, s.Eq(s.Add(x, x), s.Const(7)), deadline); err == nil {
		t.Fatal("x = 3 ⇒ x + x = 7: z3 agreed")
	}
	for z.n < 3*z3Every {
		if err := z.equal(s.Xor(x, y), s.Xor(y, x), deadline); err != nil {
			t.Fatal(err)
		}
	}
	if want := z3First + 3; z.asked != want { // n ≤ z3First, and n = 64, 128, 192
		t.Errorf("asked %d of %d, want %d", z.asked, z.n, want)
	}
	t.Log(z.note())
}
