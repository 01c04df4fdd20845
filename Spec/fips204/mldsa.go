package fips204

import (
	"crypto/rand"
	"errors"
	"fmt"
)

// KeyGen generates a key pair (pk, sk). ξ is the 32-byte seed of line 1:
// nil draws it from crypto/rand, otherwise the caller supplies it (as the
// ACVP and Wycheproof vectors do).
//
// It implements ML-DSA.KeyGen, according to FIPS 204, Algorithm 1.
func KeyGen(p Params, xi []byte) (pk, sk []byte, err error) {
	if xi == nil {
		xi = make([]byte, 32) // line 1
		if _, err := rand.Read(xi); err != nil {
			return nil, nil, fmt.Errorf("fips204: ML-DSA.KeyGen: %w", err) // lines 2–4
		}
	}
	if len(xi) != 32 {
		return nil, nil, fmt.Errorf("fips204: ML-DSA.KeyGen: seed ξ is %d bytes, want 32", len(xi))
	}
	pk, sk = KeyGenInternal(p, xi) // line 5
	return pk, sk, nil
}

// messagePrefix is IntegerToBytes(domain, 1) ‖ IntegerToBytes(|ctx|, 1) ‖
// ctx, the start of M′ in Algorithms 2–5. A context longer than 255 bytes
// is ⊥ (Algorithm 2, line 1).
func messagePrefix(domain int, ctx []byte) ([]byte, error) {
	if len(ctx) > 255 {
		return nil, fmt.Errorf("fips204: context is %d bytes, longer than 255", len(ctx))
	}
	return append(append(IntegerToBytes(domain, 1), IntegerToBytes(len(ctx), 1)...), ctx...), nil
}

// randomness returns rnd, or 32 fresh bytes from crypto/rand if rnd is nil
// (Algorithm 2, lines 5–8).
func randomness(rnd []byte) ([]byte, error) {
	if rnd == nil {
		rnd = make([]byte, 32)
		if _, err := rand.Read(rnd); err != nil {
			return nil, fmt.Errorf("fips204: %w", err)
		}
	}
	if len(rnd) != 32 {
		return nil, fmt.Errorf("fips204: rnd is %d bytes, want 32", len(rnd))
	}
	return rnd, nil
}

// Sign signs the message M with context ctx. rnd is the 32-byte value of
// line 5: nil draws fresh bytes from crypto/rand (hedged), 32 zero bytes
// give the deterministic variant.
//
// It implements ML-DSA.Sign, according to FIPS 204, Algorithm 2.
func Sign(p Params, sk, M, ctx, rnd []byte) ([]byte, error) {
	prefix, err := messagePrefix(0, ctx) // lines 1–3
	if err != nil {
		return nil, err
	}
	if rnd, err = randomness(rnd); err != nil { // lines 5–8
		return nil, err
	}
	Mp := append(prefix, M...)          // line 10
	return SignInternal(p, sk, Mp, rnd) // lines 11–12
}

// Verify reports whether σ is a valid signature of M with context ctx by
// pk. It returns an error (⊥) for a context longer than 255 bytes or a
// public key or signature of the wrong size.
//
// It implements ML-DSA.Verify, according to FIPS 204, Algorithm 3.
func Verify(p Params, pk, M, sigma, ctx []byte) (bool, error) {
	prefix, err := messagePrefix(0, ctx) // lines 1–3
	if err != nil {
		return false, err
	}
	Mp := append(prefix, M...)              // line 5
	return VerifyInternal(p, pk, Mp, sigma) // line 6
}

// KeyGenInternal generates a key pair from the 32-byte seed ξ.
//
// It implements ML-DSA.KeyGen_internal, according to FIPS 204, Algorithm 6.
func KeyGenInternal(p Params, xi []byte) (pk, sk []byte) {
	return KeyGenOver[byte, Poly](Values{p}, p, xi)
}

// SignInternal signs the formatted message M′ with the 32-byte rnd.
//
// It implements ML-DSA.Sign_internal, according to FIPS 204, Algorithm 7.
func SignInternal(p Params, sk, Mp, rnd []byte) ([]byte, error) {
	return signInternal(p, sk, rnd, func(tr []byte) []byte {
		return hashH(append(append([]byte{}, tr...), Mp...), 64) // line 6
	})
}

