package proofs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/Spec/check"
	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

var keccakRoutines = [][2]string{{"keccak_amd64.s", "KeccakF1600AMD64"}, {"keccak_amd64.s", "KeccakF1600BMI2"}, {"keccakx4_amd64.s", "KeccakF1600x4AVX2"}, {"keccakx4_amd64.s", "KeccakF1600x4AVX512"}}

func TestKeccakCutsProve(t *testing.T) {
	if testing.Short() {
		t.Skip("symbolic proof of the generated Keccak takes seconds")
	}
	for _, tc := range keccakRoutines {
		f, r, c := load(t, tc[0], tc[1])
		d, err := check.ProveKeccak(f, r, c, Hints{}, 1<<22)
		if err != nil {
			t.Errorf("%s: %v", tc[1], err)
			continue
		}
		t.Logf("%s: %s", tc[1], d)
	}
}

// A one-bit slip in a rotation must make the proof fail (through the
// normal form, which takes the ×4 routine's shifts too): either the search
// finds no cuts or the checker rejects them.
func TestKeccakProofCatchesSlip(t *testing.T) {
	if testing.Short() {
		t.Skip("symbolic proof of the generated Keccak takes seconds")
	}
	for _, tc := range [][4]string{
		{"keccak_amd64.s", "KeccakF1600AMD64", "ROLQ $0x01, R8", "ROLQ $0x02, R8"},
		{"keccakx4_amd64.s", "KeccakF1600x4AVX2", "VPSRLQ  $0x3f, Y2, Y6", "VPSRLQ  $0x3e, Y2, Y6"},
		{"keccakx4_amd64.s", "KeccakF1600x4AVX512", "VPTERNLOGQ $0xd2, Y14, Y13, Y12", "VPTERNLOGQ $0xd6, Y14, Y13, Y12"},
	} {
		src, err := os.ReadFile(filepath.Join("..", "go", "asm", tc[0]))
		if err != nil {
			t.Fatal(err)
		}
		s := string(src)
		i := strings.LastIndex(s, tc[2]) // in the last rounds
		if i < 0 {
			t.Fatalf("%s: %q not found", tc[0], tc[2])
		}
		s = s[:i] + tc[3] + s[i+len(tc[2]):]
		f, err := x86.ParseFile(tc[0], s)
		if err != nil {
			t.Fatal(err)
		}
		if d, err := check.ProveKeccak(f, f.Routine(tc[1]), contract.Lookup(tc[1]), Hints{}, 1<<22); err == nil {
			t.Errorf("%s with a slip proven: %s", tc[1], d)
		} else {
			t.Logf("%s: %v", tc[1], err)
		}
		// The search finds no cuts in the slipped code; the checker must
		// also reject the unslipped code's cuts there.
		f0, r0, c0 := load(t, tc[0], tc[1])
		cuts, err := Hints{}.KeccakCuts(f0, r0, c0, 1<<22)
		if err != nil {
			t.Fatal(err)
		}
		if d, err := check.ProveKeccak(f, f.Routine(tc[1]), contract.Lookup(tc[1]), givenCuts(cuts), 1<<22); err == nil {
			t.Errorf("%s with a slip proven from the unslipped cuts: %s", tc[1], d)
		} else {
			t.Logf("%s, unslipped cuts: %v", tc[1], err)
		}
	}
}

// givenCuts proposes the same cuts for every routine.
type givenCuts []check.Cut

func (givenCuts) Invariants(string) []check.Invariant { return nil }

func (h givenCuts) KeccakCuts(*x86.File, *x86.Routine, *contract.Contract, int) ([]check.Cut, error) {
	return h, nil
}

// wrongCuts proposes the search's cuts after mut has changed them.
type wrongCuts struct {
	Hints
	mut func([]check.Cut)
}

func (h wrongCuts) KeccakCuts(f *x86.File, r *x86.Routine, c *contract.Contract, maxSteps int) ([]check.Cut, error) {
	cuts, err := h.Hints.KeccakCuts(f, r, c, maxSteps)
	if err == nil {
		h.mut(cuts)
	}
	return cuts, err
}

// The checker verifies what the search proposes: a cut that misplaces one
// lane, complements one, or claims a wrong constant makes the proof fail.
func TestWrongKeccakCutsFail(t *testing.T) {
	f, r, c := load(t, "keccak_amd64.s", "KeccakF1600AMD64")
	for _, tc := range []struct {
		name string
		mut  func([]check.Cut)
	}{
		{"lane misplaced", func(cs []check.Cut) { cs[11].Lanes[0].Lane = (cs[11].Lanes[0].Lane + 1) % 25 }},
		{"lane complemented", func(cs []check.Cut) { cs[11].Lanes[3].Comp = !cs[11].Lanes[3].Comp }},
		{"last lane misplaced", func(cs []check.Cut) { cs[23].Lanes[0].Lane = (cs[23].Lanes[0].Lane + 1) % 25 }},
		{"lane claimed as an XOR of two", func(cs []check.Cut) { cs[11].Lanes[0].Xor = []int{(cs[11].Lanes[0].Lane + 5) % 25} }},
		{"constant wrong", func(cs []check.Cut) {
			if len(cs[11].Consts) == 0 {
				t.Fatal("no constants at cut 12")
			}
			cs[11].Consts[0].V ^= 8
		}},
	} {
		d, err := check.ProveKeccak(f, r, c, wrongCuts{mut: tc.mut}, 1<<22)
		if err == nil {
			t.Errorf("%s: proven: %s", tc.name, d)
			continue
		}
		t.Logf("%s: %v", tc.name, err)
	}
}

