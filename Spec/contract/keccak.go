package contract

import (
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips202"
)

func init() {
	register(&Contract{
		Symbol: "KeccakF1600AMD64", Routine: "KeccakF1600", Variant: "AMD64",
		Stem: "keccak", GoName: "keccakF1600",
		GoSig: "func KeccakF1600AMD64(a *[25]uint64)",
		Doc: []string{
			"KeccakF1600AMD64 applies Keccak-f[1600] (FIPS 202, §3.3 and §3.4, 24",
			"rounds) to a in place; lane A[x,y] is a[x+5y]. It uses baseline x86-64",
			"only and no secret-dependent branch or address.",
		},
		Level: provenExcept(), Budget: 30,
		Args: []Arg{{Name: "a", Bytes: 200, Secret: true, Read: true, Write: true}},
		Pre:  "a points to 25 lanes, lane A[x,y] at a[x+5y] (little-endian words)",
		Post: "a = fips202.KeccakF1600(old a)",
		Leak: "nothing: the state is secret",
		// The baseline variant uses general registers only.
		Features: nil, MaxFrame: 4096, NoAlias: true, KeccakStates: 1,
		Gen: func(r *rand.Rand) Buffers { return Buffers{"a": randBytes(r, 200)} },
		Check: func(in, out Buffers, _ byte) error {
			want := lanes(in["a"])
			fips202.KeccakF1600(want)
			got := lanes(out["a"])
			for i := range want {
				if got[i] != want[i] {
					return fmt.Errorf("lane %d = %#x, Spec KeccakF1600 gives %#x", i, got[i], want[i])
				}
			}
			return nil
		},
	})
}
