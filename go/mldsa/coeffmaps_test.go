package mldsa

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestCoefficientMapVariantsExhaustive runs every registered variant of
// the polynomial coefficient maps and norm checks over all of ℤq, 256
// values per call, and compares it with the generic code, which
// TestCoefficientMapsExhaustive compares with Spec on all of ℤq. The norm
// checks answer one bit per polynomial: each block is checked at the
// bounds max and max + 1 of its own norms, so every block's largest
// coefficient decides a call.
func TestCoefficientMapVariantsExhaustive(t *testing.T) {
	step := uint32(1)
	if testing.Short() {
		step = 7
	}
	rng := rand.New(rand.NewPCG(41, 42))
	γ2s := []uint32{(q - 1) / 88, (q - 1) / 32}
	exhaustive(t, power2RoundPolyRoutine, step, rng, func(g, f func(t1, t0, t *ringElement), r *ringElement) error {
		var a1, a0, b1, b0 ringElement
		g(&a1, &a0, r)
		f(&b1, &b0, r)
		if a1 != b1 || a0 != b0 {
			return fmt.Errorf("differs")
		}
		return nil
	})
	exhaustive(t, highBitsPolyRoutine, step, rng, func(g, f func(w1, w *ringElement, γ2 uint32), r *ringElement) error {
		for _, γ2 := range γ2s {
			var a, b ringElement
			g(&a, r, γ2)
			f(&b, r, γ2)
			if a != b {
				return fmt.Errorf("γ2 = %d: differs", γ2)
			}
		}
		return nil
	})
	exhaustive(t, useHintPolyRoutine, step, rng, func(g, f func(w1, h, r *ringElement, γ2 uint32), r *ringElement) error {
		for _, γ2 := range γ2s {
			for _, hv := range []fieldElement{0, 1} {
				var h, a, b ringElement
				for i := range h {
					h[i] = hv
				}
				g(&a, &h, r, γ2)
				f(&b, &h, r, γ2)
				if a != b {
					return fmt.Errorf("γ2 = %d, h = %d: differs", γ2, hv)
				}
			}
		}
		return nil
	})
	exhaustive(t, makeHintPolyRoutine, step, rng, func(g, f func(h, z, r *ringElement, γ2 uint32) uint32, r *ringElement) error {
		for _, γ2 := range γ2s {
			// z: small values either side of 0 (where hints occur) and
			// uniform ones.
			var zs [2]ringElement
			for i := range zs[0] {
				zs[0][i] = modQ(int64(rng.IntN(2*int(γ2)+1)) - int64(γ2))
				zs[1][i] = fieldElement(rng.Uint32N(q))
			}
			for _, z := range zs {
				var a, b ringElement
				ca, cb := g(&a, &z, r, γ2), f(&b, &z, r, γ2)
				if a != b || ca != cb {
					return fmt.Errorf("γ2 = %d: differs (counts %d, %d)", γ2, ca, cb)
				}
			}
		}
		return nil
	})
	exhaustive(t, lowBitsExceedRoutine, step, rng, func(g, f func(*ringElement, uint32, uint32) uint32, r *ringElement) error {
		for _, γ2 := range γ2s {
			var m uint32
			for _, c := range r {
				r0 := lowBits(c, γ2)
				m = max(m, uint32(max(r0, -r0)))
			}
			for _, bound := range []uint32{m, m + 1} {
				if a, b := g(r, bound, γ2), f(r, bound, γ2); a != b {
					return fmt.Errorf("γ2 = %d, bound %d: %d, generic %d", γ2, bound, b, a)
				}
			}
		}
		return nil
	})
	exhaustive(t, normExceedsRoutine, step, rng, func(g, f func(*ringElement, uint32) uint32, r *ringElement) error {
		var m uint32
		for _, c := range r {
			m = max(m, infinityNorm(c))
		}
		for _, bound := range []uint32{m, m + 1} {
			if a, b := g(r, bound), f(r, bound); a != b {
				return fmt.Errorf("bound %d: %d, generic %d", bound, b, a)
			}
		}
		return nil
	})
}

// exhaustive runs every non-generic variant of r over all of ℤq, 256
// values per call (a random rotation of consecutive values), comparing it
// with the generic one through cmp.
func exhaustive[F any](t *testing.T, r *routineVariants[F], step uint32, rng *rand.Rand, cmp func(g, f F, w *ringElement) error) {
	t.Helper()
	generic := r.variants[0].fn
	for _, v := range r.variants[1:] {
		t.Run(r.name+v.name, func(t *testing.T) {
			if !v.usable {
				t.Skipf("%s%s needs a CPU feature this machine lacks", r.name, v.name)
			}
			for block := uint32(0); block*n256 < q; block += step {
				var w ringElement
				for i := range w {
					w[i] = fieldElement((block*n256 + uint32(i)) % q)
				}
				// A random rotation, so values meet every position.
				off := rng.IntN(n256)
				var rot ringElement
				for i := range rot {
					rot[i] = w[(i+off)%n256]
				}
				if err := cmp(generic, v.fn, &rot); err != nil {
					t.Fatalf("block %d: %v", block, err)
				}
			}
		})
	}
}
