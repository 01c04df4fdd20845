package check

import (
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
)

// TestSplitMakeHint proves MakeHint32AMD64 and refuses three edits of it:
// the sum's rounding constant off by one (wrong only where r + z mod q is
// 1 mod 128 next to a multiple of 2γ2), a lane that adds another word to
// the count, and a hint computed from z instead of r + z.
func TestSplitMakeHint(t *testing.T) {
	const sym = "MakeHint32AMD64"
	cases := []struct {
		name    string
		n       int
		edit    []string
		wantErr string
	}{
		{"correct", 1, []string{"", ""}, ""},
		{"sum rounding", 1, []string{"MOVL R9, R11\n\tADDL $0x0000007f, R11", "MOVL R9, R11\n\tADDL $0x0000007e, R11"}, "term gives"},
		{"count adds another word", 1, []string{"MOVL BX, 4(DI)\n\tADDL BX, R10", "MOVL BX, 4(DI)\n\tADDL DX, R10"}, "count"},
		{"hint from z", 1, []string{"MOVL R9, R11", "MOVL (SI), R11"}, "not an addition"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := parseGoAsm(t, "makehint_amd64.s")
			if tc.edit[0] != "" {
				f = mutate(t, "makehint_amd64.s", tc.n, tc.edit...)
			}
			d, err := proveLanes(f, f.Routine(sym), makeHintLanes(sym), 1<<22)
			wantVerdict(t, d, err, tc.wantErr)
		})
	}
}

// makeHintLanes is the contract of sym (γ2 = (q−1)/32) with its map
// stated as Lanes, whatever the contract says.
func makeHintLanes(sym string) *contract.Contract {
	c := *contract.Lookup(sym)
	p := fips204.MLDSA65
	hb := func(r uint32) uint32 { return uint32(fips204.HighBits(p, int32(r))) }
	ne := func(a, b uint32) []uint32 {
		if a != b {
			return []uint32{1}
		}
		return []uint32{0}
	}
	c.Lanes = &contract.Lanes{In: []string{"z", "r"}, Domain: []uint32{fips204.Q, fips204.Q}, Out: []string{"h"},
		Map:   func(in []uint32) []uint32 { return ne(hb(in[1]), hb((in[0]+in[1])%fips204.Q)) },
		Split: &contract.Split{Of: hb, OfSum: hb, Join: ne}, Count: "count"}
	return &c
}

// TestLinearForms checks the rules the count's reading uses.
func TestLinearForms(t *testing.T) {
	e := func(j int) linForm { return linForm{c: map[int]uint64{j: 1}} }
	w := linForm{c: map[int]uint64{0: 1, laneWords: 1 << 32}} // e_0 + 2³²·u
	if lo, ok := w.lowBits(32); !ok || len(lo.c) != 1 || lo.c[0] != 1 {
		t.Errorf("low half of e_0 + 2³²u = %v, %v", lo, ok)
	}
	if lo, ok := w.lowBits(16); !ok || len(lo.c) != 1 || lo.c[0] != 1 {
		t.Errorf("(e_0 + 2³²u) mod 2¹⁶ = %v, %v", lo, ok)
	}
	if hi, ok := w.shiftDown(32); !ok || len(hi.c) != 1 || hi.c[laneWords] != 1 {
		t.Errorf("(e_0 + 2³²u) >> 32 = %v, %v", hi, ok)
	}
	if _, ok := w.scale(2).shiftDown(32); ok {
		t.Errorf("(2e_0 + 2³³u) >> 32 read as a form, though 2³³u may wrap")
	}
	p := addForms(e(1), e(2).scale(1<<32))
	if hi, ok := p.shiftDown(32); !ok || len(hi.c) != 1 || hi.c[2] != 1 {
		t.Errorf("(e_1 + 2³²e_2) >> 32 = %v, %v", hi, ok)
	}
	if lo, ok := p.lowBits(32); !ok || len(lo.c) != 1 || lo.c[1] != 1 {
		t.Errorf("(e_1 + 2³²e_2) mod 2³² = %v, %v", lo, ok)
	}
	big := linForm{c: map[int]uint64{}, k: 1<<32 - 1}
	if _, ok := addForms(big, e(0)).lowBits(32); ok {
		t.Errorf("(2³² − 1 + e_0) mod 2³² read as a form, though it wraps at e_0 = 1")
	}
}
