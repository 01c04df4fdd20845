package fips204

import "github.com/vg-crypto/vg/Spec/fips202"

// KeyGenOps are the operations ML-DSA.KeyGen_internal (Algorithm 6) and
// the algorithms it calls run on: bytes B, with H's permutation, and
// polynomials P, with the algorithms that take them. Values is this
// package's own instance (bytes and Poly); KeyGenInternal, ExpandS,
// MatrixVectorNTT, PkEncode and SkEncode run their steps over it, so
// that every vector tests the steps a checker runs over symbolic values.
type KeyGenOps[B, P any] interface {
	fips202.Sponge[B]
	ExpandA(rho []B) [][]P        // Algorithm 32
	RejBoundedPoly(seed []B) P    // Algorithm 31
	NTT(w P) P                    // Algorithm 41
	NTTInverse(w P) P             // Algorithm 42
	Zero() P                      // 0 ∈ T_q
	AddNTT(a, b P) P              // Algorithm 44
	MultiplyNTT(a, b P) P         // Algorithm 45
	Add(a, b P) P                 // + in R_q
	Power2Round(r P) (r1, r0 P)   // Algorithm 35, on each coefficient
	SimpleBitPack(w P, b int) []B // Algorithm 16
	BitPack(w P, a, b int) []B    // Algorithm 17
}

// Values is KeyGenOps on bytes and Poly for the parameter set P.
type Values struct{ P Params }

func (Values) Byte(b byte) byte                   { return b }
func (Values) Xor(a, b byte) byte                 { return a ^ b }
func (Values) Permute(s *[200]byte)               { fips202.Bytes{}.Permute(s) }
func (v Values) ExpandA(rho []byte) [][]Poly      { return ExpandA(v.P, rho) }
func (v Values) RejBoundedPoly(seed []byte) Poly  { return RejBoundedPoly(v.P, seed) }
func (Values) NTT(w Poly) Poly                    { return NTT(w) }
func (Values) NTTInverse(w Poly) Poly             { return NTTInverse(w) }
func (Values) Zero() Poly                         { return Poly{} }
func (Values) AddNTT(a, b Poly) Poly              { return AddNTT(a, b) }
func (Values) MultiplyNTT(a, b Poly) Poly         { return MultiplyNTT(a, b) }
func (Values) Add(a, b Poly) Poly                 { return zipCoeffs([]Poly{a}, []Poly{b}, addQ)[0] }
func (Values) SimpleBitPack(w Poly, b int) []byte { return SimpleBitPack(w, b) }
func (Values) BitPack(w Poly, a, b int) []byte    { return BitPack(w, a, b) }
func (Values) Power2Round(r Poly) (r1, r0 Poly) {
	for i := range r {
		r1[i], r0[i] = Power2Round(r[i])
	}
	return r1, r0
}

// bytesOver is b over o.
func bytesOver[B any](o fips202.Sponge[B], b []byte) []B {
	out := make([]B, len(b))
	for i, x := range b {
		out[i] = o.Byte(x)
	}
	return out
}

// cat is the concatenation of byte strings.
func cat[B any](ss ...[]B) []B {
	var out []B
	for _, s := range ss {
		out = append(out, s...)
	}
	return out
}

// KeyGenOver is ML-DSA.KeyGen_internal over o (Algorithm 6).
func KeyGenOver[B, P any](o KeyGenOps[B, P], p Params, xi []B) (pk, sk []B) {
	f := KeyGenFormsOver(o, p, xi)
	return f.PK, f.SK
}

// KeyGenForms are what ML-DSA.KeyGen_internal (Algorithm 6) returns, pk
// and sk, with the values of its lines an implementation may keep.
type KeyGenForms[B, P any] struct {
	PK, SK []B
	AHat   [][]P // line 3
	S1, S2 []P   // line 4
	T, T0  []P   // lines 5 and 6
}

// KeyGenFormsOver is Algorithm 6 over o, with the values of its lines.
func KeyGenFormsOver[B, P any](o KeyGenOps[B, P], p Params, xi []B) KeyGenForms[B, P] {
	seed := KeyGenSeedOver(o, p, xi) // line 1
	rho, rhoP, key := seed[:32], seed[32:96], seed[96:128]
	aHat := o.ExpandA(rho)                                                             // line 3
	s1, s2 := expandSOver(o, p, rhoP)                                                  // line 4
	t := KeyGenTOver(o, p, aHat, s1, s2)                                               // line 5
	pk, tr, t0 := KeyGenPublicOver(o, p, rho, t)                                       // lines 6 to 9
	sk := skEncodeOver(o, p, rho, key, tr, s1, s2, t0)                                 // line 10
	return KeyGenForms[B, P]{PK: pk, SK: sk, AHat: aHat, S1: s1, S2: s2, T: t, T0: t0} // line 11
}

