package check

import (
	"strings"
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// sampleHints states ExpandA's proof for the tests; each field can be
// made wrong.
type sampleHints struct {
	mask   int
	swap   bool // StageA claims entries 0 and 1 the other way round
	public []string
	short  bool // StageA leaves out the last call
	gap    bool // StageA's last call starts one entry later
}

func (sampleHints) Invariants(string) []Invariant { return nil }

// SampN and StageA: the calls of contract.ExpandAWidths, in order.
func (h sampleHints) SampN(symbol string, k, l, g int) SampleCall {
	calls, _, _ := h.StageA(symbol, k, l)
	for _, sc := range calls {
		if len(sc.Entries) > 1 {
			if g == 0 {
				return sc
			}
			g--
		}
	}
	return SampleCall{}
}

func (h sampleHints) StageA(symbol string, k, l int) ([]SampleCall, int, error) {
	c := contract.Lookup(symbol)
	var calls []SampleCall
	e := 0
	for _, w := range contract.ExpandAWidths(k, l, c.Variant) {
		e = contract.ExpandAFirst(e, w, k, l)
		sc := SampleCall{Target: contract.ExpandASampler(c.Variant, w)}
		for j := 0; j < w; j++ {
			sc.Entries = append(sc.Entries, e+j)
		}
		calls, e = append(calls, sc), e+w
	}
	if h.swap {
		if e := calls[0].Entries; len(e) > 1 {
			calls[0].Entries = append([]int{e[1], e[0]}, e[2:]...)
		} else {
			calls[0].Entries, calls[1].Entries = calls[1].Entries, calls[0].Entries
		}
	}
	if h.short {
		calls = calls[:len(calls)-1]
	}
	if h.gap {
		last := calls[len(calls)-1].Entries
		for j := range last {
			last[j]++
		}
	}
	return calls, h.mask, nil
}

func (h sampleHints) CTSample(string) []string { return h.public }

// The ExpandA proof holds with the right hints and fails with each wrong
// one, or with none.
func TestExpandAProof(t *testing.T) {
	b := buildRepoAsm(t)
	callees := map[string]*x86.Routine{}
	for _, name := range []string{"RejNTTPolyx4AVX2", "RejNTTPolyBMI2", "RejNTTPolyAMD64", "RejNTTPolyx8AVX512", "RejNTTPolyx4AVX512"} {
		f, err := b.Bin.Routine(AsmPackage, name)
		if err != nil {
			t.Fatal(err)
		}
		callees[name] = f.Routines[0]
	}
	// The mask's frame slot: after four seeds, eight on the AVX-512 path
	// (whose ExpandA65's last group of eight samples entries 22 and 23
	// again).
	for sym, mask := range map[string]int{"ExpandA65AVX2": 192, "ExpandA44AMD64": 192, "ExpandA65AVX512": 360} {
		c := contract.Lookup(sym)
		f, err := b.Bin.Routine(AsmPackage, sym)
		if err != nil {
			t.Fatal(err)
		}
		r := f.Routines[0]
		good := sampleHints{mask: mask, public: []string{"rho"}}
		d, ct, err := proveExpandA(f, r, c, good, callees, 1<<20)
		if err != nil || !strings.Contains(d, "StageA") || !strings.Contains(d, "SampN") || !strings.Contains(ct, "CTSample") {
			t.Fatalf("%s: %q, %q, %v", sym, d, ct, err)
		}
		for _, tc := range []struct {
			name string
			h    Hints
			want string
		}{
			{"no hints", struct{ Hints }{good}, "no StageA"},
			{"mask slot", sampleHints{mask: mask - 8, public: []string{"rho"}}, "mask"},
			{"order", sampleHints{mask: mask, public: []string{"rho"}, swap: true}, "StageA"},
			{"short", sampleHints{mask: mask, public: []string{"rho"}, short: true}, "StageA"},
			{"gap", sampleHints{mask: mask, public: []string{"rho"}, gap: true}, "StageA"},
			{"public a", sampleHints{mask: mask, public: []string{"a"}}, "CTSample"},
		} {
			if _, _, err := proveExpandA(f, r, c, tc.h, callees, 1<<20); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s, %s: %v, want an error with %q", sym, tc.name, err, tc.want)
			}
		}
	}
}
