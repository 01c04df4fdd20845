package contract

import (
	"encoding/binary"

	"github.com/vg-crypto/vg/Spec/fips204"
)

// ZqMap says that a routine's postcondition is a map over ℤq of 32-bit
// coefficients: the input buffers In hold little-endian words in [0, q)
// (the precondition), and Out must hold, word for word, the canonical
// representatives in [0, q) of Want's result.
//
// Want is the postcondition as a function, written with Spec/fips204; the
// contract's Check compares against it. It must be ℤq-affine in the
// coefficients of In, or, when Bilinear, ℤq-bilinear in In[0] and In[1]
// (the Spec algorithms are: every line of Algorithms 41, 42, 44, 45 and 48
// is a sum, a difference or a product mod q, and the products of Algorithms
// 45 and 48 take one factor from each argument). The checker recovers the
// map from Want's values on basis vectors (pairs of basis vectors), so it
// relies on that property and on nothing else about Want.
//
// PerPosition, for a bilinear map, says that output i depends only on the
// inputs' coefficients at position i of their polynomials (Algorithm 45,
// line 2 multiplies ĉ[i] = â[i]·b̂[i]; Algorithm 44 adds position-wise);
// the checker then evaluates Want only on pairs of basis vectors at equal
// positions and takes the others as zero.
type ZqMap struct {
	In          []string
	Out         string
	Bilinear    bool
	PerPosition bool
	Want        func(in Buffers) []uint32
}

// Poly reads a polynomial of little-endian 32-bit coefficients.
func Poly(b []byte) (p fips204.Poly) {
	for i := range p {
		p[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return p
}
