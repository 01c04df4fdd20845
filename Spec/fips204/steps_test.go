package fips204

import (
	"fmt"
	"slices"
	"testing"
)

// The steps a checker runs (SampleInBallStep, HintBitPackStep) are tested
// here at every state they read against a plain rendering of their lines,
// not on sampled inputs: a change in one rare state (i = 255, j = 255, or
// one Index and position) is then seen even where no vector reaches it.
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
