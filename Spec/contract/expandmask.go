package contract

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips202"
	"github.com/vg-crypto/vg/Spec/fips204"
)

// ExpandMask (FIPS 204, Algorithm 34) for γ1 = 2¹⁷ (ML-DSA-44) and
// γ1 = 2¹⁹ (ML-DSA-65, -87): the SHAKE256 squeeze and the unpacking of one
// polynomial of y in one routine, and four at once with AVX2. The routine
// squeezes by CALLs of the proven permutation and unpacks by a CALL of
// the proven BitUnpack (Squeeze), so it is proven for every seed.
func init() { lazily(expandmaskContracts) }

func expandmaskContracts() {
	for _, bits := range []int{17, 19} {
		register(expandMaskContract(bits, "AMD64"), expandMaskContract(bits, "BMI2"),
			expandMaskContract(bits, "AVX2"), expandMaskContract(bits, "AVX512"))
	}
}

// expandMaskContract is the contract of ExpandMask<bits>AMD64 or
// ExpandMask<bits>BMI2 (one polynomial, calling KeccakF1600AMD64 or
// KeccakF1600BMI2) or of the four-way ExpandMask<bits>x4AVX2 or
// ExpandMask<bits>x4AVX512, which differ in the permutation they call.
func expandMaskContract(bits int, x4variant string) *Contract {
	x4 := x4variant == "AVX2" || x4variant == "AVX512"
	routine := fmt.Sprintf("ExpandMask%d", bits)
	n, variant, symbol := 1, "AMD64", routine+"AMD64"
	perm, unpack := "KeccakF1600AMD64", fmt.Sprintf("BitUnpack%dAMD64", bits+1)
	if x4variant == "BMI2" {
		variant, symbol, perm = "BMI2", routine+"BMI2", "KeccakF1600BMI2"
	}
	sig := fmt.Sprintf("func %s(y *[256]uint32, seed *[66]byte)", symbol)
	doc := []string{
		fmt.Sprintf("%s sets y to polynomial r of ExpandMask (FIPS 204, Algorithm 34,", symbol),
		fmt.Sprintf("lines 3 to 5) for γ1 = 2^%d: BitUnpack(SHAKE256(seed), γ1 − 1, γ1)", bits),
		"with coefficients mod q, where seed = ρ″ ‖ IntegerToBytes(μ + r, 2). It",
		fmt.Sprintf("squeezes by calling %s and unpacks by calling", perm),
		fmt.Sprintf("%s; no branch or address depends on the seed.", unpack),
	}
	y := Arg{Name: "y", Bytes: 1024, Secret: true, Write: true}
	seed := Arg{Name: "seed", Bytes: 66, Secret: true, Read: true}
	features, budget := []string(nil), 200.0
	if variant == "BMI2" {
		doc = append(doc, "Needs BMI1 and BMI2.")
		features = []string{"BMI", "BMI2"}
	}
	if x4 {
		budget = 400
		routine += "x4"
		n, variant, symbol = 4, x4variant, routine+x4variant
		perm, unpack = "KeccakF1600x4"+x4variant, fmt.Sprintf("BitUnpack%dAVX2", bits+1)
		sig = fmt.Sprintf("func %s(y *[4]*[256]uint32, seeds *[4][66]byte)", symbol)
		doc = []string{
			fmt.Sprintf("%s sets *y[j] to what ExpandMask%dAMD64 gives for", symbol, bits),
			fmt.Sprintf("seeds[j], the four SHAKE256 states squeezed in step by %s,", perm),
			fmt.Sprintf("each stream unpacked by %s. The four polynomials must not", unpack),
			"overlap. No branch or address depends on the seeds. Needs AVX2.",
		}
		if variant == "AVX512" {
			doc[len(doc)-1] = "overlap. No branch or address depends on the seeds. Needs AVX2,"
			doc = append(doc, "AVX512F and AVX512VL.")
		}
		y = Arg{Name: "y", Bytes: 1024, Indirect: 4, Secret: true, Write: true}
		seed = Arg{Name: "seeds", Bytes: 4 * 66, Secret: true, Read: true}
		features = []string{"AVX", "AVX2"}
		if variant == "AVX512" {
			features = append(features, "AVX512F", "AVX512VL")
		}
	}
	outs := y.BufferNames()
	return &Contract{
		Symbol: symbol, Routine: routine, Variant: variant,
		Stem: "expandmask", GoName: "expandMask",
		GoSig: sig, Doc: doc,
		// Budget: before the calls, 10000 functional tests took 36 s (×1)
		// and 85 s (×4) on a quiet machine, 95 s (×1) under load.
		Level: provenExcept(), Budget: budget,
		Args:  []Arg{y, seed},
		Calls: []string{perm, unpack},
		// Algorithm 34, lines 4 and 5: v = H(ρ″ ‖ IntegerToBytes(μ + r, 2),
		// 32c), H = SHAKE256 (§3.7), then y = BitUnpack(v, γ1 − 1, γ1),
		// the unpacker's postcondition (TestSqueezes checks this against
		// Check).
		Squeeze: &Squeeze{Seed: seed.Name, Rate: fips202.Rate256, Permutation: perm, Unpack: unpack, Out: y.Name},
		Pre:     "seed[j] = ρ″ ‖ IntegerToBytes(μ + r, 2) (secret); the outputs are distinct polynomials",
		Post:    fmt.Sprintf("for every j, *y[j] = fips204.ExpandMask with γ1 = 2^%d, polynomial r, coefficients mod q", bits),
		Leak:    "nothing: ρ″ and y are secret",
		// MaxFrame: the callees' arguments, the states and the squeezed
		// streams (×4, γ1 = 2¹⁹: 16 + 800 + 4·640 bytes).
		Features: features, MaxFrame: 4096, NoAlias: true,
		Gen: func(r *rand.Rand) Buffers {
			b := Buffers{seed.Name: randBytes(r, seed.Bytes)}
			for _, o := range outs {
				b[o] = randBytes(r, 1024)
			}
			return b
		},
		Check: func(in, out Buffers, _ byte) error {
			for j := 0; j < n; j++ {
				s := in[seed.Name][66*j : 66*j+66]
				p := fips204.Params{Gamma1: 1 << bits, L: 1}
				want := fips204.ExpandMask(p, s[:64], int(binary.LittleEndian.Uint16(s[64:])))[0]
				for i := 0; i < 256; i++ {
					w := (want[i]%fips204.Q + fips204.Q) % fips204.Q
					if got := binary.LittleEndian.Uint32(out[outs[j]][4*i:]); got != uint32(w) {
						return fmt.Errorf("polynomial %d, coefficient %d = %d, Spec ExpandMask gives %d mod q", j, i, got, want[i])
					}
				}
			}
			return nil
		},
	}
}
