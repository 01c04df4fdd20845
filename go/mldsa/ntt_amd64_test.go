//go:build amd64 && !purego

package mldsa

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/vg-crypto/vg/Spec/fips204"
	"github.com/vg-crypto/vg/go/asm"
)

// Differential tests of the NTT routines (AMD64 and AVX2) against the generic code
// and against Spec/fips204.NTT and NTTInverse, on inputs spread over the
// whole of their precondition [0, q): uniform coefficients, the extremes 0
// and q − 1, values near them, and polynomials that are constant or
// alternate between extremes (the largest intermediate sums).

// nttInput returns input number i: the first ones are fixed extremes, the
// rest random with a mix of coefficient distributions.
func nttInput(rng *rand.Rand, i int) (w ringElement) {
	fixed := []func(j int) uint32{
		func(int) uint32 { return 0 },
		func(int) uint32 { return q - 1 },
		func(int) uint32 { return 1 },
		func(int) uint32 { return (q - 1) / 2 },
		func(j int) uint32 { return uint32(j%2) * (q - 1) },
		func(j int) uint32 { return uint32(1-j%2) * (q - 1) },
		func(j int) uint32 { return uint32(j/128) * (q - 1) },
		func(j int) uint32 { return uint32(j) },
		func(j int) uint32 { return q - 1 - uint32(j) },
		func(j int) uint32 { return b2u(j == 0) },
		func(j int) uint32 { return b2u(j == 255) * (q - 1) },
	}
	if i < len(fixed) {
		for j := range w {
			w[j] = fieldElement(fixed[i](j))
		}
		return w
	}
	for j := range w {
		var x uint32
		switch i % 4 {
		case 0: // uniform
			x = rng.Uint32N(q)
		case 1: // near the top
			x = q - 1 - rng.Uint32N(16)
		case 2: // near 0 and near the top
			x = rng.Uint32N(16)
			if rng.IntN(2) == 1 {
				x = q - 1 - x
			}
		default: // each coefficient from any of the above
			switch rng.IntN(3) {
			case 0:
				x = rng.Uint32N(q)
			case 1:
				x = rng.Uint32N(4)
			default:
				x = q - 1 - rng.Uint32N(4)
			}
		}
		w[j] = fieldElement(x)
	}
	return w
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

func toSpecPoly(w *ringElement) (p fips204.Poly) {
	for j, x := range w {
		p[j] = int32(x)
	}
	return p
}

// checkNTTVariant runs f, the generic routine and the Spec function on
// asmIterations() inputs.
func checkNTTVariant(t *testing.T, seed uint64, f, generic func(*ringElement), spec func(fips204.Poly) fips204.Poly) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 2))
	for i := 0; i < asmIterations(); i++ {
		in := nttInput(rng, i)
		got, want := in, in
		f(&got)
		generic(&want)
		if got != want {
			t.Fatalf("input %d: %s", i, firstDiff(&in, &got, &want, "generic"))
		}
		s := spec(toSpecPoly(&in))
		for j := range s {
			if uint32(s[j]) != uint32(got[j]) {
				t.Fatalf("input %d: coefficient %d = %d, Spec gives %d", i, j, got[j], s[j])
			}
		}
	}
}

func firstDiff(in, got, want *ringElement, name string) string {
	for j := range got {
		if got[j] != want[j] {
			return fmt.Sprintf("coefficient %d = %d, %s gives %d (input coefficient %d = %d)", j, got[j], name, want[j], j, in[j])
		}
	}
	return "no difference"
}

func TestNTTAVX2(t *testing.T) {
	needAVX2(t)
	checkNTTVariant(t, 41, nttAVX2, nttGeneric, fips204.NTT)
}

func TestNTTInverseAVX2(t *testing.T) {
	needAVX2(t)
	checkNTTVariant(t, 42, nttInverseAVX2, nttInverseGeneric, fips204.NTTInverse)
}

func TestNTTInverseMontAVX2(t *testing.T) {
	needAVX2(t)
	checkNTTVariant(t, 44, nttInverseMontAVX2, nttInverseMontGeneric, func(w fips204.Poly) fips204.Poly {
		var r fips204.Poly
		for i := range r {
			r[i] = 1 << 32 % q
		}
		return fips204.MultiplyNTT(fips204.NTTInverse(w), r)
	})
}

// TestNTTAVX2RoundTrip checks NTT⁻¹(NTT(w)) = w through the assembly.
func TestNTTAVX2RoundTrip(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(43, 2))
	for i := 0; i < asmIterations(); i++ {
		in := nttInput(rng, i)
		w := in
		nttAVX2(&w)
		nttInverseAVX2(&w)
		if w != in {
			t.Fatalf("input %d: %s", i, firstDiff(&in, &w, &in, "the input"))
		}
	}
}

func TestNTTAMD64(t *testing.T) {
	checkNTTVariant(t, 41, nttAMD64, nttGeneric, fips204.NTT)
}

func TestNTTInverseAMD64(t *testing.T) {
	checkNTTVariant(t, 42, nttInverseAMD64, nttInverseGeneric, fips204.NTTInverse)
}

