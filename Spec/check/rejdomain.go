package check

import (
	"fmt"
	"math/bits"

	"github.com/vg-crypto/vg/Spec/x86"
)

// This file is the value domain of the sampler proof (rejproof.go). A
// value is one of:
//
//   - concrete: a known 64-bit word;
//   - ghost-affine: c + m·G for one ghost G (a count or the blocks left),
//     which ranges over a class [lo, hi] of the current exploration; the
//     machine sees it at the class's representative G = lo;
//   - a byte of a ghost-affine word (frame slots hold counts as bytes);
//   - data: a symbolic term over the squeezed bytes (or unknowns).
//
// A comparison whose outcome depends on data is a decision: the path
// takes the outcome its decision vector gives and records the comparison
// (the atom), to be checked against Algorithm 30's test later. A
// comparison on ghost values must have the same outcome over the whole
// class; where it does not, the class is split there and explored again.
// Anything else the proof cannot follow (an address that is data, a
// ghost value mixed with data, a non-affine use of a ghost) stops the
// path with an error, and the proof fails.

type rkind uint8

const (
	rConc rkind = iota
	rAff
	rByte
	rData
	// rRange: only bounds [lo, hi] are known (an AND of counts); g is a
	// ghost to split when a comparison on it is not decided.
	rRange
)

type rv struct {
	c uint64 // concrete value, or the constant term of c + m·G
	m int64  // coefficient of the ghost
	w *rv    // the affine word a byte belongs to
	t *x86.Term

	lo, hi int64 // rRange

	k rkind
	g int8  // ghost of an affine value
	i uint8 // which byte
}

type ghostClass struct{ lo, hi int64 }

// splitAt asks the explorer to split ghost g's class before value at (or
// into [lo, at−1], {at}, [at+1, hi] when point is set).
type splitAt struct {
	g     int
	at    int64
	point bool
}

func (e *splitAt) Error() string { return fmt.Sprintf("split ghost %d at %d", e.g, e.at) }

type atom struct {
	t *x86.Term
	v bool
}

type rdom struct {
	s     *x86.Sym
	box   []ghostClass
	err   error
	dec   []bool
	atoms []atom
	seen  map[*x86.Term]int
	// grown are the positions of the decisions the path took past the end
	// of its vector: false each, as a run with that decision would take
	// it; the explorer runs the vector with true there too.
	grown []int
}

func (d *rdom) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

func (d *rdom) Const(x uint64) rv { return rv{k: rConc, c: x} }

// term gives a concrete or data value as a term; a ghost value cannot be
// mixed with data.
func (d *rdom) term(a rv) *x86.Term {
	switch a.k {
	case rConc:
		return d.s.Const(a.c)
	case rData:
		return a.t
	}
	d.fail(fmt.Errorf("a count or block counter is mixed with squeezed data"))
	return d.s.Const(0)
}

func data(t *x86.Term) rv { return rv{k: rData, t: t} }

// rng is the range of an affine or concrete value over its class.
func (d *rdom) rng(a rv) (int64, int64) {
	switch a.k {
	case rConc:
		return int64(a.c), int64(a.c)
	case rRange:
		return a.lo, a.hi
	}
	cl := d.box[a.g]
	x, y := int64(a.c)+a.m*cl.lo, int64(a.c)+a.m*cl.hi
	return min(x, y), max(x, y)
}

// rep is the value at the representative point.
func (d *rdom) rep(a rv) uint64 {
	if a.k == rConc {
		return a.c
	}
	return uint64(int64(a.c) + a.m*d.box[a.g].lo)
}

func isGhost(a rv) bool { return a.k == rAff || a.k == rByte || a.k == rRange }

// bounded says a is concrete or a ghost value with known bounds.
func bounded(a rv) bool { return a.k == rConc || a.k == rAff || a.k == rRange }

// pointOf gives a bounded value whose class is one point as a constant.
func (d *rdom) pointOf(a rv) rv {
	if lo, hi := d.rng(a); a.k != rConc && lo == hi {
		return d.Const(uint64(lo))
	}
	return a
}

// srcGhost is a ghost of a or b whose class is not one point, or -1.
func (d *rdom) srcGhost(vs ...rv) int8 {
	for _, v := range vs {
		if (v.k == rAff || v.k == rRange) && v.g >= 0 && d.box[v.g].lo != d.box[v.g].hi {
			return v.g
		}
	}
	return -1
}

