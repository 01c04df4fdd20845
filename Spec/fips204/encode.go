package fips204

import (
	"errors"
	"fmt"
)

// IntegerToBits returns the α-bit little-endian binary representation of x
// (bit string, one bit per byte).
//
// It implements IntegerToBits, according to FIPS 204, Algorithm 9.
func IntegerToBits(x int, alpha int) []byte {
	y := make([]byte, alpha)
	xp := x                      // line 1
	for i := 0; i < alpha; i++ { // line 2
		y[i] = byte(xp % 2) // line 3
		xp /= 2             // line 4
	}
	return y // line 6
}

// BitsToInteger returns the integer whose α-bit little-endian binary
// representation is y.
//
// It implements BitsToInteger, according to FIPS 204, Algorithm 10.
func BitsToInteger(y []byte, alpha int) int {
	x := 0                        // line 1
	for i := 1; i <= alpha; i++ { // line 2
		x = 2*x + int(y[alpha-i]) // line 3
	}
	return x // line 5
}

// IntegerToBytes returns the α-byte little-endian representation of x.
//
// It implements IntegerToBytes, according to FIPS 204, Algorithm 11.
func IntegerToBytes(x int, alpha int) []byte {
	y := make([]byte, alpha)
	xp := x                      // line 1
	for i := 0; i < alpha; i++ { // line 2
		y[i] = byte(xp % 256) // line 3
		xp /= 256             // line 4
	}
	return y // line 6
}

// BitsToBytes converts a bit string of length a multiple of 8 to bytes.
//
// It implements BitsToBytes, according to FIPS 204, Algorithm 12.
func BitsToBytes(y []byte) []byte {
	z := make([]byte, (len(y)+7)/8) // line 1
	for i := range y {              // line 2
		z[i/8] += y[i] << (i % 8) // line 3
	}
	return z // line 5
}

// BytesToBits converts bytes to a bit string.
//
// It implements BytesToBits, according to FIPS 204, Algorithm 13.
func BytesToBits(z []byte) []byte {
	y := make([]byte, 8*len(z))
	for i := range z { // line 2
		zp := z[i]               // line 1: z′ ← z
		for j := 0; j < 8; j++ { // line 3
			y[8*i+j] = zp % 2 // line 4
			zp /= 2           // line 5
		}
	}
	return y // line 8
}

// CoeffFromThreeBytes turns three bytes into an element of ℤq, or reports
// false (⊥) when they encode q or more.
//
// It implements CoeffFromThreeBytes, according to FIPS 204, Algorithm 14.
func CoeffFromThreeBytes(b0, b1, b2 byte) (int32, bool) {
	b2p := int32(b2) // line 1
	if b2p > 127 {   // line 2
		b2p -= 128 // line 3: clear the top bit
	}
	z := 1<<16*b2p + 1<<8*int32(b1) + int32(b0) // line 5
	if z < Q {                                  // line 6
		return z, true
	}
	return 0, false // line 7
}

// CoeffFromHalfByte turns a half-byte b (0 ≤ b < 16) into an element of
// [−η, η], or reports false (⊥).
//
// It implements CoeffFromHalfByte, according to FIPS 204, Algorithm 15.
func CoeffFromHalfByte(p Params, b byte) (int32, bool) {
	if p.Eta == 2 && b < 15 { // if η = 2 and b < 15 then return 2 − (b mod 5)
		return 2 - int32(b%5), true
	}
	if p.Eta == 4 && b < 9 { // else if η = 4 and b < 9 then return 4 − b
		return 4 - int32(b), true
	}
	return 0, false // else return ⊥
}

// SimpleBitPack encodes w, whose coefficients are in [0, b], into
// 32·bitlen(b) bytes.
//
// It implements SimpleBitPack, according to FIPS 204, Algorithm 16.
func SimpleBitPack(w Poly, b int) []byte {
	var z []byte               // line 1
	for i := 0; i < 256; i++ { // line 2
		z = append(z, IntegerToBits(int(w[i]), bitlen(b))...) // line 3
	}
	return BitsToBytes(z) // line 5
}

// BitPack encodes w, whose coefficients are in [−a, b], into
// 32·bitlen(a+b) bytes.
//
// It implements BitPack, according to FIPS 204, Algorithm 17.
func BitPack(w Poly, a, b int) []byte {
	var z []byte               // line 1
	for i := 0; i < 256; i++ { // line 2
		z = append(z, IntegerToBits(b-int(w[i]), bitlen(a+b))...) // line 3
	}
	return BitsToBytes(z) // line 5
}

