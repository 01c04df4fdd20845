package mldsa

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// variantChecks runs one variant of a routine against the generic one on
// random inputs; it returns an error if they differ or fn has the wrong
// type.
var variantChecks = map[string]func(rng *rand.Rand, generic, fn any) error{
	"keccakF1600": func(rng *rand.Rand, generic, fn any) error {
		g, ok1 := generic.(func(*[25]uint64))
		f, ok2 := fn.(func(*[25]uint64))
		if !ok1 || !ok2 {
			return fmt.Errorf("wrong signature %T", fn)
		}
		var a [25]uint64
		for i := range a {
			a[i] = rng.Uint64()
		}
		b := a
		g(&a)
		f(&b)
		if a != b {
			return fmt.Errorf("differs")
		}
		return nil
	},
	"keccakF1600x4": func(rng *rand.Rand, generic, fn any) error {
		g, ok1 := generic.(func(*[100]uint64))
		f, ok2 := fn.(func(*[100]uint64))
		if !ok1 || !ok2 {
			return fmt.Errorf("wrong signature %T", fn)
		}
		var a [100]uint64
		for i := range a {
			a[i] = rng.Uint64()
		}
		b := a
		g(&a)
		f(&b)
		if a != b {
			return fmt.Errorf("differs")
		}
		return nil
	},
	"rejNTTPoly": func(rng *rand.Rand, generic, fn any) error {
		g, ok1 := generic.(func(*ringElement, *[34]byte) bool)
		f, ok2 := fn.(func(*ringElement, *[34]byte) bool)
		if !ok1 || !ok2 {
			return fmt.Errorf("wrong signature %T", fn)
		}
		var seed [34]byte
		copy(seed[:], randBytes(rng, 34))
		var a, b ringElement
		if g(&a, &seed) != f(&b, &seed) || a != b {
			return fmt.Errorf("differs on seed %x", seed)
		}
		return nil
	},
	"rejNTTPolyx4": func(rng *rand.Rand, generic, fn any) error {
		g, ok1 := generic.(func(*[4]*ringElement, *[4][34]byte) bool)
		f, ok2 := fn.(func(*[4]*ringElement, *[4][34]byte) bool)
		if !ok1 || !ok2 {
			return fmt.Errorf("wrong signature %T", fn)
		}
		var seeds [4][34]byte
		for j := range seeds {
			copy(seeds[j][:], randBytes(rng, 34))
		}
		var a, b [4]ringElement
		pa := [4]*ringElement{&a[0], &a[1], &a[2], &a[3]}
		pb := [4]*ringElement{&b[0], &b[1], &b[2], &b[3]}
		if g(&pa, &seeds) != f(&pb, &seeds) || a != b {
			return fmt.Errorf("differs")
		}
		return nil
	},
	"ntt":        polyMapCheck,
	"nttInverse": polyMapCheck,
	"multiplyNTT": func(rng *rand.Rand, generic, fn any) error {
		g, ok1 := generic.(func(out, a, b *ringElement))
		f, ok2 := fn.(func(out, a, b *ringElement))
		if !ok1 || !ok2 {
			return fmt.Errorf("wrong signature %T", fn)
		}
		a, b := randomPoly(rng), randomPoly(rng)
		var x, y ringElement
		g(&x, &a, &b)
		f(&y, &a, &b)
		if x != y {
			return fmt.Errorf("differs")
		}
		return nil
	},
	"multiplyAccNTT": func(rng *rand.Rand, generic, fn any) error {
		g, ok1 := generic.(func(out *ringElement, a, b []ringElement))
		f, ok2 := fn.(func(out *ringElement, a, b []ringElement))
		if !ok1 || !ok2 {
			return fmt.Errorf("wrong signature %T", fn)
		}
		n := 1 + rng.IntN(8)
		a, b := make([]ringElement, n), make([]ringElement, n)
		for j := range a {
			a[j], b[j] = randomPoly(rng), randomPoly(rng)
		}
		var x, y ringElement
		g(&x, a, b)
		f(&y, a, b)
		if x != y {
			return fmt.Errorf("differs")
		}
		return nil
	},
	"normExceeds": func(rng *rand.Rand, generic, fn any) error {
		g, ok1 := generic.(func(*ringElement, uint32) uint32)
		f, ok2 := fn.(func(*ringElement, uint32) uint32)
		if !ok1 || !ok2 {
			return fmt.Errorf("wrong signature %T", fn)
		}
		a := randomPoly(rng)
		bound := 1 + rng.Uint32N(q/2)
		if g(&a, bound) != f(&a, bound) {
			return fmt.Errorf("differs")
		}
		return nil
	},
	"power2RoundPoly": func(rng *rand.Rand, generic, fn any) error {
		g, ok1 := generic.(func(t1, t0, t *ringElement))
		f, ok2 := fn.(func(t1, t0, t *ringElement))
		if !ok1 || !ok2 {
			return fmt.Errorf("wrong signature %T", fn)
		}
		a := randomPoly(rng)
		var x1, x0, y1, y0 ringElement
		g(&x1, &x0, &a)
		f(&y1, &y0, &a)
		if x1 != y1 || x0 != y0 {
			return fmt.Errorf("differs")
		}
		return nil
	},
	"highBitsPoly": func(rng *rand.Rand, generic, fn any) error {
		g, ok1 := generic.(func(w1, w *ringElement, γ2 uint32))
		f, ok2 := fn.(func(w1, w *ringElement, γ2 uint32))
		if !ok1 || !ok2 {
			return fmt.Errorf("wrong signature %T", fn)
		}
		a := randomPoly(rng)
		γ2 := []uint32{(q - 1) / 88, (q - 1) / 32}[rng.IntN(2)]
		var x, y ringElement
		g(&x, &a, γ2)
		f(&y, &a, γ2)
		if x != y {
			return fmt.Errorf("differs")
		}
		return nil
	},
	"makeHintPoly": func(rng *rand.Rand, generic, fn any) error {
		g, ok1 := generic.(func(h, z, r *ringElement, γ2 uint32) uint32)
		f, ok2 := fn.(func(h, z, r *ringElement, γ2 uint32) uint32)
		if !ok1 || !ok2 {
			return fmt.Errorf("wrong signature %T", fn)
		}
		γ2 := []uint32{(q - 1) / 88, (q - 1) / 32}[rng.IntN(2)]
		z, r := randomPoly(rng), randomPoly(rng)
		for i := range z {
			z[i] = modQ(int64(rng.IntN(2*int(γ2)+1)) - int64(γ2))
		}
		var x, y ringElement
		if g(&x, &z, &r, γ2) != f(&y, &z, &r, γ2) || x != y {
			return fmt.Errorf("differs")
		}
		return nil
	},
	"useHintPoly": func(rng *rand.Rand, generic, fn any) error {
		g, ok1 := generic.(func(w1, h, r *ringElement, γ2 uint32))
		f, ok2 := fn.(func(w1, h, r *ringElement, γ2 uint32))
		if !ok1 || !ok2 {
			return fmt.Errorf("wrong signature %T", fn)
		}
		γ2 := []uint32{(q - 1) / 88, (q - 1) / 32}[rng.IntN(2)]
		r := randomPoly(rng)
		var h ringElement
		for i := range h {
			h[i] = fieldElement(rng.IntN(2))
		}
		var x, y ringElement
		g(&x, &h, &r, γ2)
		f(&y, &h, &r, γ2)
		if x != y {
			return fmt.Errorf("differs")
		}
		return nil
	},
	"rejBoundedPoly": func(rng *rand.Rand, generic, fn any) error {
		g, ok1 := generic.(func(*ringElement, *[64]byte, uint16, int) bool)
		f, ok2 := fn.(func(*ringElement, *[64]byte, uint16, int) bool)
		if !ok1 || !ok2 {
			return fmt.Errorf("wrong signature %T", fn)
		}
		var seed [64]byte
		copy(seed[:], randBytes(rng, 64))
		r, η := uint16(rng.Uint32()), []int{2, 4}[rng.IntN(2)]
		var x, y ringElement
		if g(&x, &seed, r, η) != f(&y, &seed, r, η) || x != y {
			return fmt.Errorf("differs")
		}
		return nil
	},
	"rejBoundedPolyx4": func(rng *rand.Rand, generic, fn any) error {
		g, ok1 := generic.(func(*[4]*ringElement, *[64]byte, *[4]uint16, int) bool)
		f, ok2 := fn.(func(*[4]*ringElement, *[64]byte, *[4]uint16, int) bool)
		if !ok1 || !ok2 {
			return fmt.Errorf("wrong signature %T", fn)
		}
		var seed [64]byte
		copy(seed[:], randBytes(rng, 64))
		var r [4]uint16
		for j := range r {
			r[j] = uint16(rng.Uint32())
		}
		η := []int{2, 4}[rng.IntN(2)]
		var a, b [4]ringElement
		pa := [4]*ringElement{&a[0], &a[1], &a[2], &a[3]}
		pb := [4]*ringElement{&b[0], &b[1], &b[2], &b[3]}
		if g(&pa, &seed, &r, η) != f(&pb, &seed, &r, η) || a != b {
			return fmt.Errorf("differs")
		}
		return nil
	},
	"expandMask": func(rng *rand.Rand, generic, fn any) error {
		g, ok1 := generic.(func([]ringElement, *[64]byte, int, int))
		f, ok2 := fn.(func([]ringElement, *[64]byte, int, int))
		if !ok1 || !ok2 {
			return fmt.Errorf("wrong signature %T", fn)
		}
		var seed [64]byte
		copy(seed[:], randBytes(rng, 64))
		κ, bits := rng.IntN(1<<15), []int{17, 19}[rng.IntN(2)]
		x, y := make([]ringElement, 7), make([]ringElement, 7)
		g(x, &seed, κ, bits)
		f(y, &seed, κ, bits)
		for j := range x {
			if x[j] != y[j] {
				return fmt.Errorf("differs")
			}
		}
		return nil
	},
	"sampleInBall": func(rng *rand.Rand, generic, fn any) error {
		g, ok1 := generic.(func(*ringElement, []byte, int) bool)
		f, ok2 := fn.(func(*ringElement, []byte, int) bool)
		if !ok1 || !ok2 {
			return fmt.Errorf("wrong signature %T", fn)
		}
		ρ, τ := randBytes(rng, 64), []int{39, 49, 60}[rng.IntN(3)]
		var x, y ringElement
		if g(&x, ρ, τ) != f(&y, ρ, τ) || x != y {
			return fmt.Errorf("differs")
		}
		return nil
	},
	"simpleBitPack": func(rng *rand.Rand, generic, fn any) error {
		g, ok1 := generic.(func([]byte, *ringElement, int))
		f, ok2 := fn.(func([]byte, *ringElement, int))
		if !ok1 || !ok2 {
			return fmt.Errorf("wrong signature %T", fn)
		}
		width := 1 + rng.IntN(20)
		var a ringElement
		for i := range a {
			a[i] = fieldElement(rng.Uint32N(1 << width))
		}
		x, y := make([]byte, 32*width), make([]byte, 32*width)
		g(x, &a, width)
		f(y, &a, width)
		if string(x) != string(y) {
			return fmt.Errorf("differs")
		}
		return nil
	},
	"simpleBitUnpack": func(rng *rand.Rand, generic, fn any) error {
		g, ok1 := generic.(func(*ringElement, []byte, int))
		f, ok2 := fn.(func(*ringElement, []byte, int))
		if !ok1 || !ok2 {
			return fmt.Errorf("wrong signature %T", fn)
		}
		width := 1 + rng.IntN(20)
		in := randBytes(rng, 32*width)
		var x, y ringElement
		g(&x, in, width)
		f(&y, in, width)
		if x != y {
			return fmt.Errorf("differs")
		}
		return nil
	},
	"lowBitsExceed": func(rng *rand.Rand, generic, fn any) error {
		g, ok1 := generic.(func(*ringElement, uint32, uint32) uint32)
		f, ok2 := fn.(func(*ringElement, uint32, uint32) uint32)
		if !ok1 || !ok2 {
			return fmt.Errorf("wrong signature %T", fn)
		}
		a := randomPoly(rng)
		γ2 := []uint32{(q - 1) / 88, (q - 1) / 32}[rng.IntN(2)]
		bound := 1 + rng.Uint32N(γ2)
		if g(&a, bound, γ2) != f(&a, bound, γ2) {
			return fmt.Errorf("differs")
		}
		return nil
	},
}

