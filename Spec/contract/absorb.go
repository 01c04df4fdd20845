package contract

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips202"
	"github.com/vg-crypto/vg/Spec/fips204"
)

// SHAKE256's absorbing of one whole block (FIPS 202, Algorithm 8, step 6):
// the block XORed into the rate of the state, then Keccak-f[1600] by a
// CALL of the proven permutation, so it is proven for every state and
// block: its postcondition is fips202.AbsorbOver, run by the checker over
// the routine's symbolic bytes (Compose). The message layer of ML-DSA (tr = H(pk, 64), μ = H(tr ‖ M′,
// 64), Algorithms 2 to 7) and the command line's streaming hash absorb
// every whole block through it; the bytes of a block that does not fill
// the rate stay with the caller until it does.
func init() { lazily(absorbContracts) }

func absorbContracts() {
	register(absorbContract("AMD64", "KeccakF1600AMD64", nil),
		absorbContract("BMI2", "KeccakF1600BMI2", []string{"BMI", "BMI2"}))
}

// absorbContract is the contract of SHAKE256AbsorbBlock<variant>, which
// calls perm; features are perm's (the routine's own instructions are
// baseline).
func absorbContract(variant, perm string, features []string) *Contract {
	sym := "SHAKE256AbsorbBlock" + variant
	return &Contract{
		Symbol: sym, Routine: "SHAKE256AbsorbBlock", Variant: variant,
		Stem: "absorb", GoName: "shake256AbsorbBlock",
		GoSig: "func " + sym + "(a *[25]uint64, block *[136]byte)",
		Doc: []string{
			sym + " absorbs one 136-byte block into the",
			"SHAKE256 state a (FIPS 202, Algorithm 8, step 6): lane i of a is XORed",
			"with the little-endian word at block[8i:] for i < 17, then a is permuted",
			"by a call of " + perm + ". No branch or address depends on a",
			"or block.",
		},
		Level: provenExcept(), Budget: 30,
		Args: []Arg{
			{Name: "a", Bytes: 200, Secret: true, Read: true, Write: true},
			{Name: "block", Bytes: fips202.Rate256, Secret: true, Read: true},
		},
		Calls: []string{perm},
		// The state is an input and the output, in place.
		Compose: &Compose{Permutation: perm, InPlace: []string{"a"},
			Steps: func(o fips204.SignOps[any, any], in map[string][]any) map[string][]any {
				var s [200]any
				copy(s[:], in["a"])
				fips202.AbsorbOver[any](o, &s, in["block"])
				return map[string][]any{"a": s[:]}
			}},
		Pre:  "a points to 25 lanes, lane A[x,y] at a[x+5y] (little-endian words); block holds 136 bytes",
		Post: "a = fips202.AbsorbBlock(old a, block), i.e. Keccak-f[1600](old a ⊕ (block ‖ 0^64 bytes))",
		// The message is public in ML-DSA, but tr ‖ M′ mixes it with tr,
		// and the command line hashes files a caller may keep secret.
		Leak:     "nothing: the state and the block are secret",
		Features: features, MaxFrame: 4096, NoAlias: true,
		Gen: func(r *rand.Rand) Buffers {
			return Buffers{"a": randBytes(r, 200), "block": randBytes(r, fips202.Rate256)}
		},
		Check: func(in, out Buffers, _ byte) error {
			want := lanes(in["a"])
			fips202.AbsorbBlock(want, in["block"])
			got := lanes(out["a"])
			for i := range want {
				if got[i] != want[i] {
					return fmt.Errorf("lane %d = %#x, Spec AbsorbBlock gives %#x", i, got[i], want[i])
				}
			}
			if !bytes.Equal(in["block"], out["block"]) {
				return fmt.Errorf("block modified")
			}
			return nil
		},
		Effect: func(in Buffers, _ *rand.Rand) (Buffers, byte) {
			a := lanes(in["a"])
			fips202.AbsorbBlock(a, in["block"])
			out := make([]byte, 200)
			for i, x := range a {
				binary.LittleEndian.PutUint64(out[8*i:], x)
			}
			return Buffers{"a": out}, 0
		},
	}
}
