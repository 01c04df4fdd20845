package proofs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vg-crypto/vg/Spec/check"
	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

func load(t *testing.T, file, sym string) (*x86.File, *x86.Routine, *contract.Contract) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "go", "asm", file))
	if err != nil {
		t.Fatal(err)
	}
	f, err := x86.ParseFile(file, string(src))
	if err != nil {
		t.Fatal(err)
	}
	r := f.Routine(sym)
	if r == nil {
		t.Fatalf("no %s in %s", sym, file)
	}
	return f, r, contract.Lookup(sym)
}

func TestInvariantsHold(t *testing.T) {
	for _, tc := range [][2]string{
		{"rejnttpoly_amd64.s", "RejNTTPolyAMD64"},
		{"rejnttpolyx4_amd64.s", "RejNTTPolyx4AVX2"},
	} {
		f, r, c := load(t, tc[0], tc[1])
		res := check.Inductive(f, r, c, Hints{}.Invariants(tc[1]), 1_000_000)
		if res.Err != nil {
			t.Errorf("%s: %v", tc[1], res.Err)
		}
		if !res.NoSecret {
			t.Errorf("%s: a secret value reached a branch or address", tc[1])
		}
	}
}

// Each perturbed hint is false for the generated code; the check must fail.
func TestWrongHintsFail(t *testing.T) {
	f, r, c := load(t, "rejnttpoly_amd64.s", "RejNTTPolyAMD64")
	perturb := map[string]func(invs []check.Invariant){
		"count bound too small": func(invs []check.Invariant) { invs[1].Facts[0].Hi = 100 },
		"blocks from 2":         func(invs []check.Invariant) { invs[0].Facts[1].Lo = 2 },
		"output pointer into the seed": func(invs []check.Invariant) {
			invs[1].Facts[3].Region = "seed"
		},
		"index congruence wrong": func(invs []check.Invariant) { invs[1].Facts[1].Rem = 1 },
		"frame claimed public":   func(invs []check.Invariant) { invs[0].PublicFrame = true },
	}
	for name, p := range perturb {
		invs := Hints{}.Invariants("RejNTTPolyAMD64")
		p(invs)
		if res := check.Inductive(f, r, c, invs, 1_000_000); res.Err == nil {
			t.Errorf("%s: the inductive check passed", name)
		}
	}
}
