package contract

import (
	"bytes"
	"fmt"
	"math/rand/v2"
)

// ExpandA (FIPS 204, Algorithm 32), one routine per parameter set: k × ℓ =
// 4 × 4, 6 × 5 and 8 × 7 (Table 1). Entry e = ℓr + s of Â, stored
// row-major, is RejNTTPoly(ρ ‖ s ‖ r) (Algorithm 32, lines 3 to 5). The AVX2
// routines sample ⌈kℓ/4⌉ groups of four entries with the four-way sampler,
// the AVX-512 routines ⌈kℓ/8⌉ groups of eight with the eight-way one, the
// last group being the last entries (ML-DSA-65: 26 to 29 and 22 to 29,
// 26, 27 and 22, 23 sampled twice); the baseline routine samples every
// entry singly (ExpandAWidths). All CALL the samplers (their contracts
// stand in for them) and AND every sampler's result into the one they
// return.
func init() { lazily(expandaContracts) }

func expandaContracts() {
	// Budgets: vg prove took 4.8, 6.3 and 10.9 s (AVX2) and 3.8, 5.9 and
	// 10.8 s (AMD64) for the three on the shared 2-core machine under load
	// average 20 (2026-12-01), mostly the functional test's Spec calls.
	for _, ps := range []struct {
		name   string
		k, l   int
		budget float64
	}{{"44", 4, 4, 20}, {"65", 6, 5, 30}, {"87", 8, 7, 45}} {
		for _, v := range []string{"AVX2", "AVX512", "AMD64"} {
			c := expandAContract(ps.name, ps.k, ps.l, v)
			c.Budget = ps.budget
			register(c)
		}
	}
}

// ExpandAWidths returns the widths of an ExpandA routine's sampler calls,
// in order: as many calls of the variant's width (eight entries on the
// AVX-512 path, four on the AVX2 one, one on the baseline) as cover the kℓ
// entries, the last on the last entries, some sampled again where the
// width does not divide kℓ (ExpandAFirst): a group's call costs about what
// two single entries' do.
func ExpandAWidths(k, l int, variant string) []int {
	w := 8
	switch variant {
	case "AMD64":
		w = 1
	case "AVX2":
		w = 4
	}
	ws := make([]int, (k*l+w-1)/w)
	for i := range ws {
		ws[i] = w
	}
	return ws
}

// ExpandAFirst is the first entry of a call of width w after e entries
// are sampled: e, or kℓ − w for a last group that would run past the end.
func ExpandAFirst(e, w, k, l int) int {
	return min(e, k*l-w)
}

// ExpandASampler is the sampler of width w (8, 4 or 1) an ExpandA routine
// of variant calls: the many-way one of its variant, or the baseline one.
func ExpandASampler(variant string, w int) string {
	if w == 1 {
		return "RejNTTPolyAMD64"
	}
	return fmt.Sprintf("RejNTTPolyx%d%s", w, variant)
}

// ExpandASeed is the seed of entry e of Â: ρ ‖ s ‖ r with s = e mod ℓ and
// r = e div ℓ (Algorithm 32, lines 3 and 4: ρ‖IntegerToBytes(s, 1)‖
// IntegerToBytes(r, 1)).
func ExpandASeed(ρ []byte, e, l int) []byte {
	seed := make([]byte, 34)
	copy(seed, ρ)
	seed[32], seed[33] = byte(e%l), byte(e/l)
	return seed
}

