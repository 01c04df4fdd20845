package check

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// Package decides coverage: a TEXT symbol without a contract fails, a
// contract without a routine fails.
func TestPackageCoverage(t *testing.T) {
	src, err := os.ReadFile("../../go/asm/keccak_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	// The routine under its own name, and a copy under a name no contract
	// has.
	renamed := strings.ReplaceAll(string(src), "KeccakF1600AMD64", "PlantedAMD64")
	renamed = strings.ReplaceAll(renamed, "keccakRC<>", "plantedRC<>")
	var in Input
	for name, text := range map[string]string{"keccak_amd64.s": string(src), "planted_amd64.s": renamed} {
		f, err := x86.ParseFile(name, text)
		if err != nil {
			t.Fatal(err)
		}
		in.Units = append(in.Units, Unit{f, f.Routines[0]})
	}
	// Only the planted symbol and one contract without its routine are
	// selected, so no routine runs.
	for _, tc := range []struct{ only, obligation, detail string }{
		{"PlantedAMD64", "contract", "no contract"},
		{"NTTAVX2", "routine", "contract without a routine"},
	} {
		res, err := Package(in, PackageOptions{Runs: 1, Only: tc.only})
		if err != nil {
			t.Fatal(err)
		}
		if len(res) != 1 || res[0].Obligation != tc.obligation || res[0].Status != Failing || !strings.Contains(res[0].Detail, tc.detail) {
			t.Errorf("Package(-only %s) = %+v, want one failing %q row", tc.only, res, tc.obligation)
		}
		if len(BelowLevel(res)) != 1 {
			t.Errorf("BelowLevel does not report the failing %s row", tc.obligation)
		}
	}
	if _, err := Package(in, PackageOptions{Runs: 1, Only: "NoSuchRoutine"}); err == nil {
		t.Error("Package accepted a routine that is neither assembled nor contracted")
	}
}

// BelowLevel reports a tested obligation that the contract declares
// proven, and accepts one it declares tested.
func TestBelowLevel(t *testing.T) {
	c := contract.Lookup("RejNTTPolyAMD64")
	if c.Level[Functional] != Tested || c.Level[MemorySafety] != Proven {
		t.Fatalf("RejNTTPolyAMD64's declared levels changed: %v", c.Level)
	}
	ok := []Result{{Routine: "RejNTTPoly", Variant: "AMD64", Obligation: Functional, Status: Tested},
		{Routine: "RejNTTPoly", Variant: "AMD64", Obligation: MemorySafety, Status: Proven}}
	if b := BelowLevel(ok); len(b) != 0 {
		t.Errorf("BelowLevel(at the declared levels) = %v", b)
	}
	low := []Result{{Routine: "RejNTTPoly", Variant: "AMD64", Obligation: MemorySafety, Status: Tested}}
	if b := BelowLevel(low); len(b) != 1 || !strings.Contains(b[0], "declares it proven") {
		t.Errorf("BelowLevel(memory safety tested) = %v", b)
	}
}

// ProgramsInput turns a routine that could not be decoded, or whose text
// differs from its machine code, into a failing result.
func TestProgramsInput(t *testing.T) {
	src, err := os.ReadFile("../../go/asm/keccak_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	f, err := x86.ParseFile("keccak_amd64.s", string(src))
	if err != nil {
		t.Fatal(err)
	}
	in := ProgramsInput([]Program{
		{Name: "KeccakF1600AMD64", File: f, Routine: f.Routines[0], TextErr: errors.New("planted")},
		{Name: "NTTAVX2", Err: errors.New("planted")},
	})
	if len(in.Units) != 1 || len(in.Failures) != 2 || in.Failures[0].Obligation != "text = bytes" || in.Failures[1].Obligation != "decode" {
		t.Fatalf("ProgramsInput = %+v", in)
	}
	res, err := Package(in, PackageOptions{Runs: 1, Only: "NTT"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || res[0].Obligation != "decode" || res[1].Obligation != "routine" {
		t.Errorf("Package(-only NTT) = %+v, want the decode failure and the contract without a routine", res)
	}
}