// KeyGenSeedOver is line 1 of Algorithm 6 over o: H(ξ ‖
// IntegerToBytes(k, 1) ‖ IntegerToBytes(ℓ, 1), 128), the bytes of ρ, ρ′
// and K.
func KeyGenSeedOver[B, P any](o KeyGenOps[B, P], p Params, xi []B) []B {
	return H(o, cat(xi, bytesOver(o, IntegerToBytes(p.K, 1)), bytesOver(o, IntegerToBytes(p.L, 1))), 128) // line 1
}

// KeyGenTOver is line 5 of Algorithm 6 over o: from Â (k×ℓ, as ExpandA
// gives it), s1 and s2, t = NTT⁻¹(Â ∘ NTT(s1)) + s2.
func KeyGenTOver[B, P any](o KeyGenOps[B, P], p Params, aHat [][]P, s1, s2 []P) []P {
	s1Hat := make([]P, p.L)
	for j := range s1Hat {
		s1Hat[j] = o.NTT(s1[j])
	}
	w := matrixVectorNTTOver(o, aHat, s1Hat)
	t := make([]P, p.K)
	for i := range t {
		t[i] = o.Add(o.NTTInverse(w[i]), s2[i]) // line 5
	}
	return t
}

// KeyGenPublicOver is lines 6 to 9 of Algorithm 6 over o: from ρ and t,
// the public key pk, tr = H(pk, 64) and t0.
func KeyGenPublicOver[B, P any](o KeyGenOps[B, P], p Params, rho []B, t []P) (pk, tr []B, t0 []P) {
	pk, t0 = KeyGenPkOver(o, p, rho, t) // lines 6 and 8
	tr = H(o, pk, 64)                   // line 9
	return pk, tr, t0
}

// KeyGenPkOver is lines 6 and 8 of Algorithm 6 over o: from ρ and t, the
// public key pk and t0.
func KeyGenPkOver[B, P any](o KeyGenOps[B, P], p Params, rho []B, t []P) (pk []B, t0 []P) {
	t1 := make([]P, p.K)
	t0 = make([]P, p.K)
	for i := range t {
		t1[i], t0[i] = o.Power2Round(t[i]) // line 6
	}
	return pkEncodeOver(o, p, rho, t1), t0 // line 8
}

// expandSOver is ExpandS over o (Algorithm 33).
func expandSOver[B, P any](o KeyGenOps[B, P], p Params, rho []B) (s1, s2 []P) {
	s1, s2 = make([]P, p.L), make([]P, p.K)
	for r := 0; r < p.L; r++ { // line 1
		s1[r] = o.RejBoundedPoly(cat(rho, bytesOver(o, IntegerToBytes(r, 2)))) // line 2
	}
	for r := 0; r < p.K; r++ { // line 4
		s2[r] = o.RejBoundedPoly(cat(rho, bytesOver(o, IntegerToBytes(r+p.L, 2)))) // line 5
	}
	return s1, s2 // line 7
}

// matrixVectorNTTOver is MatrixVectorNTT over o (Algorithm 48).
func matrixVectorNTTOver[B, P any](o KeyGenOps[B, P], m [][]P, v []P) []P {
	w := make([]P, len(m)) // line 1
	for i := range m {     // line 2
		w[i] = o.Zero()
		for j := range v { // line 3
			w[i] = o.AddNTT(w[i], o.MultiplyNTT(m[i][j], v[j])) // line 4
		}
	}
	return w
}

// pkEncodeOver is pkEncode over o (Algorithm 22).
func pkEncodeOver[B, P any](o KeyGenOps[B, P], p Params, rho []B, t1 []P) []B {
	pk := cat(rho)             // line 1
	for i := 0; i < p.K; i++ { // line 2
		pk = cat(pk, o.SimpleBitPack(t1[i], t1Bound)) // line 3
	}
	return pk // line 5
}

// skEncodeOver is skEncode over o (Algorithm 24).
func skEncodeOver[B, P any](o KeyGenOps[B, P], p Params, rho, key, tr []B, s1, s2, t0 []P) []B {
	sk := cat(rho, key, tr)    // line 1
	for i := 0; i < p.L; i++ { // line 2
		sk = cat(sk, o.BitPack(s1[i], p.Eta, p.Eta)) // line 3
	}
	for i := 0; i < p.K; i++ { // line 5
		sk = cat(sk, o.BitPack(s2[i], p.Eta, p.Eta)) // line 6
	}
	for i := 0; i < p.K; i++ { // line 8
		sk = cat(sk, o.BitPack(t0[i], t0A, t0B)) // line 9
	}
	return sk // line 11
}
