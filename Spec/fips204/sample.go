package fips204

import "github.com/vg-crypto/vg/Spec/fips202"

// H is SHAKE256 and G is SHAKE128 (§3.7); H(str, l) outputs l bytes.
func hashH(str []byte, l int) []byte { return H[byte](fips202.Bytes{}, str, l) }

// H is H(str, l) over any bytes, fips202's sponge steps with its f: a
// checker runs it on symbolic bytes, f standing for a permutation
// routine's calls (tr ← H(pk, 64), Algorithm 6, line 9).
func H[V any](o fips202.Sponge[V], str []V, l int) []V {
	return fips202.SHAKEOver(o, fips202.Rate256, str, l)
}

// SampleInBall samples a polynomial c ∈ R with τ coefficients in {−1, 1}
// and the others 0, from the seed ρ (c̃, λ/4 bytes).
//
// It implements SampleInBall, according to FIPS 204, Algorithm 29.
func SampleInBall(p Params, rho []byte) Poly {
	ctx := fips202.NewSHAKE256() // line 2
	ctx.Write(rho)               // line 3
	return SampleInBallFrom(p, ctx.Read)
}

// SampleInBallFrom is Algorithm 29 with the bytes of lines 4, 7 and 9
// taken from read instead of SHAKE256(ρ): SampleInBall is
// SampleInBallFrom(p, ctx.Read). It lets a checker drive the sampler's
// loop with a chosen byte stream; read must not run dry before the loop
// ends.
func SampleInBallFrom(p Params, read func([]byte)) Poly {
	var c Poly // line 1
	s := make([]byte, 8)
	read(s)             // line 4
	h := BytesToBits(s) // line 5
	one := make([]byte, 1)
	for i := 256 - p.Tau; i <= 255; { // line 6
		read(one) // line 7, or line 9 after a rejection
		i = SampleInBallStep(p.Tau, (*[256]int32)(&c), h, i, int(one[0]), BallSign)
	}
	return c // line 14
}

// SampleInBallStep is Algorithm 29's loop at iteration i (line 6) on one
// byte j, read at line 7 or, after a rejection, at line 9. It returns the
// iteration the next byte is read at: i where line 8 rejects j, i + 1
// where lines 11 and 12 take it. h is the bits of line 5 and sign(b) is
// (−1)^b.
//
// It is generic so that a checker runs this code itself on its own
// reading of c and h (Spec/check's SampleInBall proof), the same code
// SampleInBallFrom runs on Poly's coefficients with BallSign.
func SampleInBallStep[C, B any](τ int, c *[256]C, h []B, i, j int, sign func(B) C) int {
	if j > i { // line 8
		return i
	}
	c[i] = c[j]             // line 11
	c[j] = sign(h[i+τ-256]) // line 12: (−1)^h[i+τ−256]
	return i + 1
}

// BallSign is (−1)^b for a bit b (Algorithm 29, line 12).
func BallSign(b byte) int32 { return 1 - 2*int32(b) }

// RejNTTPoly samples an element of T_q with coefficients in [0, q) from
// the 34-byte seed ρ′ = ρ ‖ s ‖ r (ExpandA, Algorithm 32, line 4).
//
// It implements RejNTTPoly, according to FIPS 204, Algorithm 30.
func RejNTTPoly(seed []byte) Poly {
	ctx := fips202.NewSHAKE128() // line 2
	ctx.Write(seed)              // line 3
	return RejNTTPolyFrom(ctx.Read)
}

// RejNTTPolyFrom is Algorithm 30 with the bytes of line 5 taken from read
// instead of SHAKE128(ρ′): RejNTTPoly is RejNTTPolyFrom(ctx.Read). It lets
// a checker drive the sampler's loop with a chosen byte stream; read must
// not run dry before 256 coefficients are accepted.
func RejNTTPolyFrom(read func([]byte)) Poly {
	var a Poly
	j := 0 // line 1
	s := make([]byte, 3)
	for j < 256 { // line 4
		read(s)                                                 // line 5
		if c, ok := CoeffFromThreeBytes(s[0], s[1], s[2]); ok { // lines 6–7
			a[j] = c
			j++ // line 8
		}
	}
	return a // line 11
}

// RejBoundedPoly samples an element of R with coefficients in [−η, η] from
// the 66-byte seed ρ″ = ρ′ ‖ IntegerToBytes(r, 2).
//
// It implements RejBoundedPoly, according to FIPS 204, Algorithm 31.
func RejBoundedPoly(p Params, seed []byte) Poly {
	ctx := fips202.NewSHAKE256() // line 2
	ctx.Write(seed)              // line 3
	return RejBoundedPolyFrom(p, ctx.Read)
}

// RejBoundedPolyFrom is Algorithm 31 with the bytes of line 5 taken from
// read instead of SHAKE256(ρ″): RejBoundedPoly is
// RejBoundedPolyFrom(p, ctx.Read). It lets a checker drive the sampler's
// loop with a chosen byte stream; read must not run dry before 256
// coefficients are accepted.
func RejBoundedPolyFrom(p Params, read func([]byte)) Poly {
	var a Poly
	j := 0 // line 1
	zb := make([]byte, 1)
	for j < 256 { // line 4
		read(zb) // line 5
		z := zb[0]
		z0, ok0 := CoeffFromHalfByte(p, z%16) // line 6
		z1, ok1 := CoeffFromHalfByte(p, z/16) // line 7
		if ok0 {                              // line 8
			a[j] = z0 // line 9
			j++       // line 10
		}
		if ok1 && j < 256 { // line 12
			a[j] = z1 // line 13
			j++       // line 14
		}
	}
	return a // line 17
}

// ExpandA samples the k×ℓ matrix Â ∈ T_q^(k×ℓ) from the 32-byte seed ρ;
// Â[r][s] = RejNTTPoly(ρ ‖ IntegerToBytes(s, 1) ‖ IntegerToBytes(r, 1)).
//
// It implements ExpandA, according to FIPS 204, Algorithm 32.
func ExpandA(p Params, rho []byte) [][]Poly {
	a := make([][]Poly, p.K)
	for r := 0; r < p.K; r++ { // line 1
		a[r] = make([]Poly, p.L)
		for s := 0; s < p.L; s++ { // line 2
			rhoP := append(append(append([]byte{}, rho...), IntegerToBytes(s, 1)...), IntegerToBytes(r, 1)...) // line 3
			a[r][s] = RejNTTPoly(rhoP)                                                                         // line 4
		}
	}
	return a // line 7
}

// ExpandS samples s1 ∈ R^ℓ and s2 ∈ R^k with coefficients in [−η, η] from
// the 64-byte seed ρ′.
//
// It implements ExpandS, according to FIPS 204, Algorithm 33.
func ExpandS(p Params, rho []byte) (s1, s2 []Poly) {
	return expandSOver[byte, Poly](Values{p}, p, rho)
}

// ExpandMask samples y ∈ R^ℓ with coefficients in [−γ1 + 1, γ1] from the
// 64-byte seed ρ and the counter μ (κ of Algorithm 7).
//
// It implements ExpandMask, according to FIPS 204, Algorithm 34.
func ExpandMask(p Params, rho []byte, mu int) []Poly {
	return expandMaskOver[byte, Poly](Values{p}, p, rho, IntegerToBytes(mu, 2))
}