// SignInternalMu is SignInternal given μ (64 bytes) directly instead of
// computing it from tr and M′ at line 6: the "external μ" form of
// Algorithm 7 that FIPS 204, §6.2 allows.
func SignInternalMu(p Params, sk, mu, rnd []byte) ([]byte, error) {
	if len(mu) != 64 {
		return nil, fmt.Errorf("fips204: μ is %d bytes, want 64", len(mu))
	}
	return signInternal(p, sk, rnd, func([]byte) []byte { return mu })
}

// signInternal is Algorithm 7, with line 6 (μ) left to the caller: it
// makes the forms of sk SignOver takes (lines 1 to 5) and runs SignOver
// over Values.
func signInternal(p Params, sk, rnd []byte, muOf func(tr []byte) []byte) ([]byte, error) {
	if len(rnd) != 32 {
		return nil, fmt.Errorf("fips204: rnd is %d bytes, want 32", len(rnd))
	}
	rho, key, tr, s1, s2, t0, err := SkDecode(p, sk) // line 1
	if err != nil {
		return nil, err
	}
	s1Hat, s2Hat, t0Hat := vecNTT(s1), vecNTT(s2), vecNTT(t0) // lines 2 to 4
	aHat := ExpandA(p, rho)                                   // line 5
	mu := muOf(tr)                                            // line 6
	sigma, ok := SignOver[byte, Poly](Values{p}, p, aHat, s1Hat, s2Hat, t0Hat, key, mu, rnd)
	if !ok {
		return nil, errors.New("fips204: ML-DSA.Sign_internal: rejection loop reached its Appendix C bound of 814 iterations")
	}
	return sigma, nil
}

// countOnes is the number of 1's in a hint.
func countOnes(h []Poly) int {
	n := 0
	for _, w := range h {
		for _, c := range w {
			n += int(c)
		}
	}
	return n
}

// SignIterations bounds Algorithm 7's loop: FIPS 204, Appendix C, Table 3
// lets an implementation stop after no fewer than 814 iterations, which a
// correct signer exceeds with probability below 2⁻²⁵⁶. The library stops
// at the same count.
const SignIterations = 814

// VerifyInternal reports whether σ is a valid signature of the formatted
// message M′ by pk. It returns an error if pk or σ has the wrong size.
//
// It implements ML-DSA.Verify_internal, according to FIPS 204, Algorithm 8.
func VerifyInternal(p Params, pk, Mp, sigma []byte) (bool, error) {
	return verifyInternal(p, pk, sigma, func(tr []byte) []byte {
		return hashH(append(append([]byte{}, tr...), Mp...), 64) // line 7
	})
}

// VerifyInternalMu is VerifyInternal given μ (64 bytes) directly instead
// of computing it from tr and M′ at line 7 (external μ, §6.3).
func VerifyInternalMu(p Params, pk, mu, sigma []byte) (bool, error) {
	if len(mu) != 64 {
		return false, fmt.Errorf("fips204: μ is %d bytes, want 64", len(mu))
	}
	return verifyInternal(p, pk, sigma, func([]byte) []byte { return mu })
}

// verifyInternal is Algorithm 8, with line 7 (μ) left to the caller: it
// makes the forms of pk VerifyOver takes (lines 1, 5 and 6, and
// NTT(t1·2^d) of line 9) and runs VerifyOver over Values.
func verifyInternal(p Params, pk, sigma []byte, muOf func(tr []byte) []byte) (bool, error) {
	rho, t1, err := PkDecode(p, pk) // line 1
	if err != nil {
		return false, err
	}
	if len(sigma) != p.SignatureSize {
		return false, fmt.Errorf("fips204: signature is %d bytes, want %d for %s", len(sigma), p.SignatureSize, p.Name)
	}
	aHat := ExpandA(p, rho)                                                            // line 5
	tr := hashH(pk, 64)                                                                // line 6
	mu := muOf(tr)                                                                     // line 7
	t1Hat := vecNTT(mapCoeffs(t1, func(c int32) int32 { return modQ(int64(c) << D) })) // line 9: NTT(t1·2^d)
	return VerifyOver[byte, Poly](Values{p}, p, aHat, t1Hat, mu, sigma) == 1, nil
}