// lin returns a and b as affine forms over one ghost, or ok=false.
func (d *rdom) lin(a, b rv) (g int8, ca, ma, cb, mb int64, ok bool) {
	g = -1
	for _, v := range []rv{a, b} {
		if v.k == rAff {
			if g >= 0 && g != v.g {
				return 0, 0, 0, 0, 0, false
			}
			g = v.g
		} else if v.k != rConc {
			return 0, 0, 0, 0, 0, false
		}
	}
	f := func(v rv) (int64, int64) {
		if v.k == rConc {
			return int64(v.c), 0
		}
		return int64(v.c), v.m
	}
	ca, ma = f(a)
	cb, mb = f(b)
	return g, ca, ma, cb, mb, true
}

func (d *rdom) aff(g int8, c, m int64) rv {
	if m == 0 {
		return rv{k: rConc, c: uint64(c)}
	}
	return rv{k: rAff, c: uint64(c), g: g, m: m}
}

func (d *rdom) ghostOp(name string) rv {
	d.fail(fmt.Errorf("%s of a count or block counter: not followed by the proof", name))
	return rv{k: rConc}
}

func (d *rdom) And(a, b rv) rv {
	if a.k == rConc && b.k == rConc {
		return d.Const(a.c & b.c)
	}
	if isGhost(a) || isGhost(b) {
		// Masking a ghost value to a width it fits in is the identity.
		x, mask := a, b
		if b.k == rAff {
			x, mask = b, a
		}
		if x.k == rAff && mask.k == rConc && mask.c&(mask.c+1) == 0 {
			lo, hi := d.rng(x)
			if lo >= 0 && (mask.c == ^uint64(0) || uint64(hi) <= mask.c) {
				return x
			}
		}
		a, b = d.pointOf(a), d.pointOf(b)
		if a.k == rConc && b.k == rConc {
			return d.Const(a.c & b.c)
		}
		if bounded(a) && bounded(b) {
			alo, ahi := d.rng(a)
			blo, bhi := d.rng(b)
			if alo >= 0 && blo >= 0 {
				// x & y ≤ min(x, y).
				return rv{k: rRange, lo: 0, hi: min(ahi, bhi), g: d.srcGhost(a, b)}
			}
		}
		return d.ghostOp("AND")
	}
	if b.k == rConc && a.k == rData {
		if f := d.field(a.t, b.c); f != nil {
			return data(f)
		}
	}
	return data(d.s.And(d.term(a), d.term(b)))
}

// field gives t & mask, for mask = 2ʷ − 1 (w ≥ 1) and t = W >> lo or W
// (lo = 0), as the parts of W that hold bits lo to lo + w − 1, where W
// is built of ORs and left shifts: a vector's bytes joined into words and
// split again (a byte of a broadcast word, the bytes of a stored word)
// then read only the terms they came from, as the half-byte check
// (rejproof.go) needs. It returns nil for another mask.
func (d *rdom) field(t *x86.Term, mask uint64) *x86.Term {
	if mask == 0 || mask&(mask+1) != 0 {
		return nil
	}
	lo := uint(0)
	if t.Op == "lshr" {
		lo, t = uint(t.Val), t.Args[0]
	}
	w := uint(bits.OnesCount64(mask))
	if lo+w > 64 {
		return nil
	}
	return d.pick(t, lo, w)
}

