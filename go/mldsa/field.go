package mldsa

// The ring R_q = ℤ_q[X]/(X²⁵⁶ + 1) and its NTT domain T_q (FIPS 204, §2.3
// and §7.5).

const (
	n256 = 256
	q    = 1<<23 - 1<<13 + 1 // 2²³ − 2¹³ + 1 = 8380417
)

// fieldElement is an element of ℤ_q, in [0, q) unless a comment says
// otherwise.
type fieldElement uint32

// ringElement is an element of R_q or T_q: 256 coefficients.
type ringElement [n256]fieldElement
