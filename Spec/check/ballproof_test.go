package check

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// ballTestPlan is Proofs' plan of the SampleInBall routines
// (Emit/sampleinball.go's frame), which Spec/check's tests may not import.
func ballTestPlan() *BallPlan {
	return &BallPlan{
		Read: "read", Expand: "expand", State: "frame+8", Signs: "frame+224",
		NZ:   [4]string{"R8", "R9", "R10", "R11"},
		Neg:  [4]string{"R12", "R13", "R14", "BX"},
		Keep: []string{"frame+208", "frame+216", "frame+232", "frame+248", "frame+256"},
	}
}

// builtRoutine is routine name of go/asm as built (decoded, with its
// text's labels and its declaration's //go:noescape), and its callees.
func builtRoutine(t *testing.T, name string) (*x86.File, *x86.Routine, map[string]*x86.Routine) {
	t.Helper()
	b := buildRepoAsm(t)
	dec := func(n string) (*x86.File, *x86.Routine) {
		f, err := b.Bin.Routine(AsmPackage, n)
		if err != nil {
			t.Fatal(err)
		}
		return f, f.Routines[0]
	}
	f, r := dec(name)
	r.NoEscape = b.NoEscape[name]
	texts, err := ParseAsmDir(filepath.Join("..", "..", "go", "asm"))
	if err != nil {
		t.Fatal(err)
	}
	if err := x86.MatchText(texts[name].Routine(name), r); err != nil {
		t.Fatal(err)
	}
	callees := map[string]*x86.Routine{}
	for _, n := range contract.Lookup(name).Calls {
		_, callees[n] = dec(n)
	}
	return f, r, callees
}

// The SampleInBall proof holds for the routines as built with this
// package's test plan: ML-DSA-44's, and ML-DSA-87's with VG_LONG_PROOFS
// set (vg prove proves all three with Proofs' plan on every CI run).
func TestBallProof(t *testing.T) {
	names := []string{"SampleInBall44AMD64", "SampleInBall87AMD64"}
	if testing.Short() || os.Getenv("VG_LONG_PROOFS") == "" {
		t.Logf("%s: skipped (set VG_LONG_PROOFS=1)", names[1])
		names = names[:1]
	}
	for _, name := range names {
		f, r, callees := builtRoutine(t, name)
		t0 := time.Now()
		fn, ct, err := proveBall(f, r, contract.Lookup(name), ballTestPlan(), callees, 20000)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("%s (%v): %s; %s", name, time.Since(t0), fn, ct)
		if !strings.Contains(fn, "proven for every seed") {
			t.Errorf("%s: %s", name, fn)
		}
	}
}

// ballText parses go/asm's SampleInBall routine sym from its text with
// each pair's old text replaced (once, within sym's TEXT), and its callees
// from theirs, with the stack-bound check the build gives them.
func ballText(t *testing.T, sym string, pairs ...string) (*x86.File, *x86.Routine, map[string]*x86.Routine) {
	t.Helper()
	f, r := routineText(t, "sampleinball_amd64.s", sym, pairs...)
	_, k := routineText(t, "keccak_amd64.s", "KeccakF1600AMD64")
	k.StackCheck = true
	return f, r, map[string]*x86.Routine{"KeccakF1600AMD64": k}
}

