// Package fips202 is the **Trusted** executable specification of
// Keccak-f[1600] and the SHAKE128 and SHAKE256 extendable-output functions,
// as FIPS 202 (August 2015, https://doi.org/10.6028/NIST.FIPS.202) writes
// them.
//
// It is written to be read against the standard: the five step mappings of
// §3.2 (θ, ρ, π, χ, ι) are separate functions, the round constants are
// computed by rc(t) as §3.2.5, Algorithm 5 writes it, and the rotation
// offsets of ρ are computed as §3.2.2, Algorithm 2 computes them. Nothing is
// a pasted table.
//
// The state is held as 25 lanes of w = 64 bits: lane A[x, y] is a[x+5y], and
// bit z of a lane is bit z of the uint64 (§3.1.2, §3.1.3: the state string
// S is laid out lane by lane, and bytes are little-endian per Appendix B.1).
package fips202

import "math/bits"

// State is the Keccak-f[1600] state as lanes: A[x, y] is State[x+5*y].
type State = [25]uint64

const (
	// w is the lane size and l = log2(w) (Table 1, b = 1600).
	w = 64
	l = 6
	// nr is the number of rounds of Keccak-f[1600] = Keccak-p[1600, 12+2l]
	// (§3.4).
	nr = 12 + 2*l
)

// Lanes is what the step mappings compute with: the five lane operations
// of §3.2 (⊕, AND, complement, rotation, constants). Words is this
// package's own instance on uint64 lanes; a checker may instantiate the
// very same code over symbolic lanes to compare an implementation with
// this text rather than with a second rendering of it.
type Lanes[V any] interface {
	Xor(a, b V) V
	And(a, b V) V
	Not(a V) V
	Rol(a V, n uint) V // rotation towards higher z
	Const(x uint64) V
}

// Words is Lanes on uint64.
type Words struct{}

func (Words) Xor(a, b uint64) uint64      { return a ^ b }
func (Words) And(a, b uint64) uint64      { return a & b }
func (Words) Not(a uint64) uint64         { return ^a }
func (Words) Rol(a uint64, n uint) uint64 { return bits.RotateLeft64(a, int(n)) }
func (Words) Const(x uint64) uint64       { return x }

// lane returns A[x, y] with x and y taken mod 5.
func lane[V any](a *[25]V, x, y int) V { return a[mod5(x)+5*mod5(y)] }

func mod5(x int) int { return ((x % 5) + 5) % 5 }

// theta is θ, §3.2.1, Algorithm 1.
func theta[V any](o Lanes[V], a [25]V) [25]V {
	var c, d [5]V
	// Step 1: C[x, z] = A[x,0,z] ⊕ A[x,1,z] ⊕ A[x,2,z] ⊕ A[x,3,z] ⊕ A[x,4,z].
	for x := 0; x < 5; x++ {
		c[x] = o.Xor(o.Xor(o.Xor(o.Xor(lane(&a, x, 0), lane(&a, x, 1)), lane(&a, x, 2)), lane(&a, x, 3)), lane(&a, x, 4))
	}
	// Step 2: D[x, z] = C[(x−1) mod 5, z] ⊕ C[(x+1) mod 5, (z−1) mod w],
	// that is, C[x+1] rotated towards higher z by one.
	for x := 0; x < 5; x++ {
		d[x] = o.Xor(c[mod5(x-1)], o.Rol(c[mod5(x+1)], 1))
	}
	// Step 3: A′[x, y, z] = A[x, y, z] ⊕ D[x, z].
	var out [25]V
	for y := 0; y < 5; y++ {
		for x := 0; x < 5; x++ {
			out[x+5*y] = o.Xor(lane(&a, x, y), d[x])
		}
	}
	return out
}

// rhoOffsets computes the offsets of ρ, §3.2.2, Algorithm 2: lane (x, y)
// visited at step t is rotated by (t+1)(t+2)/2, and A[0, 0] is not rotated.
func rhoOffsets() [25]int {
	var off [25]int
	x, y := 1, 0 // Step 2.
	for t := 0; t <= 23; t++ {
		off[x+5*y] = ((t + 1) * (t + 2) / 2) % w // Step 3a.
		x, y = y, mod5(2*x+3*y)                  // Step 3b.
	}
	return off
}

