package contract

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips202"
)

func init() { lazily(keccakx4Contracts) }

func keccakx4Contracts() {
	// avo names AVX2 routines' features "AVX, AVX2".
	keccakx4Contract("AVX2", "AVX2", []string{"AVX", "AVX2"})
	// The AVX-512 variant keeps AVX2's moves and XORs and adds VPTERNLOGQ
	// and VPROLQ on ymm (EVEX.256), which need AVX512F and AVX512VL.
	keccakx4Contract("AVX512", "AVX2, AVX512F and AVX512VL", []string{"AVX", "AVX2", "AVX512F", "AVX512VL"})
}

// keccakx4Contract registers the variant of KeccakF1600x4 that needs the
// CPU features fs (named in words by needs).
func keccakx4Contract(variant, needs string, fs []string) {
	sym := "KeccakF1600x4" + variant
	register(&Contract{
		Symbol: sym, Routine: "KeccakF1600x4", Variant: variant,
		Stem: "keccakx4", GoName: "keccakF1600x4",
		GoSig: "func " + sym + "(a *[100]uint64)",
		Doc: []string{
			sym + " applies Keccak-f[1600] to four states in place; lane i",
			"of state j is a[4i+j], so lane i of all four states is one 32-byte",
			"vector. It needs " + needs + " and has no secret-dependent branch or address.",
		},
		Level: provenExcept(), Budget: 90,
		Args:     []Arg{{Name: "a", Bytes: 800, Secret: true, Read: true, Write: true}},
		Pre:      "a holds four interleaved states: lane i of state j at a[4i+j]",
		Post:     "for each j, state j = fips202.KeccakF1600(old state j)",
		Leak:     "nothing: the states are secret",
		Features: fs, MaxFrame: 4096, NoAlias: true, KeccakStates: 4,
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
