package x86

import (
	"math"
	"math/bits"
)

// AV is an abstract value: every concrete value v it stands for satisfies
// Lo ≤ v ≤ Hi (unsigned) and v ≡ Rem (mod Mod) when Mod > 1. S marks a
// value that may depend on secret data. ID ≠ 0 names the concrete value:
// two AVs with the same ID hold the same concrete value (they are copies),
// which lets a branch refine every copy at once. A byte split from a
// non-constant word remembers the word (whole, part) so that storing and
// reloading the word gives it back unchanged.
type AV struct {
	Lo, Hi   uint64
	Mod, Rem uint64
	S        bool
	ID       uint64
	whole    *AV
	part     int8
}

// Exact reports whether the value is a single constant.
func (a AV) Exact() bool { return a.Lo == a.Hi }

// Interval is the domain of intervals with congruences and word-level
// secrecy, for the inductive checks.
type Interval struct {
	ids *uint64
}

// NewInterval returns an interval domain.
func NewInterval() *Interval { return &Interval{ids: new(uint64)} }

// Top returns the unknown value (secret if s).
func (d *Interval) Top(s bool) AV { return d.fresh(AV{Lo: 0, Hi: math.MaxUint64, S: s}) }

// Range returns an unknown value in [lo, hi] with the given congruence.
func (d *Interval) RangeOf(lo, hi, mod, rem uint64, s bool) AV {
	return d.fresh(AV{Lo: lo, Hi: hi, Mod: mod, Rem: rem, S: s})
}

// Refresh gives a a new identity (used when a value is assumed anew).
func (d *Interval) fresh(a AV) AV {
	a = norm(a)
	if a.Exact() {
		a.ID = 0
		return a
	}
	*d.ids++
	a.ID = *d.ids
	return a
}

// norm tightens the bounds to the congruence; an empty value is marked by
// Lo > Hi and is reported by Empty.
func norm(a AV) AV {
	if a.Mod > 1 {
		a.Rem %= a.Mod
		if r := a.Lo % a.Mod; r != a.Rem {
			up := (a.Rem + a.Mod - r) % a.Mod
			if a.Lo+up < a.Lo {
				a.Lo, a.Hi = 1, 0
				return a
			}
			a.Lo += up
		}
		if r := a.Hi % a.Mod; r != a.Rem {
			down := (r + a.Mod - a.Rem) % a.Mod
			if a.Hi < down {
				a.Lo, a.Hi = 1, 0
				return a
			}
			a.Hi -= down
		}
	} else {
		a.Mod, a.Rem = 0, 0
	}
	if a.Lo == a.Hi {
		a.Mod, a.Rem = 0, 0
	}
	return a
}

// Empty reports a contradictory value (an infeasible path).
func Empty(a AV) bool { return a.Lo > a.Hi }

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// cong returns the congruence (modulus, residue) of a: a constant c is
// c mod 0 (exact).
func cong(a AV) (uint64, uint64) {
	if a.Exact() {
		return 0, a.Lo
	}
	if a.Mod > 1 {
		return a.Mod, a.Rem
	}
	return 1, 0
}

func (d *Interval) mk(lo, hi uint64, s bool) AV { return d.fresh(AV{Lo: lo, Hi: hi, S: s}) }

func (d *Interval) Const(x uint64) AV { return AV{Lo: x, Hi: x} }

func ones(x uint64) uint64 {
	if x == 0 {
		return 0
	}
	return math.MaxUint64 >> bits.LeadingZeros64(x)
}

func (d *Interval) And(a, b AV) AV {
	s := a.S || b.S
	if a.Exact() && b.Exact() {
		return AV{Lo: a.Lo & b.Lo, Hi: a.Lo & b.Lo, S: s}
	}
	// Masking with all-ones above the value changes nothing: keep identity.
	if b.Exact() && ones(a.Hi)&^b.Lo == 0 && !b.S {
		return a
	}
	if a.Exact() && ones(b.Hi)&^a.Lo == 0 && !a.S {
		return b
	}
	return d.mk(0, min(a.Hi, b.Hi), s)
}

func (d *Interval) Or(a, b AV) AV {
	s := a.S || b.S
	if a.Exact() && b.Exact() {
		return AV{Lo: a.Lo | b.Lo, Hi: a.Lo | b.Lo, S: s}
	}
	if b.Exact() && b.Lo == 0 && !b.S {
		return a
	}
	if a.Exact() && a.Lo == 0 && !a.S {
		return b
	}
	return d.mk(max(a.Lo, b.Lo), ones(a.Hi|b.Hi), s)
}

