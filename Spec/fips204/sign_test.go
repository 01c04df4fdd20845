package fips204

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// plainAttempt is one iteration of the loop of Algorithm 7 (lines 11 to
// 30) read plainly, on Poly, branching where the algorithm branches: σ of
// line 33 where (z, h) ≠ ⊥, else why (z, h) ← ⊥: "z" or "r0" (line 23),
// "ct0", "ω" or both (line 28).
func plainAttempt(p Params, aHat [][]Poly, s1Hat, s2Hat, t0Hat []Poly, mu, rhoPP []byte, kappa int) (sigma []byte, why string) {
	y := make([]Poly, p.L) // line 11: ExpandMask(ρ″, κ), Algorithm 34
	for r := range y {
		v := hashH(append(append([]byte{}, rhoPP...), IntegerToBytes(kappa+r, 2)...), 32*(1+bitlen(p.Gamma1-1)))
		y[r] = BitUnpack(v, p.Gamma1-1, p.Gamma1)
	}
	w := vecNTTInverse(MatrixVectorNTT(aHat, vecNTT(y)))                                   // line 12
	w1 := mapCoeffs(w, func(r int32) int32 { return HighBits(p, r) })                      // line 13
	cTilde := hashH(append(append([]byte{}, mu...), W1Encode(p, w1)...), p.Lambda/4)       // line 15
	cHat := NTT(SampleInBall(p, cTilde))                                                   // lines 16 and 17
	cs1 := vecNTTInverse(ScalarVectorNTT(cHat, s1Hat))                                     // line 18
	cs2 := vecNTTInverse(ScalarVectorNTT(cHat, s2Hat))                                     // line 19
	z := zipCoeffs(y, cs1, addQ)                                                           // line 20
	r0 := mapCoeffs(zipCoeffs(w, cs2, subQ), func(r int32) int32 { return LowBits(p, r) }) // line 21
	if vecInfNorm(z) >= int64(p.Gamma1-p.Beta) {                                           // line 23
		return nil, "z"
	}
	if vecInfNorm(r0) >= int64(p.Gamma2-p.Beta) { // line 23
		return nil, "r0"
	}
	ct0 := vecNTTInverse(ScalarVectorNTT(cHat, t0Hat)) // line 25
	h := make([]Poly, p.K)                             // line 26
	for i := range h {
		for j := range h[i] {
			if MakeHint(p, modQ(-int64(ct0[i][j])), modQ(int64(w[i][j])-int64(cs2[i][j])+int64(ct0[i][j]))) {
				h[i][j] = 1
			}
		}
	}
	switch norm, many := vecInfNorm(ct0) >= int64(p.Gamma2), countOnes(h) > p.Omega; { // line 28
	case norm && many:
		return nil, "ct0, ω"
	case norm:
		return nil, "ct0"
	case many:
		return nil, "ω"
	}
	zPM := mapCoeffs(z, func(c int32) int32 { return int32(modPM(int64(c), Q)) })
	return SigEncode(p, cTilde, zPM, h), "" // line 33
}

// signForms are the forms of a private key SignOver takes, from
// KeyGenInternal of a random ξ, with t0 replaced by t0Of(t0) (nil: kept).
func signForms(p Params, rng *rand.Rand, t0Of func([]Poly) []Poly) (aHat [][]Poly, s1Hat, s2Hat, t0Hat []Poly, key []byte) {
	xi := make([]byte, 32)
	for i := range xi {
		xi[i] = byte(rng.Uint32())
	}
	_, sk := KeyGenInternal(p, xi)
	rho, key, _, s1, s2, t0, err := SkDecode(p, sk)
	if err != nil {
		panic(err)
	}
	if t0Of != nil {
		t0 = t0Of(t0)
	}
	return ExpandA(p, rho), vecNTT(s1), vecNTT(s2), vecNTT(t0), key
}

