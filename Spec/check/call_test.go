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
	"github.com/vg-crypto/vg/Spec/fips204"
	"github.com/vg-crypto/vg/Spec/x86"
)

func loadCalls(t *testing.T) *x86.File {
	t.Helper()
	src, err := os.ReadFile("testdata/calls.s")
	if err != nil {
		t.Fatal(err)
	}
	f, err := x86.ParseFile("testdata/calls.s", string(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// callerContract: ok = RejNTTPoly(a[0:1024], seed) through a call of
// RejNTTPolyAMD64; a is 2048 bytes so that an offset pointer stays inside.
func callerContract(sym string, secretSeed bool) *contract.Contract {
	return &contract.Contract{
		Symbol: sym, Routine: sym, Variant: "test",
		GoSig: "func " + sym + "(a *[2048]byte, seed *[34]byte) bool",
		Args: []contract.Arg{
			{Name: "a", Bytes: 2048, Read: true, Write: true},
			{Name: "seed", Bytes: 34, Read: true, Secret: secretSeed},
		},
		Result: "bool", MaxFrame: 64, NoAlias: true,
		Calls: []string{"RejNTTPolyAMD64"},
		Gen: func(r *rand.Rand) contract.Buffers {
			return contract.Buffers{"a": randTestBytes(r, 2048), "seed": randTestBytes(r, 34)}
		},
		Check: func(in, out contract.Buffers, ret byte) error {
			if ret != 1 {
				return fmt.Errorf("returned %d (the bound does not run out for random seeds)", ret)
			}
			want := fips204.RejNTTPoly(in["seed"])
			for i := 0; i < 256; i++ {
				if got := binary.LittleEndian.Uint32(out["a"][4*i:]); got != uint32(want[i]) {
					return fmt.Errorf("coefficient %d = %d, want %d", i, got, want[i])
				}
			}
			if !bytes.Equal(in["a"][1024:], out["a"][1024:]) {
				return fmt.Errorf("a[1024:] changed")
			}
			return nil
		},
	}
}

func randTestBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func runCalls(t *testing.T, f *x86.File, c *contract.Contract, stackCheck bool) []Result {
	t.Helper()
	r := f.Routine(c.Symbol)
	if r == nil {
		t.Fatalf("no routine %s", c.Symbol)
	}
	callee := *f.Routine("RejNTTPolyAMD64")
	callee.StackCheck = stackCheck
	return Routine(f, r, c, Options{Runs: 20, Seed: 3, TaintRuns: 2,
		Callees: map[string]*x86.Routine{"RejNTTPolyAMD64": &callee}})
}

// A call kept by the rules is proven safe, and its result is the
// callee's contract's.
func TestCallByTheRules(t *testing.T) {
	f := loadCalls(t)
	rs := runCalls(t, f, callerContract("CallRej", false), true)
	for _, ob := range []string{MemorySafety, ConstantTime, ABI, MCDT, Features} {
		if r := status(rs, ob); r.Status != Proven {
			t.Errorf("%s: %s (%s), want proven", ob, r.Status, r.Detail)
		}
	}
	if r := status(rs, Functional); r.Status != Tested {
		t.Errorf("functional: %s (%s), want tested", r.Status, r.Detail)
	}
}

// Each broken rule of a call makes the named obligation fail.
func TestCallViolationsAreCaught(t *testing.T) {
	f := loadCalls(t)
	cases := []struct {
		sym        string
		secret     bool
		noCheck    bool
		ob, detail string
	}{
		{"CallUndeclared", false, false, ABI, "not among the routines contract CallUndeclared may call"},
		{"CallNoMap", false, false, ABI, "does not declare NO_LOCAL_POINTERS"},
		{"CallMisaligned", false, false, ABI, "not the frame's base"},
		{"CallSmallFrame", false, false, ABI, "overflow the caller's 16-byte frame"},
		{"CallClobbered", false, false, ConstantTime, "depends on secret"},
		{"CallOffset", false, false, MemorySafety, "not aligned to 4 bytes"},
		{"CallOverlap", false, false, MemorySafety, "overlap"},
		{"CallStale", false, false, MemorySafety, "outside every region"},
		{"CallRej", true, false, ConstantTime, "public in its contract, is secret"},
		{"CallRej", false, true, ABI, "no stack-bound check"},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s/secret=%v/nocheck=%v", tc.sym, tc.secret, tc.noCheck), func(t *testing.T) {
			rs := runCalls(t, f, callerContract(tc.sym, tc.secret), !tc.noCheck)
			r := status(rs, tc.ob)
			if r.Status != Failing || !strings.Contains(r.Detail, tc.detail) {
				t.Errorf("%s: %s (%s), want failing with %q", tc.ob, r.Status, r.Detail, tc.detail)
			}
		})
	}
}

// A CALL without the checker's hook is an error, not a no-op.
func TestCallWithoutContractFails(t *testing.T) {
	f := loadCalls(t)
	c := callerContract("CallRej", false)
	c.Calls = nil
	rs := runCalls(t, f, c, true)
	if r := status(rs, MemorySafety); r.Status != Failing || !strings.Contains(r.Detail, "CALL without a callee contract") {
		t.Errorf("memory safety: %s (%s), want failing", r.Status, r.Detail)
	}
}

// A caller must require the features of what it calls.
func TestCallFeatures(t *testing.T) {
	f := loadCalls(t)
	c := callerContract("CallAVX2", false)
	c.Calls = []string{"RejNTTPolyx4AVX2"}
	rs := runCalls(t, f, c, true)
	if r := status(rs, ABI); r.Status != Failing || !strings.Contains(r.Detail, "the callee needs AVX") {
		t.Errorf("ABI: %s (%s), want failing", r.Status, r.Detail)
	}
}

// A callee without a stack-bound check (a small leaf, NOSPLIT) may be
// called only within the stack the caller's own check leaves below its
// frame.
func TestCallNosplitCallee(t *testing.T) {
	f := loadCalls(t)
	c := callerContract("CallRej", false)
	for _, tc := range []struct {
		frame int
		ok    bool
	}{{0, true}, {700, true}, {1000, false}} {
		caller := *f.Routine("CallRej")
		caller.StackCheck, caller.StackBound = true, 0
		callee := *f.Routine("RejNTTPolyAMD64")
		callee.StackCheck, callee.Frame = false, tc.frame
		rs := Routine(f, &caller, c, Options{Runs: 5, Seed: 3, TaintRuns: 2,
			Callees: map[string]*x86.Routine{"RejNTTPolyAMD64": &callee}})
		r := status(rs, ABI)
		if tc.ok && r.Status != Proven || !tc.ok && (r.Status != Failing || !strings.Contains(r.Detail, "no stack-bound check")) {
			t.Errorf("callee frame %d: ABI %s (%s), want ok = %v", tc.frame, r.Status, r.Detail, tc.ok)
		}
	}
}

// A routine declared //go:noescape may get buffers on the goroutine
// stack: after a call it must reach them through its arguments, which the
// runtime adjusts when the stack moves, not through a pointer kept in its
// frame. Without the pragma its buffers are on the heap and stay.
func TestCallNoEscapeBuffersMove(t *testing.T) {
	f := loadCalls(t)
	for _, tc := range []struct {
		sym      string
		noescape bool
		ok       bool
	}{
		{"CallReload", false, true}, {"CallReload", true, true},
		{"CallStaleBuffer", false, true}, {"CallStaleBuffer", true, false},
	} {
		r := *f.Routine(tc.sym)
		r.NoEscape = tc.noescape
		callee := *f.Routine("RejNTTPolyAMD64")
		callee.StackCheck = true
		rs := Routine(f, &r, callerContract(tc.sym, false), Options{Runs: 5, Seed: 3, TaintRuns: 2,
			Callees: map[string]*x86.Routine{"RejNTTPolyAMD64": &callee}})
		ms := status(rs, MemorySafety)
		if tc.ok && ms.Status != Proven || !tc.ok && (ms.Status != Failing || !strings.Contains(ms.Detail, "outside every region")) {
			t.Errorf("%s, noescape %v: memory safety %s (%s), want ok = %v", tc.sym, tc.noescape, ms.Status, ms.Detail, tc.ok)
		}
	}
}
