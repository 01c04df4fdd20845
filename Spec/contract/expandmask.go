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
// polynomial of y in one routine (with the AVX2 unpacker too), four at
// once with AVX2 and AVX-512, and eight at once with AVX-512. The routine
// squeezes by CALLs of the proven permutation and unpacks by a CALL of
// the proven BitUnpack (Squeeze), so it is proven for every seed.
func init() { lazily(expandmaskContracts) }

func expandmaskContracts() {
	for _, bits := range []int{17, 19} {
		register(expandMaskContract(bits, "AMD64", 1), expandMaskContract(bits, "BMI2", 1),
			expandMaskContract(bits, "AVX2", 1), expandMaskContract(bits, "AVX2", 4), expandMaskContract(bits, "AVX512", 4),
			expandMaskContract(bits, "AVX512", 8))
	}
}

// expandMaskContract is the contract of ExpandMask<bits>AMD64 or
// ExpandMask<bits>BMI2 (one polynomial, calling KeccakF1600AMD64 or
// KeccakF1600BMI2 and BitUnpack<c>AMD64), of ExpandMask<bits>AVX2 (one
// polynomial, calling KeccakF1600BMI2 and BitUnpack<c>AVX2) or of the four-way ExpandMask<bits>x4AVX2 or
// ExpandMask<bits>x4AVX512, which differ in the permutation they call, or
// of the eight-way ExpandMask<bits>x8AVX512 (ways = 8).
func expandMaskContract(bits int, x4variant string, ways int) *Contract {
	x4 := ways > 1
	routine := fmt.Sprintf("ExpandMask%d", bits)
	n, variant, symbol := 1, "AMD64", routine+"AMD64"
	perm, unpack := "KeccakF1600AMD64", fmt.Sprintf("BitUnpack%dAMD64", bits+1)
	switch {
	case x4variant == "BMI2":
		variant, symbol, perm = "BMI2", routine+"BMI2", "KeccakF1600BMI2"
	case x4variant == "AVX2" && !x4:
		variant, symbol, perm = "AVX2", routine+"AVX2", "KeccakF1600BMI2"
		unpack = fmt.Sprintf("BitUnpack%dAVX2", bits+1)
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
	switch variant {
	case "BMI2":
		doc = append(doc, "Needs BMI1 and BMI2.")
		features = []string{"BMI", "BMI2"}
	case "AVX2":
		doc = append(doc, "Needs BMI1, BMI2 and AVX2.")
		features = []string{"AVX", "AVX2", "BMI", "BMI2"}
	}
	if x4 {
		budget = 400
		routine += fmt.Sprintf("x%d", ways)
		n, variant, symbol = ways, x4variant, routine+x4variant
		perm, unpack = fmt.Sprintf("KeccakF1600x%d%s", ways, x4variant), fmt.Sprintf("BitUnpack%dAVX2", bits+1)
		sig = fmt.Sprintf("func %s(y *[%d]*[256]uint32, seeds *[%d][66]byte)", symbol, ways, ways)
		w := map[int]string{4: "four", 8: "eight"}[ways]
		doc = []string{
			fmt.Sprintf("%s sets *y[j] to what ExpandMask%dAMD64 gives for", symbol, bits),
			fmt.Sprintf("seeds[j], the %s SHAKE256 states squeezed in step by %s,", w, perm),
			fmt.Sprintf("each stream unpacked by %s. The %s polynomials must not", unpack, w),
			"overlap. No branch or address depends on the seeds. Needs AVX2.",
		}
		y = Arg{Name: "y", Bytes: 1024, Indirect: ways, Secret: true, Write: true}
		if ways == 8 {
			// Eight streams do not fit in a frame whose stack check the
			// model knows: five are kept in outputs, read back to unpack.
			y.Read = true
		}
		seed = Arg{Name: "seeds", Bytes: ways * 66, Secret: true, Read: true}
		features = []string{"AVX", "AVX2"}
		switch {
		case variant == "AVX512" && ways == 8:
			// The eight-way permutation needs AVX512F only.
			doc[len(doc)-1] = "overlap. No branch or address depends on the seeds. Needs AVX2"
			doc = append(doc, "and AVX512F.")
			features = append(features, "AVX512F")
		case variant == "AVX512":
			doc[len(doc)-1] = "overlap. No branch or address depends on the seeds. Needs AVX2,"
			doc = append(doc, "AVX512F and AVX512VL.")
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
		// A SignZ routine CALLs it (Algorithm 7, line 11).
		Op:      &Op{Name: "ExpandMask", In: []string{seed.Name}, Out: outs, Params: []int{1 << bits}},
		Squeeze: &Squeeze{Seed: seed.Name, Rate: fips202.Rate256, Permutation: perm, Unpack: unpack, Out: y.Name},
		Pre:     "seed[j] = ρ″ ‖ IntegerToBytes(μ + r, 2) (secret); the outputs are distinct polynomials",
		Post:    fmt.Sprintf("for every j, *y[j] = fips204.ExpandMask with γ1 = 2^%d, polynomial r, coefficients mod q", bits),
		Leak:    "nothing: ρ″ and y are secret",
		// MaxFrame: the callees' arguments, the states and the squeezed
		// streams (×4, γ1 = 2¹⁹: 16 + 800 + 4·640 bytes; ×8: 16 + 1600 +
		// 8·640).
		Features: features, MaxFrame: 4096 * max(1, ways/4), NoAlias: true,
		Gen: func(r *rand.Rand) Buffers {
			b := Buffers{seed.Name: randBytes(r, seed.Bytes)}
			for _, o := range outs {
				b[o] = randBytes(r, 1024)
			}
			return b
		},
		Effect: func(in Buffers, _ *rand.Rand) (Buffers, byte) {
			out := Buffers{}
			for j := 0; j < n; j++ {
				s := in[seed.Name][66*j : 66*j+66]
				p := fips204.Params{Gamma1: 1 << bits, L: 1}
				out[outs[j]] = polyBytes(fips204.ExpandMask(p, s[:64], int(binary.LittleEndian.Uint16(s[64:])))[0], 1)
			}
			return out, 0
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
