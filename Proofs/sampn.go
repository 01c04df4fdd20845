package proofs

import (
	"github.com/vg-crypto/vg/Spec/check"
	"github.com/vg-crypto/vg/Spec/contract"
)

// SampN is one group of entries of Â (FIPS 204, Algorithm 32), the
// design's Samp4 for groups of four or eight: the g-th call of a many-way
// sampler samples the w entries after those of the groups before it (a
// last group of eight the last eight entries),
// polynomial j from seed ρ ‖ s ‖ r of its entry e (s = e mod ℓ, r = e div
// ℓ), and its result is ANDed into the running mask. The checker verifies
// the seeds, the outputs and the mask on the routine's symbolic run.
func (Hints) SampN(symbol string, k, l, g int) check.SampleCall {
	c := contract.Lookup(symbol)
	e := 0
	for _, w := range contract.ExpandAWidths(k, l, c.Variant) {
		if w == 1 {
			break
		}
		e = contract.ExpandAFirst(e, w, k, l)
		if g == 0 {
			return check.SampleCall{Target: contract.ExpandASampler(c.Variant, w), Entries: entries(e, w)}
		}
		g--
		e += w
	}
	return check.SampleCall{}
}

// entries is e, e+1, …, e+w−1.
func entries(e, w int) []int {
	s := make([]int, w)
	for j := range s {
		s[j] = e + j
	}
	return s
}
