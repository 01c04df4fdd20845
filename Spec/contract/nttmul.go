package contract

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips204"
)

func init() { lazily(nttmulContracts) }

func nttmulContracts() {
	c := productContract("MultiplyNTTAVX2", 0)
	c.Stem, c.GoName, c.Budget = "nttmul", "multiplyNTT", 20
	c.Doc = []string{
		"MultiplyNTTAVX2 is MultiplyNTT (FIPS 204, Algorithm 45) with a factor in",
		"Montgomery form: out[i] = a[i]·b[i]·2⁻³² mod q in [0, q), for a[i], b[i]",
		"in [0, q). The three polynomials must not overlap. Straight-line code:",
		"no branch or address depends on the coefficients. Needs AVX2.",
	}
	register(c)

	z := productContract("MultiplyNTTAVX512", 0)
	z.Stem, z.GoName, z.Budget = "nttmul", "multiplyNTT", 20
	avx512Product(z)
	z.Doc = []string{
		"MultiplyNTTAVX512 is MultiplyNTT (FIPS 204, Algorithm 45) with a factor in",
		"Montgomery form: out[i] = a[i]·b[i]·2⁻³² mod q in [0, q), for a[i], b[i]",
		"in [0, q), sixteen coefficients at a time. The three polynomials must not",
		"overlap. Straight-line code: no branch or address depends on the",
		"coefficients. Needs AVX512F.",
	}
	register(z)

	b := productContract("MultiplyNTTAMD64", 0)
	b.Stem, b.GoName, b.Budget = "nttmul", "multiplyNTT", 40
	baselineSSE2(b)
	b.Doc = []string{
		"MultiplyNTTAMD64 is MultiplyNTT (FIPS 204, Algorithm 45) in SSE2 with a",
		"factor in Montgomery form: out[i] = a[i]·b[i]·2⁻³² mod q in [0, q), for",
		"a[i], b[i] in [0, q). The three polynomials must not overlap. PMULUDQ",
		"runs inside Intel's MCDT bracket (MXCSR = 0x1FBF). Straight-line code:",
		"no branch or address depends on the coefficients.",
	}
	register(b)
}

// avx512Product makes a product contract the AVX-512 variant's: EVEX.512
// throughout, and AVX for the closing VZEROUPPER.
func avx512Product(c *Contract) {
	c.Variant, c.Features = "AVX512", []string{"AVX", "AVX512F"}
}

// rInv is 2⁻³² mod q: the products of T_q take one factor in Montgomery
// form (times 2³²), so the result carries a factor 2⁻³².
const rInv = 8265825

// productContract is the contract of MultiplyNTT (Algorithm 45) for l = 0,
// or of one row of MatrixVectorNTT (Algorithm 48, lines 2 to 4) of length
// l: out = 2⁻³² · Σⱼ a[j] ∘ b[j], every coefficient in [0, q) in and out.
func productContract(sym string, l int) *Contract {
	routine, rows, sig := "MultiplyNTT", 1, "func "+sym+"(out, a, b *[256]uint32)"
	post := "out = 2⁻³² ∘ fips204.MultiplyNTT(a, b) (Algorithm 45), coefficients in [0, q)"
	if l > 0 {
		routine, rows = fmt.Sprintf("MultiplyAccNTT%d", l), l
		sig = fmt.Sprintf("func %s(out *[256]uint32, a, b *[%d][256]uint32)", sym, l)
		post = fmt.Sprintf("out = 2⁻³² ∘ fips204.MatrixVectorNTT({a}, b)[0] (Algorithm 48, a row of length %d), coefficients in [0, q)", l)
	}
	want := func(in Buffers) []uint32 {
		var a, b []fips204.Poly
		for j := 0; j < rows; j++ {
			a = append(a, Poly(in["a"][1024*j:]))
			b = append(b, Poly(in["b"][1024*j:]))
		}
		var w fips204.Poly
		if l == 0 {
			w = fips204.MultiplyNTT(a[0], b[0])
		} else {
			w = fips204.MatrixVectorNTT([][]fips204.Poly{a}, b)[0]
		}
		var r fips204.Poly
		for i := range r {
			r[i] = rInv
		}
		w = fips204.MultiplyNTT(w, r)
		ws := make([]uint32, len(w))
		for i, x := range w {
			ws[i] = uint32(x)
		}
		return ws
	}
	// MultiplyNTT is the row of length 1 (a Verify routine CALLs it,
	// Algorithm 8, line 9).
	op := &Op{Name: "MultiplyAccNTT", In: []string{"a", "b"}, Out: []string{"out"}, Params: []int{max(l, 1)}}
	zm := &ZqMap{In: []string{"a", "b"}, Out: "out", Bilinear: true, PerPosition: l > 0, Want: want}
	return &Contract{
		Symbol: sym, Routine: routine, Variant: "AVX2", GoSig: sig, Op: op, Effect: zm.effect(),
		Level: provenExcept(),
		Args: []Arg{
			{Name: "out", Bytes: 1024, Secret: true, Write: true},
			{Name: "a", Bytes: 1024 * rows, Secret: true, Read: true},
			{Name: "b", Bytes: 1024 * rows, Secret: true, Read: true},
		},
		Pre:      "every coefficient of a and b in [0, q); a or b in Montgomery form (times 2³² mod q)",
		Post:     post,
		Leak:     "nothing: the coefficients are secret (s1, s2, t0, y, c)",
		Features: []string{"AVX", "AVX2"}, MaxFrame: 4096, NoAlias: true,
		Gen: func(r *rand.Rand) Buffers {
			b := Buffers{"out": randBytes(r, 1024)}
			for _, name := range []string{"a", "b"} {
				buf := make([]byte, 1024*rows)
				for i := 0; i < 256*rows; i++ {
					binary.LittleEndian.PutUint32(buf[4*i:], r.Uint32N(fips204.Q))
				}
				b[name] = buf
			}
			return b
		},
		Zq: zm,
		Check: func(in, out Buffers, _ byte) error {
			got := Poly(out["out"])
			for i, w := range want(in) {
				if uint32(got[i]) != w {
					return fmt.Errorf("coefficient %d = %d, Spec gives %d", i, got[i], w)
				}
			}
			return nil
		},
	}
}
