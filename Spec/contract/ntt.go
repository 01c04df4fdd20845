package contract

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips204"
)

func init() { lazily(nttContracts) }

func nttContracts() {
	c := nttContract("NTTAVX2", "NTT", "FIPS 204, Algorithm 41", fips204.NTT)
	c.Stem, c.GoName = "ntt", "ntt"
	c.Doc = []string{
		"NTTAVX2 is NTT (FIPS 204, Algorithm 41) in place: coefficients in [0, q)",
		"in, the NTT in [0, q) out, the same words as Algorithm 41 gives. Inside,",
		"values are signed: each layer adds less than ¾q to their absolute value,",
		"so they stay below 7q, and one reduction ends it. Straight-line code:",
		"no branch or address depends on the coefficients. Needs AVX2.",
	}
	register(c)

	z := nttContract("NTTAVX512", "NTT", "FIPS 204, Algorithm 41", fips204.NTT)
	z.Stem, z.GoName, z.Variant = "ntt", "ntt", "AVX512"
	// EVEX.512 throughout, and AVX for the closing VZEROUPPER.
	z.Features = []string{"AVX", "AVX512F"}
	z.Doc = []string{
		"NTTAVX512 is NTT (FIPS 204, Algorithm 41) in place: coefficients in [0, q)",
		"in, the NTT in [0, q) out, the same words as Algorithm 41 gives. The whole",
		"polynomial stays in sixteen zmm registers for all eight layers; values are",
		"signed inside and below 7q, and one reduction ends it. Straight-line code:",
		"no branch or address depends on the coefficients. Needs AVX512F.",
	}
	register(z)

	b := nttContract("NTTAMD64", "NTT", "FIPS 204, Algorithm 41", fips204.NTT)
	b.Stem, b.GoName, b.Budget = "ntt", "ntt", 150
	baselineSSE2(b)
	b.Doc = []string{
		"NTTAMD64 is NTT (FIPS 204, Algorithm 41) in place in SSE2: coefficients in",
		"[0, q) in, the NTT in [0, q) out, the same words as Algorithm 41 gives.",
		"Inside, values are non-negative (PMULUDQ is unsigned): each layer adds",
		"less than 2q, so they stay below 17q, and one reduction ends it. PMULUDQ",
		"runs inside Intel's MCDT bracket (MXCSR = 0x1FBF). Straight-line code: no",
		"branch or address depends on the coefficients.",
	}
	register(b)
}

// baselineSSE2 makes a contract the baseline variant's: SSE2, which every
// x86-64 CPU has, and SSE for the MXCSR bracket around PMULUDQ, which
// the checker requires of a secret operand (the MCDT obligation).
func baselineSSE2(c *Contract) {
	c.Variant, c.Features = "AMD64", []string{"SSE", "SSE2"}
}

// nttContract is the contract of an in-place transform of 256
// coefficients in [0, q), equal word for word to spec (Algorithm 41 or 42).
func nttContract(sym, routine, algo string, spec func(fips204.Poly) fips204.Poly) *Contract {
	want := func(in Buffers) []uint32 {
		out := spec(Poly(in["w"]))
		ws := make([]uint32, len(out))
		for i, x := range out {
			ws[i] = uint32(x)
		}
		return ws
	}
	zm := &ZqMap{In: []string{"w"}, Out: "w", Want: want}
	return &Contract{
		Symbol: sym, Routine: routine, Variant: "AVX2",
		Level: provenExcept(), Budget: 40, Effect: zm.effect(),
		Op:    &Op{Name: routine, In: []string{"w"}, Out: []string{"w"}},
		GoSig: "func " + sym + "(w *[256]uint32)",
		Args:  []Arg{{Name: "w", Bytes: 1024, Secret: true, Read: true, Write: true}},
		Pre:   "every coefficient of w in [0, q)",
		Post:  "w = fips204." + routine + "(old w) (" + algo + "), coefficients in [0, q)",
		Leak:  "nothing: the coefficients are secret (s1, s2, y, c)",
		// VPMULDQ (signed) is outside the MCDT rule; the checker still
		// reports any PMULUDQ/VPMULUDQ with a secret operand.
		Features: []string{"AVX", "AVX2"}, MaxFrame: 4096, NoAlias: true,
		Gen: func(r *rand.Rand) Buffers {
			b := make([]byte, 1024)
			for i := 0; i < 256; i++ {
				binary.LittleEndian.PutUint32(b[4*i:], r.Uint32N(fips204.Q))
			}
			return Buffers{"w": b}
		},
		Zq: zm,
		Check: func(in, out Buffers, _ byte) error {
			for i, w := range want(in) {
				if got := binary.LittleEndian.Uint32(out["w"][4*i:]); got != w {
					return fmt.Errorf("coefficient %d = %d, Spec %s gives %d", i, got, routine, w)
				}
			}
			return nil
		},
	}
}
