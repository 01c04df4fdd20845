package check

import (
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
)

// normExceeds is the contract of sym with its postcondition stated as an
// Exceeds of ‖w‖∞, whatever the contract says.
func normExceeds(sym string) *contract.Contract {
	c := *contract.Lookup(sym)
	c.Exceeds = &contract.Exceeds{In: "w", Bound: "bound", Flag: "exceeds",
		Of: func(w uint32) uint32 { return min(w, fips204.Q-w) }}
	return &c
}

// TestProveExceeds proves NormExceedsAMD64 and refuses two edits: a
// comparison with the bound + 1 (wrong only where some |w| equals the
// bound exactly) and a flag that leaves every fourth position out of its
// OR.
func TestProveExceeds(t *testing.T) {
	const sym = "NormExceedsAMD64"
	cases := []struct {
		name    string
		edit    []string
		wantErr string
	}{
		{"correct", nil, ""},
		{"bound off by one", []string{"DECL R9\n", ""}, "position"},
		{"every fourth position left out", []string{"SHRL $0x1f, BX\n\tORL  BX, R10", "SHRL $0x1f, BX\n\tORL  R10, R10"}, "per-position results for 192"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := parseGoAsm(t, "normexceeds_amd64.s")
			if tc.edit != nil {
				f = mutate(t, "normexceeds_amd64.s", 1, tc.edit...)
			}
			d, err := proveExceeds(f, f.Routine(sym), normExceeds(sym), 1<<22)
			wantVerdict(t, d, err, tc.wantErr)
		})
	}
}
