package contract

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips204"
)

func init() { lazily(lowbitsexceedContracts) }

func lowbitsexceedContracts() {
	for _, div := range []int{32, 88} {
		registerCoeffMap("lowbitsexceed", "lowBitsExceed", 160, 160,
			lowBitsExceedContract(div, "AVX2", avx2Features, 32), lowBitsExceedContract(div, "AMD64", nil, 0))
	}
}

func lowBitsExceedContract(div int, variant string, features []string, frame int) *Contract {
	sym := fmt.Sprintf("LowBitsExceed%d%s", div, variant)
	p := specParams(div)
	return &Contract{
		Symbol: sym, Routine: fmt.Sprintf("LowBitsExceed%d", div), Variant: variant,
		GoSig: "func " + sym + "(w *[256]uint32, bound *uint32, exceeds *uint32)",
		Args: []Arg{polyArg("w", false),
			{Name: "bound", Bytes: 4, Read: true},
			{Name: "exceeds", Bytes: 4, Secret: true, Write: true}},
		Pre:      "every coefficient of w in [0, q); bound < 2³¹ (public)",
		Post:     fmt.Sprintf("exceeds = 1 if max_i |fips204.LowBits(w[i])| ≥ bound (Algorithm 38; Algorithm 7, line 23) for γ2 = (q−1)/%d, else 0", div),
		Leak:     "nothing: w is secret; the bound is public and only read",
		Features: features, MaxFrame: frame, NoAlias: true,
		Exceeds: &Exceeds{In: "w", Bound: "bound", Flag: "exceeds",
			Of: func(w uint32) uint32 { return uint32(abs(fips204.LowBits(p, int32(w)))) }},
		// A SignR0 routine CALLs it (Algorithm 7, lines 21 and 23).
		Op: &Op{Name: "NormBelow", In: []string{"w", "bound"}, Out: []string{"exceeds"}, Of: "LowBits"},
		Gen: func(r *rand.Rand) Buffers {
			w := genCoeffs(r)
			var m int32
			for _, c := range coeffs(w) {
				m = max(m, abs(fips204.LowBits(p, c)))
			}
			// Bounds at the polynomial's own norm decide the result both ways.
			bound := []uint32{uint32(m), uint32(m) + 1, r.Uint32N(1 << 31), uint32(p.Gamma2 - p.Beta)}[r.IntN(4)]
			return Buffers{"w": w, "bound": word(bound), "exceeds": randBytes(r, 4)}
		},
		Check: func(in, out Buffers, _ byte) error {
			bound := binary.LittleEndian.Uint32(in["bound"])
			want := uint32(0)
			for _, c := range coeffs(in["w"]) {
				if int64(abs(fips204.LowBits(p, c))) >= int64(bound) {
					want = 1
				}
			}
			if got := binary.LittleEndian.Uint32(out["exceeds"]); got != want {
				return fmt.Errorf("exceeds = %d, Spec gives %d (bound %d)", got, want, bound)
			}
			return nil
		},
	}
}
