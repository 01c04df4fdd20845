package proofs

import (
	"fmt"

	"github.com/vg-crypto/vg/Spec/check"
)

// Injections implements check.StreamHints: where each sampler holds a
// freshly squeezed SHAKE128 block, at the head of its rejection loop with
// SI (the offset into the block) still 0.
func (Hints) Injections(symbol string) []check.Injection {
	switch symbol {
	case "RejNTTPolyAMD64":
		// The state's rate, at frame+0 (Emit/rejnttpoly.go).
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
