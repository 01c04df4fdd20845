package contract

import (
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips204"
)

func init() { lazily(usehintContracts) }

func usehintContracts() {
	for _, div := range []int{32, 88} {
		registerCoeffMap("usehint", "useHintPoly", 100, 120,
			useHintContract(div, "AVX2", avx2Features), useHintContract(div, "AMD64", nil))
	}
}

func useHintContract(div int, variant string, features []string) *Contract {
	sym := fmt.Sprintf("UseHint%d%s", div, variant)
	p := specParams(div)
	return &Contract{
		Symbol: sym, Routine: fmt.Sprintf("UseHint%d", div), Variant: variant,
		GoSig: "func " + sym + "(w1, h, r *[256]uint32)",
		Args:  []Arg{polyArg("w1", true), polyArg("h", false), polyArg("r", false)},
		Pre:   "every coefficient of h in {0, 1} and of r in [0, q)",
		Post:  fmt.Sprintf("w1[i] = fips204.UseHint(h[i], r[i]) (Algorithm 40) for γ2 = (q−1)/%d, every i", div),
		// Verification handles public data only; the contract still asks
		// for constant time, which costs nothing here.
		Leak:     "nothing",
		Features: features, MaxFrame: 0, NoAlias: true,
		Lanes: &Lanes{In: []string{"h", "r"}, Domain: []uint32{2, fips204.Q}, Out: []string{"w1"},
			Map: func(in []uint32) []uint32 { return []uint32{uint32(fips204.UseHint(p, in[0] == 1, int32(in[1])))} }},
		// A Verify routine CALLs it (Algorithm 8, line 10).
		Op: &Op{Name: "UseHint", In: []string{"h", "r"}, Out: []string{"w1"}, Params: []int{div}},
		Gen: func(r *rand.Rand) Buffers {
			h := make([]byte, 1024)
			for i := 0; i < 256; i++ {
				h[4*i] = byte(r.IntN(2))
			}
			return Buffers{"w1": randBytes(r, 1024), "h": h, "r": genCoeffs(r)}
		},
		Check: func(in, out Buffers, _ byte) error {
			h, rr := coeffs(in["h"]), coeffs(in["r"])
			return compareCoeffs("w1", out["w1"], func(i int) uint32 { return uint32(fips204.UseHint(p, h[i] == 1, rr[i])) })
		},
	}
}
