package contract

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips204"
)

func init() { lazily(normexceedsContracts) }

func normexceedsContracts() {
	registerCoeffMap("normexceeds", "normExceeds", 80, 80,
		normExceedsContract("AVX2", avx2Features, 32), normExceedsContract("AMD64", nil, 0))
}

func normExceedsContract(variant string, features []string, frame int) *Contract {
	sym := "NormExceeds" + variant
	return &Contract{
		Symbol: sym, Routine: "NormExceeds", Variant: variant,
		GoSig: "func " + sym + "(w *[256]uint32, bound *uint32, exceeds *uint32)",
		Args: []Arg{polyArg("w", false),
			{Name: "bound", Bytes: 4, Read: true},
			{Name: "exceeds", Bytes: 4, Secret: true, Write: true}},
		Pre:      "every coefficient of w in [0, q); bound < 2³¹ (public)",
		Post:     "exceeds = 1 if max_i |w[i] mod± q| ≥ bound (‖w‖∞ ≥ bound, §2.3), else 0",
		Leak:     "nothing: w is secret (z, ct0); the bound is public and only read",
		Features: features, MaxFrame: frame, NoAlias: true,
		Exceeds: &Exceeds{In: "w", Bound: "bound", Flag: "exceeds",
			Of: func(w uint32) uint32 { return min(w, fips204.Q-w) }},
		// A Verify routine CALLs it (Algorithm 8, line 13).
		Op: &Op{Name: "NormBelow", In: []string{"w", "bound"}, Out: []string{"exceeds"}},
		Gen: func(r *rand.Rand) Buffers {
			w := genCoeffs(r)
			var m uint32
			for _, c := range coeffs(w) {
				m = max(m, uint32(min(c, fips204.Q-c)))
			}
			bound := []uint32{m, m + 1, r.Uint32N(1 << 31), r.Uint32N(fips204.Q / 2)}[r.IntN(4)]
			return Buffers{"w": w, "bound": word(bound), "exceeds": randBytes(r, 4)}
		},
		Check: func(in, out Buffers, _ byte) error {
			bound := binary.LittleEndian.Uint32(in["bound"])
			want := uint32(0)
			for _, c := range coeffs(in["w"]) {
				if int64(min(c, fips204.Q-c)) >= int64(bound) {
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
