package check

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
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

// hintPackStep, applied to every coefficient in turn from y = 0 and
// Index = 0, is Spec's HintBitPack on hints meeting the precondition:
// none, ω ones spread, ω ones in one polynomial, coefficient 255 of the
// last polynomial, random counts.
func TestHintPackStepIsAlgorithm20(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 20))
	for _, p := range []fips204.Params{fips204.MLDSA44, fips204.MLDSA65, fips204.MLDSA87} {
		for it := 0; it < 300; it++ {
			h := make([]fips204.Poly, p.K)
			ones := []int{0, p.Omega, p.Omega, rng.IntN(p.Omega + 1)}[it%4]
			lo, hi := 0, 256*p.K
			if it%8 == 2 {
				lo = 256 * rng.IntN(p.K)
				hi = lo + 256
			}
			if it%8 == 6 {
				h[p.K-1][255] = 1
				ones--
			}
			for set := 0; set < ones; {
				k := lo + rng.IntN(hi-lo)
				if h[k/256][k%256] == 0 {
					h[k/256][k%256] = 1
					set++
				}
			}
			y := make([]byte, p.Omega+p.K)
			i, j, index := 0, 0, 0
			for n := 0; n < 256*p.K; n++ {
				var ws [][2]int
				ws, i, j, index = hintPackStep(p.Omega, i, j, index, h[i][j] != 0)
				for _, w := range ws {
					y[w[0]] = byte(w[1])
				}
			}
			if i != p.K || j != 0 {
				t.Fatalf("%s: ends at i = %d, j = %d", p.Name, i, j)
			}
			if want := fips204.HintBitPack(p, h); string(y) != string(want) {
				t.Fatalf("%s: %x, Spec %x", p.Name, y, want)
			}
		}
	}
}