// The SampleInBall proof refutes bugs planted in SampleInBall44AMD64
// (τ = 39, i from 217), most of which random seeds do not reach.
func TestBallProofRefutes(t *testing.T) {
	const sym = "SampleInBall44AMD64"
	c := contract.Lookup(sym)
	// onlyAt runs code where i (frame+216) is at, keeping flags' users
	// after it unaffected; it uses SI.
	onlyAt := func(i int, code string) string {
		return fmt.Sprintf("\tMOVQ 216(SP), SI\n\tCMPQ SI, $0x%08x\n\tJNE planted\n%splanted:\n", i, code)
	}
	for _, tc := range []struct {
		name  string
		pairs []string
		want  string
	}{
		{"as generated", nil, ""},
		{"accepts j = i + 1 at i = 224", []string{"\tCMPQ    CX, 216(SP)\n",
			"\tMOVQ 216(SP), DX\n" + onlyAt(224, "\tINCQ DX\n") + "\tCMPQ CX, DX\n"}, "is not j > 224 (line 8)"},
		{"rejects j = i", []string{"\tJHI     read\n", "\tJCC     read\n"}, "is not j > 217 (line 8)"},
		{"a sign wrong at i = 230", []string{"\tMOVQ DX, 240(SP)\n", onlyAt(230, "\tNOTQ DX\n") + "\tMOVQ DX, 240(SP)\n"},
			"an accepted j = 0 at i = 230 updates the masks"},
		{"every sign flipped where h is one value", []string{"\tMOVQ DX, 240(SP)\n",
			"\tMOVQ 224(SP), AX\n\tMOVQ $0x0123456789abcdef, SI\n\tXORQ SI, AX\n\tMOVQ AX, SI\n\tSUBQ $0x01, SI\n\tNOTQ AX\n\tANDQ AX, SI\n\tSARQ $0x3f, SI\n\tXORQ SI, DX\n\tMOVQ DX, 240(SP)\n"},
			"an accepted j = 0 at i = 217 updates the masks"},
		{"one block short", []string{"MOVQ $0x00000002, 232(SP)", "MOVQ $0x00000001, 232(SP)"},
			"returns 0 at block 1, byte 136, before the contract's 3 blocks are read"},
		{"a block more", []string{"MOVQ $0x00000002, 232(SP)", "MOVQ $0x00000003, 232(SP)"}, "block 4 squeezed, beyond the contract's 3"},
		{"ok after the bound", []string{"MOVB $0x00, ret+16(FP)", "MOVB $0x01, ret+16(FP)"}, "returns 1 in the loop"},
		{"a store indexed by j", []string{"\t// sign = −h", "\tMOVQ c+0(FP), DI\n\tMOVL $0x00000000, (DI)(CX*4)\n\t// sign = −h"},
			"the address depends on data"},
		{"a branch on the sign", []string{"\tMOVQ DX, 240(SP)\n", "\tTESTQ DX, DX\n\tJEQ planted\nplanted:\n\tMOVQ DX, 240(SP)\n"},
			"a second branch on data"},
		{"bit 255 dropped", []string{"// Word 3: CX = j − 192.\n\tXORL    DX, DX\n\tCMPQ    CX, $0x00000040",
			"// Word 3: CX = j − 192.\n\tXORL    DX, DX\n\tCMPQ    CX, $0x0000003f"}, "an accepted j = 255 at i = 255"},
		{"a non-DOIT instruction on j", []string{"\tINCQ    AX\n", "\tXCHGQ CX, CX\n\tINCQ    AX\n"}, "is not a DOIT instruction"},
		{"the domain byte", []string{"MOVQ $0x0000001f, 40(SP)", "MOVQ $0x0000001e, 40(SP)"}, "the absorbed state's byte 32"},
		{"a seed word misread", []string{"MOVQ 16(SI), AX", "MOVQ 17(SI), AX"}, "the absorbed state's byte 16"},
		{"h from byte 1", []string{"\tMOVQ 8(SP), AX\n\tMOVQ AX, 224(SP)\n", "\tMOVQ 9(SP), AX\n\tMOVQ AX, 224(SP)\n"},
			"holds the stream's first 8 bytes (line 4)"},
		{"the state written", []string{"\tMOVQ    AX, 208(SP)\n", "\tMOVQ    AX, 208(SP)\n\tMOVQ    AX, 200(SP)\n"}, "writes the SHAKE256 state"},
		{"squeezed twice", []string{"\tCALL ·KeccakF1600AMD64(SB)\n\tMOVQ 272(SP), R8\n",
			"\tCALL ·KeccakF1600AMD64(SB)\n\tLEAQ 8(SP), AX\n\tMOVQ AX, (SP)\n\tCALL ·KeccakF1600AMD64(SB)\n\tMOVQ 272(SP), R8\n"},
			"a second block squeezed on one path"},
		{"a byte skipped after a squeeze", []string{"\tXORL AX, AX\n\tJMP  load\n", "\tMOVL $0x00000001, AX\n\tJMP  load\n"},
			"reads more than the byte j"},
		{"the stack moved at i = 230", []string{"\tMOVQ AX, 216(SP)\n\tCMPQ AX, $0x00000100\n",
			"\tMOVQ AX, 216(SP)\n" + onlyAt(230, "\tSUBQ $0x08, SP\n") + "\tCMPQ AX, $0x00000100\n"}, "SP not at the frame"},
		{"q − 1 wrong", []string{"\tPXOR       X15, X3\n", "\tPXOR       X14, X3\n"}, "c is the masks' coefficients mod q"},
	} {
		f, r, callees := ballText(t, sym, tc.pairs...)
		_, _, err := proveBall(f, r, c, ballTestPlan(), callees, 20000)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}

// A wrong plan fails the proof, and so does a contract whose Ball does
// not fit the routine.
func TestBallProofWrongPlanOrShape(t *testing.T) {
	const sym = "SampleInBall44AMD64"
	f, r, callees := ballText(t, sym)
	for _, tc := range []struct {
		name string
		plan func(p *BallPlan)
		ct   func(c *contract.Contract)
		want string
	}{
		{"no such label", func(p *BallPlan) { p.Expand = "expanded" }, nil, "no label"},
		{"i not kept", func(p *BallPlan) { p.Keep = p.Keep[:1] }, nil, "a second branch on data"},
		{"masks' words swapped", func(p *BallPlan) { p.NZ[0], p.NZ[1] = p.NZ[1], p.NZ[0] }, nil, "updates the masks"},
		{"masks' registers mixed", func(p *BallPlan) { p.NZ[3], p.Neg[3] = p.Neg[3], p.NZ[3] }, nil, "updates the masks"},
		{"h elsewhere", func(p *BallPlan) { p.Signs = "frame+264" }, nil, "holds the stream's first 8 bytes"},
		{"state elsewhere", func(p *BallPlan) { p.State = "frame+0" }, nil, "not the state at frame+0"},
		{"overlapping slots", func(p *BallPlan) { p.Keep = append(p.Keep, "frame+220") }, nil, "overlap"},
		{"a register twice", func(p *BallPlan) { p.Neg[0] = p.NZ[0] }, nil, "twice"},
		{"another τ", nil, func(c *contract.Contract) { c.Ball.Tau = 49 }, "is not j > 207"},
		{"one block", nil, func(c *contract.Contract) { c.Ball.Blocks = 1 }, "block 2 squeezed, beyond the contract's 1"},
		{"no permutation", nil, func(c *contract.Contract) { c.Calls = nil }, "do not name the permutation"},
		{"no result", nil, func(c *contract.Contract) { c.Result = "" }, "no ok"},
		{"seed writable", nil, func(c *contract.Contract) { c.Args[1].Write = true }, "seed is writable"},
	} {
		p := ballTestPlan()
		c := *contract.Lookup(sym)
		ball := *c.Ball
		c.Ball = &ball
		c.Args = append([]contract.Arg(nil), c.Args...)
		if tc.plan != nil {
			tc.plan(p)
		}
		if tc.ct != nil {
			tc.ct(&c)
		}
		if _, _, err := proveBall(f, r, &c, p, callees, 20000); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}
