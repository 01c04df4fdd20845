package proofs

import (
	"fmt"

	"github.com/vg-crypto/vg/Spec/check"
	"github.com/vg-crypto/vg/Spec/contract"
)

// StageA is ExpandA's run of entries counted by number: after each call,
// entries 0 … e−1 are sampled, and the next call, of width w (eight, four
// or one: contract.ExpandAWidths), samples entries e … e+w−1, or the last
// w entries where that would run past kℓ (contract.ExpandAFirst: some
// sampled again); at the end e = kℓ. The many-way calls are
// SampN's groups.
func (h Hints) StageA(symbol string, k, l int) ([]check.SampleCall, int, error) {
	c := contract.Lookup(symbol)
	if c == nil || c.ExpandA == nil {
		return nil, 0, fmt.Errorf("%s is no ExpandA routine", symbol)
	}
	var calls []check.SampleCall
	e, g := 0, 0
	for _, w := range contract.ExpandAWidths(k, l, c.Variant) {
		e = contract.ExpandAFirst(e, w, k, l)
		if w > 1 {
			calls = append(calls, h.SampN(symbol, k, l, g))
			g++
		} else {
			calls = append(calls, check.SampleCall{Target: contract.ExpandASampler(c.Variant, 1), Entries: []int{e}})
		}
		e += w
	}
	return calls, expandAMask(c.Variant), nil
}

// expandAMask is the frame offset of ExpandA's running mask
// (Emit/expanda.go): the callee's arguments at 0, then a pointer and a
// seed for each of four entries (eight on the AVX-512 path; the baseline
// routine uses one of four).
func expandAMask(variant string) int {
	if variant == "AVX512" {
		return 24 + 8*8 + 8*34
	}
	return 24 + 4*8 + 4*34
}