// pick gives (t >> lo) & (2ʷ − 1), lo + w ≤ 64, by these identities on
// 64-bit words (m = 2ʷ − 1), and as that term where none applies:
//
//   - ((a | b) >> lo) & m = ((a >> lo) & m) | ((b >> lo) & m);
//   - ((x << n) >> lo) & m = (x >> (lo − n)) & m for n ≤ lo (the bits
//     read lie below 64 − n: the shift lost none of them);
//   - ((x << n) >> lo) & m = 0 for lo + w ≤ n, and
//     (x & (m >> k)) << k for k = n − lo, 0 < k < w;
//   - ((x & c) >> lo) & m = 0 for a constant c without bits lo to
//     lo + w − 1, and x & c for lo = 0 and c ≤ m.
func (d *rdom) pick(t *x86.Term, lo, w uint) *x86.Term {
	mask := ^uint64(0) >> (64 - w)
	switch {
	case t.Op == "const":
		return d.s.Const(t.Val >> lo & mask)
	case t.Op == "bvor":
		return d.s.Or(d.pick(t.Args[0], lo, w), d.pick(t.Args[1], lo, w))
	case t.Op == "shl" && t.Val < 64:
		n := uint(t.Val)
		switch {
		case lo+w <= n:
			return d.s.Const(0)
		case n <= lo:
			return d.pick(t.Args[0], lo-n, w)
		default:
			k := n - lo
			return d.s.Shl(d.pick(t.Args[0], 0, w-k), k)
		}
	case t.Op == "bvand" && t.Args[1].Op == "const":
		c := t.Args[1].Val
		switch {
		case c>>lo&mask == 0:
			return d.s.Const(0)
		case lo == 0 && c&^mask == 0:
			return t
		}
	}
	return d.s.And(d.s.Shr(t, lo), d.s.Const(mask))
}

func (d *rdom) Or(a, b rv) rv {
	if a.k == rConc && b.k == rConc {
		return d.Const(a.c | b.c)
	}
	if isGhost(a) || isGhost(b) {
		if a.k == rConc && a.c == 0 {
			return b
		}
		if b.k == rConc && b.c == 0 {
			return a
		}
		return d.ghostOp("OR")
	}
	return data(d.s.Or(d.term(a), d.term(b)))
}

func (d *rdom) Xor(a, b rv) rv {
	if a.k == rConc && b.k == rConc {
		return d.Const(a.c ^ b.c)
	}
	if isGhost(a) || isGhost(b) {
		if a.k == rConc && a.c == 0 {
			return b
		}
		if b.k == rConc && b.c == 0 {
			return a
		}
		return d.ghostOp("XOR")
	}
	return data(d.s.Xor(d.term(a), d.term(b)))
}

func (d *rdom) Not(a rv) rv {
	switch a.k {
	case rConc:
		return d.Const(^a.c)
	case rData:
		return data(d.s.Not(a.t))
	}
	return d.ghostOp("NOT")
}

// shiftRange adds a constant to a range-only value.
func (d *rdom) shiftRange(a, b rv, sign int64) (rv, bool) {
	if a.k == rRange && b.k == rConc {
		c := sign * int64(b.c)
		return rv{k: rRange, lo: a.lo + c, hi: a.hi + c, g: a.g}, true
	}
	if sign > 0 && b.k == rRange && a.k == rConc {
		return d.shiftRange(b, a, 1)
	}
	return rv{}, false
}

func (d *rdom) Add(a, b rv) rv {
	if g, ca, ma, cb, mb, ok := d.lin(a, b); ok {
		return d.aff(g, ca+cb, ma+mb)
	}
	if r, ok := d.shiftRange(a, b, 1); ok {
		return r
	}
	if isGhost(a) || isGhost(b) {
		return d.ghostOp("ADD")
	}
	return data(d.s.Add(d.term(a), d.term(b)))
}

func (d *rdom) Sub(a, b rv) rv {
	if g, ca, ma, cb, mb, ok := d.lin(a, b); ok {
		return d.aff(g, ca-cb, ma-mb)
	}
	if r, ok := d.shiftRange(a, b, -1); ok {
		return r
	}
	if isGhost(a) || isGhost(b) {
		return d.ghostOp("SUB")
	}
	return data(d.s.Sub(d.term(a), d.term(b)))
}

func (d *rdom) Mul(a, b rv) rv {
	if a.k == rConc && b.k == rConc {
		return d.Const(a.c * b.c)
	}
	if a.k == rAff && b.k == rConc {
		return d.aff(a.g, int64(a.c)*int64(b.c), a.m*int64(b.c))
	}
	if b.k == rAff && a.k == rConc {
		return d.aff(b.g, int64(b.c)*int64(a.c), b.m*int64(a.c))
	}
	if isGhost(a) || isGhost(b) {
		return d.ghostOp("MUL")
	}
	return data(d.s.Mul(d.term(a), d.term(b)))
}