// TestSignStagesOver runs the three stages of an attempt over Values
// against plainAttempt, attempt by attempt, branching as SignOver does,
// for keys of every parameter set and for t0 replaced so that each check
// of line 28 alone rejects. Each stage's outcome must be the plain
// reading's; each of the four checks must reject some attempt alone, and
// some attempt must end the loop, or the comparison proves little.
func TestSignStagesOver(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 204))
	var p Params
	// ‖ct0‖∞ = γ2 − 1, about kτ/2 hints: more than ω for ML-DSA-65 and -87.
	oneLarge := func(t0 []Poly) []Poly {
		for i := range t0 {
			t0[i] = Poly{}
			t0[i][rng.IntN(256)] = int32(p.Gamma2 - 1)
		}
		return t0
	}
	// ‖ct0‖∞ = γ2, about τ/2 hints: fewer than ω.
	oneTooLarge := func(t0 []Poly) []Poly {
		for i := range t0 {
			t0[i] = Poly{}
		}
		t0[0][rng.IntN(256)] = int32(p.Gamma2)
		return t0
	}
	seen := map[string]int{}
	const attempts = 12
	for _, p = range []Params{MLDSA44, MLDSA65, MLDSA87} {
		for _, t0Of := range []func([]Poly) []Poly{nil, oneLarge, oneTooLarge} {
			aHat, s1Hat, s2Hat, t0Hat, _ := signForms(p, rng, t0Of)
			mu, rhoPP := make([]byte, 64), make([]byte, 64)
			for i := range mu {
				mu[i], rhoPP[i] = byte(rng.Uint32()), byte(rng.Uint32())
			}
			v := Values{p}
			for n := 0; n < attempts; n++ {
				kappa := n * p.L
				want, why := plainAttempt(p, aHat, s1Hat, s2Hat, t0Hat, mu, rhoPP, kappa)
				seen[why]++
				cTilde, cHat, w, z, okZ := SignZOver[byte, Poly](v, p, aHat, s1Hat, mu, rhoPP, IntegerToBytes(kappa, 2))
				if okZ != b2b(why != "z") {
					t.Fatalf("%s, κ = %d: okZ = %d, the plain reading rejects at %q", p.Name, kappa, okZ, why)
				}
				if okZ == 0 {
					continue
				}
				wcs2, okR0 := SignR0Over[byte, Poly](v, p, s2Hat, cHat, w)
				if okR0 != b2b(why != "r0") {
					t.Fatalf("%s, κ = %d: okR0 = %d, the plain reading rejects at %q", p.Name, kappa, okR0, why)
				}
				if okR0 == 0 {
					continue
				}
				h, okH := SignHintOver[byte, Poly](v, p, t0Hat, cHat, wcs2)
				if okH != b2b(why == "") {
					t.Fatalf("%s, κ = %d: okH = %d, the plain reading rejects at %q", p.Name, kappa, okH, why)
				}
				if okH == 1 {
					if got := SignEncodeOver[byte, Poly](v, p, cTilde, z, h); !bytes.Equal(got, want) {
						t.Fatalf("%s, κ = %d: σ differs from the plain reading's", p.Name, kappa)
					}
				}
			}
		}
	}
	for _, why := range []string{"", "z", "r0", "ct0", "ω"} {
		if seen[why] == 0 {
			t.Errorf("no attempt ended as %q; seen %v", why, seen)
		}
	}
	t.Logf("attempts by outcome: %v", seen)
}

// TestSignOverLoop checks the loop around the attempts: κ advances by ℓ
// from 0 (the counters ExpandMask gets); each attempt makes public the
// outcome of its first stage, then of the next only where the one before
// was 1, as Algorithm 7 branches (line 23: "z" rejects after one outcome,
// "r0" after two; line 28 after three); the loop stops at the first
// attempt whose three outcomes are 1 with that attempt's σ; and after
// SignIterations rejected attempts SignOver returns false.
func TestSignOverLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 204))
	p := MLDSA44
	aHat, s1Hat, s2Hat, t0Hat, key := signForms(p, rng, nil)
	mu, rnd := make([]byte, 64), make([]byte, 32)
	rhoPP := hashH(append(append(append([]byte{}, key...), rnd...), mu...), 64) // line 7
	// outcomes is what the plain reading makes public of attempt n.
	outcomes := func(n int) string {
		_, why := plainAttempt(p, aHat, s1Hat, s2Hat, t0Hat, mu, rhoPP, n*p.L)
		switch why {
		case "":
			return "[1 1 1]"
		case "z":
			return "[0]"
		case "r0":
			return "[1 0]"
		}
		return "[1 1 0]"
	}
	o := &loopValues{Values: Values{p}}
	sigma, ok := SignOver[byte, Poly](o, p, aHat, s1Hat, s2Hat, t0Hat, key, mu, rnd)
	if !ok {
		t.Fatal("no attempt ended the loop")
	}
	n := len(o.attempts)
	for i, a := range o.attempts {
		if got, want := fmt.Sprint(a), outcomes(i); got != want || (want == "[1 1 1]") != (i == n-1) {
			t.Fatalf("attempt %d of %d made %s public, the plain reading %s", i, n, got, want)
		}
	}
	if want, _ := plainAttempt(p, aHat, s1Hat, s2Hat, t0Hat, mu, rhoPP, (n-1)*p.L); !bytes.Equal(sigma, want) {
		t.Fatal("σ is not the last attempt's")
	}
	if len(o.counters) != n*p.L {
		t.Fatalf("%d counters for %d attempts", len(o.counters), n)
	}
	for i, c := range o.counters {
		if c != i {
			t.Fatalf("counter %d is %d", i, c)
		}
	}
	o = &loopValues{Values: Values{p}, reject: true}
	if sigma, ok := SignOver[byte, Poly](o, p, aHat, s1Hat, s2Hat, t0Hat, key, mu, rnd); ok || sigma != nil {
		t.Fatal("SignOver returned a signature with every attempt rejected")
	}
	if len(o.attempts) != SignIterations || len(o.counters) != SignIterations*p.L {
		t.Fatalf("%d attempts and %d counters, want %d and %d", len(o.attempts), len(o.counters), SignIterations, SignIterations*p.L)
	}
	for i, c := range o.counters {
		if c != i {
			t.Fatalf("counter %d is %d", i, c)
		}
	}
	third := 0
	for i, a := range o.attempts {
		if len(a) == 3 {
			third++
		}
		if i < 12 && fmt.Sprint(a) != outcomes(i) {
			t.Fatalf("attempt %d made %v public, the plain reading %s", i, a, outcomes(i))
		}
	}
	if third == 0 {
		t.Fatal("no attempt reached line 28")
	}
}

