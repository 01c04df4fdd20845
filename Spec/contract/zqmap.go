package contract

import (
	"encoding/binary"
	"math/rand/v2"

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

// effect is the Effect of a routine whose postcondition is z: Out holds
// Want's words, which proveZq proves it writes.
func (z *ZqMap) effect() func(in Buffers, _ *rand.Rand) (Buffers, byte) {
	return func(in Buffers, _ *rand.Rand) (Buffers, byte) {
		ws := z.Want(in)
		b := make([]byte, 4*len(ws))
		for i, w := range ws {
			binary.LittleEndian.PutUint32(b[4*i:], w)
		}
		return Buffers{z.Out: b}, 0
	}
}

// Poly reads a polynomial of little-endian 32-bit coefficients.
func Poly(b []byte) (p fips204.Poly) {
	for i := range p {
		p[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return p
}

// polyMapContract is the contract of a coefficient-wise map over ℤq of
// polynomial w in place, reading polynomial b too when with is set:
// w[i] ← f(w[i], b[i]) mod q, every coefficient in [0, q) in and out.
// f must be ℤq-affine in its arguments (the ℤq proof relies on it; see
// ZqMap); post states it with Spec's names.
func polyMapContract(sym, routine, variant string, withB bool, post string, f func(w, b int64) int64) *Contract {
	want := func(in Buffers) []uint32 {
		out := make([]uint32, 256)
		for i := range out {
			w := int64(binary.LittleEndian.Uint32(in["w"][4*i:]))
			var b int64
			if withB {
				b = int64(binary.LittleEndian.Uint32(in["b"][4*i:]))
			}
			out[i] = uint32((f(w, b)%fips204.Q + fips204.Q) % fips204.Q)
		}
		return out
	}
	args := []Arg{{Name: "w", Bytes: 1024, Secret: true, Read: true, Write: true}}
	sig, pre, zin := "func "+sym+"(w *[256]uint32)", "every coefficient of w in [0, q)", []string{"w"}
	if withB {
		args = append(args, Arg{Name: "b", Bytes: 1024, Secret: true, Read: true})
		sig, pre, zin = "func "+sym+"(w, b *[256]uint32)", "every coefficient of w and b in [0, q)", []string{"w", "b"}
	}
	zm := &ZqMap{In: zin, Out: "w", Want: want}
	return &Contract{
		Symbol: sym, Routine: routine, Variant: variant, GoSig: sig, Effect: zm.effect(),
		Level: provenExcept(), Args: args, NoAlias: true,
		Pre: pre, Post: post + ", coefficients in [0, q)",
		Leak: "nothing: the coefficients are secret (y, cs1, cs2, s2, the NTT forms of s1, s2, t0)",
		Gen: func(r *rand.Rand) Buffers {
			b := Buffers{"w": genCoeffs(r)}
			if withB {
				b["b"] = genCoeffs(r)
			}
			return b
		},
		Zq: zm,
		Check: func(in, out Buffers, _ byte) error {
			ws := want(in)
			return compareCoeffs("w", out["w"], func(i int) uint32 { return ws[i] })
		},
	}
}

// registerPolyMap registers the AVX2 and baseline variants of a
// polyMapContract under their file stem and go/mldsa routine, each with
// its doc. The baseline variant of a product (mcdt) runs PMULUDQ inside
// the MXCSR bracket, whose words take 8 bytes of frame. Budgets: about
// twice the slowest runs of vg prove -routine, which took 0.8-4.4 s (AVX2)
// and 3.9-12.1 s (SSE2) under load average 12-22 with 10,000 random
// inputs, 0.16-0.82 s under load average 8 with the 1,000 a proven
// routine runs.
func registerPolyMap(routine, stem, goName string, withB, mcdt bool, post string, f func(w, b int64) int64, avx2Doc, sse2Doc []string) (avx2, sse2 *Contract) {
	c := polyMapContract(routine+"AVX2", routine, "AVX2", withB, post, f)
	c.Stem, c.GoName, c.Budget, c.Doc = stem, goName, 5, avx2Doc
	c.Features = []string{"AVX", "AVX2"}
	b := polyMapContract(routine+"AMD64", routine, "AMD64", withB, post, f)
	b.Stem, b.GoName, b.Budget, b.Doc = stem, goName, 10, sse2Doc
	b.Features = []string{"SSE2"}
	if mcdt {
		baselineSSE2(b)
		b.MaxFrame = 8
	}
	register(c, b)
	return c, b
}