// SimpleBitUnpack decodes 32·bitlen(b) bytes into a polynomial with
// coefficients in [0, 2^bitlen(b) − 1] (in [0, b] when v was produced by
// SimpleBitPack).
//
// It implements SimpleBitUnpack, according to FIPS 204, Algorithm 18.
func SimpleBitUnpack(v []byte, b int) Poly {
	c := bitlen(b)      // line 1
	z := BytesToBits(v) // line 2
	var w Poly
	for i := 0; i < 256; i++ { // line 3
		w[i] = int32(BitsToInteger(z[i*c:i*c+c], c)) // line 4
	}
	return w // line 6
}

// BitUnpack decodes 32·bitlen(a+b) bytes into a polynomial with
// coefficients in [b − 2^c + 1, b], c = bitlen(a+b) (in [−a, b] when v was
// produced by BitPack).
//
// It implements BitUnpack, according to FIPS 204, Algorithm 19.
func BitUnpack(v []byte, a, b int) Poly {
	c := bitlen(a + b)  // line 1
	z := BytesToBits(v) // line 2
	var w Poly
	for i := 0; i < 256; i++ { // line 3
		w[i] = int32(b - BitsToInteger(z[i*c:i*c+c], c)) // line 4
	}
	return w // line 6
}

// HintBitPack encodes a hint h (k polynomials with binary coefficients and
// at most ω ones in total) into ω + k bytes.
//
// It implements HintBitPack, according to FIPS 204, Algorithm 20.
func HintBitPack(p Params, h []Poly) []byte {
	y := make([]byte, p.Omega+p.K) // line 1
	index := 0                     // line 2
	for i := 0; i < p.K; i++ {     // line 3
		for j := 0; j < 256; j++ { // line 4
			index = HintBitPackStep(p.Omega, y, i, j, index, h[i][j], toByte)
		}
	}
	return y // line 12
}

// HintBitPackStep is Algorithm 20's loop of line 4 at coefficient j of
// polynomial i with Index: lines 5 to 7, then, after the last coefficient
// (j = 255), line 10. It returns Index. b(n) is the byte n as y holds it.
//
// It is generic so that a checker runs this code itself on its own
// reading of y (Spec/check's HintBitPack proof), the same code
// HintBitPack runs on bytes.
func HintBitPackStep[B any](ω int, y []B, i, j, index int, hij int32, b func(int) B) int {
	if hij != 0 { // line 5
		y[index] = b(j) // line 6
		index++         // line 7
	}
	if j == 255 { // the loop of line 4 done
		y[ω+i] = b(index) // line 10
	}
	return index
}

// toByte is n as a byte, for HintBitPackStep.
func toByte(n int) byte { return byte(n) }

// errHint is the ⊥ of HintBitUnpack.
var errHint = errors.New("fips204: HintBitUnpack: malformed hint encoding")

// HintBitUnpack decodes ω + k bytes into a hint, or returns an error (⊥) if
// the encoding is malformed: counts out of order or above ω, positions not
// strictly increasing within a polynomial, or nonzero unused positions.
//
// It implements HintBitUnpack, according to FIPS 204, Algorithm 21.
func HintBitUnpack(p Params, y []byte) ([]Poly, error) {
	if len(y) != p.Omega+p.K {
		return nil, errHint
	}
	h := make([]Poly, p.K)     // line 1
	index := 0                 // line 2
	for i := 0; i < p.K; i++ { // line 3
		if HintBitUnpackCount(p.Omega, index, int(y[p.Omega+i])) { // line 4
			return nil, errHint
		}
		first := index                  // line 6
		for index < int(y[p.Omega+i]) { // line 7
			set := func(b byte) { h[i][b] = 1 }
			if HintBitUnpackPosition(y, index, first, hintGeq, hintBot, set) { // lines 8 to 12
				return nil, errHint
			}
			index++ // line 13
		}
	}
	for i := index; i < p.Omega; i++ { // line 16
		if HintBitUnpackPadding(y, i, hintNonzero, hintBot) { // line 17
			return nil, errHint
		}
	}
	return h, nil // line 20
}

