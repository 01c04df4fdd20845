package contract

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips202"
	"github.com/vg-crypto/vg/Spec/fips204"
)

// tr ← H(pk, 64) (FIPS 204, Algorithm 6, line 9; Algorithm 7, line 6),
// one routine per parameter set: pk has a fixed length, so the sponge's
// blocks are a public, fixed number of CALLs of the proven permutation.
// Its postcondition is fips204.H itself, run by the checker over the
// routine's symbolic bytes (Compose).
func init() { lazily(trHashContracts) }

func trHashContracts() {
	for _, ps := range paramSets {
		register(trHashContract(ps.name, ps.p, "AMD64"), trHashContract(ps.name, ps.p, "BMI2"))
	}
}

// trHashContract is the contract of TrHash<set><variant>, calling the
// permutation of that variant (BMI2: KeccakF1600BMI2, which needs BMI1
// and BMI2).
func trHashContract(name string, p fips204.Params, variant string) *Contract {
	sym := "TrHash" + name + variant
	n := p.PublicKeySize
	perm := "KeccakF1600" + variant
	var features []string
	if variant == "BMI2" {
		features = []string{"BMI", "BMI2"}
	}
	return &Contract{
		Symbol: sym, Routine: "TrHash" + name, Variant: variant,
		Stem: "trhash", GoName: "trHash",
		GoSig: fmt.Sprintf("func %s(tr *[64]byte, pk *[%d]byte)", sym, n),
		Doc: []string{
			fmt.Sprintf("%s sets tr to H(pk, 64) (FIPS 204, Algorithm 6, line 9) for", sym),
			fmt.Sprintf("the %d-byte public key of ML-DSA-%s: SHAKE256 absorbed and", n, name),
			fmt.Sprintf("squeezed by calls of %s. No branch or address depends", perm),
			"on pk.",
		},
		Level: provenExcept(), Budget: 120,
		Args: []Arg{
			{Name: "tr", Bytes: 64, Write: true},
			{Name: "pk", Bytes: n, Read: true},
		},
		Calls: []string{perm},
		Compose: &Compose{P: p, Permutation: perm,
			Steps: func(o fips204.SignOps[any, any], in map[string][]any) map[string][]any {
				return map[string][]any{"tr": fips204.H(o, in["pk"], 64)} // Algorithm 6, line 9
			}},
		Pre:  fmt.Sprintf("pk: %d bytes (public)", n),
		Post: "tr = fips204.H(pk, 64)",
		Leak: "pk and tr, both public",
		// MaxFrame: the callee's argument and the state (8 + 200 bytes).
		Features: features, MaxFrame: 4096, NoAlias: true, PublicControl: true,
		Gen: func(r *rand.Rand) Buffers {
			return Buffers{"pk": randBytes(r, n), "tr": randBytes(r, 64)}
		},
		Check: func(in, out Buffers, _ byte) error {
			want := fips202.SumSHAKE256(in["pk"], 64)
			if !bytes.Equal(out["tr"], want) {
				return fmt.Errorf("tr = %x, Spec H(pk, 64) gives %x", out["tr"], want)
			}
			return nil
		},
	}
}
