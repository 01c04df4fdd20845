package contract

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips202"
)

func init() { lazily(keccakContracts) }

func keccakContracts() {
	register(keccakContract("KeccakF1600AMD64", "AMD64", []string{
		"KeccakF1600AMD64 applies Keccak-f[1600] (FIPS 202, §3.3 and §3.4, 24",
		"rounds) to a in place; lane A[x,y] is a[x+5y]. It uses baseline x86-64",
		"only and no secret-dependent branch or address.",
	}, nil))
	register(keccakContract("KeccakF1600BMI2", "BMI2", []string{
		"KeccakF1600BMI2 is KeccakF1600AMD64 with ANDN (BMI1) and RORX (BMI2):",
		"χ needs no complemented lanes and rotations no copies. It needs BMI1",
		"and BMI2 and has no secret-dependent branch or address.",
	}, []string{"BMI", "BMI2"}))
}

// keccakContract is the contract of a ×1 permutation variant; features
// are avo's names ("BMI" is BMI1).
func keccakContract(symbol, variant string, doc, features []string) *Contract {
	return &Contract{
		Symbol: symbol, Routine: "KeccakF1600", Variant: variant,
		Stem: "keccak", GoName: "keccakF1600",
		GoSig: "func " + symbol + "(a *[25]uint64)",
		Doc:   doc,
		Level: provenExcept(), Budget: 30,
		Args: []Arg{{Name: "a", Bytes: 200, Secret: true, Read: true, Write: true}},
		Pre:  "a points to 25 lanes, lane A[x,y] at a[x+5y] (little-endian words)",
		Post: "a = fips202.KeccakF1600(old a)",
		Leak: "nothing: the state is secret",
		// General registers only, and the features named.
		Features: features, MaxFrame: 4096, NoAlias: true, KeccakStates: 1,
		Gen: func(r *rand.Rand) Buffers { return Buffers{"a": randBytes(r, 200)} },
		// A sampler squeezes its blocks by calling the permutation.
		Effect: func(in Buffers, _ *rand.Rand) (Buffers, byte) {
			a := lanes(in["a"])
			fips202.KeccakF1600(a)
			out := make([]byte, 200)
			for i, x := range a {
				binary.LittleEndian.PutUint64(out[8*i:], x)
			}
			return Buffers{"a": out}, 0
		},
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
	}
}
