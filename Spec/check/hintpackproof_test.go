package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// hintPackTestPlan is Proofs' plan of the HintBitPack routines
// (Emit/hintbitpack.go), which Spec/check's tests may not import.
func hintPackTestPlan() *HintPackPlan {
	return &HintPackPlan{Coef: "coef", Keep: []string{"BX", "CX", "DX", "SI", "DI", "R10"}}
}

// The HintBitPack proof holds for the routines as built (with -short,
// for ML-DSA-44's).
func TestHintPackProof(t *testing.T) {
	names := []string{"HintBitPack44AMD64", "HintBitPack65AMD64", "HintBitPack87AMD64"}
	if testing.Short() {
		names = names[:1]
	}
	for _, name := range names {
		f, r, _ := builtRoutine(t, name)
		c := *contract.Lookup(name)
		t0 := time.Now()
		fn, err := proveHintPack(f, r, &c, hintPackTestPlan(), 20000)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("%s (%v): %s", name, time.Since(t0), fn)
		if !strings.Contains(fn, "proven for every hint") {
			t.Errorf("%s: %s", name, fn)
		}
	}
}

// routineText parses routine sym of go/asm's file from its text with each
// pair's old text replaced (once, within sym's TEXT).
func routineText(t *testing.T, file, sym string, pairs ...string) (*x86.File, *x86.Routine) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "go", "asm", file))
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	lo := strings.Index(src, "TEXT ·"+sym+"(SB)")
	hi := len(src)
	if k := strings.Index(src[lo+1:], "\nTEXT "); k >= 0 {
		hi = lo + 1 + k
	}
	body := src[lo:hi]
	for k := 0; k+1 < len(pairs); k += 2 {
		if !strings.Contains(body, pairs[k]) {
			t.Fatalf("%s: %q not found", sym, pairs[k])
		}
		body = strings.Replace(body, pairs[k], pairs[k+1], 1)
	}
	f, err := x86.ParseFile(file, src[:lo]+body+src[hi:])
	if err != nil {
		t.Fatal(err)
	}
	return f, f.Routine(sym)
}

// The HintBitPack proof refutes bugs planted in HintBitPack44AMD64 (k =
// 4, ω = 80), most of which random hints do not reach, and wrong plans.
func TestHintPackProofRefutes(t *testing.T) {
	const sym = "HintBitPack44AMD64"
	store := "MOVB BL, (DI)(CX*1)\n"
	count := "MOVB CL, 80(DI)(DX*1)\n"
	for _, tc := range []struct {
		name  string
		pairs []string
		plan  *HintPackPlan
		want  string
	}{
		{"the position 137 stored as 0 where Index = 40", []string{store,
			store + "\tCMPQ BX, $0x89\n\tJNE ok\n\tCMPQ CX, $0x28\n\tJNE ok\n\tMOVB $0x00, (DI)(CX*1)\nok:\n"}, nil, "not Algorithm 20's"},
		{"the ω-th one not stored", []string{"CMPQ  CX, $0x00000050", "CMPQ  CX, $0x0000004f"}, nil, "not Algorithm 20's"},
		{"the last count wrong where it is ω", []string{count,
			count + "\tCMPQ DX, $0x03\n\tJNE ok\n\tCMPQ CX, $0x50\n\tJNE ok\n\tMOVB $0x4f, 83(DI)\nok:\n"}, nil, "not Algorithm 20's"},
		{"y[72..79] not zeroed", []string{"MOVQ AX, 72(DI)\n", ""}, nil, "not Algorithm 20's"},
		{"a branch on the next coefficient", []string{"TESTL AX, AX\n",
			"TESTL AX, AX\n\tMOVL 4(SI)(BX*4), R11\n\tTESTL R11, R11\n\tJNE next\n"}, nil, "branch on data"},
		{"a store at the next coefficient's value", []string{store,
			store + "\tMOVL 4(SI)(BX*4), R11\n\tMOVB BL, (DI)(R11*1)\n"}, nil, "depends on data"},
		{"Index not kept", nil, &HintPackPlan{Coef: "coef", Keep: []string{"BX", "DX", "SI", "DI", "R10"}}, "branch on data"},
		{"a plan at another label", nil, &HintPackPlan{Coef: "next", Keep: []string{"BX", "CX", "DX", "SI", "DI", "R10"}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, r := routineText(t, "hintbitpack_amd64.s", sym, tc.pairs...)
			plan := tc.plan
			if plan == nil {
				plan = hintPackTestPlan()
			}
			_, err := proveHintPack(f, r, contract.Lookup(sym), plan, 20000)
			if err == nil {
				t.Fatal("proven")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("refuted for another reason: %v", err)
			}
			t.Log(err)
		})
	}
}