var rotationOffsets = rhoOffsets()

// rho is ρ, §3.2.2, Algorithm 2: A′[x, y, z] = A[x, y, (z − offset) mod w],
// which is a left rotation of the lane by offset.
func rho[V any](o Lanes[V], a [25]V) [25]V {
	var out [25]V
	for i := range a {
		out[i] = o.Rol(a[i], uint(rotationOffsets[i]))
	}
	return out
}

// pi is π, §3.2.3, Algorithm 3: A′[x, y, z] = A[(x + 3y) mod 5, x, z].
func pi[V any](a [25]V) [25]V {
	var out [25]V
	for y := 0; y < 5; y++ {
		for x := 0; x < 5; x++ {
			out[x+5*y] = lane(&a, x+3*y, x)
		}
	}
	return out
}

// chi is χ, §3.2.4, Algorithm 4:
// A′[x, y, z] = A[x, y, z] ⊕ ((A[(x+1) mod 5, y, z] ⊕ 1) ⋅ A[(x+2) mod 5, y, z]).
func chi[V any](o Lanes[V], a [25]V) [25]V {
	var out [25]V
	for y := 0; y < 5; y++ {
		for x := 0; x < 5; x++ {
			out[x+5*y] = o.Xor(lane(&a, x, y), o.And(o.Not(lane(&a, x+1, y)), lane(&a, x+2, y)))
		}
	}
	return out
}

// rc is the function rc(t) of §3.2.5, Algorithm 5: the output bit of a
// linear feedback shift register.
func rc(t int) uint64 {
	// Step 1.
	if t%255 == 0 {
		return 1
	}
	// Step 2: R = 10000000, with R[0] the leftmost bit.
	r := [9]uint64{1, 0, 0, 0, 0, 0, 0, 0}
	// Step 3.
	for i := 1; i <= t%255; i++ {
		// a. R = 0 || R.
		var next [9]uint64
		copy(next[1:], r[:8])
		r = next
		// b–e.
		r[0] ^= r[8]
		r[4] ^= r[8]
		r[5] ^= r[8]
		r[6] ^= r[8]
		// f. R = Trunc8[R]: only R[0..7] are read from here on, and the
		// next step 3a drops R[8].
	}
	// Step 4.
	return r[0]
}

// roundConstant is RC of ι for round index ir, §3.2.5, Algorithm 6, steps 2–3:
// RC[2^j − 1] = rc(j + 7ir) for j = 0..l.
func roundConstant(ir int) uint64 {
	var c uint64
	for j := 0; j <= l; j++ {
		c |= rc(j+7*ir) << ((1 << j) - 1)
	}
	return c
}

// roundConstants holds RC for ir = 0 ... 23, computed once by
// roundConstant since rc(t) runs a shift register t mod 255 steps.
var roundConstants = func() (c [nr]uint64) {
	for ir := range c {
		c[ir] = roundConstant(ir)
	}
	return c
}()

// iota is ι, §3.2.5, Algorithm 6: A′[0, 0] = A[0, 0] ⊕ RC.
func iota[V any](o Lanes[V], a [25]V, ir int) [25]V {
	a[0] = o.Xor(a[0], o.Const(roundConstants[ir]))
	return a
}

// Rnd is the round function of §3.3: Rnd(A, ir) = ι(χ(π(ρ(θ(A)))), ir).
func Rnd(a State, ir int) State { return RndOver[uint64](Words{}, a, ir) }

// RndOver is Rnd computed with the lane operations o.
func RndOver[V any](o Lanes[V], a [25]V, ir int) [25]V {
	return iota(o, chi(o, pi(rho(o, theta(o, a)))), ir)
}

// KeccakF1600 applies Keccak-f[1600] = Keccak-p[1600, 24] (§3.4) to the
// state in place, per §3.3, Algorithm 7: rounds ir = 12+2l−nr ... 12+2l−1,
// which for nr = 24 are 0 ... 23.
func KeccakF1600(a *[25]uint64) {
	s := *a
	for ir := 12 + 2*l - nr; ir <= 12+2*l-1; ir++ {
		s = Rnd(s, ir)
	}
	*a = s
}

