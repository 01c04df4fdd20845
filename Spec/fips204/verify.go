package fips204

import "bytes"

// VerifyOps are the operations ML-DSA.Verify_internal (Algorithm 8) runs
// on beyond KeyGen's: the decoding of σ, SampleInBall, the difference in
// T_q, UseHint, the norm check and the comparison of c̃ with c̃′. A truth
// value is a byte B: 1 for true, 0 for false. Values is this package's own
// instance; VerifyInternal runs VerifyOver over it, so that every vector
// tests the steps a checker runs over symbolic values.
type VerifyOps[B, P any] interface {
	KeyGenOps[B, P]
	BitUnpack(v []B, a, b int) P       // Algorithm 19
	HintBitUnpack(y []B) (h []P, ok B) // Algorithm 21; ok = 0 where it returns ⊥
	SampleInBall(rho []B) P            // Algorithm 29
	SubNTT(a, b P) P                   // − in T_q (Algorithm 8, line 9)
	UseHint(h, r P) P                  // Algorithm 40, on each coefficient
	NormBelow(w P, bound int) B        // ‖w‖∞ < bound (§2.3)
	Equal(a, b []B) B                  // a = b
	And(a, b B) B                      // a and b
}

func (v Values) BitUnpack(b []byte, x, y int) Poly { return BitUnpack(b, x, y) }
func (v Values) SampleInBall(rho []byte) Poly      { return SampleInBall(v.P, rho) }
func (Values) SubNTT(a, b Poly) Poly               { return zipCoeffs([]Poly{a}, []Poly{b}, subQ)[0] }
func (Values) NormBelow(w Poly, bound int) byte    { return b2b(infNorm(w) < int64(bound)) }
func (Values) Equal(a, b []byte) byte              { return b2b(bytes.Equal(a, b)) }
func (Values) And(a, b byte) byte                  { return a & b }

// HintBitUnpack is Algorithm 21 with ⊥ as ok = 0 (h then k zero
// polynomials).
func (v Values) HintBitUnpack(y []byte) ([]Poly, byte) {
	h, err := HintBitUnpack(v.P, y)
	if err != nil {
		return make([]Poly, v.P.K), 0
	}
	return h, 1
}

func (v Values) UseHint(h, r Poly) Poly {
	var w1 Poly
	for i := range r {
		w1[i] = UseHint(v.P, h[i] == 1, r[i])
	}
	return w1
}

// b2b is a truth value as a byte.
func b2b(c bool) byte {
	if c {
		return 1
	}
	return 0
}

// VerifyOver is ML-DSA.Verify_internal (Algorithm 8) over o, from the
// forms of the public key an implementation keeps, Â (line 5) and
// t̂1 = NTT(t1·2^d) (line 9), and μ (line 7) and σ of SignatureSize
// bytes: 1 if σ is valid, else 0. Lines 1 and 6 make what it takes.
func VerifyOver[B, P any](o VerifyOps[B, P], p Params, aHat [][]P, t1Hat []P, mu, sigma []B) B {
	cTilde, z, h, ok := sigDecodeOver(o, p, sigma) // line 2; lines 3–4: ok = 0 for h = ⊥
	c := o.SampleInBall(cTilde)                    // line 8
	cHat := o.NTT(c)
	zHat := make([]P, p.L)
	for j := range zHat {
		zHat[j] = o.NTT(z[j])
	}
	az := matrixVectorNTTOver(o, aHat, zHat)
	w1 := make([]P, p.K)
	for i := range w1 {
		wApprox := o.NTTInverse(o.SubNTT(az[i], o.MultiplyNTT(cHat, t1Hat[i]))) // line 9
		w1[i] = o.UseHint(h[i], wApprox)                                        // line 10
	}
	cTildeP := H(o, cat(mu, w1EncodeOver(o, p, w1)), p.Lambda/4) // line 12
	below := o.Byte(1)
	for j := range z {
		below = o.And(below, o.NormBelow(z[j], p.Gamma1-p.Beta)) // line 13: ‖z‖∞ < γ1 − β
	}
	return o.And(ok, o.And(below, o.Equal(cTilde, cTildeP))) // line 13
}

// sigDecodeOver is sigDecode over o (Algorithm 27), for σ of
// SignatureSize bytes: ok = 0 where HintBitUnpack returns ⊥.
func sigDecodeOver[B, P any](o VerifyOps[B, P], p Params, sigma []B) (cTilde []B, z, h []P, ok B) {
	nz := 32 * (1 + bitlen(p.Gamma1-1))
	cTilde, rest := sigma[:p.Lambda/4], sigma[p.Lambda/4:] // line 1
	z = make([]P, p.L)
	for i := range z { // line 2
		z[i] = o.BitUnpack(rest[i*nz:(i+1)*nz], p.Gamma1-1, p.Gamma1) // line 3
	}
	h, ok = o.HintBitUnpack(rest[p.L*nz:]) // line 5
	return cTilde, z, h, ok                // line 6
}

// w1EncodeOver is w1Encode over o (Algorithm 28).
func w1EncodeOver[B, P any](o VerifyOps[B, P], p Params, w1 []P) []B {
	var w1Tilde []B            // line 1
	for i := 0; i < p.K; i++ { // line 2
		w1Tilde = cat(w1Tilde, o.SimpleBitPack(w1[i], (Q-1)/(2*p.Gamma2)-1)) // line 3
	}
	return w1Tilde // line 5
}
