package contract

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips202"
)

func init() { lazily(keccakx4Contracts) }

func keccakx4Contracts() {
	register(&Contract{
		Symbol: "KeccakF1600x4AVX2", Routine: "KeccakF1600x4", Variant: "AVX2",
		Stem: "keccakx4", GoName: "keccakF1600x4",
		GoSig: "func KeccakF1600x4AVX2(a *[100]uint64)",
		Doc: []string{
			"KeccakF1600x4AVX2 applies Keccak-f[1600] to four states in place; lane i",
			"of state j is a[4i+j], so lane i of all four states is one 32-byte",
			"vector. It needs AVX2 and has no secret-dependent branch or address.",
		},
		Level: provenExcept(), Budget: 90,
		Args: []Arg{{Name: "a", Bytes: 800, Secret: true, Read: true, Write: true}},
		Pre:  "a holds four interleaved states: lane i of state j at a[4i+j]",
		Post: "for each j, state j = fips202.KeccakF1600(old state j)",
		Leak: "nothing: the states are secret",
		// avo names AVX2 routines' features "AVX, AVX2".
		Features: []string{"AVX", "AVX2"}, MaxFrame: 4096, NoAlias: true, KeccakStates: 4,
		Gen: func(r *rand.Rand) Buffers { return Buffers{"a": randBytes(r, 800)} },
		// The four-way sampler squeezes its blocks by calling it.
		Effect: func(in Buffers, _ *rand.Rand) (Buffers, byte) {
			out := make([]byte, 800)
			for j := 0; j < 4; j++ {
				var st [25]uint64
				for i := range st {
					st[i] = binary.LittleEndian.Uint64(in["a"][8*(4*i+j):])
				}
				fips202.KeccakF1600(&st)
				for i, x := range st {
					binary.LittleEndian.PutUint64(out[8*(4*i+j):], x)
				}
			}
			return Buffers{"a": out}, 0
		},
		Check: func(in, out Buffers, _ byte) error {
			for j := 0; j < 4; j++ {
				var st, got [25]uint64
				for i := 0; i < 25; i++ {
					st[i] = binary.LittleEndian.Uint64(in["a"][8*(4*i+j):])
					got[i] = binary.LittleEndian.Uint64(out["a"][8*(4*i+j):])
				}
				fips202.KeccakF1600(&st)
				if st != got {
					return fmt.Errorf("state %d differs from Spec KeccakF1600", j)
				}
			}
			return nil
		},
	})
}
