package fips204

import (
	"fmt"
	"slices"
	"testing"
)

// The steps a checker runs (SampleInBallStep, HintBitPackStep and
// HintBitUnpack's HintBitUnpackCount, HintBitUnpackPosition and
// HintBitUnpackPadding) are tested here at every state they read against
// a plain rendering of their lines, not on sampled inputs: a change in one
// rare state (i = 255, j = 255, or one Index and position) is then seen
// even where no vector reaches it.
// The steps are generic in the values they move, so one run on values that
// name their origin covers every value c, h and y can hold.

// ballStepFn is SampleInBallStep on tagged values.
type ballStepFn func(τ int, c *[256]int, h []int, i, j int, sign func(int) int) int

// checkBallStep runs step at every τ of the parameter sets, every
// iteration i of line 6 and every byte j, on c and h whose values name
// their positions, against lines 8, 11 and 12 read plainly.
func checkBallStep(step ballStepFn) error {
	for _, p := range []Params{MLDSA44, MLDSA65, MLDSA87} {
		for i := 256 - p.Tau; i <= 255; i++ {
			for j := 0; j < 256; j++ {
				var c, want [256]int
				for k := range c {
					c[k] = k
				}
				h := make([]int, 64)
				for k := range h {
					h[k] = 1000 + k
				}
				want = c
				wantNext := i
				if j <= i { // line 8 accepts j
					want[i] = j                         // line 11
					want[j] = -(1000 + i + p.Tau - 256) // line 12, h[i+τ−256]'s sign
					wantNext = i + 1
				}
				next := step(p.Tau, &c, h, i, j, func(b int) int { return -b })
				if next != wantNext || c != want {
					return fmt.Errorf("τ = %d, i = %d, j = %d: next %d, want %d; c %v, want %v", p.Tau, i, j, next, wantNext, c, want)
				}
			}
		}
	}
	return nil
}

func TestSampleInBallStepEveryState(t *testing.T) {
	if err := checkBallStep(SampleInBallStep[int, int]); err != nil {
		t.Fatal(err)
	}
	// A change in one state only fails.
	for _, at := range [][2]int{{255, 255}, {255, 0}, {217, 217}, {196, 3}} {
		planted := func(τ int, c *[256]int, h []int, i, j int, sign func(int) int) int {
			if i == at[0] && j == at[1] {
				c[j] = c[i] // c_j left as c_i was, its sign not written
				return i + 1
			}
			return SampleInBallStep(τ, c, h, i, j, sign)
		}
		if checkBallStep(planted) == nil {
			t.Errorf("a step changed at i = %d, j = %d passes", at[0], at[1])
		}
	}
}

// packStepFn is HintBitPackStep on tagged bytes.
type packStepFn func(ω int, y []int, i, j, index int, hij int32, b func(int) int) int

// checkPackStep runs step at every ω and k of the parameter sets, every
// coefficient (i, j), every Index from 0 to ω and both values of h[i]_j
// (1 only below ω, the precondition), on y whose bytes name their
// positions, against lines 5 to 7 and 10 read plainly.
func checkPackStep(step packStepFn) error {
	for _, p := range []Params{MLDSA44, MLDSA65, MLDSA87} {
		for i := 0; i < p.K; i++ {
			for j := 0; j < 256; j++ {
				for index := 0; index <= p.Omega; index++ {
					for hij := int32(0); hij <= 1 && (hij == 0 || index < p.Omega); hij++ {
						y := make([]int, p.Omega+p.K)
						for t := range y {
							y[t] = -1 - t
						}
						want := append([]int(nil), y...)
						wantIndex := index
						if hij != 0 { // line 5
							want[index] = 1000 + j // line 6
							wantIndex++            // line 7
						}
						if j == 255 {
							want[p.Omega+i] = 1000 + wantIndex // line 10
						}
						got := step(p.Omega, y, i, j, index, hij, func(n int) int { return 1000 + n })
						if got != wantIndex || !slices.Equal(y, want) {
							return fmt.Errorf("%s: i = %d, j = %d, Index = %d, h[i]_j = %d: Index %d, want %d; y %v, want %v", p.Name, i, j, index, hij, got, wantIndex, y, want)
						}
					}
				}
			}
		}
	}
	return nil
}

func TestHintBitPackStepEveryState(t *testing.T) {
	if err := checkPackStep(HintBitPackStep[int]); err != nil {
		t.Fatal(err)
	}
	// A change at one (Index, position) only fails.
	for _, at := range [][2]int{{40, 137}, {0, 255}, {74, 3}} {
		planted := func(ω int, y []int, i, j, index int, hij int32, b func(int) int) int {
			next := HintBitPackStep(ω, y, i, j, index, hij, b)
			if index == at[0] && j == at[1] && hij != 0 {
				y[index] = b(0) // the position stored as 0
			}
			return next
		}
		if checkPackStep(planted) == nil {
			t.Errorf("a step changed at Index %d, position %d passes", at[0], at[1])
		}
	}
}

// checkUnpackCount runs count at every ω of the parameter sets, every
// Index from 0 to ω and every count byte y[ω + i], against line 4 of
// Algorithm 21 read plainly.
func checkUnpackCount(count func(ω, index, count int) bool) error {
	for _, p := range []Params{MLDSA44, MLDSA65, MLDSA87} {
		for index := 0; index <= p.Omega; index++ {
			for c := 0; c < 256; c++ {
				want := c < index || c > p.Omega // line 4
				if got := count(p.Omega, index, c); got != want {
					return fmt.Errorf("%s: Index = %d, y[ω + i] = %d: ⊥ %v, want %v", p.Name, index, c, got, want)
				}
			}
		}
	}
	return nil
}

