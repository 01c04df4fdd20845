package mldsa

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/vg-crypto/vg/Spec/fips204"
)

func modQ(x int64) fieldElement {
	x %= q
	if x < 0 {
		x += q
	}
	return fieldElement(x)
}

func toSpec(a *ringElement) fips204.Poly {
	var p fips204.Poly
	for i := range a {
		p[i] = int32(a[i])
	}
	return p
}

// fromSpec reduces a Spec polynomial, whose coefficients may be negative,
// mod q.
func fromSpec(p fips204.Poly) ringElement {
	var a ringElement
	for i := range p {
		a[i] = modQ(int64(p[i]))
	}
	return a
}

func randomPoly(rng *rand.Rand) ringElement {
	var a ringElement
	for i := range a {
		a[i] = fieldElement(rng.Uint32N(q))
	}
	return a
}

// TestConstants recomputes the constants of field.go, ntt.go and
// nttinverse.go with math/big.
func TestConstants(t *testing.T) {
	Q := big.NewInt(q)
	if want := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 23), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 13), big.NewInt(1))); Q.Cmp(want) != 0 || !Q.ProbablyPrime(20) {
		t.Fatal("q is not the prime 2²³ − 2¹³ + 1")
	}
	R := new(big.Int).Lsh(big.NewInt(1), 32)
	check := func(name string, got uint64, want *big.Int) {
		t.Helper()
		if want.Cmp(new(big.Int).SetUint64(got)) != 0 {
			t.Errorf("%s = %d, want %s", name, got, want)
		}
	}
	inv := new(big.Int).ModInverse(Q, R)
	check("qNegInv", qNegInv, new(big.Int).Sub(R, inv))
	check("rModQ", rModQ, new(big.Int).Mod(R, Q))
	check("r2ModQ", r2ModQ, new(big.Int).Mod(new(big.Int).Mul(R, R), Q))
	check("r2dModQ", r2dModQ, new(big.Int).Mod(new(big.Int).Lsh(new(big.Int).Mul(R, R), d), Q))
	inv256 := new(big.Int).ModInverse(big.NewInt(256), Q)
	check("invNTTMul", invNTTMul, new(big.Int).Mod(new(big.Int).Mul(inv256, R), Q))
	// −ζ^BitRev₈(1) · 256⁻¹ · 2³², BitRev₈(1) = 128.
	last := new(big.Int).Exp(big.NewInt(ζ), big.NewInt(128), Q)
	last.Neg(last).Mul(last, inv256).Mul(last, R).Mod(last, Q)
	check("lastInvNTTMul", uint64(lastInvNTTMul), last)
	// ζ has order 512 mod q.
	z := big.NewInt(ζ)
	if new(big.Int).Exp(z, big.NewInt(256), Q).Cmp(new(big.Int).Sub(Q, big.NewInt(1))) != 0 {
		t.Error("ζ²⁵⁶ ≠ −1 mod q")
	}
	for k := range zetasMont {
		e := int64(fips204.BitRev8(uint8(k)))
		want := new(big.Int).Exp(z, big.NewInt(e), Q)
		want.Mul(want, R).Mod(want, Q)
		check("zetasMont", uint64(zetasMont[k]), want)
	}
}

// TestReductions checks reduceOnce on all of [0, 2q), and reduce and
// montReduce on their bounds and random inputs.
func TestReductions(t *testing.T) {
	for x := uint32(0); x < 2*q; x++ {
		if uint32(reduceOnce(x)) != x%q {
			t.Fatalf("reduceOnce(%d)", x)
		}
	}
	rng := rand.New(rand.NewPCG(9, 10))
	edges := []uint32{0, 1, q - 1, q, q + 1, 2*q - 1, 2 * q, 1<<32 - 1, 1<<32 - q, 1 << 31, 1<<23 - 1, 1 << 23}
	for i := 0; i < 1<<20; i++ {
		x := rng.Uint32()
		if i < len(edges) {
			x = edges[i]
		}
		if uint32(reduce(x)) != x%q {
			t.Fatalf("reduce(%d)", x)
		}
	}
	Q := big.NewInt(q)
	rInv := new(big.Int).ModInverse(new(big.Int).Lsh(big.NewInt(1), 32), Q)
	limit := uint64(q) << 32
	for i := 0; i < 1<<16; i++ {
		x := rng.Uint64N(limit)
		if i == 0 {
			x = limit - 1
		}
		got := montReduce(x)
		want := new(big.Int).Mul(new(big.Int).SetUint64(x), rInv)
		want.Mod(want, Q)
		if got >= 2*q || uint64(got)%q != want.Uint64() {
			t.Fatalf("montReduce(%d) = %d, want %s mod q, below 2q", x, got, want)
		}
	}
}

