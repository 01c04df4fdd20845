package check

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips202"
	"github.com/vg-crypto/vg/Spec/x86"
)

// keccakRound over the concrete domain is fips202.Rnd.
func TestKeccakRoundIsSpec(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for k := 0; k < 50; k++ {
		var a fips202.State
		for i := range a {
			a[i] = rng.Uint64()
		}
		for ir := 0; ir < 24; ir++ {
			want := fips202.Rnd(a, ir)
			if got := keccakRound[uint64](x86.Conc{}, a, ir); got != want {
				t.Fatalf("round %d differs", ir)
			}
			a = want
		}
	}
}

func TestProveKeccakRoutines(t *testing.T) {
	if testing.Short() {
		t.Skip("symbolic proof of the generated Keccak takes seconds")
	}
	for _, tc := range [][2]string{{"keccak_amd64.s", "KeccakF1600AMD64"}, {"keccakx4_amd64.s", "KeccakF1600x4AVX2"}} {
		src, err := os.ReadFile("../../go/asm/" + tc[0])
		if err != nil {
			t.Fatal(err)
		}
		f, err := x86.ParseFile(tc[0], string(src))
		if err != nil {
			t.Fatal(err)
		}
		d, err := proveKeccak(f, f.Routine(tc[1]), contract.Lookup(tc[1]), 1<<22)
		if err != nil {
			t.Errorf("%s: %v", tc[1], err)
			continue
		}
		t.Logf("%s: %s", tc[1], d)
	}
}

// A one-bit slip in a rotation must make the proof fail (through the
// normal form for ×1, through z3 for ×4).
func TestProveKeccakCatchesSlip(t *testing.T) {
	if testing.Short() {
		t.Skip("symbolic proof of the generated Keccak takes seconds")
	}
	for _, tc := range [][4]string{
		{"keccak_amd64.s", "KeccakF1600AMD64", "ROLQ $0x01, R8", "ROLQ $0x02, R8"},
		{"keccakx4_amd64.s", "KeccakF1600x4AVX2", "VPSRLQ       $0x3f, Y2, Y6", "VPSRLQ       $0x3e, Y2, Y6"},
	} {
		src, err := os.ReadFile("../../go/asm/" + tc[0])
		if err != nil {
			t.Fatal(err)
		}
		s := string(src)
		i := strings.LastIndex(s, tc[2]) // in the last rounds
		if i < 0 {
			t.Fatalf("%s: %q not found", tc[0], tc[2])
		}
		s = s[:i] + tc[3] + s[i+len(tc[2]):]
		f, err := x86.ParseFile(tc[0], s)
		if err != nil {
			t.Fatal(err)
		}
		if d, err := proveKeccak(f, f.Routine(tc[1]), contract.Lookup(tc[1]), 1<<22); err == nil {
			t.Errorf("%s with a slip proven: %s", tc[1], d)
		} else {
			t.Logf("%s: %v", tc[1], err)
		}
	}
}

func TestAllEqual(t *testing.T) {
	z3, err := exec.LookPath("z3")
	if err != nil {
		t.Skip("z3 not installed")
	}
	s := x86.NewSym()
	x, y := s.Var("x"), s.Var("y")
	rot1 := s.Or(s.Shl(x, 1), s.Shr(x, 63)) // not in ANF's fragment: z3
	cases := []struct {
		got, want *x86.Term
		ok        bool
	}{
		{s.Xor(s.Rol(x, 1), y), s.Xor(y, s.Rol(x, 1)), true},
		{s.Xor(s.Rol(x, 1), y), s.Xor(s.Rol(x, 2), y), false},
		{s.Not(s.Or(s.Not(x), y)), s.And(x, s.Not(y)), true}, // De Morgan
		{s.Xor(s.And(x, y), x), s.And(x, y), false},
		{rot1, s.Rol(x, 1), true},
		{rot1, s.Rol(x, 2), false},
	}
	for i, c := range cases {
		_, _, err := allEqual(z3, []*x86.Term{c.got}, []*x86.Term{c.want}, []string{"case"})
		if (err == nil) != c.ok {
			t.Errorf("case %d: err = %v, want equal = %v", i, err, c.ok)
		}
	}
}
