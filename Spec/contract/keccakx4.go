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
	keccakWideContract(4, "AVX2", "AVX2", []string{"AVX", "AVX2"})
	// The AVX-512 variant keeps AVX2's moves and XORs and adds VPTERNLOGQ
	// and VPROLQ on ymm (EVEX.256), which need AVX512F and AVX512VL.
	keccakWideContract(4, "AVX512", "AVX2, AVX512F and AVX512VL", []string{"AVX", "AVX2", "AVX512F", "AVX512VL"})
}

// keccakWideContract registers the variant of the n-way KeccakF1600xn
// (n = 4 or 8) that needs the CPU features fs (named in words by needs).
func keccakWideContract(n int, variant, needs string, fs []string) {
	sym := fmt.Sprintf("KeccakF1600x%d%s", n, variant)
	size := 200 * n
	ways := map[int]string{4: "four", 8: "eight"}[n]
	register(&Contract{
		Symbol: sym, Routine: fmt.Sprintf("KeccakF1600x%d", n), Variant: variant,
		Stem: fmt.Sprintf("keccakx%d", n), GoName: fmt.Sprintf("keccakF1600x%d", n),
		GoSig: fmt.Sprintf("func %s(a *[%d]uint64)", sym, 25*n),
		Doc: []string{
			fmt.Sprintf("%s applies Keccak-f[1600] to %s states in place; lane i", sym, ways),
			fmt.Sprintf("of state j is a[%di+j], so lane i of all %s states is one %d-byte", n, ways, 8*n),
			"vector. It needs " + needs + " and has no secret-dependent branch or address.",
		},
		Level: provenExcept(), Budget: 90,
		Args:     []Arg{{Name: "a", Bytes: size, Secret: true, Read: true, Write: true}},
		Pre:      fmt.Sprintf("a holds %s interleaved states: lane i of state j at a[%di+j]", ways, n),
		Post:     "for each j, state j = fips202.KeccakF1600(old state j)",
		Leak:     "nothing: the states are secret",
		Features: fs, MaxFrame: 4096, NoAlias: true, KeccakStates: n,
		Gen: func(r *rand.Rand) Buffers { return Buffers{"a": randBytes(r, size)} },
		// The n-way samplers squeeze their blocks by calling it.
		Effect: func(in Buffers, _ *rand.Rand) (Buffers, byte) {
			out := make([]byte, size)
			for j := 0; j < n; j++ {
				var st [25]uint64
				for i := range st {
					st[i] = binary.LittleEndian.Uint64(in["a"][8*(n*i+j):])
				}
				fips202.KeccakF1600(&st)
				for i, x := range st {
					binary.LittleEndian.PutUint64(out[8*(n*i+j):], x)
				}
			}
			return Buffers{"a": out}, 0
		},
		Check: func(in, out Buffers, _ byte) error {
			for j := 0; j < n; j++ {
				var st, got [25]uint64
				for i := 0; i < 25; i++ {
					st[i] = binary.LittleEndian.Uint64(in["a"][8*(n*i+j):])
					got[i] = binary.LittleEndian.Uint64(out["a"][8*(n*i+j):])
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
