package proofs

import (
	"github.com/vg-crypto/vg/Spec/check"
	"github.com/vg-crypto/vg/Spec/contract"
)

// SampN is one group of entries of Â (FIPS 204, Algorithm 32), the
// design's Samp4: the g-th call of the four-way sampler samples entries
// 4g … 4g+3, polynomial j from seed ρ ‖ s ‖ r of entry 4g+j (s = e mod ℓ,
// r = e div ℓ), and its result is ANDed into the running mask. The checker
// verifies the seeds, the outputs and the mask on the routine's symbolic
// run.
func (Hints) SampN(symbol string, k, l, g int) check.SampleCall {
	return check.SampleCall{Target: "RejNTTPolyx4" + contract.Lookup(symbol).Variant, Entries: []int{4 * g, 4*g + 1, 4*g + 2, 4*g + 3}}
}
