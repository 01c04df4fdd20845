package contract

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips204"
)

// ballLeak is the leak of every SampleInBall variant.
const ballLeak = "where the rejections fall: which bytes j of SHAKE256(c̃) Algorithm 29 rejects " +
	"(line 8: j > i), hence how many bytes and blocks it reads; control flow and addresses " +
	"depend on nothing else, neither on the accepted j (the positions) nor on the signs. " +
	"c̃ is part of the signature, or belongs to an attempt that Sign rejects and that " +
	"reveals nothing more than that it was rejected; pq-crystals' code and Go's crypto/mldsa " +
	"leak the same."

// SampleInBall (FIPS 204, Algorithm 29), one routine per parameter set:
// c̃ has λ/4 bytes and c has τ nonzero coefficients (Table 1).
func init() { lazily(sampleinballContracts) }

func sampleinballContracts() {
	for _, v := range []string{"AMD64", "BMI2"} {
		for _, ps := range paramSets {
			register(ballContract(ps.name, ps.p, v))
		}
	}
}

// ballContract is the contract of SampleInBall<name>AMD64 or
// SampleInBall<name>BMI2, which differ only in the permutation they call:
// KeccakF1600AMD64 or KeccakF1600BMI2.
func ballContract(name string, p fips204.Params, variant string) *Contract {
	sym := "SampleInBall" + name + variant
	perm := "KeccakF1600" + variant
	seedLen := p.Lambda / 4
	doc := []string{
		fmt.Sprintf("%s is SampleInBall (FIPS 204, Algorithm 29) for τ = %d: it fills c", sym, p.Tau),
		"with τ coefficients 1 or q − 1 and the others 0, sampled from SHAKE256(seed),",
		fmt.Sprintf("seed = c̃ (λ/4 = %d bytes). It squeezes at most %d blocks (Appendix C)", seedLen, SampleInBallBlocks),
		"and returns false if they run out, c then holding garbage. The seed is",
		"secret: no branch or address depends on it but through which bytes are",
		"rejected. Baseline x86-64; each block is squeezed by a call of",
		perm + ".",
	}
	features := []string{"CMOV", "SSE2"}
	if variant == "BMI2" {
		doc[len(doc)-2] = "rejected. Each block is squeezed by a call of"
		doc = append(doc, "Needs BMI1 and BMI2.")
		features = append(features, "BMI", "BMI2")
	}
	return &Contract{
		Symbol: sym, Routine: "SampleInBall" + name, Variant: variant,
		Stem: "sampleinball", GoName: "sampleInBall",
		GoSig: fmt.Sprintf("func %s(c *[256]uint32, seed *[%d]byte) bool", sym, seedLen),
		Doc:   doc,
		Level: provenExcept(), Budget: 60,
		Args: []Arg{
			{Name: "c", Bytes: 1024, Write: true, Read: true},
			{Name: "seed", Bytes: seedLen, Read: true, Secret: true},
		},
		Result: "bool",
		Pre:    fmt.Sprintf("seed = c̃ (%d bytes, secret)", seedLen),
		Post: fmt.Sprintf("ok ⇔ Algorithm 29 reads at most %d bytes of SHAKE256(seed) (SampleInBallBlocks = %d blocks); ", maxBallBytes, SampleInBallBlocks) +
			"ok ⇒ c = fips204.SampleInBall(seed) mod q",
		Leak:          ballLeak,
		SecretControl: true,
		Ball:          &Ball{Out: "c", Seed: "seed", Tau: p.Tau, Blocks: SampleInBallBlocks, Permutation: perm},
		Op:            &Op{Name: "SampleInBall", In: []string{"seed"}, Out: []string{"c"}, Params: []int{p.Tau}},
		// A Verify routine CALLs it (Algorithm 8, line 8).
		Effect: func(in Buffers, r *rand.Rand) (Buffers, byte) {
			n := 0
			read := shake256(in["seed"])
			c := fips204.SampleInBallFrom(p, func(s []byte) { n += len(s); read(s) })
			if n > maxBallBytes {
				return Buffers{"c": randBytes(r, 1024)}, 0
			}
			out := make([]byte, 1024)
			for i, x := range c {
				binary.LittleEndian.PutUint32(out[4*i:], modQ(x))
			}
			return Buffers{"c": out}, 1
		},
		Calls:    []string{perm},
		Features: features, MaxFrame: 4096, NoAlias: true,
		Gen: func(r *rand.Rand) Buffers {
			return Buffers{"c": randBytes(r, 1024), "seed": randBytes(r, seedLen)}
		},
		Check: func(in, out Buffers, ret byte) error {
			ok, err := CheckBallFrom(p, shake256(in["seed"]), out["c"])
			if err != nil {
				return err
			}
			if ret != b2b(ok) {
				return fmt.Errorf("returned %d, want %d (bound of %d bytes)", ret, b2b(ok), maxBallBytes)
			}
			if !bytes.Equal(in["seed"], out["seed"]) {
				return fmt.Errorf("seed modified")
			}
			return nil
		},
	}
}
