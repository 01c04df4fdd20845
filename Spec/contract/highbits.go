package contract

import (
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips204"
)

func init() { lazily(highbitsContracts) }

func highbitsContracts() {
	for _, div := range []int{32, 88} {
		registerCoeffMap("highbits", "highBitsPoly", 35, 35,
			highBitsContract(div, "AVX2", avx2Features), highBitsContract(div, "AMD64", nil))
	}
}

func highBitsContract(div int, variant string, features []string) *Contract {
	sym := fmt.Sprintf("HighBits%d%s", div, variant)
	p := specParams(div)
	return &Contract{
		Symbol: sym, Routine: fmt.Sprintf("HighBits%d", div), Variant: variant,
		GoSig:    "func " + sym + "(w1, w *[256]uint32)",
		Args:     []Arg{polyArg("w1", true), polyArg("w", false)},
		Pre:      "every coefficient of w in [0, q)",
		Post:     fmt.Sprintf("w1[i] = fips204.HighBits(w[i]) (Algorithm 37) for γ2 = (q−1)/%d, every i", div),
		Leak:     "nothing: w is secret (it depends on y)",
		Features: features, MaxFrame: 0, NoAlias: true,
		// A SignZ routine CALLs it (Algorithm 7, line 13).
		Op: &Op{Name: "HighBits", In: []string{"w"}, Out: []string{"w1"}, Params: []int{div}},
		Lanes: &Lanes{In: []string{"w"}, Domain: []uint32{fips204.Q}, Out: []string{"w1"},
			Map: func(in []uint32) []uint32 { return []uint32{uint32(fips204.HighBits(p, int32(in[0])))} }},
		Gen: func(r *rand.Rand) Buffers {
			return Buffers{"w1": randBytes(r, 1024), "w": genCoeffs(r)}
		},
		Check: func(in, out Buffers, _ byte) error {
			w := coeffs(in["w"])
			return compareCoeffs("w1", out["w1"], func(i int) uint32 { return uint32(fips204.HighBits(p, w[i])) })
		},
	}
}