// loopValues is Values recording the outcomes each attempt makes public
// (an attempt begins at its first ExpandMask counter) and the integer of
// each ExpandMask counter; with reject, the third outcome of an attempt
// is taken as 0, so no attempt ends the loop.
type loopValues struct {
	Values
	reject   bool
	attempts [][]byte
	counters []int
}

func (o *loopValues) Reveal(b byte) bool {
	n := len(o.attempts) - 1
	o.attempts[n] = append(o.attempts[n], b)
	return !(o.reject && len(o.attempts[n]) == 3) && o.Values.Reveal(b)
}

func (o *loopValues) Plus(x []byte, r int) []byte {
	y := o.Values.Plus(x, r)
	if r == 0 {
		o.attempts = append(o.attempts, nil)
	}
	o.counters = append(o.counters, int(y[0])|int(y[1])<<8)
	return y
}

// TestPlus checks IntegerToBytes(x + r, 2) across carries, and ExpandMask
// against Algorithm 34 read plainly for counters μ + r across a byte.
func TestPlus(t *testing.T) {
	for _, c := range []struct{ x, r int }{{0, 0}, {0, 6}, {250, 6}, {255, 1}, {256, 4}, {65535, 1}, {65530, 7}} {
		got := Values{}.Plus(IntegerToBytes(c.x, 2), c.r)
		if want := IntegerToBytes(c.x+c.r, 2); !bytes.Equal(got, want) {
			t.Errorf("Plus(%d, %d) = %v, want %v", c.x, c.r, got, want)
		}
	}
	rho := make([]byte, 64)
	for i := range rho {
		rho[i] = byte(3 * i)
	}
	for _, p := range []Params{MLDSA44, MLDSA65} {
		for _, mu := range []int{0, 251, 255, 65533} {
			y := ExpandMask(p, rho, mu)
			for r := range y {
				v := hashH(append(append([]byte{}, rho...), byte((mu+r)%256), byte((mu+r)/256%256)), 32*(1+bitlen(p.Gamma1-1)))
				if y[r] != BitUnpack(v, p.Gamma1-1, p.Gamma1) {
					t.Fatalf("%s: ExpandMask(ρ, %d)[%d] differs from Algorithm 34 read plainly", p.Name, mu, r)
				}
			}
		}
	}
}

// boundValues is Values recording the bounds an attempt checks against.
type boundValues struct {
	Values
	bounds []int
}

func (o *boundValues) NormBelow(w Poly, bound int) byte {
	o.bounds = append(o.bounds, bound)
	return o.Values.NormBelow(w, bound)
}

func (o *boundValues) OnesAtMost(h []Poly, n int) byte {
	o.bounds = append(o.bounds, -n)
	return o.Values.OnesAtMost(h, n)
}

// TestSignStageBounds checks the bounds of lines 23 and 28 where no
// attempt reaches them exactly (ω + 1 hints): ‖z‖∞ against γ1 − β in the
// first stage, ‖r0‖∞ against γ2 − β for each row in the second, ‖ct0‖∞
// against γ2 for each row, then the count against ω (recorded as −ω) in
// the third; and the count at its boundary.
func TestSignStageBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 204))
	for _, p := range []Params{MLDSA44, MLDSA65, MLDSA87} {
		aHat, s1Hat, s2Hat, t0Hat, _ := signForms(p, rng, nil)
		var got, want [3][]int
		o := &boundValues{Values: Values{p}}
		_, cHat, w, _, _ := SignZOver[byte, Poly](o, p, aHat, s1Hat, make([]byte, 64), make([]byte, 64), IntegerToBytes(0, 2))
		got[0], o.bounds = o.bounds, nil
		wcs2, _ := SignR0Over[byte, Poly](o, p, s2Hat, cHat, w)
		got[1], o.bounds = o.bounds, nil
		SignHintOver[byte, Poly](o, p, t0Hat, cHat, wcs2)
		got[2] = o.bounds
		for range p.L {
			want[0] = append(want[0], p.Gamma1-p.Beta)
		}
		for range p.K {
			want[1] = append(want[1], p.Gamma2-p.Beta)
			want[2] = append(want[2], p.Gamma2)
		}
		want[2] = append(want[2], -p.Omega)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: bounds by stage %v, want %v", p.Name, got, want)
		}
		h := make([]Poly, p.K)
		for n := 0; n <= p.Omega; n++ {
			h[n%p.K][n/p.K] = 1
		}
		if (Values{p}).OnesAtMost(h, p.Omega) != 0 {
			t.Errorf("%s: ω + 1 ones are at most ω", p.Name)
		}
		h[0][0] = 0
		if (Values{p}).OnesAtMost(h, p.Omega) != 1 {
			t.Errorf("%s: ω ones are not at most ω", p.Name)
		}
	}
}