func (d *Interval) Xor(a, b AV) AV {
	s := a.S || b.S
	if a.Exact() && b.Exact() {
		return AV{Lo: a.Lo ^ b.Lo, Hi: a.Lo ^ b.Lo, S: s}
	}
	return d.mk(0, ones(a.Hi|b.Hi), s)
}

func (d *Interval) Not(a AV) AV {
	if a.Exact() {
		return AV{Lo: ^a.Lo, Hi: ^a.Lo, S: a.S}
	}
	return d.mk(^a.Hi, ^a.Lo, a.S)
}

func (d *Interval) Add(a, b AV) AV {
	s := a.S || b.S
	if a.Exact() && b.Exact() {
		return AV{Lo: a.Lo + b.Lo, Hi: a.Lo + b.Lo, S: s}
	}
	hi, c := bits.Add64(a.Hi, b.Hi, 0)
	if c != 0 {
		return d.Top(s)
	}
	ma, ra := cong(a)
	mb, rb := cong(b)
	m := gcd(ma, mb)
	r := uint64(0)
	if m > 1 {
		r = (ra%m + rb%m) % m
	}
	return d.fresh(AV{Lo: a.Lo + b.Lo, Hi: hi, Mod: m, Rem: r, S: s})
}

func (d *Interval) Sub(a, b AV) AV {
	s := a.S || b.S
	if a.Exact() && b.Exact() {
		return AV{Lo: a.Lo - b.Lo, Hi: a.Lo - b.Lo, S: s}
	}
	if a.Lo < b.Hi {
		return d.Top(s)
	}
	ma, ra := cong(a)
	mb, rb := cong(b)
	m := gcd(ma, mb)
	r := uint64(0)
	if m > 1 {
		r = (ra%m + m - rb%m) % m
	}
	return d.fresh(AV{Lo: a.Lo - b.Hi, Hi: a.Hi - b.Lo, Mod: m, Rem: r, S: s})
}

func (d *Interval) Mul(a, b AV) AV {
	s := a.S || b.S
	if a.Exact() && b.Exact() {
		return AV{Lo: a.Lo * b.Lo, Hi: a.Lo * b.Lo, S: s}
	}
	h, l := bits.Mul64(a.Hi, b.Hi)
	if h != 0 {
		return d.Top(s)
	}
	r := AV{Lo: a.Lo * b.Lo, Hi: l, S: s}
	if b.Exact() || a.Exact() {
		c, x := b.Lo, a
		if a.Exact() {
			c, x = a.Lo, b
		}
		if c == 0 {
			return AV{S: s} // exactly 0 (and no modulus m·0 to divide by)
		}
		m, rem := cong(x)
		// x ≡ rem (mod m) gives x·c ≡ rem·c (mod m·c) when m·c fits;
		// x·c ≡ 0 (mod c) always.
		if hi, mc := bits.Mul64(m, c); hi == 0 && m > 1 {
			r.Mod, r.Rem = mc, rem*c%mc
		} else {
			r.Mod, r.Rem = c, 0
		}
	}
	return d.fresh(r)
}

func (d *Interval) MulHi(a, b AV) AV {
	s := a.S || b.S
	if a.Exact() && b.Exact() {
		h, _ := bits.Mul64(a.Lo, b.Lo)
		return AV{Lo: h, Hi: h, S: s}
	}
	hl, _ := bits.Mul64(a.Lo, b.Lo)
	hh, _ := bits.Mul64(a.Hi, b.Hi)
	return d.mk(hl, hh, s)
}

func (d *Interval) Shl(a AV, n uint) AV {
	if a.Exact() {
		return AV{Lo: a.Lo << n, Hi: a.Lo << n, S: a.S}
	}
	if n == 0 {
		return a
	}
	if a.Hi > math.MaxUint64>>n {
		return d.Top(a.S)
	}
	m, r := cong(a)
	if m > math.MaxUint64>>n {
		m, r = 1, 0
	}
	return d.fresh(AV{Lo: a.Lo << n, Hi: a.Hi << n, Mod: m << n, Rem: r << n, S: a.S})
}

func (d *Interval) Shr(a AV, n uint) AV {
	if a.Exact() {
		return AV{Lo: a.Lo >> n, Hi: a.Lo >> n, S: a.S}
	}
	if n == 0 {
		return a
	}
	return d.mk(a.Lo>>n, a.Hi>>n, a.S)
}

func (d *Interval) Sar(a AV, n uint) AV {
	if a.Exact() {
		v := uint64(int64(a.Lo) >> n)
		return AV{Lo: v, Hi: v, S: a.S}
	}
	if a.Hi < 1<<63 {
		return d.Shr(a, n)
	}
	return d.Top(a.S)
}