// TestNTTAMD64RoundTrip checks NTT⁻¹(NTT(w)) = w through the baseline
// assembly.
func TestNTTAMD64RoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 3))
	for i := 0; i < asmIterations(); i++ {
		in := nttInput(rng, i)
		w := in
		nttAMD64(&w)
		nttInverseAMD64(&w)
		if w != in {
			t.Fatalf("input %d: %s", i, firstDiff(&in, &w, &in, "the input"))
		}
	}
}

// TestNTTAVX2InPlace checks that the routines touch exactly their 1 KiB:
// neighbouring words stay as they were.
func TestNTTAVX2InPlace(t *testing.T) {
	needAVX2(t)
	checkInPlace(t, asm.NTTAVX2, asm.NTTInverseAVX2)
}

func TestNTTAMD64InPlace(t *testing.T) {
	checkInPlace(t, asm.NTTAMD64, asm.NTTInverseAMD64)
}

func checkInPlace(t *testing.T, fs ...func(*[256]uint32)) {
	rng := rand.New(rand.NewPCG(44, 2))
	for _, f := range fs {
		var buf [256 + 16]uint32
		for j := range buf {
			buf[j] = rng.Uint32()
		}
		for j := 8; j < 8+256; j++ {
			buf[j] %= q
		}
		before := buf
		f((*[256]uint32)(buf[8 : 8+256]))
		if [8]uint32(buf[:8]) != [8]uint32(before[:8]) || [8]uint32(buf[264:]) != [8]uint32(before[264:]) {
			t.Fatal("words outside the polynomial changed")
		}
	}
}

// rInvModQ = 2⁻³² mod q: the products take one factor in Montgomery form.
const rInvModQ = 8265825

func TestRInvModQ(t *testing.T) {
	if uint64(rInvModQ)<<32%q != 1 {
		t.Fatalf("%d · 2³² mod q ≠ 1", rInvModQ)
	}
}

// specUnMont returns p · 2⁻³² through Spec's MultiplyNTT.
func specUnMont(p fips204.Poly) fips204.Poly {
	var r fips204.Poly
	for j := range r {
		r[j] = rInvModQ
	}
	return fips204.MultiplyNTT(p, r)
}

func checkAgainstSpec(t *testing.T, i int, got *ringElement, want fips204.Poly) {
	t.Helper()
	for j := range want {
		if uint32(want[j]) != uint32(got[j]) {
			t.Fatalf("input %d: coefficient %d = %d, Spec gives %d", i, j, got[j], want[j])
		}
	}
}

func TestMultiplyNTTAVX2(t *testing.T) {
	needAVX2(t)
	checkMultiplyNTT(t, multiplyNTTAVX2)
}

func TestMultiplyNTTAMD64(t *testing.T) { checkMultiplyNTT(t, multiplyNTTAMD64) }

func checkMultiplyNTT(t *testing.T, f func(out, a, b *ringElement)) {
	rng := rand.New(rand.NewPCG(45, 2))
	for i := 0; i < asmIterations(); i++ {
		a, b := nttInput(rng, i), nttInput(rng, i+3)
		var got, want ringElement
		f(&got, &a, &b)
		multiplyNTTGeneric(&want, &a, &b)
		if got != want {
			t.Fatalf("input %d: %s", i, firstDiff(&a, &got, &want, "generic"))
		}
		checkAgainstSpec(t, i, &got, specUnMont(fips204.MultiplyNTT(toSpecPoly(&a), toSpecPoly(&b))))
	}
}

// TestMultiplyAccNTTAVX2 runs every row length 1 to 8: the assembly serves
// 4, 5 and 7 (ℓ of Table 1), the generic code the rest.
func TestMultiplyAccNTTAVX2(t *testing.T) {
	needAVX2(t)
	checkMultiplyAccNTT(t, multiplyAccNTTAVX2)
}

func TestMultiplyAccNTTAMD64(t *testing.T) { checkMultiplyAccNTT(t, multiplyAccNTTAMD64) }

func checkMultiplyAccNTT(t *testing.T, f func(out *ringElement, a, b []ringElement)) {
	rng := rand.New(rand.NewPCG(46, 2))
	for i := 0; i < asmIterations(); i++ {
		l := 1 + i%8
		a, b := make([]ringElement, l), make([]ringElement, l)
		sa, sb := make([]fips204.Poly, l), make([]fips204.Poly, l)
		for j := range a {
			a[j], b[j] = nttInput(rng, i+j), nttInput(rng, i+2*j+1)
			sa[j], sb[j] = toSpecPoly(&a[j]), toSpecPoly(&b[j])
		}
		var got, want ringElement
		f(&got, a, b)
		multiplyAccNTTGeneric(&want, a, b)
		if got != want {
			t.Fatalf("input %d (ℓ = %d): %s", i, l, firstDiff(&a[0], &got, &want, "generic"))
		}
		checkAgainstSpec(t, i, &got, specUnMont(fips204.MatrixVectorNTT([][]fips204.Poly{sa}, sb)[0]))
	}
}
