package proofs

import (
	"fmt"

	"github.com/vg-crypto/vg/Spec/check"
	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

func init() {
	for sym, p := range ballParams {
		invariants[sym] = func() []check.Invariant { return sampleInBallAMD64(p.Tau) }
	}
}

// ballParams maps each SampleInBall routine to its parameter set.
var ballParams = perSet("SampleInBall", "BMI2")

// SampleInBall{44,65,87}{AMD64,BMI2}'s frame (Emit/sampleinball.go): the
// permutation's argument at 0, the Keccak state at 8..207, the next byte
// of the block at 208 (0 to 136), i at 216, h at 224, the blocks still
// allowed at 232, the sign, 1 << (i − 192), 1 << (i + τ − 256) and the
// one-hot word of j at 240 to 271, the masks across a call at 272. The
// loop at read takes one byte of the rate (136 bytes).
func sampleInBallAMD64(τ int) []check.Invariant {
	return []check.Invariant{{
		Label: "read",
		Facts: []check.Fact{
			pub("frame+208", 0, 136),
			pub("frame+216", uint64(256-τ), 255),
			pub("frame+232", 0, contract.SampleInBallBlocks-1),
		},
	}}
}

// BallPlan implements check.BallHints: the loop head where a byte is
// read, the expansion, the state, h and the masks' registers
// (Emit/sampleinball.go), and the slots that hold a constant of the
// proof's (i, block, byte) at read: the byte's offset, i, the blocks
// still allowed, 1 << (i − 192) and 1 << (i + τ − 256).
func (Hints) BallPlan(r *x86.Routine, c *contract.Contract) (*check.BallPlan, error) {
	if _, ok := ballParams[c.Symbol]; !ok {
		return nil, fmt.Errorf("no SampleInBall plan for %s", c.Symbol)
	}
	return &check.BallPlan{
		Read: "read", Expand: "expand", State: "frame+8", Signs: "frame+224",
		NZ:   [4]string{"R8", "R9", "R10", "R11"},
		Neg:  [4]string{"R12", "R13", "R14", "BX"},
		Keep: []string{"frame+208", "frame+216", "frame+232", "frame+248", "frame+256"},
	}, nil
}
