package check

import (
	"fmt"
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
)

// The Ops a Sign attempt's composition adds, checked against their
// callees' proven postconditions: accepted as they are, and refused when
// an Op, a parameter or a map is wrong.
func TestComposeCheckSignOps(t *testing.T) {
	p44, p65 := fips204.MLDSA44, fips204.MLDSA65
	for _, tc := range []struct {
		sym  string
		p    fips204.Params
		want string
	}{
		{"ExpandMask17x4AVX2", p44, "[{-131071 131072}]"},
		{"ExpandMask19AMD64", p65, "[{-524287 524288}]"},
		{"HighBits88AVX2", p44, "[{0 43}]"},
		{"HighBits32AMD64", p65, "[{0 15}]"},
	} {
		got, err := checkOp(contract.Lookup(tc.sym), fullDom, tc.p)
		if err != nil {
			t.Fatalf("%s: %v", tc.sym, err)
		}
		if fmt.Sprint(got) != tc.want {
			t.Errorf("%s: output ranges %v, want %s", tc.sym, got, tc.want)
		}
	}
	if err := checkMakeHintOp(contract.Lookup("MakeHint88AVX2"), p44); err != nil {
		t.Fatalf("MakeHint88AVX2: %v", err)
	}
	if err := checkNormOp(contract.Lookup("LowBitsExceed32AVX2"), fullDom, p65); err != nil {
		t.Fatalf("LowBitsExceed32AVX2: %v", err)
	}
	bad := func(sym string, edit func(*contract.Contract)) *contract.Contract {
		c := *contract.Lookup(sym)
		op := *c.Op
		op.In = append([]string(nil), op.In...)
		op.Params = append([]int(nil), op.Params...)
		c.Op = &op
		edit(&c)
		return &c
	}
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"ExpandMask of γ1 = 2^17 for ML-DSA-65", func() error { _, err := checkOp(contract.Lookup("ExpandMask17x4AVX2"), fullDom, p65); return err }()},
		{"ExpandMask claiming γ1 = 2^19", func() error {
			_, err := checkOp(bad("ExpandMask17AMD64", func(c *contract.Contract) { c.Op.Params[0] = 1 << 19 }), fullDom, p65)
			return err
		}()},
		{"HighBits of another γ2", func() error { _, err := checkOp(contract.Lookup("HighBits88AVX2"), fullDom, p65); return err }()},
		{"HighBits with LowBits' map", func() error {
			_, err := checkOp(bad("HighBits32AVX2", func(c *contract.Contract) {
				l := *c.Lanes
				l.Map = func(in []uint32) []uint32 {
					return []uint32{uint32(fips204.LowBits(p65, int32(in[0]))+fips204.Q) % fips204.Q}
				}
				c.Lanes = &l
			}), fullDom, p65)
			return err
		}()},
		{"MakeHint of another γ2", checkMakeHintOp(contract.Lookup("MakeHint32AVX2"), p44)},
		{"MakeHint whose Join is equality", checkMakeHintOp(bad("MakeHint88AMD64", func(c *contract.Contract) {
			l, sp := *c.Lanes, *c.Lanes.Split
			sp.Join = func(a, b uint32) []uint32 { return []uint32{uint32(b2u(a == b))} }
			l.Split = &sp
			c.Lanes = &l
		}), p44)},
		{"MakeHint without its count", checkMakeHintOp(bad("MakeHint88AMD64", func(c *contract.Contract) { c.Op.Out = []string{"h", "z"} }), p44)},
		{"the norm of LowBits for another γ2", checkNormOp(contract.Lookup("LowBitsExceed88AVX2"), fullDom, p65)},
		{"the norm of LowBits claimed as the norm", checkNormOp(bad("LowBitsExceed32AVX2", func(c *contract.Contract) { c.Op.Of = "" }), fullDom, p65)},
		{"the norm of HighBits claimed for LowBits'", checkNormOp(bad("LowBitsExceed32AVX2", func(c *contract.Contract) { c.Op.Of = "HighBits" }), fullDom, p65)},
	} {
		if tc.err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}