func polyMapCheck(rng *rand.Rand, generic, fn any) error {
	g, ok1 := generic.(func(*ringElement))
	f, ok2 := fn.(func(*ringElement))
	if !ok1 || !ok2 {
		return fmt.Errorf("wrong signature %T", fn)
	}
	a := randomPoly(rng)
	b := a
	g(&a)
	f(&b)
	if a != b {
		return fmt.Errorf("differs")
	}
	return nil
}

// TestVariantsAgainstGeneric runs every usable variant in the registry
// against the routine's generic implementation.
func TestVariantsAgainstGeneric(t *testing.T) {
	generic := map[string]any{}
	for _, v := range variants {
		if v.name == "Generic" {
			generic[v.routine] = v.fn
		}
	}
	for routine := range variantChecks {
		if generic[routine] == nil {
			t.Errorf("routine %s has no generic entry", routine)
		}
	}
	rng := rand.New(rand.NewPCG(27, 28))
	for _, v := range variants {
		t.Run(v.routine+v.name, func(t *testing.T) {
			check, ok := variantChecks[v.routine]
			if !ok {
				t.Fatalf("no check for routine %s", v.routine)
			}
			if !v.usable {
				t.Skipf("%s%s needs a CPU feature this machine lacks", v.routine, v.name)
			}
			for i := 0; i < 50; i++ {
				if err := check(rng, generic[v.routine], v.fn); err != nil {
					t.Fatalf("%s%s: %v", v.routine, v.name, err)
				}
			}
		})
	}
}
