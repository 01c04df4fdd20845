package proofs

import (
	"fmt"

	"github.com/vg-crypto/vg/Spec/check"
	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// Injections implements check.StreamHints: where each sampler holds a
// freshly squeezed SHAKE128 or SHAKE256 block, at the head of its rejection loop with
// SI (the offset into the block) still 0.
func (Hints) Injections(symbol string) []check.Injection {
	switch symbol {
	case "RejNTTPolyAMD64":
		// The state's rate, at frame+8 (Emit/rejnttpoly.go).
		return []check.Injection{{Label: "reject", Reg: "SI", Region: "frame", Offset: 8}}
	case "RejBoundedPolyEta2AMD64", "RejBoundedPolyEta4AMD64":
		// The state's rate, at frame+0 (Emit/rejboundedpoly.go).
		return []check.Injection{{Label: "reject", Reg: "SI", Region: "frame", Offset: 0}}
	case "RejNTTPolyx4AVX2":
		// Lanes 0 to 23 of state j, transposed to frame+1600+192j.
		var out []check.Injection
		for j := 0; j < 4; j++ {
			out = append(out, check.Injection{Label: fmt.Sprintf("s%dreject", j), Reg: "SI", Region: "frame", Offset: 1600 + 192*j, Poly: j})
		}
		return out
	}
	return nil
}

// RejPlan implements check.RejHints: RejNTTPolyAMD64's loop heads, where
// the block is ready and where the count and the blocks left are kept
// (Emit/rejnttpoly.go).
func (Hints) RejPlan(r *x86.Routine, c *contract.Contract) (*check.RejPlan, error) {
	switch c.Symbol {
	case "RejNTTPolyAMD64":
		// The block is squeezed by the call of KeccakF1600AMD64 on the
		// state at frame+8.
		return &check.RejPlan{
			Block:      "block",
			State:      "frame+8",
			BlocksSlot: "frame+216",
			Polys: []check.RejPoly{{
				Buffer: "a", Reject: "reject", CountReg: "CX", OffsetReg: "SI", RateReg: "R8", PtrReg: "DI",
				CountSlot: "frame+208", Lanes: lanes(8, 8), Rate: 8,
			}},
		}, nil
	}
	return nil, fmt.Errorf("no sampler plan for %s", c.Symbol)
}

// lanes lists the frame offsets of a state's first 21 lanes.
func lanes(base, stride int) []int {
	var out []int
	for L := 0; L < 21; L++ {
		out = append(out, base+stride*L)
	}
	return out
}
