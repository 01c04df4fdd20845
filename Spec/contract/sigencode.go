package contract

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips204"
)

// ML-DSA.Sign_internal, lines 33 and 34 (FIPS 204, Algorithm 7): σ =
// sigEncode(c̃, z mod± q, h) (Algorithm 26) for the attempt that ended the
// loop. One routine per parameter set and path, made of CALLs of the
// proven BitPack (z, γ1 − 1, γ1) and HintBitPack routines; its
// postcondition is fips204.SignEncodeOver itself, run by the checker over
// the routine's symbolic values (Compose). Its inputs are public: the
// caller encodes only the signature it returns, after making c̃, z and h
// public.
func init() { lazily(sigEncodeContracts) }

func sigEncodeContracts() {
	for _, ps := range paramSets {
		register(sigEncodeContract(ps.name, ps.p, "AMD64"), sigEncodeContract(ps.name, ps.p, "AVX2"))
	}
}

// SigEncodeCallees is the routines SigEncode<set><variant> calls: the
// BitPack of z of its γ1, of its path, and HintBitPack of its k and ω.
func SigEncodeCallees(name string, p fips204.Params, variant string) []string {
	width := 18
	if p.Gamma1 == 1<<19 {
		width = 20
	}
	return []string{fmt.Sprintf("BitPack%d%s", width, variant), "HintBitPack" + name + "AMD64"}
}

// sigEncodeContract is the contract of SigEncode<set><variant>.
func sigEncodeContract(name string, p fips204.Params, variant string) *Contract {
	sym := "SigEncode" + name + variant
	k, l, n, cTildeSize := p.K, p.L, p.SignatureSize, p.Lambda/4
	calls := SigEncodeCallees(name, p, variant)
	var features []string
	if variant == "AVX2" {
		features = []string{"AVX", "AVX2"}
	}
	zPack := packing{width: 18, a: 1<<17 - 1, b: 1 << 17}
	if p.Gamma1 == 1<<19 {
		zPack = packing{width: 20, a: 1<<19 - 1, b: 1 << 19}
	}
	spec := func(in Buffers) []byte {
		zs := make([]fips204.Poly, l)
		for j := range zs {
			zs[j] = Poly(in["z"][1024*j:])
		}
		return fips204.SignEncodeOver[byte, fips204.Poly](fips204.Values{P: p}, p, in["cTilde"], zs, hintPolys(in["h"], k))
	}
	return &Contract{
		Symbol: sym, Routine: "SigEncode" + name, Variant: variant,
		Stem: "sigencode", GoName: "sigEncode",
		GoSig: fmt.Sprintf("func %s(sigma *[%d]byte, cTilde *[%d]byte, z *[%d][256]uint32, h *[%d][256]uint32)", sym, n, cTildeSize, l, k),
		Doc: []string{
			fmt.Sprintf("%s is ML-DSA-%s's Sign_internal, lines 33 and 34 (FIPS 204,", sym, name),
			"Algorithm 7): σ = sigEncode(c̃, z mod± q, h) (Algorithm 26), by calls",
			fmt.Sprintf("of %s and %s. z holds words mod q with", calls[0], calls[1]),
			fmt.Sprintf("z mod± q in [−γ1 + 1, γ1], h words 0 or 1 with at most ω = %d", p.Omega),
			"ones. Its inputs are public (the signature returned); HintBitPack",
			"branches on h.",
		},
		Level: provenExcept(), Budget: 60,
		Args: []Arg{
			{Name: "sigma", Bytes: n, Write: true},
			{Name: "cTilde", Bytes: cTildeSize, Read: true},
			{Name: "z", Bytes: 1024 * l, Read: true},
			{Name: "h", Bytes: 1024 * k, Read: true},
		},
		Calls: calls,
		Stage: &Stage{Method: "Encode", In: []string{"cTilde", "z", "h"}, Out: []string{"sigma"}},
		Effect: func(in Buffers, _ *rand.Rand) (Buffers, byte) {
			return Buffers{"sigma": spec(in)}, 0
		},
		Compose: &Compose{P: p, Polys: []string{"z", "h"},
			InRange: map[string][2]int{"z": {-zPack.a, zPack.b}}, Hint: "h",
			Steps: func(o fips204.SignOps[any, any], in map[string][]any) map[string][]any {
				return map[string][]any{"sigma": fips204.SignEncodeOver(o, p, in["cTilde"], in["z"], in["h"])} // lines 33 and 34
			}},
		Pre: fmt.Sprintf("every coefficient of z a word w in [0, q) with w mod± q in [−%d, %d] (BitPack's, Algorithm 26, line 3; "+
			"‖z mod± q‖∞ < γ1 gives it); h: %d polynomials of words 0 or 1, at most ω = %d of them 1 (HintBitPack's); "+
			"c̃, z and h public (the caller declassifies the accepted attempt's before encoding)", zPack.a, zPack.b, k, p.Omega),
		Post: "sigma = fips204.SignEncodeOver(c̃, z, h) = sigEncode(c̃, z mod± q, h) (Algorithm 7, lines 33 and 34; Algorithm 26)",
		Leak: "c̃, z and h, which σ holds (public): HintBitPack's control flow and addresses depend on h; the routine's own code has no branch",
		// MaxFrame: the callees' two arguments.
		Features: features, MaxFrame: 64, NoAlias: true,
		Gen: func(r *rand.Rand) Buffers {
			b := Buffers{"sigma": randBytes(r, n), "cTilde": randBytes(r, cTildeSize), "h": genHint(r, p)}
			for j := 0; j < l; j++ {
				b["z"] = append(b["z"], zPack.gen(r)...)
			}
			return b
		},
		Check: func(in, out Buffers, _ byte) error {
			if want := spec(in); !bytes.Equal(out["sigma"], want) {
				for i := range want {
					if out["sigma"][i] != want[i] {
						return fmt.Errorf("sigma[%d] = %#02x, Spec's sigEncode gives %#02x", i, out["sigma"][i], want[i])
					}
				}
			}
			return nil
		},
	}
}
