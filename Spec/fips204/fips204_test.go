package fips204

import (
	"bytes"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestConstants recomputes the constants with math/big.
func TestConstants(t *testing.T) {
	q := big.NewInt(Q)
	want := new(big.Int).Lsh(big.NewInt(1), 23)
	want.Sub(want, new(big.Int).Lsh(big.NewInt(1), 13))
	want.Add(want, big.NewInt(1))
	if q.Cmp(want) != 0 || Q != 8380417 {
		t.Errorf("Q = %d, want 2²³ − 2¹³ + 1 = %v", Q, want)
	}
	if !q.ProbablyPrime(20) {
		t.Error("q is not prime")
	}
	// ζ is a primitive 512th root of unity: ζ^256 ≡ −1, so its order
	// divides 512 but not 256.
	zeta := big.NewInt(Zeta)
	if r := new(big.Int).Exp(zeta, big.NewInt(256), q); r.Cmp(new(big.Int).Sub(q, big.NewInt(1))) != 0 {
		t.Errorf("ζ^256 mod q = %v, want q − 1", r)
	}
	if r := new(big.Int).Exp(zeta, big.NewInt(512), q); r.Cmp(big.NewInt(1)) != 0 {
		t.Errorf("ζ^512 mod q = %v, want 1", r)
	}
	// Algorithm 42, line 21: f = 256⁻¹ mod q.
	f := new(big.Int).ModInverse(big.NewInt(256), q)
	if f.Int64() != 8347681 {
		t.Errorf("256⁻¹ mod q = %v, the code uses 8347681", f)
	}
	for m := 0; m < 256; m++ {
		brv := 0
		for i := 0; i < 8; i++ {
			brv |= (m >> i & 1) << (7 - i)
		}
		z := new(big.Int).Exp(zeta, big.NewInt(int64(brv)), q)
		if int64(zetas[m]) != z.Int64() {
			t.Errorf("zetas[%d] = %d, want ζ^%d mod q = %v", m, zetas[m], brv, z)
		}
	}
}

// TestParams checks Table 1 relations and the sizes of Table 2.
func TestParams(t *testing.T) {
	for _, c := range []struct {
		p               Params
		pk, sk, sig     int
		gamma2Numerator int
	}{
		{MLDSA44, 1312, 2560, 2420, 88},
		{MLDSA65, 1952, 4032, 3309, 32},
		{MLDSA87, 2592, 4896, 4627, 32},
	} {
		p := c.p
		if p.PublicKeySize != c.pk || p.PrivateKeySize != c.sk || p.SignatureSize != c.sig {
			t.Errorf("%s: sizes %d, %d, %d; Table 2 gives %d, %d, %d", p.Name,
				p.PublicKeySize, p.PrivateKeySize, p.SignatureSize, c.pk, c.sk, c.sig)
		}
		if p.Beta != p.Tau*p.Eta || p.Gamma2*c.gamma2Numerator != Q-1 {
			t.Errorf("%s: β = %d, γ2 = %d", p.Name, p.Beta, p.Gamma2)
		}
		if got, ok := ParamsByName(p.Name); !ok || got != p {
			t.Errorf("ParamsByName(%q) = %v, %v", p.Name, got, ok)
		}
	}
}

func randomPoly(rng *rand.Rand, lo, hi int32) Poly {
	var w Poly
	for i := range w {
		w[i] = lo + rng.Int32N(hi-lo+1)
	}
	return w
}

// TestNTT checks NTT⁻¹(NTT(w)) = w and that MultiplyNTT in the NTT domain
// is the product in R_q = ℤq[X]/(X²⁵⁶ + 1), computed by schoolbook.
func TestNTT(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for iter := 0; iter < 20; iter++ {
		a := randomPoly(rng, 0, Q-1)
		b := randomPoly(rng, 0, Q-1)
		if got := NTTInverse(NTT(a)); got != a {
			t.Fatal("NTT⁻¹(NTT(a)) ≠ a")
		}
		var want [256]int64
		for i := 0; i < 256; i++ {
			for j := 0; j < 256; j++ {
				prod := int64(a[i]) * int64(b[j]) % Q
				if i+j < 256 {
					want[i+j] += prod
				} else {
					want[i+j-256] -= prod // X²⁵⁶ = −1
				}
			}
		}
		got := NTTInverse(MultiplyNTT(NTT(a), NTT(b)))
		for i := range got {
			if got[i] != modQ(want[i]) {
				t.Fatalf("product coefficient %d: got %d, want %d", i, got[i], modQ(want[i]))
			}
		}
	}
}

// TestRoundingExhaustive sweeps ℤq: Power2Round and Decompose must
// recompose r with their stated ranges (§7.4), and HighBits/LowBits agree.
func TestRoundingExhaustive(t *testing.T) {
	if testing.Short() {
		t.Skip("sweeps ℤq")
	}
	for r := int32(0); r < Q; r++ {
		r1, r0 := Power2Round(r)
		if modQ(int64(r1)<<D+int64(r0)) != r || r0 <= -(1<<(D-1)) || r0 > 1<<(D-1) {
			t.Fatalf("Power2Round(%d) = %d, %d", r, r1, r0)
		}
	}
	for _, p := range []Params{MLDSA44, MLDSA65} {
		m := int32((Q - 1) / (2 * p.Gamma2))
		for r := int32(0); r < Q; r++ {
			r1, r0 := Decompose(p, r)
			if modQ(int64(r1)*int64(2*p.Gamma2)+int64(r0)) != r {
				t.Fatalf("%s: Decompose(%d) = %d, %d does not recompose", p.Name, r, r1, r0)
			}
			if r1 < 0 || r1 >= m || r0 < -int32(p.Gamma2) || r0 > int32(p.Gamma2) {
				t.Fatalf("%s: Decompose(%d) = %d, %d out of range", p.Name, r, r1, r0)
			}
			if HighBits(p, r) != r1 || LowBits(p, r) != r0 {
				t.Fatalf("%s: HighBits/LowBits(%d) disagree with Decompose", p.Name, r)
			}
		}
	}
}

// TestHints checks §7.4's property: for ‖z‖∞ ≤ γ2,
// UseHint(MakeHint(z, r), r) = HighBits(r + z).
func TestHints(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for _, p := range []Params{MLDSA44, MLDSA65} {
		for i := 0; i < 200000; i++ {
			r := rng.Int32N(Q)
			z := rng.Int32N(int32(2*p.Gamma2+1)) - int32(p.Gamma2)
			h := MakeHint(p, z, r)
			if got, want := UseHint(p, h, r), HighBits(p, modQ(int64(r)+int64(z))); got != want {
				t.Fatalf("%s: r = %d, z = %d: UseHint = %d, HighBits(r+z) = %d", p.Name, r, z, got, want)
			}
		}
	}
}

func TestConversions(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for i := 0; i < 1000; i++ {
		x := rng.IntN(1 << 20)
		if got := BitsToInteger(IntegerToBits(x, 20), 20); got != x {
			t.Fatalf("BitsToInteger(IntegerToBits(%d)) = %d", x, got)
		}
		b := IntegerToBytes(x, 3)
		if got := int(b[0]) | int(b[1])<<8 | int(b[2])<<16; got != x {
			t.Fatalf("IntegerToBytes(%d) = %x", x, b)
		}
	}
	z := make([]byte, 100)
	for i := range z {
		z[i] = byte(rng.Uint32())
	}
	if got := BitsToBytes(BytesToBits(z)); !bytes.Equal(got, z) {
		t.Fatal("BitsToBytes(BytesToBits(z)) ≠ z")
	}
	for m := 0; m < 256; m++ {
		if BitRev8(BitRev8(uint8(m))) != uint8(m) {
			t.Fatalf("BitRev8 is not an involution at %d", m)
		}
	}
	if BitRev8(1) != 128 || BitRev8(0x0F) != 0xF0 {
		t.Error("BitRev8 reverses the wrong way")
	}
}

func TestPackingRoundTrips(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, b := range []int{1, 15, 43, t1Bound} {
		w := randomPoly(rng, 0, int32(b))
		v := SimpleBitPack(w, b)
		if len(v) != 32*bitlen(b) || SimpleBitUnpack(v, b) != w {
			t.Errorf("SimpleBitPack/Unpack with b = %d", b)
		}
	}
	for _, ab := range [][2]int{{2, 2}, {4, 4}, {t0A, t0B}, {1<<17 - 1, 1 << 17}, {1<<19 - 1, 1 << 19}} {
		w := randomPoly(rng, -int32(ab[0]), int32(ab[1]))
		v := BitPack(w, ab[0], ab[1])
		if len(v) != 32*bitlen(ab[0]+ab[1]) || BitUnpack(v, ab[0], ab[1]) != w {
			t.Errorf("BitPack/Unpack with a, b = %v", ab)
		}
	}
	for _, p := range []Params{MLDSA44, MLDSA65, MLDSA87} {
		rho := make([]byte, 32)
		key := make([]byte, 32)
		tr := make([]byte, 64)
		for _, s := range [][]byte{rho, key, tr} {
			for i := range s {
				s[i] = byte(rng.Uint32())
			}
		}
		vec := func(n int, lo, hi int32) []Poly {
			v := make([]Poly, n)
			for i := range v {
				v[i] = randomPoly(rng, lo, hi)
			}
			return v
		}
		t1 := vec(p.K, 0, t1Bound)
		rho2, t1b, err := PkDecode(p, PkEncode(p, rho, t1))
		if err != nil || !bytes.Equal(rho2, rho) || !equalVec(t1b, t1) {
			t.Errorf("%s: pkDecode(pkEncode) differs (%v)", p.Name, err)
		}
		s1 := vec(p.L, -int32(p.Eta), int32(p.Eta))
		s2 := vec(p.K, -int32(p.Eta), int32(p.Eta))
		t0 := vec(p.K, -t0A, t0B)
		sk := SkEncode(p, rho, key, tr, s1, s2, t0)
		r, k, tr2, s1b, s2b, t0b, err := SkDecode(p, sk)
		if err != nil || len(sk) != p.PrivateKeySize || !bytes.Equal(r, rho) || !bytes.Equal(k, key) ||
			!bytes.Equal(tr2, tr) || !equalVec(s1b, s1) || !equalVec(s2b, s2) || !equalVec(t0b, t0) {
			t.Errorf("%s: skDecode(skEncode) differs (%v)", p.Name, err)
		}
		cTilde := make([]byte, p.Lambda/4)
		for i := range cTilde {
			cTilde[i] = byte(rng.Uint32())
		}
		z := vec(p.L, -int32(p.Gamma1)+1, int32(p.Gamma1))
		h := make([]Poly, p.K)
		for n := 0; n < p.Omega; n++ {
			h[rng.IntN(p.K)][rng.IntN(256)] = 1
		}
		sig := SigEncode(p, cTilde, z, h)
		c2, z2, h2, err := SigDecode(p, sig)
		if err != nil || len(sig) != p.SignatureSize || !bytes.Equal(c2, cTilde) || !equalVec(z2, z) || !equalVec(h2, h) {
			t.Errorf("%s: sigDecode(sigEncode) differs (%v)", p.Name, err)
		}
	}
}

func equalVec(a, b []Poly) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestHintBitUnpackRejects checks each ⊥ case of Algorithm 21.
func TestHintBitUnpackRejects(t *testing.T) {
	p := MLDSA44
	valid := func() []byte {
		h := make([]Poly, p.K)
		h[0][3], h[0][7], h[2][1] = 1, 1, 1
		return HintBitPack(p, h)
	}
	if _, err := HintBitUnpack(p, valid()); err != nil {
		t.Fatalf("valid hint rejected: %v", err)
	}
	for name, corrupt := range map[string]func(y []byte){
		"count decreases (line 4)":    func(y []byte) { y[p.Omega+1] = 1 },
		"count above ω (line 4)":      func(y []byte) { y[p.Omega+3] = byte(p.Omega + 1) },
		"positions unsorted (line 9)": func(y []byte) { y[0], y[1] = 7, 3 },
		"positions equal (line 9)":    func(y []byte) { y[1] = 3 },
		"nonzero padding (line 17)":   func(y []byte) { y[p.Omega-1] = 5 },
	} {
		y := valid()
		corrupt(y)
		if _, err := HintBitUnpack(p, y); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestSkDecodeRejectsOutOfRange checks that s1 and s2 coefficients outside
// [−η, η] are rejected, as SkDecode documents.
func TestSkDecodeRejectsOutOfRange(t *testing.T) {
	for _, p := range []Params{MLDSA44, MLDSA65} {
		_, sk, err := KeyGen(p, make([]byte, 32))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, _, _, _, _, err := SkDecode(p, sk); err != nil {
			t.Fatalf("%s: valid key rejected: %v", p.Name, err)
		}
		// The first field of s1 holds η − s; all ones is η − (2^c − 1) < −η.
		bad := append([]byte{}, sk...)
		bad[128] |= byte(1<<bitlen(2*p.Eta) - 1)
		if _, _, _, _, _, _, err := SkDecode(p, bad); err == nil {
			t.Errorf("%s: out-of-range s1 accepted", p.Name)
		}
		if _, err := Sign(p, bad, []byte("m"), nil, make([]byte, 32)); err == nil {
			t.Errorf("%s: Sign accepted an out-of-range key", p.Name)
		}
		if _, _, _, _, _, _, err := SkDecode(p, sk[1:]); err == nil {
			t.Errorf("%s: short key accepted", p.Name)
		}
	}
}

// TestSignVerify runs the top-level algorithms end to end for every
// parameter set and pre-hash function.
func TestSignVerify(t *testing.T) {
	for _, p := range []Params{MLDSA44, MLDSA65, MLDSA87} {
		pk, sk, err := KeyGen(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		msg, ctx := []byte("message"), []byte("context")
		sig, err := Sign(p, sk, msg, ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := Verify(p, pk, msg, sig, ctx); !ok || err != nil {
			t.Errorf("%s: valid signature rejected: %v", p.Name, err)
		}
		if ok, _ := Verify(p, pk, []byte("massage"), sig, ctx); ok {
			t.Errorf("%s: signature accepted for another message", p.Name)
		}
		if ok, _ := Verify(p, pk, msg, sig, nil); ok {
			t.Errorf("%s: signature accepted for another context", p.Name)
		}
		sig[0] ^= 1
		if ok, _ := Verify(p, pk, msg, sig, ctx); ok {
			t.Errorf("%s: modified signature accepted", p.Name)
		}
		long := make([]byte, 256)
		if _, err := Sign(p, sk, msg, long, nil); err == nil {
			t.Errorf("%s: Sign accepted a 256-byte context", p.Name)
		}
		if _, err := Verify(p, pk, msg, sig, long); err == nil {
			t.Errorf("%s: Verify accepted a 256-byte context", p.Name)
		}
		if _, err := Sign(p, sk, msg, long[:255], nil); err != nil {
			t.Errorf("%s: Sign rejected a 255-byte context: %v", p.Name, err)
		}
		for ph := SHA224; ph <= SHAKE256; ph++ {
			if p != MLDSA44 && ph != SHA512 {
				continue // one parameter set covers every PH
			}
			sig, err := HashMLDSASign(p, sk, msg, ctx, ph, nil)
			if err != nil {
				t.Fatalf("%s, %v: %v", p.Name, ph, err)
			}
			if ok, err := HashMLDSAVerify(p, pk, msg, sig, ctx, ph); !ok || err != nil {
				t.Errorf("%s, %v: valid signature rejected: %v", p.Name, ph, err)
			}
			if ok, _ := Verify(p, pk, msg, sig, ctx); ok {
				t.Errorf("%s, %v: HashML-DSA signature accepted as ML-DSA", p.Name, ph)
			}
			if got, err := PreHashByName(ph.String()); err != nil || got != ph {
				t.Errorf("PreHashByName(%q) = %v, %v", ph.String(), got, err)
			}
		}
	}
}

// TestExternalMu checks that signing from μ equals signing M′, with μ
// computed as Algorithm 7, line 6 does.
func TestExternalMu(t *testing.T) {
	p := MLDSA65
	pk, sk, _ := KeyGen(p, make([]byte, 32))
	Mp := []byte("formatted message")
	rnd := make([]byte, 32)
	sig, err := SignInternal(p, sk, Mp, rnd)
	if err != nil {
		t.Fatal(err)
	}
	mu := hashH(append(hashH(pk, 64), Mp...), 64)
	sig2, err := SignInternalMu(p, sk, mu, rnd)
	if err != nil || !bytes.Equal(sig, sig2) {
		t.Fatalf("external μ signature differs (%v)", err)
	}
	if ok, err := VerifyInternalMu(p, pk, mu, sig); !ok || err != nil {
		t.Errorf("VerifyInternalMu rejected: %v", err)
	}
	if _, err := SignInternalMu(p, sk, mu[:63], rnd); err == nil {
		t.Error("63-byte μ accepted")
	}
}

// TestMalformedInputs feeds random keys and signatures of right and wrong
// sizes to the functions that take outside input: they must return false
// or an error, never panic or accept.
func TestMalformedInputs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	for _, p := range []Params{MLDSA44, MLDSA65, MLDSA87} {
		for _, d := range []int{-1, 0, 1} {
			for i := 0; i < 5; i++ {
				pk, sig := random(p.PublicKeySize+d), random(p.SignatureSize+d)
				if i%2 == 0 && d == 0 {
					// An empty hint decodes, so verification runs to its end.
					clear(sig[len(sig)-p.Omega-p.K:])
					if _, _, _, err := SigDecode(p, sig); err != nil {
						t.Fatalf("%s: empty hint rejected: %v", p.Name, err)
					}
				}
				if ok, _ := Verify(p, pk, []byte("m"), sig, nil); ok {
					t.Errorf("%s: random signature accepted", p.Name)
				}
				if ok, _ := VerifyInternalMu(p, pk, random(64), sig); ok {
					t.Errorf("%s: random signature accepted from μ", p.Name)
				}
				_, _, _, _ = SigDecode(p, sig)
				_, _, _ = PkDecode(p, pk)
				_, _, _, _, _, _, _ = SkDecode(p, random(p.PrivateKeySize+d))
				_, _ = HintBitUnpack(p, random(p.Omega+p.K+d))
				_, _ = Sign(p, random(p.PrivateKeySize+d), []byte("m"), nil, random(32))
			}
		}
	}
}