// TestNTTAgainstSpec compares NTT, NTT⁻¹, MultiplyNTT and the accumulating
// product with Spec on random and extreme inputs.
func TestNTTAgainstSpec(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for it := 0; it < 200; it++ {
		a, b := randomPoly(rng), randomPoly(rng)
		switch it {
		case 0:
			a, b = ringElement{}, ringElement{}
		case 1:
			for i := range a {
				a[i], b[i] = q-1, q-1
			}
		}
		got := a
		ntt(&got)
		if want := fromSpec(fips204.NTT(toSpec(&a))); got != want {
			t.Fatal("NTT differs from Spec")
		}
		got = a
		nttInverse(&got)
		if want := fromSpec(fips204.NTTInverse(toSpec(&a))); got != want {
			t.Fatal("NTT⁻¹ differs from Spec")
		}
		// nttInverseMont is NTT⁻¹ times 2³² mod q, generic and dispatched.
		var r fips204.Poly
		for i := range r {
			r[i] = 1 << 32 % q
		}
		want := fromSpec(fips204.MultiplyNTT(fips204.NTTInverse(toSpec(&a)), r))
		for _, f := range []func(*ringElement){nttInverseMont, nttInverseMontGeneric} {
			got = a
			f(&got)
			if got != want {
				t.Fatal("NTT⁻¹ in Montgomery form differs from Spec's NTT⁻¹ times 2³²")
			}
		}
		// fromMontgomeryPoly is w times 2⁻³² mod q.
		for i := range r {
			r[i] = 8265825
		}
		want = fromSpec(fips204.MultiplyNTT(toSpec(&a), r))
		for _, f := range []func(*ringElement){fromMontgomeryPoly, fromMontgomeryPolyGeneric} {
			got = a
			f(&got)
			if got != want {
				t.Fatal("fromMontgomeryPoly differs from Spec's w times 2⁻³²")
			}
		}
		var am ringElement
		for i := range a {
			am[i] = toMontgomery(a[i])
		}
		multiplyNTT(&got, &am, &b)
		if want := fromSpec(fips204.MultiplyNTT(toSpec(&a), toSpec(&b))); got != want {
			t.Fatal("MultiplyNTT differs from Spec")
		}
		// Eight terms, the most multiplyAccNTT accepts.
		if !multiplyAccNTTMatchesSpec(rng, 8, it == 1) {
			t.Fatal("multiplyAccNTT differs from Spec")
		}
	}
}

// TestCoefficientMapsExhaustive sweeps all of ℤq through Power2Round,
// Decompose, HighBits, LowBits, MakeHint and UseHint and compares with
// Spec, for both values of γ2.
func TestCoefficientMapsExhaustive(t *testing.T) {
	step := uint32(1)
	if testing.Short() {
		step = 7
	}
	for r := uint32(0); r < q; r += step {
		r1, r0 := power2Round(fieldElement(r))
		w1, w0 := fips204.Power2Round(int32(r))
		if int32(r1) != w1 || r0 != modQ(int64(w0)) {
			t.Fatalf("Power2Round(%d) = %d, %d; Spec %d, %d", r, r1, r0, w1, w0)
		}
	}
	rng := rand.New(rand.NewPCG(13, 14))
	for _, sp := range []fips204.Params{fips204.MLDSA44, fips204.MLDSA65} {
		γ2 := uint32(sp.Gamma2)
		for r := uint32(0); r < q; r += step {
			fr := fieldElement(r)
			r1, r0 := decompose(fr, γ2)
			w1, w0 := fips204.Decompose(sp, int32(r))
			if int32(r1) != w1 || r0 != w0 {
				t.Fatalf("γ2 = %d: Decompose(%d) = %d, %d; Spec %d, %d", γ2, r, r1, r0, w1, w0)
			}
			if int32(highBits(fr, γ2)) != fips204.HighBits(sp, int32(r)) || lowBits(fr, γ2) != fips204.LowBits(sp, int32(r)) {
				t.Fatalf("γ2 = %d: HighBits or LowBits(%d) differs", γ2, r)
			}
			for h := uint32(0); h < 2; h++ {
				if int32(useHint(h, fr, γ2)) != fips204.UseHint(sp, h == 1, int32(r)) {
					t.Fatalf("γ2 = %d: UseHint(%d, %d) differs", γ2, h, r)
				}
			}
			// z: small values either side of 0 (where hints occur) and one
			// uniform value.
			zs := [3]uint32{rng.Uint32N(2*γ2 + 1), rng.Uint32N(q), 0}
			zs[0] = uint32(modQ(int64(zs[0]) - int64(γ2)))
			for _, z := range zs {
				got := makeHint(fieldElement(z), fr, γ2)
				want := fips204.MakeHint(sp, int32(z), int32(r))
				if (got == 1) != want {
					t.Fatalf("γ2 = %d: MakeHint(%d, %d) = %d, Spec %v", γ2, z, r, got, want)
				}
			}
		}
	}
}

