package proofs

import (
	"fmt"

	"github.com/vg-crypto/vg/Spec/check"
	"github.com/vg-crypto/vg/Spec/contract"
)

// expandAMask is the frame offset of ExpandA's running mask
// (Emit/expanda.go: the callee's arguments at 0, the pointer array at 24,
// the four seeds at 56, the mask at 192).
const expandAMask = 192

// StageA is ExpandA's run of entries counted by number: after group g and
// single j, entries 0 … e−1 are sampled, each exactly once, with e = 4g + j
// on the AVX2 path (e = j on the baseline one), and the next call samples
// entry e (and e+1 … e+3 for a group); at the end e = kℓ. The groups are
// SampN's.
func (h Hints) StageA(symbol string, k, l int) ([]check.SampleCall, int, error) {
	c := contract.Lookup(symbol)
	if c == nil || c.ExpandA == nil {
		return nil, 0, fmt.Errorf("%s is no ExpandA routine", symbol)
	}
	fours, singles := contract.ExpandAGroups(k, l, c.Variant)
	var calls []check.SampleCall
	for g := 0; g < fours; g++ {
		calls = append(calls, h.SampN(symbol, k, l, g))
	}
	for j := 0; j < singles; j++ {
		calls = append(calls, check.SampleCall{Target: contract.ExpandASingle(c.Variant), Entries: []int{4*fours + j}})
	}
	return calls, expandAMask, nil
}