// SHAKE is a sponge (§4, Algorithm 8) over Keccak-f[1600] with pad10*1
// (§5.1) and the SHAKE domain suffix 1111 (§6.2): SHAKE128(M, d) =
// KECCAK[256](M || 1111, d) and SHAKE256(M, d) = KECCAK[512](M || 1111, d).
//
// Write absorbs M; the first Read pads and then squeezes. Any number of
// Read calls continue one output stream Z. Write after Read panics, since
// the input is already padded.
type SHAKE struct {
	a        State
	rate     int    // r = 1600 − c, in bytes
	buf      []byte // the unprocessed tail of M, or of the squeezed block
	squeezed bool
}

// The rates r = 1600 − c of SHAKE128 (c = 256) and SHAKE256 (c = 512), in
// bytes (§6.2).
const (
	Rate128 = (1600 - 256) / 8
	Rate256 = (1600 - 512) / 8
)

// NewSHAKE128 returns SHAKE128: KECCAK[c = 256], r = 1344 bits (§6.2).
func NewSHAKE128() *SHAKE { return &SHAKE{rate: Rate128} }

// NewSHAKE256 returns SHAKE256: KECCAK[c = 512], r = 1088 bits (§6.2).
func NewSHAKE256() *SHAKE { return &SHAKE{rate: Rate256} }

// absorbBlock is Algorithm 8, step 6, on the sponge's state.
func (s *SHAKE) absorbBlock(p []byte) { AbsorbBlock(&s.a, p[:s.rate]) }

// AbsorbBlock is Algorithm 8, step 6: S = f(S ⊕ (Pi || 0^c)), for one
// block Pi of r/8 = len(p) bytes (byte i of Pi is byte i%8 of lane i/8,
// little-endian, as Appendix B.1 orders the bits).
func AbsorbBlock(a *State, p []byte) {
	for i := range p {
		a[i/8] ^= uint64(p[i]) << (8 * (i % 8))
	}
	KeccakF1600(a)
}

// Write absorbs p into the sponge.
func (s *SHAKE) Write(p []byte) {
	if s.squeezed {
		panic("fips202: Write after Read")
	}
	s.buf = append(s.buf, p...)
	for len(s.buf) >= s.rate {
		s.absorbBlock(s.buf[:s.rate])
		s.buf = s.buf[s.rate:]
	}
}

// PadBlock is the last block of M || 1111 padded with pad10*1 (§5.1,
// Algorithm 9), for tail, the bytes of M that no whole block of rate bytes
// took (shorter than rate). In bytes (Appendix B.2), the suffix 1111 and
// the first bit of pad10*1 are 0x1F, the last bit of pad10*1 is 0x80 in
// the last byte of the block.
func PadBlock(tail []byte, rate int) []byte {
	block := make([]byte, rate)
	copy(block, tail)
	block[len(tail)] ^= 0x1F
	block[rate-1] ^= 0x80
	return block
}

// pad absorbs the padded last block of M || 1111 and leaves the first
// output block in s.buf, by FinishOver on the state as bytes.
func (s *SHAKE) pad() {
	var b [200]byte
	for i := range b {
		b[i] = byte(s.a[i/8] >> (8 * (i % 8)))
	}
	s.buf = FinishOver[byte](Bytes{}, &b, s.rate, s.buf, s.rate)
	s.a = State{}
	for i := range b {
		s.a[i/8] |= uint64(b[i]) << (8 * (i % 8))
	}
}

// Read squeezes len(p) more bytes of output (Algorithm 8, steps 7–10).
func (s *SHAKE) Read(p []byte) {
	if !s.squeezed {
		s.pad()
		s.squeezed = true
	}
	for len(p) > 0 {
		if len(s.buf) == 0 {
			// Step 10: S = f(S), then step 8 again.
			KeccakF1600(&s.a)
			s.buf = s.outputBlock()
		}
		n := copy(p, s.buf)
		p = p[n:]
		s.buf = s.buf[n:]
	}
}

