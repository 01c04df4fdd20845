package contract

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips204"
)

// The coefficient maps of FIPS 204, §7.4 (Algorithms 35 to 40) and the
// infinity-norm checks (§2.3; Algorithm 7, lines 23 and 28, Algorithm 8,
// line 13) on all 256 coefficients of a polynomial. Where the map depends
// on γ2 there is one routine per γ2 of Table 1, named by the divisor of
// q − 1: 88 (ML-DSA-44) or 32 (ML-DSA-65 and -87). Scalars (the bounds)
// come by pointer to a public word. Every routine handles secret
// coefficients (w, r0, z, ct0, t) and may leak nothing.

// specParams returns a parameter set with γ2 = (q−1)/div.
func specParams(div int) fips204.Params {
	if div == 88 {
		return fips204.MLDSA44
	}
	return fips204.MLDSA65
}

// coeffs reads the 256 little-endian words of a polynomial.
func coeffs(b []byte) (w fips204.Poly) {
	for i := range w {
		w[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return w
}

// genCoeffs draws 256 coefficients in [0, q): half uniform, half next to
// the edges of Decompose and Power2Round (multiples of 2γ2 and of 2¹³,
// shifted by up to ±γ2's halves, and q − 1).
func genCoeffs(r *rand.Rand) []byte {
	b := make([]byte, 1024)
	for i := 0; i < 256; i++ {
		var x int64
		switch r.IntN(6) {
		case 0, 1, 2:
			x = int64(r.Uint32N(fips204.Q))
		case 3:
			g := int64(2 * []int{(fips204.Q - 1) / 88, (fips204.Q - 1) / 32}[r.IntN(2)])
			x = g*int64(r.IntN(int(fips204.Q/g)+1)) + int64(r.IntN(5)) - 2 + []int64{0, g / 2, -g / 2}[r.IntN(3)]
		case 4:
			x = int64(r.IntN(1<<10))<<13 + int64(r.IntN(5)) - 2 + []int64{0, 1 << 12, -(1 << 12)}[r.IntN(3)]
		default:
			x = fips204.Q - 1 - int64(r.IntN(3))
		}
		x %= fips204.Q
		if x < 0 {
			x += fips204.Q
		}
		binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
	}
	return b
}

func word(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }

// polyArg is a polynomial argument of a coefficient map.
func polyArg(name string, write bool) Arg {
	return Arg{Name: name, Bytes: 1024, Secret: true, Read: !write, Write: write}
}

// compareCoeffs returns an error naming the first coefficient of out that
// differs from want.
func compareCoeffs(what string, out []byte, want func(i int) uint32) error {
	for i := 0; i < 256; i++ {
		if got := binary.LittleEndian.Uint32(out[4*i:]); got != want(i) {
			return fmt.Errorf("%s[%d] = %d, Spec gives %d", what, i, got, want(i))
		}
	}
	return nil
}

func modQ(x int32) uint32 {
	if x < 0 {
		return uint32(x + fips204.Q)
	}
	return uint32(x)
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

func abs(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

// avx2Features are the features of a coefficient map's AVX2 variant.
var avx2Features = []string{"AVX", "AVX2"}

// registerCoeffMap registers a coefficient map's variants under their file
// stem and go/mldsa routine, with time budgets in seconds for the AMD64 and
// AVX2 variants: about twice the slower of two runs of vg prove -routine
// under load average 13-24, the exhaustions of the functional proofs
// included. The maps are proven for every input (Lanes; MakeHint through
// Algorithm 39's split, its count as the sum of its words), and so are the
// norm checks (Exceeds).
func registerCoeffMap(stem, goName string, amd64, avx2 float64, cs ...*Contract) {
	for _, c := range cs {
		c.Stem, c.GoName, c.Level = stem, goName, provenExcept()
		if c.Lanes == nil && c.Exceeds == nil {
			c.Level = provenExcept(Functional)
		}
		if c.Op != nil && c.Effect == nil {
			c.Effect = coeffMapEffect(c)
		}
		c.Budget = amd64
		if c.Variant == "AVX2" {
			c.Budget = avx2
		}
	}
	register(cs...)
}

// coeffMapEffect is the Effect of a coefficient-wise map others CALL: its
// Lanes map on each word (and the count of ones of its first output),
// or its Exceeds flag.
func coeffMapEffect(c *Contract) func(Buffers, *rand.Rand) (Buffers, byte) {
	return func(in Buffers, _ *rand.Rand) (Buffers, byte) {
		out := Buffers{}
		if e := c.Exceeds; e != nil {
			bound, flag := binary.LittleEndian.Uint32(in[e.Bound]), uint32(0)
			for _, w := range coeffs(in[e.In]) {
				if e.Of(uint32(w)) >= bound {
					flag = 1
				}
			}
			out[e.Flag] = word(flag)
			return out, 0
		}
		l := c.Lanes
		for _, name := range l.Out {
			out[name] = make([]byte, 1024)
		}
		for i := 0; i < 256; i++ {
			var x []uint32
			for _, name := range l.In {
				x = append(x, binary.LittleEndian.Uint32(in[name][4*i:]))
			}
			for k, y := range l.Map(x) {
				binary.LittleEndian.PutUint32(out[l.Out[k]][4*i:], y)
			}
		}
		if l.Count != "" {
			n := uint32(0)
			for _, y := range coeffs(out[l.Out[0]]) {
				n += uint32(b2b(y == 1))
			}
			out[l.Count] = word(n)
		}
		return out, 0
	}
}