func expandAContract(name string, k, l int, variant string) *Contract {
	sym := "ExpandA" + name + variant
	n := k * l
	widths := ExpandAWidths(k, l, variant)
	w := widths[0]
	c := &Contract{
		Symbol: sym, Routine: "ExpandA" + name, Variant: variant,
		Stem: "expanda", GoName: "expandA", ExpandA: &Shape{K: k, L: l},
		GoSig: fmt.Sprintf("func %s(a *[%d][256]uint32, rho *[32]byte) bool", sym, n),
		Args: []Arg{
			{Name: "a", Bytes: 1024 * n, Read: true, Write: true},
			{Name: "rho", Bytes: 32, Read: true},
		},
		Result: "bool",
		// A KeyGen routine CALLs it for Algorithm 6, line 3.
		Op: &Op{Name: "ExpandA", In: []string{"rho"}, Out: []string{"a"}, Params: []int{k, l}},
		Effect: func(in Buffers, r *rand.Rand) (Buffers, byte) {
			a, all := make([]byte, 0, 1024*n), true
			for e := 0; e < n; e++ {
				p, ok := rejEffect(ExpandASeed(in["rho"], e, l), r)
				a, all = append(a, p...), all && ok
			}
			return Buffers{"a": a}, b2b(all)
		},
		Pre: "rho = ρ (32 bytes, public)",
		Post: fmt.Sprintf("ok ⇔ for every entry e < %d Algorithm 30 on ρ ‖ (e mod %d) ‖ (e div %d) needs at most 896 groups; "+
			"ok ⇒ a[e] = fips204.RejNTTPoly(ρ ‖ e mod %d ‖ e div %d) = Â[e div %d][e mod %d] of Algorithm 32", n, l, l, l, l, l, l),
		Leak:     "the public seed ρ: the samplers' control flow and addresses depend on it",
		MaxFrame: 512, NoAlias: true,
		// Each input runs Spec's RejNTTPoly kℓ times for the callees and
		// again for Check: 200 inputs are 3,200 to 11,200 entries, and the
		// seeds and entries of every call are proven for every ρ
		// (Spec/check, the ExpandA proof).
		Runs: 200,
		Gen: func(r *rand.Rand) Buffers {
			return Buffers{"a": randBytes(r, 1024*n), "rho": randBytes(r, 32)}
		},
		Check: func(in, out Buffers, ret byte) error {
			all := true
			for e := 0; e < n; e++ {
				ok, err := checkRej(ExpandASeed(in["rho"], e, l), out["a"][1024*e:1024*e+1024])
				if err != nil {
					return fmt.Errorf("entry %d (r = %d, s = %d): %v", e, e/l, e%l, err)
				}
				all = all && ok
			}
			if ret != b2b(all) {
				return fmt.Errorf("returned %d, want %d", ret, b2b(all))
			}
			if !bytes.Equal(in["rho"], out["rho"]) {
				return fmt.Errorf("rho modified")
			}
			return nil
		},
	}
	// Spec/check lowers a caller to its callees, whose every obligation
	// is proven.
	c.Level = provenExcept()
	c.Calls = []string{ExpandASampler(variant, w)}
	switch variant {
	case "AVX2":
		c.Features = []string{"AVX", "AVX2"}
	case "AVX512":
		c.Features = []string{"AVX", "AVX2", "AVX512F", "AVX512VL"}
	}
	what := map[int]string{8: " (eight entries each)", 4: " (four entries each)", 1: ""}[w]
	calls := fmt.Sprintf("%d calls of %s%s", len(widths), c.Calls[0], what)
	if n%w != 0 {
		calls += fmt.Sprintf(" (the last on entries %d to %d)", n-w, n-1)
	}
	c.Doc = []string{
		fmt.Sprintf("%s is ExpandA (FIPS 204, Algorithm 32) for k = %d, ℓ = %d: a[ℓr + s]", sym, k, l),
		"receives RejNTTPoly(ρ ‖ s ‖ r), in " + calls + ",",
		"each sampler's result ANDed into the one returned: false if any sampler",
		"ran out of its bound (Appendix C), a then holding garbage. Branches and",
		"addresses depend on nothing; the samplers' depend on the public ρ.",
	}
	switch variant {
	case "AVX2":
		c.Doc = append(c.Doc, "Needs AVX2.")
	case "AVX512":
		c.Doc = append(c.Doc, "Needs AVX2, AVX512F and AVX512VL.")
	default:
		c.Doc = append(c.Doc, "Baseline x86-64.")
	}
	return c
}
