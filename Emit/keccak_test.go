package main

import (
	"math/rand/v2"
	"testing"
)

// TestKeccakChiOutput checks, for every polarity of the registers of B[X+1]
// and B[X+2] and either operand taken first, that the instructions
// keccakChiOutput asks for compute ¬b ∧ c, or its complement if inv.
func TestKeccakChiOutput(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for k := 0; k < 100; k++ {
		b, c := rng.Uint64(), rng.Uint64()
		want := ^b & c
		for _, pb := range []bool{false, true} {
			for _, pc := range []bool{false, true} {
				for _, firstC := range []bool{false, true} {
					rb, rc := b, c // the registers
					if pb {
						rb = ^rb
					}
					if pc {
						rc = ^rc
					}
					not, and, inv := keccakChiOutput(pb, pc, firstC)
					first, second := rb, rc
					if firstC {
						first, second = rc, rb
					}
					if not {
						first = ^first
					}
					got := first | second
					if and {
						got = first & second
					}
					if inv {
						got = ^got
					}
					if got != want {
						t.Fatalf("pb=%v pc=%v firstC=%v: got %#x, want %#x", pb, pc, firstC, got, want)
					}
				}
			}
		}
	}
}

// TestKeccakPolarities checks that the lanes' polarities end plain after
// round 23 at no more cost than keeping them plain in every round.
func TestKeccakPolarities(t *testing.T) {
	_, cost := keccakSearchPolarities(64)
	plain := 0
	for range 24 {
		for _, pb := range keccakPlanePolarities(0) {
			plain += keccakPlaneCosts[pb][0].cost
		}
	}
	if cost > plain {
		t.Errorf("complementing costs %d instructions, plain lanes %d", cost, plain)
	}
	t.Logf("χ overhead over 24 rounds: %d instructions (plain lanes: %d)", cost, plain)
}