func TestHintBitUnpackCountEveryState(t *testing.T) {
	if err := checkUnpackCount(HintBitUnpackCount); err != nil {
		t.Fatal(err)
	}
	// A change at one (Index, count) only fails.
	for _, at := range [][2]int{{80, 80}, {0, 0}, {55, 56}, {40, 39}} {
		planted := func(ω, index, count int) bool {
			if index == at[0] && count == at[1] {
				return !HintBitUnpackCount(ω, index, count)
			}
			return HintBitUnpackCount(ω, index, count)
		}
		if checkUnpackCount(planted) == nil {
			t.Errorf("a count step changed at Index %d, count %d passes", at[0], at[1])
		}
	}
}

// positionFn is HintBitUnpackPosition on tagged bytes and conditions.
type positionFn func(y []int, index, first int, ge func(int, int) string, bot func(string) bool, set func(int)) bool

// checkUnpackPosition runs step at every ω of the parameter sets, every
// Index below ω (line 7: Index < y[ω + i] ≤ ω) and every First up to
// Index, with bot answering ⊥ and not, on y whose bytes name their
// positions and conditions that name what they compare, against lines 8,
// 9 and 12 of Algorithm 21 read plainly: the conditions asked, the
// positions set and the result.
func checkUnpackPosition(step positionFn) error {
	for _, p := range []Params{MLDSA44, MLDSA65, MLDSA87} {
		y := make([]int, p.Omega+p.K)
		for t := range y {
			y[t] = 1000 + t
		}
		for index := 0; index < p.Omega; index++ {
			for first := 0; first <= index; first++ {
				for _, r := range []bool{false, true} {
					var asked []string
					var set []int
					got := step(y, index, first, func(a, b int) string { return fmt.Sprintf("%d ≥ %d", a, b) },
						func(c string) bool { asked = append(asked, c); return r },
						func(b int) { set = append(set, b) })
					var wantAsked []string
					wantSet := []int{1000 + index} // line 12
					want := false
					if index > first { // line 8
						wantAsked = []string{fmt.Sprintf("%d ≥ %d", 1000+index-1, 1000+index)} // line 9
						if r {
							want, wantSet = true, nil
						}
					}
					if got != want || !slices.Equal(asked, wantAsked) || !slices.Equal(set, wantSet) {
						return fmt.Errorf("%s: Index = %d, First = %d, bot %v: ⊥ %v, want %v; asked %q, want %q; set %v, want %v",
							p.Name, index, first, r, got, want, asked, wantAsked, set, wantSet)
					}
				}
			}
		}
	}
	return nil
}

func TestHintBitUnpackPositionEveryState(t *testing.T) {
	if err := checkUnpackPosition(HintBitUnpackPosition[int, string]); err != nil {
		t.Fatal(err)
	}
	// A change at one (Index, First) only fails.
	for _, at := range [][2]int{{40, 39}, {0, 0}, {79, 12}, {74, 74}} {
		planted := func(y []int, index, first int, ge func(int, int) string, bot func(string) bool, set func(int)) bool {
			if index == at[0] && first == at[1] {
				if index > first {
					set(y[index]) // line 9's check left out
				} else {
					set(y[index] + 1) // another position set
				}
				return false
			}
			return HintBitUnpackPosition(y, index, first, ge, bot, set)
		}
		if checkUnpackPosition(planted) == nil {
			t.Errorf("a position step changed at Index %d, First %d passes", at[0], at[1])
		}
	}
}

// paddingFn is HintBitUnpackPadding on tagged bytes and conditions.
type paddingFn func(y []int, i int, nonzero func(int) string, bot func(string) bool) bool

// checkUnpackPadding runs step at every ω of the parameter sets and every
// i below ω, with bot answering ⊥ and not, on y whose bytes name their
// positions, against line 17 of Algorithm 21 read plainly.
func checkUnpackPadding(step paddingFn) error {
	for _, p := range []Params{MLDSA44, MLDSA65, MLDSA87} {
		y := make([]int, p.Omega+p.K)
		for t := range y {
			y[t] = 1000 + t
		}
		for i := 0; i < p.Omega; i++ {
			for _, r := range []bool{false, true} {
				var asked []string
				got := step(y, i, func(a int) string { return fmt.Sprintf("%d ≠ 0", a) },
					func(c string) bool { asked = append(asked, c); return r })
				wantAsked := []string{fmt.Sprintf("%d ≠ 0", 1000+i)} // line 17
				if got != r || !slices.Equal(asked, wantAsked) {
					return fmt.Errorf("%s: i = %d, bot %v: ⊥ %v, want %v; asked %q, want %q", p.Name, i, r, got, r, asked, wantAsked)
				}
			}
		}
	}
	return nil
}

func TestHintBitUnpackPaddingEveryState(t *testing.T) {
	if err := checkUnpackPadding(HintBitUnpackPadding[int, string]); err != nil {
		t.Fatal(err)
	}
	// A change at one i only fails.
	for _, at := range []int{79, 0, 54} {
		planted := func(y []int, i int, nonzero func(int) string, bot func(string) bool) bool {
			if i == at {
				return false // line 17 left out
			}
			return HintBitUnpackPadding(y, i, nonzero, bot)
		}
		if checkUnpackPadding(planted) == nil {
			t.Errorf("a padding step changed at i = %d passes", at)
		}
	}
}
