package check

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

func loadPlanted(t *testing.T) *x86.File {
	t.Helper()
	src, err := os.ReadFile("testdata/planted.s")
	if err != nil {
		t.Fatal(err)
	}
	f, err := x86.ParseFile("testdata/planted.s", string(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// doubleContract: a[0] = 2·a[0], a[1..3] unchanged; a is secret.
func doubleContract(sym string, features ...string) *contract.Contract {
	return &contract.Contract{
		Symbol: sym, Routine: sym, Variant: "test", GoSig: "func " + sym + "(a *[4]uint64)",
		Args:     []contract.Arg{{Name: "a", Bytes: 32, Secret: true, Read: true, Write: true}},
		Features: features, MaxFrame: 64, NoAlias: true,
		Gen: func(r *rand.Rand) contract.Buffers {
			b := make([]byte, 32)
			for i := range b {
				b[i] = byte(r.Uint32())
			}
			return contract.Buffers{"a": b}
		},
		Check: func(in, out contract.Buffers, _ byte) error {
			want := append([]byte(nil), in["a"]...)
			binary.LittleEndian.PutUint64(want, 2*binary.LittleEndian.Uint64(want))
			if sym == "DeclaredAVX2" || sym == "UndeclaredAVX2" {
				for i := 0; i < 4; i++ {
					binary.LittleEndian.PutUint64(want[8*i:], 2*binary.LittleEndian.Uint64(in["a"][8*i:]))
				}
			}
			if sym == "MulOutsideBracket" || sym == "MulInsideBracket" {
				for i := 0; i < 2; i++ {
					x := uint64(binary.LittleEndian.Uint32(in["a"][8*i:]))
					binary.LittleEndian.PutUint64(want[8*i:], x*x)
				}
			}
			if !bytes.Equal(want, out["a"]) {
				return fmt.Errorf("a = %x, want %x", out["a"], want)
			}
			return nil
		},
	}
}

func status(rs []Result, ob string) Result {
	for _, r := range rs {
		if r.Obligation == ob {
			return r
		}
	}
	return Result{}
}

func run(t *testing.T, f *x86.File, c *contract.Contract, h Hints) []Result {
	t.Helper()
	r := f.Routine(c.Symbol)
	if r == nil {
		t.Fatalf("no routine %s", c.Symbol)
	}
	return Routine(f, r, c, Options{Runs: 200, Seed: 7, Hints: h})
}

func TestCorrectRoutineIsProven(t *testing.T) {
	f := loadPlanted(t)
	rs := run(t, f, doubleContract("Double"), nil)
	for _, ob := range []string{MemorySafety, ConstantTime, ABI, MCDT, Features} {
		if r := status(rs, ob); r.Status != Proven {
			t.Errorf("%s: %s (%s), want proven", ob, r.Status, r.Detail)
		}
	}
	if r := status(rs, Functional); r.Status != Tested {
		t.Errorf("functional: %s (%s), want tested", r.Status, r.Detail)
	}
}

// Each planted violation must make exactly the named obligation fail.
func TestPlantedViolationsAreCaught(t *testing.T) {
	f := loadPlanted(t)
	cases := []struct {
		sym, ob, detail string
		features        []string
	}{
		{"SecretBranch", ConstantTime, "branch condition depends on secret", nil},
		{"SecretAddress", ConstantTime, "address depends on secret", nil},
		{"OutOfBounds", MemorySafety, "outside every region", nil},
		{"OutsideFrame", ABI, "saved BP", nil},
		{"SPNotRestored", ABI, "SP at RET", nil},
		{"UndeclaredAVX2", Features, "but its Requires line is []", []string{"AVX", "AVX2"}},
		{"DeclaredAVX2", Features, "which contract", nil}, // AVX2 in a baseline contract
		{"MulOutsideBracket", MCDT, "outside the MXCSR=0x1FBF bracket", nil},
	}
	for _, tc := range cases {
		t.Run(tc.sym, func(t *testing.T) {
			rs := run(t, f, doubleContract(tc.sym, tc.features...), nil)
			r := status(rs, tc.ob)
			if r.Status != Failing || !strings.Contains(r.Detail, tc.detail) {
				t.Errorf("%s: %s (%s), want failing with %q", tc.ob, r.Status, r.Detail, tc.detail)
			}
		})
	}
}

// FirstFailure only ends a check that has failed: each planted violation
// still fails, its finding named, and the correct routines get the
// statuses of a full check.
func TestFirstFailure(t *testing.T) {
	f := loadPlanted(t)
	for _, tc := range []struct {
		sym, detail string
		features    []string
	}{
		{"SecretBranch", "branch condition depends on secret", nil},
		{"OutOfBounds", "outside every region", nil},
		{"SPNotRestored", "SP at RET", nil},
		{"UndeclaredAVX2", "but its Requires line is []", []string{"AVX", "AVX2"}},
		{"MulOutsideBracket", "outside the MXCSR=0x1FBF bracket", nil},
	} {
		c := doubleContract(tc.sym, tc.features...)
		rs := Routine(f, f.Routine(c.Symbol), c, Options{Runs: 200, Seed: 7, FirstFailure: true})
		for _, r := range rs {
			if r.Obligation == Features && tc.features == nil {
				continue // decided by its static scan first, as in a full check
			}
			if r.Status != Failing || !strings.Contains(r.Detail, tc.detail) {
				t.Errorf("%s, %s: %s (%s), want failing with %q", tc.sym, r.Obligation, r.Status, r.Detail, tc.detail)
			}
		}
	}
	for _, sym := range []string{"Double", "MulInsideBracket"} {
		c := doubleContract(sym)
		full := Routine(f, f.Routine(c.Symbol), c, Options{Runs: 200, Seed: 7})
		fast := Routine(f, f.Routine(c.Symbol), c, Options{Runs: 200, Seed: 7, FirstFailure: true})
		for i := range full {
			if full[i].Status != fast[i].Status || full[i].Detail != fast[i].Detail {
				t.Errorf("%s, %s: %s (%s) with FirstFailure, %s (%s) without", sym, full[i].Obligation,
					fast[i].Status, fast[i].Detail, full[i].Status, full[i].Detail)
			}
		}
	}
}

func TestMulInsideBracketPasses(t *testing.T) {
	f := loadPlanted(t)
	rs := run(t, f, doubleContract("MulInsideBracket"), nil)
	for _, ob := range []string{MCDT, ConstantTime, ABI, Features} {
		if r := status(rs, ob); r.Status != Proven {
			t.Errorf("%s: %s (%s), want proven", ob, r.Status, r.Detail)
		}
	}
	if r := status(rs, Functional); r.Status != Tested {
		t.Errorf("functional: %s (%s)", r.Status, r.Detail)
	}
}

func TestFunctionalFailureIsReported(t *testing.T) {
	f := loadPlanted(t)
	c := doubleContract("Double")
	check := c.Check
	c.Check = func(in, out contract.Buffers, ret byte) error {
		out["a"][31] ^= 1 // a postcondition the routine does not meet
		return check(in, out, ret)
	}
	if r := status(run(t, f, c, nil), Functional); r.Status != Failing {
		t.Errorf("functional: %s, want failing", r.Status)
	}
}

func TestArgsSizeMismatch(t *testing.T) {
	f := loadPlanted(t)
	c := doubleContract("Double")
	c.Result = "bool" // the TEXT line says 8 bytes of arguments, this needs 9
	c.Check = func(contract.Buffers, contract.Buffers, byte) error { return nil }
	if r := status(run(t, f, c, nil), ABI); r.Status != Failing || !strings.Contains(r.Detail, "arguments") {
		t.Errorf("ABI: %s (%s), want failing", r.Status, r.Detail)
	}
}

// filterContract: o (32 bytes) receives the bytes of p below 128.
func filterContract() *contract.Contract {
	return &contract.Contract{
		Symbol: "Filter", Routine: "Filter", Variant: "test", GoSig: "func Filter(o *[32]byte, p *[64]byte)",
		Args: []contract.Arg{
			{Name: "o", Bytes: 32, Read: true, Write: true},
			{Name: "p", Bytes: 64, Read: true},
		},
		PublicControl: true, MaxFrame: 0, NoAlias: true,
		Gen: func(r *rand.Rand) contract.Buffers {
			o, p := make([]byte, 32), make([]byte, 64)
			for i := range p {
				p[i] = byte(r.Uint32())
			}
			return contract.Buffers{"o": o, "p": p}
		},
		Check: func(in, out contract.Buffers, _ byte) error {
			want := append([]byte(nil), in["o"]...)
			n := 0
			for _, b := range in["p"] {
				if b < 128 && n < 32 {
					want[n] = b
					n++
				}
			}
			if !bytes.Equal(want, out["o"]) {
				return fmt.Errorf("o = %x, want %x", out["o"], want)
			}
			return nil
		},
	}
}

type hints []Invariant

func (h hints) Invariants(string) []Invariant { return h }

func TestInductiveProof(t *testing.T) {
	f := loadPlanted(t)
	good := hints{{Label: "loop", Facts: []Fact{
		{Loc: "CX", Lo: 0, Hi: 63, Public: true},
		{Loc: "DX", Lo: 0, Hi: 31, Public: true},
		{Loc: "DI", Region: "o", Public: true},
		{Loc: "SI", Region: "p", Public: true},
	}}}
	rs := run(t, f, filterContract(), good)
	for _, ob := range []string{MemorySafety, ConstantTime, ABI, MCDT} {
		if r := status(rs, ob); r.Status != Proven {
			t.Errorf("%s: %s (%s), want proven", ob, r.Status, r.Detail)
		}
	}
	// Without hints the same routine is only tested.
	rs = run(t, f, filterContract(), nil)
	if r := status(rs, MemorySafety); r.Status != Tested {
		t.Errorf("memory safety without hints: %s (%s), want tested", r.Status, r.Detail)
	}
}

// A wrong hint must make the check fail, never pass.
func TestWrongInvariantFails(t *testing.T) {
	f := loadPlanted(t)
	base := []Fact{
		{Loc: "DI", Region: "o", Public: true},
		{Loc: "SI", Region: "p", Public: true},
	}
	wrong := map[string][]Fact{
		// Too weak: allows a store one past o.
		"DX up to 32": append([]Fact{{Loc: "CX", Lo: 0, Hi: 63, Public: true}, {Loc: "DX", Lo: 0, Hi: 32, Public: true}}, base...),
		// Too strong: not re-established by the loop.
		"CX up to 10": append([]Fact{{Loc: "CX", Lo: 0, Hi: 10, Public: true}, {Loc: "DX", Lo: 0, Hi: 31, Public: true}}, base...),
		// Not established on entry.
		"CX from 1": append([]Fact{{Loc: "CX", Lo: 1, Hi: 63, Public: true}, {Loc: "DX", Lo: 0, Hi: 31, Public: true}}, base...),
		// Wrong pointer.
		"DI into p": {{Loc: "CX", Lo: 0, Hi: 63, Public: true}, {Loc: "DX", Lo: 0, Hi: 31, Public: true},
			{Loc: "DI", Region: "p", Public: true}, {Loc: "SI", Region: "p", Public: true}},
		// Wrong congruence.
		"CX even": append([]Fact{{Loc: "CX", Lo: 0, Hi: 62, Mod: 2, Public: true}, {Loc: "DX", Lo: 0, Hi: 31, Public: true}}, base...),
	}
	for name, facts := range wrong {
		t.Run(name, func(t *testing.T) {
			rs := run(t, f, filterContract(), hints{{Label: "loop", Facts: facts}})
			if r := status(rs, MemorySafety); r.Status != Failing {
				t.Errorf("memory safety: %s (%s), want failing", r.Status, r.Detail)
			}
		})
	}
	// A hint for a label that does not exist fails too.
	rs := run(t, f, filterContract(), hints{{Label: "nowhere"}})
	if r := status(rs, MemorySafety); r.Status != Failing {
		t.Errorf("unknown label: %s, want failing", r.Status)
	}
}

// The same loop over a secret buffer leaks: both the taint runs and the
// inductive check must refuse constant time.
func TestSecretLoopIsNotConstantTime(t *testing.T) {
	f := loadPlanted(t)
	c := filterContract()
	c.Args[1].Secret = true
	good := hints{{Label: "loop", Facts: []Fact{
		{Loc: "CX", Lo: 0, Hi: 63, Public: true},
		{Loc: "DX", Lo: 0, Hi: 31, Public: true},
		{Loc: "DI", Region: "o", Public: true},
		{Loc: "SI", Region: "p", Public: true},
	}}}
	rs := run(t, f, c, good)
	if r := status(rs, ConstantTime); r.Status != Failing || !strings.Contains(r.Detail, "secret") {
		t.Errorf("constant time: %s (%s), want failing", r.Status, r.Detail)
	}
	res := Inductive(f, f.Routine("Filter"), c, good, nil, 100000)
	if res.NoSecret {
		t.Error("the inductive check saw no secret branch")
	}
}

// unchangedSrc reads its buffer's address and, with STORE, writes to it.
const unchangedSrc = `#include "textflag.h"

// func Untouched(block *[6]uint64)
TEXT ·Untouched(SB), NOSPLIT, $0-8
	MOVQ block+0(FP), AX
	XORL DX, DX
	STORE
	RET
`

// A routine whose contract says no buffer changes is proven so when it
// writes none, and fails when it writes one.
func TestUnchangedProvenFromMemorySafety(t *testing.T) {
	for _, tc := range []struct {
		store string
		want  string
	}{{"", Proven}, {"MOVQ DX, 8(AX)", Failing}} {
		f, err := x86.ParseFile("unchanged.s", strings.Replace(unchangedSrc, "STORE", tc.store, 1))
		if err != nil {
			t.Fatal(err)
		}
		c := &contract.Contract{Symbol: "Untouched", Routine: "Untouched", Variant: "test",
			GoSig: "func Untouched(block *[6]uint64)", Args: []contract.Arg{{Name: "block", Bytes: 48}},
			NoAlias: true, Unchanged: true,
			Gen: func(r *rand.Rand) contract.Buffers {
				b := make([]byte, 48)
				for i := range b {
					b[i] = byte(r.Uint32())
				}
				return contract.Buffers{"block": b}
			},
			Check: func(in, out contract.Buffers, _ byte) error { return nil }}
		if r := status(run(t, f, c, nil), Functional); r.Status != tc.want {
			t.Errorf("store %q: functional %s (%s), want %s", tc.store, r.Status, r.Detail, tc.want)
		}
	}
}

// A contract that names two functional proofs fails, whatever either
// would say: no proof stands in for another.
func TestTwoFunctionalProofsFail(t *testing.T) {
	f := loadPlanted(t)
	c := doubleContract("Double")
	c.Zq, c.Lanes = &contract.ZqMap{}, &contract.Lanes{}
	r := status(run(t, f, c, nil), Functional)
	if r.Status != Failing || !strings.Contains(r.Detail, "one at most") {
		t.Errorf("functional: %s (%s), want failing with two proofs named", r.Status, r.Detail)
	}
}