// KeccakF1600x4AVX2 accumulates the next round's column parities as it
// stores χ's outputs, so its cuts claim XORs of lanes; a parity claimed
// with one lane of the wrong row, or complemented, makes the proof fail.
func TestWrongKeccakParityFails(t *testing.T) {
	if testing.Short() {
		t.Skip("symbolic proof of the generated Keccak takes seconds")
	}
	f, r, c := load(t, "keccakx4_amd64.s", "KeccakF1600x4AVX2")
	parity := func(cs []check.Cut) *check.LaneAt {
		for k := range cs[1].Lanes {
			if len(cs[1].Lanes[k].Xor) > 0 {
				return &cs[1].Lanes[k]
			}
		}
		t.Fatal("no XOR of lanes claimed at cut 2")
		return nil
	}
	for _, tc := range []struct {
		name string
		mut  func([]check.Cut)
	}{
		{"parity with a lane of the wrong row", func(cs []check.Cut) {
			p := parity(cs)
			p.Xor = append([]int(nil), p.Xor...)
			p.Xor[0] = (p.Xor[0] + 1) % 25
		}},
		{"parity complemented", func(cs []check.Cut) { p := parity(cs); p.Comp = !p.Comp }},
	} {
		d, err := check.ProveKeccak(f, r, c, wrongCuts{mut: tc.mut}, 1<<22)
		if err == nil {
			t.Errorf("%s: proven: %s", tc.name, d)
			continue
		}
		t.Logf("%s: %v", tc.name, err)
	}
}

// KeccakF1600x4AVX2 runs rounds 1 to 22 as a loop, so cuts of different
// rounds share an instruction and differ in the pass counter and the
// round-constant pointer. A cut at another instruction, at another step,
// or claiming another pass's counter makes the proof fail.
func TestWrongKeccakLoopCutsFail(t *testing.T) {
	if testing.Short() {
		t.Skip("symbolic proof of the generated Keccak takes seconds")
	}
	f, r, c := load(t, "keccakx4_amd64.s", "KeccakF1600x4AVX2")
	constAt := func(cs []check.Cut, i int, loc string) *check.ConstAt {
		for k := range cs[i].Consts {
			if cs[i].Consts[k].Loc == loc {
				return &cs[i].Consts[k]
			}
		}
		t.Fatalf("cut %d claims no constant in %s", i+1, loc)
		return nil
	}
	for _, tc := range []struct {
		name string
		mut  func([]check.Cut)
	}{
		{"cut at the next instruction", func(cs []check.Cut) { cs[5].PC++ }},
		{"cut one step later, same instruction", func(cs []check.Cut) { cs[5].Step++ }},
		{"the counter and pointer of a later pass claimed", func(cs []check.Cut) {
			if cs[4].PC != cs[6].PC {
				t.Fatalf("rounds 5 and 7 end at instructions %d and %d, not one of the loop", cs[4].PC, cs[6].PC)
			}
			cs[4].Consts = cs[6].Consts
		}},
		{"pass counter off by one", func(cs []check.Cut) { constAt(cs, 5, "DX").V++ }},
		{"round constants of the next pass", func(cs []check.Cut) { constAt(cs, 5, "CX").V += 64 }},
	} {
		d, err := check.ProveKeccak(f, r, c, wrongCuts{mut: tc.mut}, 1<<22)
		if err == nil {
			t.Errorf("%s: proven: %s", tc.name, d)
			continue
		}
		t.Logf("%s: %v", tc.name, err)
	}
}

// A pass count taken from the state (ten or eleven passes as one input bit
// says) makes the loop's branch depend on the input: the functional proof
// itself refuses it, not only the constant-time one.
func TestKeccakLoopCountFromStateFails(t *testing.T) {
	if testing.Short() {
		t.Skip("symbolic proof of the generated Keccak takes seconds")
	}
	_, _, c := load(t, "keccakx4_amd64.s", "KeccakF1600x4AVX2")
	f, r := mutatedOnce(t, "keccakx4_amd64.s", "KeccakF1600x4AVX2", "MOVL    $0x0000000b, DX",
		"MOVL    (AX), DX\n\tANDL    $0x01, DX\n\tADDL    $0x0a, DX")
	d, err := check.ProveKeccak(f, r, c, Hints{}, 1<<22)
	if err == nil {
		t.Fatalf("proven: %s", d)
	}
	if !strings.Contains(err.Error(), "branch condition not concrete") {
		t.Errorf("refused for another reason: %v", err)
	}
	t.Log(err)
}
