package check

import (
	"fmt"
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
)

// The Ops Verify's composition adds, checked against their callees'
// proven postconditions: accepted as they are, with the ranges of their
// outputs, and refused when an Op or a parameter is wrong.
func TestComposeCheckVerifyOps(t *testing.T) {
	p44, p65, p87 := fips204.MLDSA44, fips204.MLDSA65, fips204.MLDSA87
	z65 := dom{-(1 << 19) + 1, 1 << 19}
	for _, tc := range []struct {
		sym  string
		p    fips204.Params
		d    dom
		want string
	}{
		{"BitUnpack18AMD64", p44, dom{}, "[{-131071 131072}]"},
		{"BitUnpack20AVX2", p65, dom{}, "[{-524287 524288}]"},
		{"HintBitUnpack87AMD64", p87, dom{}, "[{0 1}]"},
		{"SampleInBall65BMI2", p65, dom{}, "[{-1 1}]"},
		{"UseHint32AVX2", p65, dom{0, 1}, "[{0 15}]"},
		{"UseHint88AMD64", p44, dom{0, 1}, "[{0 43}]"},
		{"PolySubAMD64", p65, fullDom, "[{0 8380416}]"},
		{"MultiplyNTTAVX2", p65, fullDom, "[{0 8380416}]"},
	} {
		c := *contract.Lookup(tc.sym)
		got, err := checkOp(&c, tc.d, tc.p)
		if err != nil {
			t.Fatalf("%s: %v", tc.sym, err)
		}
		if fmt.Sprint(got) != tc.want {
			t.Errorf("%s: output ranges %v, want %s", tc.sym, got, tc.want)
		}
	}
	norm := *contract.Lookup("NormExceedsAVX2")
	if err := checkNormOp(&norm, z65, fips204.MLDSA65); err != nil {
		t.Fatalf("NormExceedsAVX2: %v", err)
	}
	bad := func(sym string, edit func(*contract.Contract)) contract.Contract {
		c := *contract.Lookup(sym)
		op := *c.Op
		op.In = append([]string(nil), op.In...)
		op.Params = append([]int(nil), op.Params...)
		c.Op = &op
		edit(&c)
		return c
	}
	for _, tc := range []struct {
		name string
		c    contract.Contract
		p    fips204.Params
		d    dom
	}{
		{"BitUnpack of γ1 = 2^17 for ML-DSA-65", bad("BitUnpack18AMD64", func(c *contract.Contract) { c.Op.Params = []int{1<<19 - 1, 1 << 19} }), p65, dom{}},
		{"BitUnpack of other a, b", bad("BitUnpack18AMD64", func(c *contract.Contract) { c.Op.Params = []int{1 << 17, 1<<17 - 1} }), p44, dom{}},
		{"the t0 decoder claiming η", bad("BitUnpack13AMD64", func(c *contract.Contract) { c.Op.Params = []int{4, 4} }), p65, dom{}},
		{"BitUnpack with another Map", bad("BitUnpack18AMD64", func(c *contract.Contract) {
			pk := *c.Packed
			pk.Map = contract.Lookup("BitUnpack13AMD64").Packed.Map
			c.Packed = &pk
		}), p44, dom{}},
		{"HintBitUnpack of another parameter set", *contract.Lookup("HintBitUnpack44AMD64"), p65, dom{}},
		{"HintBitUnpack of another ω", bad("HintBitUnpack65AMD64", func(c *contract.Contract) { c.Op.Params[0] = 80 }), p65, dom{}},
		{"SampleInBall of another τ", *contract.Lookup("SampleInBall44AMD64"), p65, dom{}},
		{"UseHint of another γ2", *contract.Lookup("UseHint88AVX2"), p65, dom{0, 1}},
		{"UseHint claiming another γ2", bad("UseHint88AVX2", func(c *contract.Contract) { c.Op.Params[0] = 32 }), p65, dom{0, 1}},
		{"UseHint on a hint beyond {0, 1}", *contract.Lookup("UseHint32AMD64"), p65, dom{0, 2}},
		{"UseHint inputs swapped", bad("UseHint32AMD64", func(c *contract.Contract) { c.Op.In[0], c.Op.In[1] = c.Op.In[1], c.Op.In[0] }), p65, dom{0, 1}},
		{"Sub as Add", bad("PolyAddAMD64", func(c *contract.Contract) { c.Op.Name = "Sub" }), p65, fullDom},
		{"SampleInBall as a decoder", bad("SampleInBall65AMD64", func(c *contract.Contract) { c.Op.Name = "HintBitUnpack" }), p65, dom{}},
	} {
		if _, err := checkOp(&tc.c, tc.d, tc.p); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
	for _, tc := range []struct {
		name string
		c    contract.Contract
	}{
		{"a norm of another magnitude", func() contract.Contract {
			c := norm
			e := *c.Exceeds
			e.Of = func(w uint32) uint32 { return w }
			c.Exceeds = &e
			return c
		}()},
		{"a norm Op on other buffers", bad("NormExceedsAMD64", func(c *contract.Contract) { c.Op.In[0], c.Op.In[1] = c.Op.In[1], c.Op.In[0] })},
		// One word of the domain only, on either side of 0.
		{"a norm one more at one negative word", rareNorm(norm, fips204.Q-12345)},
		{"a norm one less at the domain's last word", rareNorm(norm, 1<<19)},
	} {
		if err := checkNormOp(&tc.c, z65, fips204.MLDSA65); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
	// SimpleBitPack(·, 43) is the routine's SimpleBitPack(·, 63) on words
	// in [0, 43], not on words beyond, nor for another bit length.
	o := &termOps{}
	pc := func(c int, d dom) *packCall {
		return &packCall{op: &contract.Op{Name: "SimpleBitPack", Params: []int{c}}, dom: d}
	}
	if !o.samePacking(pc(63, dom{0, 43}), "SimpleBitPack", []int{43}) {
		t.Errorf("SimpleBitPack(·, 43) refused as SimpleBitPack(·, 63)")
	}
	if o.samePacking(pc(63, dom{0, 44}), "SimpleBitPack", []int{43}) || o.samePacking(pc(15, dom{0, 15}), "SimpleBitPack", []int{43}) {
		t.Errorf("SimpleBitPack(·, 43) accepted beyond its words or width")
	}
}

// rareNorm is c with its norm off by one at the one word w.
func rareNorm(c contract.Contract, w uint32) contract.Contract {
	e := *c.Exceeds
	of := e.Of
	e.Of = func(x uint32) uint32 {
		if x == w {
			return of(x) ^ 1
		}
		return of(x)
	}
	c.Exceeds = &e
	return c
}
