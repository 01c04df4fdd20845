package contract

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips204"
)

// ML-DSA.KeyGen_internal, line 1 (FIPS 204, Algorithm 6): the 128 bytes
// H(ξ ‖ IntegerToBytes(k, 1) ‖ IntegerToBytes(ℓ, 1), 128) that line 2
// splits into ρ, ρ′ and K, one routine per parameter set, absorbing and
// squeezing by a CALL of the proven permutation. Its postcondition is
// fips204.KeyGenSeedOver itself, run by the checker over the routine's
// symbolic bytes (Compose).
func init() { lazily(keyGenSeedContracts) }

func keyGenSeedContracts() {
	for _, ps := range paramSets {
		register(keyGenSeedContract(ps.name, ps.p, "AMD64"), keyGenSeedContract(ps.name, ps.p, "BMI2"))
	}
}

// keyGenSeedContract is the contract of KeyGenSeed<set><variant>, calling
// KeccakF1600<variant> (BMI2 needs BMI1 and BMI2).
func keyGenSeedContract(name string, p fips204.Params, variant string) *Contract {
	sym := "KeyGenSeed" + name + variant
	perm := "KeccakF1600" + variant
	var features []string
	if variant == "BMI2" {
		features = []string{"BMI", "BMI2"}
	}
	return &Contract{
		Symbol: sym, Routine: "KeyGenSeed" + name, Variant: variant,
		Stem: "keygenseed", GoName: "keyGenSeed",
		GoSig: fmt.Sprintf("func %s(seed *[128]byte, xi *[32]byte)", sym),
		Doc: []string{
			fmt.Sprintf("%s sets seed to H(ξ ‖ %d ‖ %d, 128) (FIPS 204, Algorithm 6,", sym, p.K, p.L),
			fmt.Sprintf("line 1), ρ ‖ ρ′ ‖ K for ML-DSA-%s, by a call of %s.", name, perm),
			"No branch or address depends on ξ.",
		},
		Level: provenExcept(), Budget: 60,
		Args: []Arg{
			{Name: "seed", Bytes: 128, Secret: true, Write: true},
			{Name: "xi", Bytes: 32, Secret: true, Read: true},
		},
		Calls: []string{perm},
		Compose: &Compose{P: p, Permutation: perm,
			Steps: func(o fips204.SignOps[any, any], in map[string][]any) map[string][]any {
				return map[string][]any{"seed": fips204.KeyGenSeedOver(o, p, in["xi"])} // line 1
			}},
		Pre:  "xi = ξ (32 bytes, secret)",
		Post: "seed = fips204.KeyGenSeedOver(ξ) (Algorithm 6, line 1)",
		Leak: "nothing: ξ and the seed are secret",
		// MaxFrame: the callee's argument and the state (8 + 200 bytes).
		Features: features, MaxFrame: 4096, NoAlias: true,
		Gen: func(r *rand.Rand) Buffers {
			return Buffers{"seed": randBytes(r, 128), "xi": randBytes(r, 32)}
		},
		Check: func(in, out Buffers, _ byte) error {
			want := fips204.KeyGenSeedOver[byte, fips204.Poly](fips204.Values{P: p}, p, in["xi"])
			if !bytes.Equal(out["seed"], want) {
				return fmt.Errorf("seed = %x, Spec gives %x", out["seed"], want)
			}
			return nil
		},
	}
}