func (d *rdom) MulHi(a, b rv) rv {
	if a.k == rConc && b.k == rConc {
		return data(d.s.MulHi(d.s.Const(a.c), d.s.Const(b.c)))
	}
	if isGhost(a) || isGhost(b) {
		return d.ghostOp("MULHI")
	}
	return data(d.s.MulHi(d.term(a), d.term(b)))
}

func (d *rdom) Shl(a rv, n uint) rv {
	switch a.k {
	case rConc:
		return d.Const(a.c << n)
	case rData:
		return data(d.s.Shl(a.t, n))
	case rAff:
		if n < 16 {
			return d.aff(a.g, int64(a.c)<<n, a.m<<n)
		}
	}
	return d.ghostOp("SHL")
}

func (d *rdom) Shr(a rv, n uint) rv {
	switch a.k {
	case rConc:
		return d.Const(a.c >> n)
	case rData:
		return data(d.s.Shr(a.t, n))
	}
	if n == 0 {
		return a
	}
	return d.ghostOp("SHR")
}

func (d *rdom) Sar(a rv, n uint) rv {
	switch a.k {
	case rConc:
		return d.Const(uint64(int64(a.c) >> n))
	case rData:
		return data(d.s.Sar(a.t, n))
	}
	if n == 0 {
		return a
	}
	return d.ghostOp("SAR")
}

func (d *rdom) Rol(a rv, n uint) rv {
	switch a.k {
	case rConc:
		return d.Const(x86.Conc{}.Rol(a.c, n))
	case rData:
		return data(d.s.Rol(a.t, n))
	}
	if n&63 == 0 {
		return a
	}
	return d.ghostOp("ROL")
}

// decide returns the decision for a comparison on data.
func (d *rdom) decide(t *x86.Term) rv {
	if i, ok := d.seen[t]; ok {
		return d.Const(b2u(d.atoms[i].v))
	}
	if len(d.atoms) >= len(d.dec) {
		if d.err != nil {
			// The run ends with this step: a decision taken now
			// would follow a state the error already made wrong.
			return d.Const(0)
		}
		d.grown = append(d.grown, len(d.dec))
		d.dec = append(d.dec, false)
	}
	v := d.dec[len(d.atoms)]
	d.seen[t] = len(d.atoms)
	d.atoms = append(d.atoms, atom{t, v})
	return d.Const(b2u(v))
}

// cmpGhost decides a comparison of ghost values over the class, or asks
// for a split where its outcome changes. want(diff) is the outcome for
// diff = a − b (both small and non-negative where unsigned).
func (d *rdom) cmpGhost(a, b rv, op string) rv {
	if a.k == rRange || b.k == rRange {
		if !bounded(a) || !bounded(b) {
			return d.ghostOp("comparison")
		}
		alo, ahi := d.rng(a)
		blo, bhi := d.rng(b)
		if op == "ult" && (alo < 0 || blo < 0) {
			return d.ghostOp("unsigned comparison of a negative value")
		}
		switch {
		case op == "eq" && (ahi < blo || bhi < alo):
			return d.Const(0)
		case op == "eq" && alo == ahi && blo == bhi:
			return d.Const(1)
		case op != "eq" && ahi < blo:
			return d.Const(1)
		case op != "eq" && alo >= bhi:
			return d.Const(0)
		}
		// Undecided: split a ghost it comes from at the top of its class.
		g := d.srcGhost(a, b)
		if g < 0 {
			return d.ghostOp("comparison")
		}
		d.fail(&splitAt{g: int(g), at: d.box[g].hi})
		return d.Const(0)
	}
	g, ca, ma, cb, mb, ok := d.lin(a, b)
	if !ok {
		return d.ghostOp("comparison")
	}
	if op == "ult" {
		if lo, _ := d.rng(a); lo < 0 {
			return d.ghostOp("unsigned comparison of a negative value")
		}
		if lo, _ := d.rng(b); lo < 0 {
			return d.ghostOp("unsigned comparison of a negative value")
		}
	}
	c, m := ca-cb, ma-mb
	if m == 0 {
		return d.Const(b2u(cmpDiff(op, c)))
	}
	cl := d.box[g]
	at := func(x int64) bool { return cmpDiff(op, c+m*x) }
	v := at(cl.lo)
	if cl.lo == cl.hi {
		return d.Const(b2u(v))
	}
	// The outcome is monotone in G for "<" and has at most one change
	// point for "=": find it.
	for x := cl.lo + 1; x <= cl.hi; x++ {
		if at(x) != v {
			d.fail(&splitAt{g: int(g), at: x, point: op == "eq"})
			return d.Const(0)
		}
	}
	return d.Const(b2u(v))
}