// TestNormChecks compares normExceeds and lowBitsExceed with a direct
// computation, at the bounds.
func TestNormChecks(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for it := 0; it < 2000; it++ {
		bound := 1 + rng.Uint32N((q-1)/2)
		var a ringElement
		for i := range a {
			// Coefficients near ±bound.
			a[i] = modQ(int64(rng.Int32N(int32(bound)+1)) * int64(1-2*rng.IntN(2)))
		}
		if rng.IntN(2) == 0 {
			a[rng.IntN(n256)] = modQ(int64(bound) * int64(1-2*rng.IntN(2)))
		}
		want := uint32(0)
		for _, c := range a {
			v := int64(c)
			if v > (q-1)/2 {
				v -= q
			}
			if v >= int64(bound) || -v >= int64(bound) {
				want = 1
			}
		}
		if got := normExceeds(&a, bound); got != want {
			t.Fatalf("normExceeds = %d, want %d", got, want)
		}
		for _, γ2 := range []uint32{(q - 1) / 88, (q - 1) / 32} {
			b := 1 + rng.Uint32N(γ2)
			want := uint32(0)
			for _, c := range a {
				r0 := lowBits(c, γ2)
				if r0 >= int32(b) || -r0 >= int32(b) {
					want = 1
				}
			}
			if got := lowBitsExceed(&a, b, γ2); got != want {
				t.Fatalf("lowBitsExceed = %d, want %d", got, want)
			}
		}
	}
}

// TestPolyMapsAgainstSpec checks the polynomial forms of the coefficient
// maps against Spec, coefficient by coefficient, on random polynomials.
func TestPolyMapsAgainstSpec(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 30))
	for _, sp := range []fips204.Params{fips204.MLDSA44, fips204.MLDSA65} {
		γ2 := uint32(sp.Gamma2)
		for it := 0; it < 50; it++ {
			a, r := randomPoly(rng), randomPoly(rng)
			var z, h, t1, t0, w1, hint ringElement
			for i := range z {
				z[i] = modQ(int64(rng.IntN(2*int(γ2)+1)) - int64(γ2))
				h[i] = fieldElement(rng.IntN(2))
			}
			power2RoundPoly(&t1, &t0, &a)
			highBitsPoly(&w1, &a, γ2)
			count := makeHintPoly(&hint, &z, &r, γ2)
			var used ringElement
			useHintPoly(&used, &h, &r, γ2)
			want := uint32(0)
			for i := range a {
				s1, s0 := fips204.Power2Round(int32(a[i]))
				mh := fips204.MakeHint(sp, int32(z[i]), int32(r[i]))
				if mh {
					want++
				}
				if int32(t1[i]) != s1 || t0[i] != modQ(int64(s0)) ||
					int32(w1[i]) != fips204.HighBits(sp, int32(a[i])) ||
					(hint[i] == 1) != mh ||
					int32(used[i]) != fips204.UseHint(sp, h[i] == 1, int32(r[i])) {
					t.Fatalf("γ2 = %d: coefficient %d differs from Spec", γ2, i)
				}
			}
			if count != want {
				t.Fatalf("makeHintPoly counted %d ones, want %d", count, want)
			}
		}
	}
}

// TestMultiplyAccNTTLengths compares the accumulating product with Spec for
// every number of terms from 1 to 8, on random and all-(q − 1) inputs.
func TestMultiplyAccNTTLengths(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	for n := 1; n <= 8; n++ {
		for it := 0; it < 4; it++ {
			if !multiplyAccNTTMatchesSpec(rng, n, it == 0) {
				t.Fatalf("%d terms: multiplyAccNTT differs from Spec", n)
			}
		}
	}
}

// multiplyAccNTTMatchesSpec runs multiplyAccNTT on n random pairs (every
// coefficient q − 1 if extreme) and reports whether it equals Spec's sum of
// MultiplyNTT.
func multiplyAccNTTMatchesSpec(rng *rand.Rand, n int, extreme bool) bool {
	as, bs := make([]ringElement, n), make([]ringElement, n)
	var sum fips204.Poly
	for j := range as {
		x, y := randomPoly(rng), randomPoly(rng)
		if extreme {
			for i := range x {
				x[i], y[i] = q-1, q-1
			}
		}
		sum = fips204.AddNTT(sum, fips204.MultiplyNTT(toSpec(&x), toSpec(&y)))
		for i := range x {
			as[j][i] = toMontgomery(x[i])
		}
		bs[j] = y
	}
	var got ringElement
	multiplyAccNTT(&got, as, bs)
	return got == fromSpec(sum)
}
