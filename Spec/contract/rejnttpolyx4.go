package contract

import (
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips202"
)

func init() { lazily(rejnttpolyx4Contracts) }

func rejnttpolyx4Contracts() {
	rejNTTPolyWideContract(4, "AVX2", "AVX2.", []string{"AVX", "AVX2"})
	// The same routine calling the AVX-512 permutation.
	rejNTTPolyWideContract(4, "AVX512", "AVX2, AVX512F and AVX512VL.", []string{"AVX", "AVX2", "AVX512F", "AVX512VL"})
}

// rejNTTPolyWideContract registers the n-way variant (n = 4 or 8) that
// squeezes with KeccakF1600xn<variant> and needs the CPU features fs.
func rejNTTPolyWideContract(n int, variant, needs string, fs []string) {
	sym, perm := fmt.Sprintf("RejNTTPolyx%d%s", n, variant), fmt.Sprintf("KeccakF1600x%d%s", n, variant)
	ways := map[int]string{4: "four", 8: "eight"}[n]
	register(&Contract{
		Symbol: sym, Routine: fmt.Sprintf("RejNTTPolyx%d", n), Variant: variant,
		Stem: fmt.Sprintf("rejnttpolyx%d", n), GoName: fmt.Sprintf("rejNTTPolyx%d", n),
		GoSig: fmt.Sprintf("func %s(a *[%d]*[256]uint32, seeds *[%d][34]byte) bool", sym, n, n),
		Doc: []string{
			fmt.Sprintf("%s runs RejNTTPoly (FIPS 204, Algorithm 30) on %s seeds", sym, ways),
			fmt.Sprintf("at once, a[j] receiving the sample of seeds[j]; the %s SHAKE128", ways),
			fmt.Sprintf("states are squeezed in step by calls of %s, at most %d", perm, RejNTTPolyBlocks),
			fmt.Sprintf("blocks each (Appendix C). It returns true iff all %s completed; a[j]", ways),
			fmt.Sprintf("of an incomplete sample holds garbage. The %s pointers must not", ways),
			"alias. Branches and addresses depend on the public seeds only. Needs",
			needs,
		},
		Level: provenExcept(), Budget: 310 * float64(n/4), // the stream proof is per polynomial
		Args: []Arg{
			{Name: "a", Bytes: 1024, Indirect: n, Write: true, Read: true},
			{Name: "seeds", Bytes: 34 * n, Read: true},
		},
		Result: "bool",
		Pre:    fmt.Sprintf("seeds[j] = ρ ‖ s ‖ r for %s entries (public); a[j] point to %s distinct polynomials", ways, ways),
		Post: "ok ⇔ for every j Algorithm 30 needs at most 896 groups; " +
			"ok ⇒ for every j, *a[j] = fips204.RejNTTPoly(seeds[j])",
		Leak:          "the public seeds: control flow and addresses may depend on seed-derived values",
		PublicControl: true,
		Streams: spongeStreams(rejStreams(n, func(j int) string { return fmt.Sprintf("a[%d]", j) }),
			fips202.Rate128, perm, "seeds", ""),
		Calls: []string{perm},
		// Proven for every seed, so the random test is a cross-check of
		// the proof's model runs: 2,000 seeds (each squeezes about five
		// blocks per polynomial in the model), besides the vectors'.
		Runs:     2000,
		Features: fs, MaxFrame: 8192, NoAlias: true,
		Gen: func(r *rand.Rand) Buffers {
			b := Buffers{"seeds": randBytes(r, 34*n)}
			for j := 0; j < n; j++ {
				b[fmt.Sprintf("a[%d]", j)] = randBytes(r, 1024)
			}
			return b
		},
		Effect: func(in Buffers, r *rand.Rand) (Buffers, byte) {
			out, all := Buffers{"seeds": in["seeds"]}, true
			for j := 0; j < n; j++ {
				a, ok := rejEffect(in["seeds"][34*j:34*j+34], r)
				out[fmt.Sprintf("a[%d]", j)] = a
				all = all && ok
			}
			return out, b2b(all)
		},
		Check: func(in, out Buffers, ret byte) error {
			all := true
			for j := 0; j < n; j++ {
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