func cmpDiff(op string, diff int64) bool {
	switch op {
	case "eq":
		return diff == 0
	default:
		return diff < 0
	}
}

func (d *rdom) Eq(a, b rv) rv {
	if a.k == rConc && b.k == rConc {
		return d.Const(b2u(a.c == b.c))
	}
	if isGhost(a) || isGhost(b) {
		return d.cmpGhost(a, b, "eq")
	}
	return d.decide(d.s.Eq(d.term(a), d.term(b)))
}

func (d *rdom) Ult(a, b rv) rv {
	if a.k == rConc && b.k == rConc {
		return d.Const(b2u(a.c < b.c))
	}
	if isGhost(a) || isGhost(b) {
		return d.cmpGhost(a, b, "ult")
	}
	return d.decide(d.s.Ult(d.term(a), d.term(b)))
}

func (d *rdom) Slt(a, b rv) rv {
	if a.k == rConc && b.k == rConc {
		return d.Const(b2u(int64(a.c) < int64(b.c)))
	}
	if isGhost(a) || isGhost(b) {
		return d.cmpGhost(a, b, "slt")
	}
	return d.decide(d.s.Slt(d.term(a), d.term(b)))
}

func (d *rdom) Ite(c, a, b rv) rv {
	if c.k == rConc {
		if c.c != 0 {
			return a
		}
		return b
	}
	d.fail(fmt.Errorf("selection by a value that is not concrete"))
	return a
}

func (d *rdom) Popcnt(a rv) rv {
	switch a.k {
	case rConc:
		return d.Const(x86.Conc{}.Popcnt(a.c))
	case rData:
		return data(d.s.Popcnt(a.t))
	}
	return d.ghostOp("POPCNT")
}

func (d *rdom) Dep(a, _ rv) rv { return a }

func (d *rdom) Havoc(deps ...rv) rv {
	d.fail(fmt.Errorf("a selector or count that is not concrete"))
	return d.Const(0)
}

func (d *rdom) Concrete(a rv) (uint64, bool) {
	if a.k == rConc {
		return a.c, true
	}
	return 0, false
}

// Range gives a ghost value at its representative: rejObs checks that
// such an address moves with its count (a translation, so one point
// stands for the class).
func (d *rdom) Range(a rv) (uint64, uint64) {
	switch a.k {
	case rConc:
		return a.c, a.c
	case rAff:
		r := d.rep(a)
		return r, r
	}
	return 0, ^uint64(0)
}

func (d *rdom) Bytes(a rv, out []rv) {
	switch a.k {
	case rConc:
		for i := range out {
			out[i] = d.Const(a.c >> (8 * i) & 0xff)
		}
	case rData:
		for i := range out {
			out[i] = data(d.pick(a.t, uint(8*i), 8))
		}
	case rAff:
		w := a
		for i := range out {
			out[i] = rv{k: rByte, w: &w, i: uint8(i)}
		}
	default:
		d.ghostOp("byte split")
	}
}

func (d *rdom) FromBytes(b []rv) rv {
	conc, ghost := true, false
	for _, x := range b {
		conc = conc && x.k == rConc
		ghost = ghost || isGhost(x)
	}
	if conc {
		var v uint64
		for i, x := range b {
			v |= (x.c & 0xff) << (8 * i)
		}
		return d.Const(v)
	}
	if ghost {
		if len(b) == 8 && b[0].k == rByte {
			w := b[0].w
			for i, x := range b {
				if x.k != rByte || x.w != w || int(x.i) != i {
					return d.ghostOp("partial load")
				}
			}
			return *w
		}
		return d.ghostOp("partial load")
	}
	ts := make([]*x86.Term, len(b))
	for i, x := range b {
		ts[i] = d.term(x)
	}
	return data(d.s.FromBytes(ts))
}

var _ x86.Domain[rv] = (*rdom)(nil)
