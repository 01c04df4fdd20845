package contract

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips202"
)

func init() { lazily(rejnttpolyContracts) }

func rejnttpolyContracts() {
	register(rejNTTPolyContract("AMD64"), rejNTTPolyContract("BMI2"))
}

// rejNTTPolyContract is the contract of RejNTTPolyAMD64 or RejNTTPolyBMI2,
// which differ only in the permutation they call: KeccakF1600AMD64 or
// KeccakF1600BMI2.
func rejNTTPolyContract(variant string) *Contract {
	sym, perm := "RejNTTPoly"+variant, "KeccakF1600"+variant
	doc := []string{
		sym + " is RejNTTPoly (FIPS 204, Algorithm 30): it fills a with",
		"256 coefficients in [0, q) sampled from SHAKE128(seed), seed = ρ‖s‖r.",
		fmt.Sprintf("It squeezes at most %d blocks (Appendix C) and returns false if they", RejNTTPolyBlocks),
		"run out, a then holding garbage. Its branches and addresses depend on",
		"the public seed only. Baseline x86-64; each block is squeezed by a call",
		"of " + perm + ".",
	}
	var features []string
	if variant == "BMI2" {
		doc[len(doc)-2] = "the public seed only. Each block is squeezed by a call"
		doc = append(doc, "Needs BMI1 and BMI2.")
		features = []string{"BMI", "BMI2"}
	}
	return &Contract{
		Symbol: sym, Routine: "RejNTTPoly", Variant: variant,
		Stem: "rejnttpoly", GoName: "rejNTTPoly",
		GoSig: "func " + sym + "(a *[256]uint32, seed *[34]byte) bool",
		Doc:   doc,
		Level: provenExcept(), Budget: 170,
		Args: []Arg{
			{Name: "a", Bytes: 1024, Write: true, Read: true},
			{Name: "seed", Bytes: 34, Read: true},
		},
		Result: "bool",
		Pre:    "seed = ρ ‖ s ‖ r (34 bytes, public)",
		Post: "ok ⇔ Algorithm 30 needs at most 896 three-byte groups (RejNTTPolyBlocks = 16 SHAKE128 blocks); " +
			"ok ⇒ a = fips204.RejNTTPoly(seed)",
		Leak:          "the public seed: control flow and addresses may depend on seed-derived values",
		PublicControl: true,
		Streams:       spongeStreams(rejStreams(1, func(int) string { return "a" }), fips202.Rate128, perm, "seed", ""),
		Calls:         []string{perm},
		// Proven for every seed, so the random test is a cross-check of
		// the proof's model runs: 2,000 seeds (each squeezes about five
		// blocks per polynomial in the model), besides the vectors'.
		Runs:     2000,
		Features: features, MaxFrame: 4096, NoAlias: true,
		Gen: func(r *rand.Rand) Buffers {
			return Buffers{"a": randBytes(r, 1024), "seed": randBytes(r, 34)}
		},
		Effect: func(in Buffers, r *rand.Rand) (Buffers, byte) {
			a, ok := rejEffect(in["seed"], r)
			return Buffers{"a": a, "seed": in["seed"]}, b2b(ok)
		},
		Check: func(in, out Buffers, ret byte) error {
			ok, err := checkRej(in["seed"], out["a"])
			if err != nil {
				return err
			}
			if ret != b2b(ok) {
				return fmt.Errorf("returned %d, want %d (bound of %d groups)", ret, b2b(ok), maxGroups)
			}
			if !bytes.Equal(in["seed"], out["seed"]) {
				return fmt.Errorf("seed modified")
			}
			return nil
		},
	}
}

// spongeStreams marks a sampler's stream postcondition as one the checker
// must prove for every stream, and the stream as squeezed at rate
// (SHAKE128's or SHAKE256's) from seed ‖ nonce (no nonce if "") by CALLs
// of the permutation perm, which the checker proves too.
func spongeStreams(st *Streams, rate int, perm, seed, nonce string) *Streams {
	st.Proven = true
	st.Sponge = &Sponge{Seed: seed, Nonce: nonce, Rate: rate, Permutation: perm}
	return st
}
