package check

import (
	"os"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// TestTwinTests runs RejBoundedPoly's declared-leak test on the routine of
// go/asm and on edits of it that leak more than where the rejections fall:
// a store indexed by the half-byte, and a branch on the half-byte around an
// instruction that changes nothing.
func TestTwinTests(t *testing.T) {
	src, err := os.ReadFile("../../go/asm/rejboundedpoly_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	// The permutation the sampler squeezes with, with the stack-bound
	// check the build gives it.
	ksrc, err := os.ReadFile("../../go/asm/keccak_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	kf, err := x86.ParseFile("keccak_amd64.s", string(ksrc))
	if err != nil {
		t.Fatal(err)
	}
	perm := *kf.Routine("KeccakF1600AMD64")
	perm.StackCheck = true
	callees := map[string]*x86.Routine{"KeccakF1600AMD64": &perm}
	const sym = "RejBoundedPolyEta2AMD64"
	c := contract.Lookup(sym)
	injs := []Injection{{Label: "reject", Reg: "SI", Region: "frame", Offset: 8}}
	store := "\tMOVL    DX, (DI)(CX*4)\n"
	for _, tc := range []struct {
		name, old, new string
		fails          bool
	}{
		{"as emitted", "", "", false},
		{"store indexed by the half-byte", store, "\tMOVL    DX, (DI)(AX*4)\n", true},
		{"branch on the half-byte", store, store + "\tCMPL AX, $0x03\n\tJNE twinskip\n\tMOVL DX, DX\ntwinskip:\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := string(src)
			if tc.old != "" {
				if !strings.Contains(text, tc.old) {
					t.Fatalf("no %q in the routine", tc.old)
				}
				text = strings.Replace(text, tc.old, tc.new, 1)
			}
			f, err := x86.ParseFile("rejboundedpoly_amd64.s", text)
			if err != nil {
				t.Fatal(err)
			}
			n, err := TwinTests(f, f.Routine(sym), c, injs, callees, 1, 2_000_000)
			if tc.fails && err == nil {
				t.Fatalf("%d pairs passed, want a difference", n)
			}
			if !tc.fails && err != nil {
				t.Fatal(err)
			}
		})
	}
}