// Algorithm 21's checks (lines 4, 9 and 17) and line 12 are exported
// steps, generic over the bytes of y (V) and the conditions on them (B),
// so that a checker runs this code itself on its own reading of y
// (Spec/check's HintBitUnpack proof), the same code HintBitUnpack runs on
// bytes. A step returns ⊥ (true) where bot(c) does for the condition c its
// line tests: HintBitUnpack's bot is c itself (hintBot).

// HintBitUnpackCount is Algorithm 21's line 4 at Index with the count
// y[ω + i] of polynomial i: whether it returns ⊥.
func HintBitUnpackCount(ω, index, count int) bool {
	return count < index || count > ω // line 4
}

// HintBitUnpackPosition is Algorithm 21's loop of line 7 at Index, lines 8
// to 12, with First (line 6): whether line 9 returns ⊥, on ge(y[Index −
// 1], y[Index]) (y[Index − 1] ≥ y[Index]), and else set(y[Index]), line
// 12's h[i]_y[Index] ← 1.
func HintBitUnpackPosition[V, B any](y []V, index, first int, ge func(V, V) B, bot func(B) bool, set func(V)) bool {
	if index > first { // line 8
		if bot(ge(y[index-1], y[index])) { // line 9
			return true
		}
	}
	set(y[index]) // line 12
	return false
}

// HintBitUnpackPadding is Algorithm 21's loop of line 16 at i, line 17:
// whether it returns ⊥, on nonzero(y[i]) (y[i] ≠ 0).
func HintBitUnpackPadding[V, B any](y []V, i int, nonzero func(V) B, bot func(B) bool) bool {
	return bot(nonzero(y[i])) // line 17
}

// hintGeq, hintNonzero and hintBot are HintBitUnpack's operations on
// bytes for its steps.
func hintGeq(a, b byte) bool  { return a >= b }
func hintNonzero(a byte) bool { return a != 0 }
func hintBot(c bool) bool     { return c }

// t1Bound is the bound 2^(bitlen(q−1)−d) − 1 on the coefficients of t1
// (Algorithms 22 and 23).
const t1Bound = 1<<(23-D) - 1

// PkEncode encodes a public key: ρ (32 bytes) and t1 (k polynomials with
// coefficients in [0, 2^(bitlen(q−1)−d) − 1]).
//
// It implements pkEncode, according to FIPS 204, Algorithm 22.
func PkEncode(p Params, rho []byte, t1 []Poly) []byte {
	return pkEncodeOver[byte, Poly](Values{p}, p, rho, t1)
}

// PkDecode decodes a public key into (ρ, t1). It returns an error if pk is
// not PublicKeySize bytes long: FIPS 204 takes pk ∈ B^(32+32k(bitlen(q−1)−d))
// as given, so another length is not a public key.
//
// It implements pkDecode, according to FIPS 204, Algorithm 23.
func PkDecode(p Params, pk []byte) (rho []byte, t1 []Poly, err error) {
	if len(pk) != p.PublicKeySize {
		return nil, nil, fmt.Errorf("fips204: pkDecode: public key is %d bytes, want %d for %s", len(pk), p.PublicKeySize, p.Name)
	}
	rho = pk[:32] // line 1
	z := pk[32:]
	n := 32 * bitlen(t1Bound)
	t1 = make([]Poly, p.K)
	for i := 0; i < p.K; i++ { // line 2
		t1[i] = SimpleBitUnpack(z[i*n:(i+1)*n], t1Bound) // line 3
	}
	return rho, t1, nil // line 5
}

// t0 coefficients are in [−(2^(d−1) − 1), 2^(d−1)] (Algorithms 24 and 25).
const (
	t0A = 1<<(D-1) - 1
	t0B = 1 << (D - 1)
)

// SkEncode encodes a private key (ρ, K, tr, s1, s2, t0).
//
// It implements skEncode, according to FIPS 204, Algorithm 24.
func SkEncode(p Params, rho, key, tr []byte, s1, s2, t0 []Poly) []byte {
	return skEncodeOver[byte, Poly](Values{p}, p, rho, key, tr, s1, s2, t0)
}

