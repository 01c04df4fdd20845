package contract

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips202"
)

// boundedSeedBytes is the bytes of ρ′ ‖ IntegerToBytes(r, 2) (Algorithm
// 33, lines 2 and 5), one seed of RejBoundedPolyx4.
const boundedSeedBytes = 66

func init() { lazily(rejboundedpolyx4Contracts) }

func rejboundedpolyx4Contracts() {
	for _, v := range []struct {
		variant, needs string
		fs             []string
	}{
		{"AVX2", "AVX2", []string{"AVX", "AVX2"}},
		// The same routine calling the AVX-512 permutation.
		{"AVX512", "AVX2, AVX512F and AVX512VL", []string{"AVX", "AVX2", "AVX512F", "AVX512VL"}},
	} {
		for _, η := range []int{2, 4} {
			rejboundedpolyx4Contract(η, v.variant, v.needs, v.fs)
		}
	}
}

// rejboundedpolyx4Contract registers the variant for η that squeezes with
// KeccakF1600x4<variant> and needs the CPU features fs.
func rejboundedpolyx4Contract(η int, variant, needs string, fs []string) {
	sym := fmt.Sprintf("RejBoundedPolyx4Eta%d%s", η, variant)
	perm := "KeccakF1600x4" + variant
	poly := func(j int) string { return fmt.Sprintf("a[%d]", j) }
	register(&Contract{
		Symbol: sym, Routine: fmt.Sprintf("RejBoundedPolyx4Eta%d", η), Variant: variant,
		Stem: "rejboundedpolyx4", GoName: "rejBoundedPolyx4",
		GoSig: "func " + sym + "(a *[4]*[256]uint32, seeds *[4][66]byte) bool",
		Doc: []string{
			fmt.Sprintf("%s runs RejBoundedPoly (FIPS 204, Algorithm 31) for η = %d", sym, η),
			fmt.Sprintf("on four seeds at once: a[j] receives 256 coefficients in [−%d, %d]", η, η),
			"(mod q) sampled from SHAKE256(seeds[j]), seeds[j] = ρ′ ‖ r with r",
			"little-endian (ExpandS, Algorithm 33). The four states are squeezed in",
			fmt.Sprintf("step by calls of %s, at most %d blocks each (Appendix C).", perm, RejBoundedPolyBlocks),
			"It returns true iff all four completed; a[j] of an incomplete sample",
			"holds garbage. The four pointers must not alias. The seeds are",
			"secret: no branch or address depends on a coefficient, only on where",
			"the rejections fall. Needs " + needs + ".",
		},
		// About twice the slowest proof seen (200 s, on the shared
		// 2-core machine at a load average near 7, both variants at
		// once): the vector pass makes 2⁸ decisions a loop head.
		Level: provenExcept(), Budget: 400,
		Args: []Arg{
			{Name: "a", Bytes: 1024, Indirect: 4, Write: true, Read: true},
			{Name: "seeds", Bytes: 4 * boundedSeedBytes, Read: true, Secret: true},
		},
		Result: "bool",
		Pre:    "seeds[j] = ρ′ ‖ IntegerToBytes(r_j, 2) (66 bytes each, ρ′ secret); a[j] point to four distinct polynomials",
		Post: fmt.Sprintf("ok ⇔ for every j Algorithm 31 reads at most %d bytes (RejBoundedPolyBlocks = %d SHAKE256 blocks); ", maxBoundedBytes, RejBoundedPolyBlocks) +
			"ok ⇒ for every j, *a[j] = fips204.RejBoundedPoly(seeds[j]) mod q",
		Leak:          boundedLeak,
		SecretControl: true,
		Streams: spongeStreams(boundedStreams(η, 4, poly),
			fips202.Rate256, perm, "seeds", ""),
		Calls: []string{perm},
		// A KeyGen routine CALLs it for ExpandS (Algorithm 33).
		Op: &Op{Name: "RejBoundedPoly", In: []string{"seeds"}, Out: []string{poly(0), poly(1), poly(2), poly(3)}, Params: []int{η}},
		Effect: func(in Buffers, r *rand.Rand) (Buffers, byte) {
			out, all := Buffers{}, true
			for j := 0; j < 4; j++ {
				a, ok := boundedEffect(η, in["seeds"][boundedSeedBytes*j:boundedSeedBytes*(j+1)], r)
				out[poly(j)], all = a, all && ok
			}
			return out, b2b(all)
		},
		Features: fs, MaxFrame: 4096, NoAlias: true,
		Gen: func(r *rand.Rand) Buffers {
			b := Buffers{"seeds": randBytes(r, 4*boundedSeedBytes)}
			for j := 0; j < 4; j++ {
				b[poly(j)] = randBytes(r, 1024)
			}
			return b
		},
		Check: func(in, out Buffers, ret byte) error {
			all := true
			for j := 0; j < 4; j++ {
				seed := in["seeds"][boundedSeedBytes*j : boundedSeedBytes*(j+1)]
				ok, err := checkBoundedFrom(η, shake256(seed), out[poly(j)])
				if err != nil {
					return fmt.Errorf("polynomial %d: %v", j, err)
				}
				all = all && ok
			}
			if ret != b2b(all) {
				return fmt.Errorf("returned %d, want %d (bound of %d bytes)", ret, b2b(all), maxBoundedBytes)
			}
			if !bytes.Equal(in["seeds"], out["seeds"]) {
				return fmt.Errorf("seeds modified")
			}
			return nil
		},
	})
}
