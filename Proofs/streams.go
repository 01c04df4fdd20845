package proofs

import (
	"fmt"
	"strings"

	"github.com/vg-crypto/vg/Spec/check"
	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// Injections implements check.StreamHints: where each sampler holds a
// freshly squeezed SHAKE128 or SHAKE256 block, at the head of its rejection loop with
// SI (the offset into the block) still 0.
func (Hints) Injections(symbol string) []check.Injection {
	switch symbol {
	case "RejNTTPolyAMD64", "RejNTTPolyBMI2":
		// The state's rate, at frame+8 (Emit/rejnttpoly.go).
		return []check.Injection{{Label: "reject", Reg: "SI", Region: "frame", Offset: 8}}
	case "RejBoundedPolyEta2AMD64", "RejBoundedPolyEta4AMD64":
		// The state's rate, at frame+8 (Emit/rejboundedpoly.go).
		return []check.Injection{{Label: "reject", Reg: "SI", Region: "frame", Offset: 8}}
	case "RejNTTPolyx4AVX2", "RejNTTPolyx4AVX512", "RejNTTPolyx8AVX512":
		// Lanes 0 to 23 of state j, transposed to frame+8+200n+192j.
		n := rejWays(symbol)
		var out []check.Injection
		for j := 0; j < n; j++ {
			out = append(out, check.Injection{Label: fmt.Sprintf("s%dreject", j), Reg: "SI", Region: "frame", Offset: 8 + 200*n + 192*j, Poly: j})
		}
		return out
	case "RejBoundedPolyx4Eta2AVX2", "RejBoundedPolyx4Eta4AVX2", "RejBoundedPolyx4Eta2AVX512", "RejBoundedPolyx4Eta4AVX512":
		// The rate of state j, transposed to boundedx4Rate(j).
		var out []check.Injection
		for j := 0; j < 4; j++ {
			out = append(out, check.Injection{Label: fmt.Sprintf("s%dreject", j), Reg: "SI", Region: "frame", Offset: boundedx4Rate(j), Poly: j})
		}
		return out
	}
	return nil
}

// RejPlan implements check.RejHints: the samplers' loop heads, where the
// block is ready and where the count and the blocks left are kept
// (Emit/rejnttpoly.go, rejnttpolyx4.go, rejboundedpoly.go).
func (Hints) RejPlan(r *x86.Routine, c *contract.Contract) (*check.RejPlan, error) {
	switch c.Symbol {
	case "RejNTTPolyAMD64", "RejNTTPolyBMI2":
		// The block is squeezed by the call of KeccakF1600AMD64 (or
		// KeccakF1600BMI2) on the state at frame+8.
		return &check.RejPlan{
			Block:      "block",
			State:      "frame+8",
			BlocksSlot: "frame+216",
			Step:       24, // eight three-byte groups a pass
			Polys: []check.RejPoly{{
				Buffer: "a", Reject: "reject", CountReg: "CX", OffsetReg: "SI", RateReg: "R8", PtrReg: "DI",
				CountSlot: "frame+208", Lanes: lanes(8, 8, 21), Rate: 8,
			}},
		}, nil
	case "RejBoundedPolyEta2AMD64", "RejBoundedPolyEta4AMD64":
		// As RejNTTPolyAMD64, with SHAKE256's block of 17 lanes read
		// boundedPass bytes a pass.
		return &check.RejPlan{
			Block:      "block",
			State:      "frame+8",
			BlocksSlot: "frame+216",
			Step:       boundedPass,
			Polys: []check.RejPoly{{
				Buffer: "a", Reject: "reject", CountReg: "CX", OffsetReg: "SI", RateReg: "R8", PtrReg: "DI",
				CountSlot: "frame+208", Lanes: lanes(8, 8, 17), Rate: 8,
			}},
		}, nil
	case "RejNTTPolyx4AVX2", "RejNTTPolyx4AVX512", "RejNTTPolyx8AVX512":
		// The n states are squeezed by the call of KeccakF1600xn on
		// frame+8; lanes 0 to 23 of state j are then transposed to
		// frame+8+200n+192j, where polynomial j's rejection loop reads
		// them; the counts follow, then the blocks left. The tables'
		// addresses and the constants are loaded after the call and kept
		// through the rejection loops.
		n := rejWays(c.Symbol)
		rates := 8 + 200*n
		counts := rates + 192*n
		p := &check.RejPlan{
			Block: "block", State: "frame+8", BlocksSlot: fmt.Sprintf("frame+%d", counts+8*n), Step: 24, DoneAtBlock: true,
			// A vector pass may complete a polynomial: the head after it
			// sees 256 and leaves.
			CompleteAtReject: true,
			Keep:             []string{"R12", "R13", "Y13", "Y14", "Y15"},
		}
		for j := 0; j < n; j++ {
			p.Polys = append(p.Polys, check.RejPoly{
				Buffer: fmt.Sprintf("a[%d]", j), Reject: fmt.Sprintf("s%dreject", j),
				CountReg: "CX", OffsetReg: "SI", RateReg: "R8", PtrReg: "DI",
				CountSlot: fmt.Sprintf("frame+%d", counts+8*j), Lanes: lanes(rates+192*j, 8, 21), Rate: rates + 192*j,
			})
		}
		return p, nil
	case "RejBoundedPolyx4Eta2AVX2", "RejBoundedPolyx4Eta4AVX2", "RejBoundedPolyx4Eta2AVX512", "RejBoundedPolyx4Eta4AVX512":
		// The four states are squeezed by the call of KeccakF1600x4AVX2
		// on frame+8; the rate of state j is then transposed to
		// boundedx4Rate(j), where polynomial j's rejection loop reads it
		// boundedPassAVX2 bytes a pass. The tables' addresses and the
		// constants are loaded after the call and kept through the
		// rejection loops.
		p := &check.RejPlan{
			Block: "block", State: fmt.Sprintf("frame+%d", boundedx4State), BlocksSlot: boundedx4Blocks,
			Step: boundedPassAVX2, DoneAtBlock: true, CompleteAtReject: true,
			Keep: append([]string{"R12", "R13"}, boundedKept...),
		}
		for j := 0; j < 4; j++ {
			p.Polys = append(p.Polys, check.RejPoly{
				Buffer: fmt.Sprintf("a[%d]", j), Reject: fmt.Sprintf("s%dreject", j),
				CountReg: "CX", OffsetReg: "SI", RateReg: "R8", PtrReg: "DI",
				CountSlot: boundedx4Count(j), Lanes: lanes(boundedx4Rate(j), 8, 17), Rate: boundedx4Rate(j),
			})
			if j > 0 {
				p.Polys[j].Next = fmt.Sprintf("s%dnext", j)
			}
		}
		return p, nil
	}
	return nil, fmt.Errorf("no sampler plan for %s", c.Symbol)
}

// lanes lists the frame offsets of a state's first n lanes.
// rejWays is the number of polynomials of a RejNTTPolyxn routine.
func rejWays(symbol string) int {
	if strings.HasPrefix(symbol, "RejNTTPolyx8") {
		return 8
	}
	return 4
}

func lanes(base, stride, n int) []int {
	var out []int
	for L := 0; L < n; L++ {
		out = append(out, base+stride*L)
	}
	return out
}
