package x86

import "math/bits"

// Domain is the value domain the semantics are written over. A value V
// stands for a 64-bit word; narrower quantities (bytes, dwords, flags as
// 0/1) are words whose upper bits are zero. Every instruction's semantics
// is written once, in terms of these operations, so the same code runs
// concretely (Conc), with taint (Taint) and symbolically (Sym).
type Domain[V any] interface {
	Const(x uint64) V
	And(a, b V) V
	Or(a, b V) V
	Xor(a, b V) V
	Not(a V) V
	Add(a, b V) V
	Sub(a, b V) V
	Mul(a, b V) V   // low 64 bits of the product
	MulHi(a, b V) V // high 64 bits of the unsigned product
	Shl(a V, n uint) V
	Shr(a V, n uint) V
	Sar(a V, n uint) V
	Rol(a V, n uint) V
	Eq(a, b V) V  // 1 if a = b else 0
	Ult(a, b V) V // 1 if a < b unsigned
	Slt(a, b V) V // 1 if a < b signed
	Ite(c, a, b V) V
	Popcnt(a V) V
	// Dep returns a with the dependencies of from added (same value): used
	// where the semantics pick among values by a concrete selector, so that
	// taint of the selector is not lost.
	Dep(a, from V) V
	// Havoc returns an unknown value depending on deps: used when a
	// selector or count is not concrete (abstract and symbolic runs).
	Havoc(deps ...V) V
	// Concrete returns the value if it is known.
	Concrete(a V) (uint64, bool)
	// Range returns unsigned bounds of the value.
	Range(a V) (lo, hi uint64)
	// Bytes splits a into len(out) little-endian bytes; FromBytes joins them.
	Bytes(a V, out []V)
	FromBytes(b []V) V
}

// Joiner is implemented by abstract domains that can merge values (used
// for accesses at a range of addresses).
type Joiner[V any] interface {
	Join(a, b V) V
}

// Conc is the plain concrete domain: V is the 64-bit word itself.
type Conc struct{}