// outputBlock is Truncr(S) of Algorithm 8, step 8, as bytes.
func (s *SHAKE) outputBlock() []byte {
	out := make([]byte, s.rate)
	for i := range out {
		out[i] = byte(s.a[i/8] >> (8 * (i % 8)))
	}
	return out
}

// Sponge is what SHAKEOver computes with: bytes V, their constants and
// ⊕, and f = Keccak-f[1600] on the state as 200 bytes (§3.1.2 and
// Appendix B.1: lane A[x, y] is bytes 8(x+5y) to 8(x+5y)+7, little-endian).
// Bytes is this package's own instance on bytes; a checker may
// instantiate the same steps over symbolic bytes, f standing for the
// calls of a permutation routine.
type Sponge[V any] interface {
	Byte(b byte) V
	Xor(a, b V) V
	Permute(s *[200]V)
}

// Bytes is Sponge on bytes.
type Bytes struct{}

func (Bytes) Byte(b byte) byte   { return b }
func (Bytes) Xor(a, b byte) byte { return a ^ b }
func (Bytes) Permute(s *[200]byte) {
	var a State
	for i := range s {
		a[i/8] |= uint64(s[i]) << (8 * (i % 8))
	}
	KeccakF1600(&a)
	for i := range s {
		s[i] = byte(a[i/8] >> (8 * (i % 8)))
	}
}

// AbsorbOver is Algorithm 8, step 6, over o: S = f(S ⊕ (Pi || 0^c)) for
// one block Pi of len(p) bytes, the state S as 200 bytes.
func AbsorbOver[V any](o Sponge[V], s *[200]V, p []V) {
	for i, x := range p {
		s[i] = o.Xor(s[i], x)
	}
	o.Permute(s)
}

// AbsorbBlocksOver is Algorithm 8, step 6, for every whole block of rate
// bytes of m in order; it returns the tail of m that no whole block took.
func AbsorbBlocksOver[V any](o Sponge[V], s *[200]V, rate int, m []V) []V {
	for len(m) >= rate {
		AbsorbOver(o, s, m[:rate])
		m = m[rate:]
	}
	return m
}

// SHAKEOver is n bytes of SPONGE[f, pad10*1, r](M || 1111) (§4,
// Algorithm 8; §6.2) over o, with r = rate bytes: every whole block of M
// and then PadBlock of its tail is XORed into the state (step 6, S =
// f(S ⊕ (Pi || 0^c))), and the output is the rate of the state, f
// applied before each further block (steps 7 to 10).
func SHAKEOver[V any](o Sponge[V], rate int, m []V, n int) []V {
	var s [200]V
	for i := range s {
		s[i] = o.Byte(0) // step 5: S = 0^b
	}
	m = AbsorbBlocksOver(o, &s, rate, m)
	out := FinishOver(o, &s, rate, m, n)
	for len(out) < n {
		o.Permute(&s)                                   // step 10
		out = append(out, s[:min(rate, n-len(out))]...) // step 8
	}
	return out
}

// FinishOver ends the absorbing of M || 1111 over o, from the state s
// after every whole block of M (§4, Algorithm 8; §6.2): PadBlock of tail,
// the bytes of M no whole block took, is XORed into s and f applied
// (step 6, the last block), and the first min(n, rate) bytes of the rate
// are the output's first (step 8).
func FinishOver[V any](o Sponge[V], s *[200]V, rate int, tail []V, n int) []V {
	pad := PadBlock(make([]byte, len(tail)), rate)
	last := make([]V, rate)
	for i := range last {
		last[i] = o.Byte(pad[i])
		if i < len(tail) {
			last[i] = o.Xor(tail[i], last[i])
		}
	}
	AbsorbOver(o, s, last)
	return append([]V(nil), s[:min(rate, n)]...)
}

// SumSHAKE128 returns SHAKE128(m, 8n): n bytes of output.
func SumSHAKE128(m []byte, n int) []byte { return SHAKEOver[byte](Bytes{}, Rate128, m, n) }

// SumSHAKE256 returns SHAKE256(m, 8n): n bytes of output.
func SumSHAKE256(m []byte, n int) []byte { return SHAKEOver[byte](Bytes{}, Rate256, m, n) }