func (d *Interval) Rol(a AV, n uint) AV {
	if a.Exact() {
		v := bits.RotateLeft64(a.Lo, int(n))
		return AV{Lo: v, Hi: v, S: a.S}
	}
	return d.Top(a.S)
}

func (d *Interval) bool(t, f bool, s bool) AV {
	switch {
	case t:
		return AV{Lo: 1, Hi: 1, S: s}
	case f:
		return AV{Lo: 0, Hi: 0, S: s}
	}
	return d.mk(0, 1, s)
}

func (d *Interval) Eq(a, b AV) AV {
	s := a.S || b.S
	return d.bool(a.Exact() && b.Exact() && a.Lo == b.Lo || a.ID != 0 && a.ID == b.ID,
		a.Hi < b.Lo || b.Hi < a.Lo, s)
}

func (d *Interval) Ult(a, b AV) AV {
	return d.bool(a.Hi < b.Lo, a.Lo >= b.Hi, a.S || b.S)
}

func (d *Interval) Slt(a, b AV) AV {
	if a.Hi < 1<<63 && b.Hi < 1<<63 {
		return d.Ult(a, b)
	}
	if a.Exact() && b.Exact() {
		return d.bool(int64(a.Lo) < int64(b.Lo), int64(a.Lo) >= int64(b.Lo), a.S || b.S)
	}
	return d.mk(0, 1, a.S || b.S)
}

func (d *Interval) Ite(c, a, b AV) AV {
	if c.Exact() {
		r := b
		if c.Lo != 0 {
			r = a
		}
		if c.S && !r.S {
			r.S = true
		}
		return r
	}
	j := d.Join(a, b)
	j.S = j.S || c.S
	return j
}

// Join is the least upper bound of a and b (with a new identity).
func (d *Interval) Join(a, b AV) AV {
	if a.Exact() && b.Exact() && a.Lo == b.Lo && a.S == b.S {
		return a
	}
	if a.ID != 0 && a.ID == b.ID {
		a.S = a.S || b.S
		return a
	}
	ma, ra := cong(a)
	mb, rb := cong(b)
	m := gcd(gcd(ma, mb), diff(ra, rb))
	r := uint64(0)
	if m > 1 {
		r = ra % m
	}
	return d.fresh(AV{Lo: min(a.Lo, b.Lo), Hi: max(a.Hi, b.Hi), Mod: m, Rem: r, S: a.S || b.S})
}

func diff(a, b uint64) uint64 {
	if a > b {
		return a - b
	}
	return b - a
}

func (d *Interval) Popcnt(a AV) AV {
	if a.Exact() {
		v := uint64(bits.OnesCount64(a.Lo))
		return AV{Lo: v, Hi: v, S: a.S}
	}
	return d.mk(0, uint64(bits.Len64(a.Hi)), a.S)
}

func (d *Interval) Dep(a, from AV) AV {
	if from.S && !a.S {
		a.S = true
	}
	return a
}

func (d *Interval) Havoc(deps ...AV) AV {
	s := false
	for _, x := range deps {
		s = s || x.S
	}
	return d.Top(s)
}

func (d *Interval) Concrete(a AV) (uint64, bool) { return a.Lo, a.Exact() }

func (d *Interval) Range(a AV) (uint64, uint64) { return a.Lo, a.Hi }

func (d *Interval) Bytes(a AV, out []AV) {
	if a.Exact() {
		for i := range out {
			v := (a.Lo >> (8 * i)) & 0xff
			out[i] = AV{Lo: v, Hi: v, S: a.S}
		}
		return
	}
	w := a
	for i := range out {
		hi := min(255, a.Hi>>(8*i))
		b := AV{Lo: 0, Hi: hi, S: a.S, whole: &w, part: int8(i)}
		if hi == 0 {
			b = AV{S: a.S, whole: &w, part: int8(i)}
		}
		out[i] = b
	}
}

func (d *Interval) FromBytes(b []AV) AV {
	if len(b) == 8 && b[0].whole != nil {
		w := b[0].whole
		same := true
		for i, x := range b {
			if x.whole != w || int(x.part) != i {
				same = false
				break
			}
		}
		if same {
			return *w
		}
	}
	r := AV{}
	for i, x := range b {
		x.whole = nil
		r = d.Or(r, d.Shl(x, uint(8*i)))
	}
	return r
}

var (
	_ Domain[AV]     = (*Interval)(nil)
	_ Joiner[AV]     = (*Interval)(nil)
	_ Domain[TV]     = Taint{}
	_ Domain[uint64] = Conc{}
	_ Domain[*Term]  = (*Sym)(nil)
)
