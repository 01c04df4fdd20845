package contract

import (
	"encoding/binary"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips204"
)

func init() { lazily(power2roundContracts) }

func power2roundContracts() {
	registerCoeffMap("power2round", "power2RoundPoly", 35, 40,
		power2RoundContract("AVX2", avx2Features), power2RoundContract("AMD64", nil))
}

func power2RoundContract(variant string, features []string) *Contract {
	sym := "Power2RoundPoly" + variant
	return &Contract{
		Symbol: sym, Routine: "Power2RoundPoly", Variant: variant,
		GoSig:    "func " + sym + "(t1, t0, t *[256]uint32)",
		Args:     []Arg{polyArg("t1", true), polyArg("t0", true), polyArg("t", false)},
		Pre:      "every coefficient of t in [0, q)",
		Post:     "(t1[i], t0[i]) = fips204.Power2Round(t[i]) (Algorithm 35) for every i, t0[i] taken mod q",
		Leak:     "nothing: t is secret (key generation)",
		Features: features, MaxFrame: 0, NoAlias: true,
		// A KeyGen routine CALLs it for Algorithm 6, line 6.
		Op: &Op{Name: "Power2Round", In: []string{"t"}, Out: []string{"t1", "t0"}},
		Effect: func(in Buffers, _ *rand.Rand) (Buffers, byte) {
			t := coeffs(in["t"])
			t1, t0 := make([]byte, 1024), make([]byte, 1024)
			for i := range t {
				r1, r0 := fips204.Power2Round(t[i])
				binary.LittleEndian.PutUint32(t1[4*i:], uint32(r1))
				binary.LittleEndian.PutUint32(t0[4*i:], modQ(r0))
			}
			return Buffers{"t1": t1, "t0": t0}, 0
		},
		Lanes: &Lanes{In: []string{"t"}, Domain: []uint32{fips204.Q}, Out: []string{"t1", "t0"},
			Map: func(in []uint32) []uint32 {
				r1, r0 := fips204.Power2Round(int32(in[0]))
				return []uint32{uint32(r1), modQ(r0)}
			}},
		Gen: func(r *rand.Rand) Buffers {
			return Buffers{"t1": randBytes(r, 1024), "t0": randBytes(r, 1024), "t": genCoeffs(r)}
		},
		Check: func(in, out Buffers, _ byte) error {
			t := coeffs(in["t"])
			if err := compareCoeffs("t1", out["t1"], func(i int) uint32 { r1, _ := fips204.Power2Round(t[i]); return uint32(r1) }); err != nil {
				return err
			}
			return compareCoeffs("t0", out["t0"], func(i int) uint32 { _, r0 := fips204.Power2Round(t[i]); return modQ(r0) })
		},
	}
}
