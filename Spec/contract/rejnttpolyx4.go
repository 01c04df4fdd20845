package contract

import (
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips202"
)

func init() { lazily(rejnttpolyx4Contracts) }

func rejnttpolyx4Contracts() {
	rejnttpolyx4Contract("AVX2", "AVX2.", []string{"AVX", "AVX2"})
	// The same routine calling the AVX-512 permutation.
	rejnttpolyx4Contract("AVX512", "AVX2, AVX512F and AVX512VL.", []string{"AVX", "AVX2", "AVX512F", "AVX512VL"})
}

// rejnttpolyx4Contract registers the variant that squeezes with
// KeccakF1600x4<variant> and needs the CPU features fs.
func rejnttpolyx4Contract(variant, needs string, fs []string) {
	sym, perm := "RejNTTPolyx4"+variant, "KeccakF1600x4"+variant
	register(&Contract{
		Symbol: sym, Routine: "RejNTTPolyx4", Variant: variant,
		Stem: "rejnttpolyx4", GoName: "rejNTTPolyx4",
		GoSig: "func " + sym + "(a *[4]*[256]uint32, seeds *[4][34]byte) bool",
		Doc: []string{
			sym + " runs RejNTTPoly (FIPS 204, Algorithm 30) on four seeds",
			"at once, a[j] receiving the sample of seeds[j]; the four SHAKE128",
			fmt.Sprintf("states are squeezed in step by calls of %s, at most %d", perm, RejNTTPolyBlocks),
			"blocks each (Appendix C). It returns true iff all four completed; a[j]",
			"of an incomplete sample holds garbage. The four pointers must not",
			"alias. Branches and addresses depend on the public seeds only. Needs",
			needs,
		},
		Level: provenExcept(), Budget: 310,
		Args: []Arg{
			{Name: "a", Bytes: 1024, Indirect: 4, Write: true, Read: true},
			{Name: "seeds", Bytes: 136, Read: true},
		},
		Result: "bool",
		Pre:    "seeds[j] = ρ ‖ s ‖ r for four entries (public); a[j] point to four distinct polynomials",
		Post: "ok ⇔ for every j Algorithm 30 needs at most 896 groups; " +
			"ok ⇒ for every j, *a[j] = fips204.RejNTTPoly(seeds[j])",
		Leak:          "the public seeds: control flow and addresses may depend on seed-derived values",
		PublicControl: true,
		Streams: spongeStreams(rejStreams(4, func(j int) string { return fmt.Sprintf("a[%d]", j) }),
			fips202.Rate128, perm, "seeds", ""),
		Calls: []string{perm},
		// Proven for every seed, so the random test is a cross-check of
		// the proof's model runs: 2,000 seeds (each squeezes about five
		// blocks per polynomial in the model), besides the vectors'.
		Runs:     2000,
		Features: fs, MaxFrame: 8192, NoAlias: true,
		Gen: func(r *rand.Rand) Buffers {
			b := Buffers{"seeds": randBytes(r, 136)}
			for j := 0; j < 4; j++ {
				b[fmt.Sprintf("a[%d]", j)] = randBytes(r, 1024)
			}
			return b
		},
		Effect: func(in Buffers, r *rand.Rand) (Buffers, byte) {
			out, all := Buffers{"seeds": in["seeds"]}, true
			for j := 0; j < 4; j++ {
				a, ok := rejEffect(in["seeds"][34*j:34*j+34], r)
				out[fmt.Sprintf("a[%d]", j)] = a
				all = all && ok
			}
			return out, b2b(all)
		},
		Check: func(in, out Buffers, ret byte) error {
			all := true
			for j := 0; j < 4; j++ {
				ok, err := checkRej(in["seeds"][34*j:34*j+34], out[fmt.Sprintf("a[%d]", j)])
				if err != nil {
					return fmt.Errorf("polynomial %d: %v", j, err)
				}
				all = all && ok
			}
			if ret != b2b(all) {
				return fmt.Errorf("returned %d, want %d", ret, b2b(all))
			}
			return nil
		},
	})
}
