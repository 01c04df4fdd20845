package contract

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips204"
)

func init() { lazily(makehintContracts) }

func makehintContracts() {
	// MakeHint's two exhaustions, of [0, q) and [0, 2q), took 43-69 s
	// under load average 18-21.
	for _, div := range []int{32, 88} {
		registerCoeffMap("makehint", "makeHintPoly", 110, 140,
			makeHintContract(div, "AVX2", avx2Features, 32), makeHintContract(div, "AMD64", nil, 0))
	}
}

func makeHintContract(div int, variant string, features []string, frame int) *Contract {
	sym := fmt.Sprintf("MakeHint%d%s", div, variant)
	p := specParams(div)
	return &Contract{
		Symbol: sym, Routine: fmt.Sprintf("MakeHint%d", div), Variant: variant,
		GoSig: "func " + sym + "(h, z, r *[256]uint32, count *uint32)",
		Args: []Arg{polyArg("h", true), polyArg("z", false), polyArg("r", false),
			{Name: "count", Bytes: 4, Secret: true, Write: true}},
		Pre: "every coefficient of z and r in [0, q)",
		Post: fmt.Sprintf("h[i] = 1 if fips204.MakeHint(z[i], r[i]) (Algorithm 39) else 0, for γ2 = (q−1)/%d; "+
			"count = the number of ones in h", div),
		Leak:     "nothing: z and r are secret (Sign passes ct0 and w − cs2, Algorithm 7, line 26)",
		Features: features, MaxFrame: frame, NoAlias: true,
		// A SignHint routine CALLs it as go/mldsa does, on ct0 and
		// w − cs2 (Algorithm 7, line 26).
		Op: &Op{Name: "MakeHint", In: []string{"z", "r"}, Out: []string{"h", "count"}, Params: []int{div}},
		Lanes: &Lanes{In: []string{"z", "r"}, Domain: []uint32{fips204.Q, fips204.Q}, Out: []string{"h"},
			Map: func(in []uint32) []uint32 { return []uint32{b2u(fips204.MakeHint(p, int32(in[0]), int32(in[1])))} },
			// Algorithm 39, lines 1 to 3.
			Split: &Split{
				Of:    func(r uint32) uint32 { return uint32(fips204.HighBits(p, int32(r))) },
				OfSum: func(s uint32) uint32 { return uint32(fips204.HighBits(p, int32(s))) },
				Join:  func(r1, v1 uint32) []uint32 { return []uint32{b2u(r1 != v1)} },
			},
			Count: "count"},
		Gen: func(r *rand.Rand) Buffers {
			z := genCoeffs(r)
			if r.IntN(2) == 0 {
				// z small either side of 0, where hints occur (ct0).
				g := uint32(p.Gamma2)
				for i := 0; i < 256; i++ {
					v := int32(r.Uint32N(2*g+1)) - int32(g)
					binary.LittleEndian.PutUint32(z[4*i:], modQ(v))
				}
			}
			return Buffers{"h": randBytes(r, 1024), "z": z, "r": genCoeffs(r), "count": randBytes(r, 4)}
		},
		Check: func(in, out Buffers, _ byte) error {
			z, rr := coeffs(in["z"]), coeffs(in["r"])
			n := uint32(0)
			err := compareCoeffs("h", out["h"], func(i int) uint32 {
				if fips204.MakeHint(p, z[i], rr[i]) {
					return 1
				}
				return 0
			})
			if err != nil {
				return err
			}
			for i := range z {
				if fips204.MakeHint(p, z[i], rr[i]) {
					n++
				}
			}
			if got := binary.LittleEndian.Uint32(out["count"]); got != n {
				return fmt.Errorf("count = %d, Spec gives %d ones", got, n)
			}
			return nil
		},
	}
}