func (Conc) Const(x uint64) uint64       { return x }
func (Conc) And(a, b uint64) uint64      { return a & b }
func (Conc) Or(a, b uint64) uint64       { return a | b }
func (Conc) Xor(a, b uint64) uint64      { return a ^ b }
func (Conc) Not(a uint64) uint64         { return ^a }
func (Conc) Add(a, b uint64) uint64      { return a + b }
func (Conc) Sub(a, b uint64) uint64      { return a - b }
func (Conc) Mul(a, b uint64) uint64      { return a * b }
func (Conc) MulHi(a, b uint64) uint64    { h, _ := bits.Mul64(a, b); return h }
func (Conc) Shl(a uint64, n uint) uint64 { return a << n }
func (Conc) Shr(a uint64, n uint) uint64 { return a >> n }
func (Conc) Sar(a uint64, n uint) uint64 { return uint64(int64(a) >> n) }
func (Conc) Rol(a uint64, n uint) uint64 { return bits.RotateLeft64(a, int(n)) }
func (Conc) Eq(a, b uint64) uint64       { return b2u(a == b) }
func (Conc) Ult(a, b uint64) uint64      { return b2u(a < b) }
func (Conc) Slt(a, b uint64) uint64      { return b2u(int64(a) < int64(b)) }
func (Conc) Ite(c, a, b uint64) uint64 {
	if c != 0 {
		return a
	}
	return b
}
func (Conc) Popcnt(a uint64) uint64           { return uint64(bits.OnesCount64(a)) }
func (Conc) Dep(a, _ uint64) uint64           { return a }
func (Conc) Havoc(...uint64) uint64           { return 0 }
func (Conc) Concrete(a uint64) (uint64, bool) { return a, true }
func (Conc) Range(a uint64) (uint64, uint64)  { return a, a }
func (Conc) Bytes(a uint64, out []uint64) {
	for i := range out {
		out[i] = (a >> (8 * i)) & 0xff
	}
}
func (Conc) FromBytes(b []uint64) uint64 {
	var v uint64
	for i, x := range b {
		v |= x << (8 * i)
	}
	return v
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// TV is a concrete value with taint: S marks the bits that depend on
// secret data, I the bits that depend on the routine's input data (secret
// or public). Taint is tracked per bit and propagated conservatively.
type TV struct {
	V, S, I uint64
}

// Taint is the concrete domain with secret and input-dependence taint.
type Taint struct{}

// upFrom returns all bits at or above the lowest set bit of t (carries and
// products propagate dependence upwards only).
func upFrom(t uint64) uint64 {
	if t == 0 {
		return 0
	}
	return ^uint64(0) << bits.TrailingZeros64(t)
}

func all(t uint64) uint64 {
	if t != 0 {
		return ^uint64(0)
	}
	return 0
}

// andT is the taint of a&b: a bit known to be a public 0 in either operand
// forces a public 0.
func andT(av, at, bv, bt uint64) uint64 {
	return (at & (bt | bv)) | (bt & (at | av))
}

// orT is the taint of a|b: a public 1 forces a public 1.
func orT(av, at, bv, bt uint64) uint64 {
	return (at & (bt | ^bv)) | (bt & (at | ^av))
}

func (Taint) Const(x uint64) TV { return TV{V: x} }
func (Taint) And(a, b TV) TV {
	return TV{a.V & b.V, andT(a.V, a.S, b.V, b.S), andT(a.V, a.I, b.V, b.I)}
}
func (Taint) Or(a, b TV) TV {
	return TV{a.V | b.V, orT(a.V, a.S, b.V, b.S), orT(a.V, a.I, b.V, b.I)}
}
func (Taint) Xor(a, b TV) TV { return TV{a.V ^ b.V, a.S | b.S, a.I | b.I} }
func (Taint) Not(a TV) TV    { return TV{^a.V, a.S, a.I} }
func (Taint) Add(a, b TV) TV { return TV{a.V + b.V, upFrom(a.S | b.S), upFrom(a.I | b.I)} }
func (Taint) Sub(a, b TV) TV { return TV{a.V - b.V, upFrom(a.S | b.S), upFrom(a.I | b.I)} }
func (Taint) Mul(a, b TV) TV { return TV{a.V * b.V, upFrom(a.S | b.S), upFrom(a.I | b.I)} }
func (Taint) MulHi(a, b TV) TV {
	h, _ := bits.Mul64(a.V, b.V)
	return TV{h, all(a.S | b.S), all(a.I | b.I)}
}
func (Taint) Shl(a TV, n uint) TV { return TV{a.V << n, a.S << n, a.I << n} }
func (Taint) Shr(a TV, n uint) TV { return TV{a.V >> n, a.S >> n, a.I >> n} }
func (Taint) Sar(a TV, n uint) TV {
	return TV{uint64(int64(a.V) >> n), uint64(int64(a.S) >> n), uint64(int64(a.I) >> n)}
}
func (Taint) Rol(a TV, n uint) TV {
	return TV{bits.RotateLeft64(a.V, int(n)), bits.RotateLeft64(a.S, int(n)), bits.RotateLeft64(a.I, int(n))}
}
func (Taint) Eq(a, b TV) TV  { return TV{b2u(a.V == b.V), all(a.S|b.S) & 1, all(a.I|b.I) & 1} }
func (Taint) Ult(a, b TV) TV { return TV{b2u(a.V < b.V), all(a.S|b.S) & 1, all(a.I|b.I) & 1} }
func (Taint) Slt(a, b TV) TV {
	return TV{b2u(int64(a.V) < int64(b.V)), all(a.S|b.S) & 1, all(a.I|b.I) & 1}
}
func (Taint) Ite(c, a, b TV) TV {
	r := b
	if c.V != 0 {
		r = a
	}
	return TV{r.V, r.S | all(c.S), r.I | all(c.I)}
}
func (Taint) Popcnt(a TV) TV {
	return TV{uint64(bits.OnesCount64(a.V)), all(a.S) & 0x7f, all(a.I) & 0x7f}
}
func (Taint) Dep(a, from TV) TV { return TV{a.V, a.S | all(from.S), a.I | all(from.I)} }
func (Taint) Havoc(deps ...TV) TV {
	var r TV
	for _, d := range deps {
		r.S |= all(d.S)
		r.I |= all(d.I)
	}
	r.S, r.I = all(r.S), all(r.I)
	return r
}
func (Taint) Concrete(a TV) (uint64, bool) { return a.V, true }
func (Taint) Range(a TV) (uint64, uint64)  { return a.V, a.V }
func (Taint) Bytes(a TV, out []TV) {
	for i := range out {
		s := uint(8 * i)
		out[i] = TV{(a.V >> s) & 0xff, (a.S >> s) & 0xff, (a.I >> s) & 0xff}
	}
}
func (Taint) FromBytes(b []TV) TV {
	var r TV
	for i, x := range b {
		s := uint(8 * i)
		r.V |= x.V << s
		r.S |= x.S << s
		r.I |= x.I << s
	}
	return r
}
