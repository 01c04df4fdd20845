package main

import "github.com/mmcloughlin/avo/build"

// The difference of two polynomials, coefficient-wise mod q, in place:
// w ← w − b. With both in [0, q), w − b lies in (−q, q), and adding q
// where it is negative (caddq) gives [0, q). The body is polyadd.go's.

func init() { register("polysub", buildPolySub) }

// buildPolySub emits PolySubAMD64 and PolySubAVX2.
func buildPolySub(c *build.Context) {
	sseAddSub(c, "PolySubAMD64", "polySubConstsSSE2", true)
	avx2AddSub(c, "PolySubAVX2", "polySubConsts", true)
}