// SkDecode decodes a private key into (ρ, K, tr, s1, s2, t0).
//
// It returns an error if sk is not PrivateKeySize bytes long, or if a
// coefficient of s1 or s2 lies outside [−η, η]. Algorithm 25 itself has no
// failure case: its comments say s1 and s2 "may lie outside [−η, η] if
// input is malformed", and §7.2 says skDecode should only be run on inputs
// from trusted sources. Every private key KeyGen can produce has s1, s2 in
// [−η, η] (Algorithm 33 via Algorithm 15), so rejecting the others refuses
// exactly the keys FIPS 204 does not define, instead of signing with them.
// (t0 needs no check: its 13-bit fields decode to all of
// [−(2^(d−1) − 1), 2^(d−1)].)
//
// It implements skDecode, according to FIPS 204, Algorithm 25.
func SkDecode(p Params, sk []byte) (rho, key, tr []byte, s1, s2, t0 []Poly, err error) {
	if len(sk) != p.PrivateKeySize {
		err = fmt.Errorf("fips204: skDecode: private key is %d bytes, want %d for %s", len(sk), p.PrivateKeySize, p.Name)
		return
	}
	rho, key, tr = sk[:32], sk[32:64], sk[64:128] // line 1
	rest := sk[128:]
	ns := 32 * bitlen(2*p.Eta)
	next := func(n int) []byte {
		b := rest[:n]
		rest = rest[n:]
		return b
	}
	s1 = make([]Poly, p.L)
	for i := 0; i < p.L; i++ { // line 2
		s1[i] = BitUnpack(next(ns), p.Eta, p.Eta) // line 3
	}
	s2 = make([]Poly, p.K)
	for i := 0; i < p.K; i++ { // line 5
		s2[i] = BitUnpack(next(ns), p.Eta, p.Eta) // line 6
	}
	t0 = make([]Poly, p.K)
	for i := 0; i < p.K; i++ { // line 8
		t0[i] = BitUnpack(next(32*D), t0A, t0B) // line 9
	}
	for _, v := range [][]Poly{s1, s2} {
		for _, w := range v {
			for _, c := range w {
				if c < -int32(p.Eta) || c > int32(p.Eta) {
					err = fmt.Errorf("fips204: skDecode: a coefficient of s1 or s2 is %d, outside [−η, η] = [−%d, %d]", c, p.Eta, p.Eta)
					return nil, nil, nil, nil, nil, nil, err
				}
			}
		}
	}
	return rho, key, tr, s1, s2, t0, nil // line 11
}

// SigEncode encodes a signature (c̃, z, h); z has coefficients in
// [−γ1 + 1, γ1] (z mod± q).
//
// It implements sigEncode, according to FIPS 204, Algorithm 26.
func SigEncode(p Params, cTilde []byte, z []Poly, h []Poly) []byte {
	return sigEncodeOver[byte, Poly](Values{p}, p, cTilde, z, h)
}

// SigDecode decodes a signature into (c̃, z, h). It returns an error if σ
// is not SignatureSize bytes long, or (⊥) if HintBitUnpack rejects the hint.
//
// It implements sigDecode, according to FIPS 204, Algorithm 27.
func SigDecode(p Params, sigma []byte) (cTilde []byte, z []Poly, h []Poly, err error) {
	if len(sigma) != p.SignatureSize {
		return nil, nil, nil, fmt.Errorf("fips204: sigDecode: signature is %d bytes, want %d for %s", len(sigma), p.SignatureSize, p.Name)
	}
	cTilde = sigma[:p.Lambda/4] // line 1
	rest := sigma[p.Lambda/4:]
	nz := 32 * (1 + bitlen(p.Gamma1-1))
	z = make([]Poly, p.L)
	for i := 0; i < p.L; i++ { // line 2
		z[i] = BitUnpack(rest[i*nz:(i+1)*nz], p.Gamma1-1, p.Gamma1) // line 3
	}
	h, err = HintBitUnpack(p, rest[p.L*nz:]) // line 5
	if err != nil {
		return nil, nil, nil, err
	}
	return cTilde, z, h, nil // line 6
}

// W1Encode encodes w1, whose coefficients are in [0, (q−1)/(2γ2) − 1].
//
// It implements w1Encode, according to FIPS 204, Algorithm 28.
func W1Encode(p Params, w1 []Poly) []byte {
	var w1Tilde []byte         // line 1
	for i := 0; i < p.K; i++ { // line 2
		w1Tilde = append(w1Tilde, SimpleBitPack(w1[i], (Q-1)/(2*p.Gamma2)-1)...) // line 3
	}
	return w1Tilde // line 5
}
