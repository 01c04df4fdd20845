package check

import (
	"math/rand/v2"
	"testing"

	"github.com/vg-crypto/vg/Spec/fips204"
	"github.com/vg-crypto/vg/Spec/x86"
)

// checkThreeBytesZ checks z, with the test z < q the proof holds a
// comparison to, against Spec's CoeffFromThreeBytes at every group of
// three bytes: z < q exactly where Algorithm 14 accepts, and then z is
// its coefficient.
func checkThreeBytesZ(z func(b0, b1, b2 uint64) uint64) (b0, b1, b2 int, ok bool) {
	d := x86.Conc{}
	for b2 = 0; b2 < 256; b2++ {
		for b1 = 0; b1 < 256; b1++ {
			for b0 = 0; b0 < 256; b0++ {
				got := z(uint64(b0), uint64(b1), uint64(b2))
				c, accept := fips204.CoeffFromThreeBytes(byte(b0), byte(b1), byte(b2))
				if (d.Ult(got, fips204.Q) == 1) != accept || accept && got != uint64(c) {
					return b0, b1, b2, false
				}
			}
		}
	}
	return 0, 0, 0, true
}

func TestThreeBytesZEveryGroup(t *testing.T) {
	d := x86.Conc{}
	if b0, b1, b2, ok := checkThreeBytesZ(func(b0, b1, b2 uint64) uint64 { return threeBytesZ[uint64](d, b0, b1, b2) }); !ok {
		t.Fatalf("threeBytesZ(%#02x, %#02x, %#02x) is not Algorithm 14's", b0, b1, b2)
	}
	// A z changed at one group only fails.
	planted := func(b0, b1, b2 uint64) uint64 {
		if b0 == 0x01 && b1 == 0xe0 && b2 == 0xff { // z = q, rejected
			return fips204.Q - 1
		}
		return threeBytesZ[uint64](d, b0, b1, b2)
	}
	if _, _, _, ok := checkThreeBytesZ(planted); ok {
		t.Error("a z changed at one group passes")
	}
}

// TestPickIsTheField checks rdom.pick against its definition, (t >> lo) &
// (2ʷ − 1), on random words for terms of ORs, shifts and masks of two
// variables, the shapes vector bytes joined into words take.
func TestPickIsTheField(t *testing.T) {
	s := x86.NewSym()
	d := &rdom{s: s}
	rng := rand.New(rand.NewPCG(1, 2))
	vars := []*x86.Term{s.Var("x"), s.Var("y")}
	var gen func(depth int) *x86.Term
	gen = func(depth int) *x86.Term {
		if depth == 0 {
			v := vars[rng.IntN(2)]
			if rng.IntN(2) == 0 {
				return s.And(v, s.Const(uint64(1)<<(8*(1+rng.IntN(4)))-1))
			}
			return v
		}
		switch rng.IntN(4) {
		case 0:
			return s.Or(gen(depth-1), gen(depth-1))
		case 1:
			return s.Shl(gen(depth-1), uint(8*rng.IntN(8)))
		case 2:
			return s.And(gen(depth-1), s.Const(rng.Uint64()))
		}
		return s.Shr(gen(depth-1), uint(4*rng.IntN(16)))
	}
	eval := func(tm *x86.Term, in [][256]uint64) *[256]uint64 {
		fm, err := compileForm(tm, func(v string) (uint64, error) {
			if v == "x" {
				return 0, nil
			}
			return 1, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		prog, err := compile(fm)
		if err != nil {
			t.Fatal(err)
		}
		return prog.run(in, 256, nil)
	}
	in := make([][256]uint64, 2)
	for i := range in {
		for k := range in[i] {
			in[i][k] = rng.Uint64()
		}
	}
	for n := 0; n < 2000; n++ {
		tm := gen(1 + rng.IntN(4))
		w := uint(1 + rng.IntN(64))
		lo := uint(rng.IntN(int(65 - w)))
		mask := ^uint64(0) >> (64 - w)
		want := eval(s.And(s.Shr(tm, lo), s.Const(mask)), in)
		got := eval(d.pick(tm, lo, w), in)
		for k := range want {
			if got[k] != want[k] {
				t.Fatalf("pick(%v, %d, %d) = %#x at input %d, want %#x", tm, lo, w, got[k], k, want[k])
			}
		}
	}
}
