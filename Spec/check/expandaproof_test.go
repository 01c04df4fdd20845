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
}

func (sampleHints) Invariants(string) []Invariant { return nil }

func (sampleHints) SampN(symbol string, k, l, g int) SampleCall {
	return SampleCall{Target: "RejNTTPolyx4" + contract.Lookup(symbol).Variant, Entries: []int{4 * g, 4*g + 1, 4*g + 2, 4*g + 3}}
}

func (h sampleHints) StageA(symbol string, k, l int) ([]SampleCall, int, error) {
	c := contract.Lookup(symbol)
	fours, singles := contract.ExpandAGroups(k, l, c.Variant)
	var calls []SampleCall
	for g := 0; g < fours; g++ {
		calls = append(calls, h.SampN(symbol, k, l, g))
	}
	for j := 0; j < singles; j++ {
		calls = append(calls, SampleCall{Target: contract.ExpandASingle(c.Variant), Entries: []int{4*fours + j}})
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
	return calls, h.mask, nil
}

func (h sampleHints) CTSample(string) []string { return h.public }

// The ExpandA proof holds with the right hints and fails with each wrong
// one, or with none.
func TestExpandAProof(t *testing.T) {
	b := buildRepoAsm(t)
	callees := map[string]*x86.Routine{}
	for _, name := range []string{"RejNTTPolyx4AVX2", "RejNTTPolyBMI2", "RejNTTPolyAMD64"} {
		f, err := b.Bin.Routine(AsmPackage, name)
		if err != nil {
			t.Fatal(err)
		}
		callees[name] = f.Routines[0]
	}
	for _, sym := range []string{"ExpandA65AVX2", "ExpandA44AMD64"} {
		c := contract.Lookup(sym)
		f, err := b.Bin.Routine(AsmPackage, sym)
		if err != nil {
			t.Fatal(err)
		}
		r := f.Routines[0]
		good := sampleHints{mask: 192, public: []string{"rho"}}
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
			{"mask slot", sampleHints{mask: 184, public: []string{"rho"}}, "mask"},
			{"order", sampleHints{mask: 192, public: []string{"rho"}, swap: true}, "StageA"},
			{"short", sampleHints{mask: 192, public: []string{"rho"}, short: true}, "StageA"},
			{"public a", sampleHints{mask: 192, public: []string{"a"}}, "CTSample"},
		} {
			if _, _, err := proveExpandA(f, r, c, tc.h, callees, 1<<20); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s, %s: %v, want an error with %q", sym, tc.name, err, tc.want)
			}
		}
	}
}
