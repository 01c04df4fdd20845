// Package fips204 is the **Trusted** executable specification of ML-DSA,
// the Module-Lattice-Based Digital Signature Standard, as FIPS 204 (August
// 13, 2024, https://doi.org/10.6028/NIST.FIPS.204) writes it.
//
// Each exported function implements one algorithm of FIPS 204 and is named
// after it; its doc comment says "It implements X, according to FIPS 204,
// Algorithm N", and comments in its body cite the algorithm's lines. The
// code is written to be read against the standard, not to be fast or
// constant time: it must never be used to handle real secrets.
//
// Conventions: a ring element of R or R_q is a Poly of 256 integer
// coefficients. Elements of R_q are held with coefficients in [0, q) unless
// a comment says otherwise; elements of R (s1, s2, t0, z, hints) hold their
// integer values, which may be negative. A vector of R^k is a []Poly and a
// matrix of R^{k×ℓ} is a [][]Poly indexed [row][column]. Bit strings are
// []byte holding one bit (0 or 1) per byte. Where FIPS 204 returns ⊥, these
// functions return false or an error. Hash functions (§3.7): H is SHAKE256
// and G is SHAKE128, from Spec/fips202. Comments cite lines as "line L";
// where a line number is not certain the comment quotes the pseudocode
// instead.
//
// The rejection samplers (Algorithms 29–31) loop as FIPS 204 writes them,
// without the bounds Appendix C allows: they end with probability 1, and a
// bound would only change the result on inputs no test can reach. The
// signing loop (Algorithm 7) stops at Appendix C, Table 3's 814 iterations
// with an error.
//
// Decoding is stricter than the pseudocode in two places, both documented
// where they happen: a key or signature of the wrong length is an error
// (the algorithms take inputs of the right length as given), and SkDecode
// rejects s1, s2 coefficients outside [−η, η] (§7.2 leaves such keys
// undefined). The other building blocks take inputs of the sizes and ranges
// FIPS 204 gives them, as its pseudocode does, and may panic (an index out
// of range) on others; the functions that take outside input (Algorithms
// 1–8, PkDecode, SkDecode, SigDecode, HintBitUnpack) check it and return
// errors.
package fips204

// Constants of FIPS 204, §4, Table 1, common to all parameter sets.
const (
	// Q is the modulus q = 2²³ − 2¹³ + 1 = 8380417.
	Q = 1<<23 - 1<<13 + 1
	// Zeta is ζ = 1753, a primitive 512th root of unity modulo q.
	Zeta = 1753
	// D is d, the number of dropped bits from t.
	D = 13
)

// Params is one parameter set of FIPS 204, §4, Table 1, with the sizes of
// Table 2 derived from it.
type Params struct {
	Name   string // "ML-DSA-44", "ML-DSA-65" or "ML-DSA-87"
	Q      int    // modulus q
	Zeta   int    // ζ, a 512th root of unity in ℤq
	D      int    // d, dropped bits from t
	Tau    int    // τ, number of ±1's in the polynomial c
	Lambda int    // λ, collision strength of c̃
	Gamma1 int    // γ1, coefficient range of y
	Gamma2 int    // γ2, low-order rounding range
	K      int    // k, rows of A
	L      int    // ℓ, columns of A
	Eta    int    // η, private key range
	Beta   int    // β = τ·η
	Omega  int    // ω, maximum number of 1's in the hint h

	PublicKeySize  int // Table 2: 32 + 32·k·(bitlen(q−1) − d)
	PrivateKeySize int // Table 2: 32 + 32 + 64 + 32·((k+ℓ)·bitlen(2η) + d·k)
	SignatureSize  int // Table 2: λ/4 + ℓ·32·(1 + bitlen(γ1−1)) + ω + k
}

// newParams completes a Table 1 row with the derived values.
func newParams(name string, tau, lambda, gamma1, gamma2, k, l, eta, omega int) Params {
	p := Params{
		Name: name, Q: Q, Zeta: Zeta, D: D,
		Tau: tau, Lambda: lambda, Gamma1: gamma1, Gamma2: gamma2,
		K: k, L: l, Eta: eta, Beta: tau * eta, Omega: omega,
	}
	p.PublicKeySize = 32 + 32*k*(bitlen(Q-1)-D)
	p.PrivateKeySize = 32 + 32 + 64 + 32*((k+l)*bitlen(2*eta)+D*k)
	p.SignatureSize = lambda/4 + l*32*(1+bitlen(gamma1-1)) + omega + k
	return p
}

// The parameter sets of FIPS 204, §4, Table 1.
var (
	MLDSA44 = newParams("ML-DSA-44", 39, 128, 1<<17, (Q-1)/88, 4, 4, 2, 80)
	MLDSA65 = newParams("ML-DSA-65", 49, 192, 1<<19, (Q-1)/32, 6, 5, 4, 55)
	MLDSA87 = newParams("ML-DSA-87", 60, 256, 1<<19, (Q-1)/32, 8, 7, 2, 75)
)

// ParamsByName returns the parameter set called name ("ML-DSA-44", ...).
func ParamsByName(name string) (Params, bool) {
	for _, p := range []Params{MLDSA44, MLDSA65, MLDSA87} {
		if p.Name == name {
			return p, true
		}
	}
	return Params{}, false
}

// bitlen is bitlen a, the length of the binary representation of a
// positive integer a (§2.3).
func bitlen(a int) int {
	n := 0
	for ; a > 0; a >>= 1 {
		n++
	}
	return n
}
