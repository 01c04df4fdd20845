package check

import (
	"math"
	"math/bits"
	"sort"

	"github.com/vg-crypto/vg/Spec/fips204"
	"github.com/vg-crypto/vg/Spec/x86"
)

// This file is the value domain of the ℤq proofs (zqproof.go): it runs a
// straight-line routine once for every input at the same time, describing
// every 32-bit lane by an integer X of which the lane's bits are X mod 2³²
// and three facts about X:
//
//   - an interval lo ≤ X ≤ hi;
//   - X mod q as a polynomial of degree ≤ 2 over ℤq in the input
//     coefficients (a "ℤq form"), or unknown;
//   - X mod 2³² as an affine form over ℤ/2³² in earlier values ("atoms"),
//     or unknown (then X is its own atom).
//
// A 64-bit word is described by its two lanes and, when known, the signed
// integer it holds (the 64-bit products of VPMULDQ). Every rule below is a
// plain fact of integer arithmetic; the ones that are not mere bookkeeping:
//
//   - Low bits: the low 32 bits of a sum, difference or product depend only
//     on the operands' low 32 bits, so lane arithmetic is exact mod 2³²
//     whatever the carries do.
//   - Signed reading: sx32 of a lane is X itself when lo ≥ −2³¹ and hi <
//     2³¹; otherwise it is a new integer in [−2³¹, 2³¹) known only mod 2³².
//     Unsigned reading (a factor of a product whose high lane is 0): X
//     itself when 0 ≤ lo and hi < 2³², otherwise a new integer in
//     [0, 2³²) known only mod 2³².
//   - Exact division (the Montgomery lemma): if W₁ ≡ W₂ (mod 2³²), then
//     ⌊W₁/2³²⌋ − ⌊W₂/2³²⌋ = (W₁ − W₂)/2³², so the difference of the high
//     lanes is (W₁ − W₂)·2⁻³² mod q, with the interval (I₁ − I₂)/2³².
//     W₁ ≡ W₂ (mod 2³²) is read off their affine forms mod 2³²: for x·z −
//     m·q with m ≡ x·z·q⁻¹ (mod 2³²) the form is (z − q·q⁻¹·z)·x ≡ 0.
//   - c·X ≡ 0 (mod q) when c ≡ 0 (mod q), for any integer X, known or not.
//   - Piecewise functions: a value computed from one integer B by affine
//     steps, arithmetic shifts and masks of constants is kept as a list of
//     pieces (B in [lo, hi] ⇒ value = a·B + b); a shift splits pieces where
//     the floor changes. Its interval is the union of the pieces' images,
//     and its ℤq form is a·form(B) + b when every piece has the same a and
//     b mod q. This is what bounds a conditional add of q or a rounding
//     reduction x − q·⌊(x + 2²²)/2²³⌋, where plain intervals lose the link
//     between x and the quotient.
//   - Unsigned minimum (VPMINUD: Ite(Ult(x, y), x, y) of two words whose
//     high lanes are 0): the lane of X or of Y, whichever has the smaller
//     bits. Either is decided by the intervals (the bits are X − k·2³² for
//     the one k with X in [k·2³², (k+1)·2³²)), or piecewise: over a range
//     of the common base where X and Y each stay between two multiples of
//     2³², their bits are affine in the base and so is their difference,
//     which changes sign at most once. The result is the chosen integer,
//     X or Y itself, piece by piece: its bits are the minimum's.
//
// Anything else gives an unknown value, which only ever makes a proof fail.

const qMod = uint64(fips204.Q)

// qterm is one monomial of a ℤq form: k = 0 for the constant, u+1 for the
// input variable u, (u+1)<<32 | (v+1) for the product of u ≤ v.
type qterm struct {
	k uint64
	c uint32
}

type qform []qterm // sorted by k, no zero coefficient

func qconst(v int64) qform {
	r := uint32(((v % int64(qMod)) + int64(qMod)) % int64(qMod))
	if r == 0 {
		return qform{}
	}
	return qform{{0, r}}
}

func modq(c int64) uint64 { return uint64(((c % int64(qMod)) + int64(qMod)) % int64(qMod)) }

// qlin returns a + s·b.
func qlin(a, b qform, s uint64) qform {
	out := make(qform, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i].k < b[j].k:
			out = append(out, a[i])
			i++
		case i == len(a) || b[j].k < a[i].k:
			if c := uint64(b[j].c) * s % qMod; c != 0 {
				out = append(out, qterm{b[j].k, uint32(c)})
			}
			j++
		default:
			if c := (uint64(a[i].c) + uint64(b[j].c)*s) % qMod; c != 0 {
				out = append(out, qterm{a[i].k, uint32(c)})
			}
			i++
			j++
		}
	}
	return out
}

func qscale(a qform, s uint64) qform { return qlin(qform{}, a, s) }

func degree(k uint64) int {
	switch {
	case k == 0:
		return 0
	case k>>32 == 0:
		return 1
	}
	return 2
}

// qmul multiplies two forms; it fails above degree 2.
func qmul(a, b qform) (qform, bool) {
	acc := map[uint64]uint64{}
	for _, x := range a {
		for _, y := range b {
			dx, dy := degree(x.k), degree(y.k)
			var k uint64
			switch {
			case dx+dy > 2:
				return nil, false
			case dx == 0:
				k = y.k
			case dy == 0:
				k = x.k
			default:
				u, v := x.k, y.k
				if u > v {
					u, v = v, u
				}
				k = u<<32 | v
			}
			acc[k] = (acc[k] + uint64(x.c)*uint64(y.c)) % qMod
		}
	}
	out := make(qform, 0, len(acc))
	for k, c := range acc {
		if c != 0 {
			out = append(out, qterm{k, uint32(c)})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].k < out[j].k })
	return out, true
}

func qequal(a, b qform) bool {
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

// tform is an affine form over ℤ/2³²: Σ c·atom + k.
type tterm struct {
	id uint64
	c  uint32
}

type tform struct {
	ts []tterm // sorted by id, no zero coefficient
	k  uint32
}

const maxTTerms = 6

func tlin(a, b tform, s uint32) (tform, bool) {
	out := tform{k: a.k + b.k*s}
	i, j := 0, 0
	for i < len(a.ts) || j < len(b.ts) {
		switch {
		case j == len(b.ts) || i < len(a.ts) && a.ts[i].id < b.ts[j].id:
			out.ts = append(out.ts, a.ts[i])
			i++
		case i == len(a.ts) || b.ts[j].id < a.ts[i].id:
			if c := b.ts[j].c * s; c != 0 {
				out.ts = append(out.ts, tterm{b.ts[j].id, c})
			}
			j++
		default:
			if c := a.ts[i].c + b.ts[j].c*s; c != 0 {
				out.ts = append(out.ts, tterm{a.ts[i].id, c})
			}
			i++
			j++
		}
	}
	return out, len(out.ts) <= maxTTerms
}

// piece: for B in [lo, hi], the value is a·B + b.
type piece struct{ lo, hi, a, b int64 }

// pwise is a piecewise-affine function of the integer base.
type pwise struct {
	base *zint
	ps   []piece
}

const maxPieces = 256

// zint describes an integer (see the top of the file).
type zint struct {
	lo, hi int64
	q      qform
	qok    bool
	t      tform
	tok    bool
	pw     *pwise
	hiOf   *zint // this integer is ⌊hiOf/2³²⌋
	id     uint64
	hiMemo *zint
}

// zdom is the domain; V = *zw.
type zdom struct {
	ids          uint64
	wraps, exact int // counts for the report
}

func (d *zdom) atom(lo, hi int64) *zint {
	d.ids++
	return &zint{lo: lo, hi: hi, id: d.ids}
}

func (d *zdom) constInt(v int64) *zint {
	d.ids++
	return &zint{lo: v, hi: v, q: qconst(v), qok: true, t: tform{k: uint32(v)}, tok: true, id: d.ids}
}

func (x *zint) isConst() bool { return x.lo == x.hi }

func (x *zint) tf() tform {
	if x.tok {
		return x.t
	}
	return tform{ts: []tterm{{x.id, 1}}}
}

func (x *zint) pwOf() *pwise {
	if x.pw != nil {
		return x.pw
	}
	return &pwise{base: x, ps: []piece{{x.lo, x.hi, 1, 0}}}
}

// checked arithmetic on int64.
func add64(a, b int64) (int64, bool) {
	s := a + b
	return s, (s > a) == (b > 0) || b == 0
}

func mul64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	hi, lo := bits.Mul64(uabs(a), uabs(b))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	p := int64(lo)
	if (a < 0) != (b < 0) {
		p = -p
	}
	return p, true
}

func uabs(a int64) uint64 {
	if a < 0 {
		return uint64(-a)
	}
	return uint64(a)
}

func floorDiv(a int64, n uint) int64 { return a >> n } // arithmetic shift is ⌊a/2ⁿ⌋

func ceilDiv(a int64, n uint) int64 { return -((-a) >> n) }

// image returns the range of a·B + b over B in [lo, hi].
func (p piece) image() (int64, int64, bool) {
	x, ok1 := mul64(p.a, p.lo)
	y, ok2 := mul64(p.a, p.hi)
	x, ok3 := add64(x, p.b)
	y, ok4 := add64(y, p.b)
	if !(ok1 && ok2 && ok3 && ok4) {
		return 0, 0, false
	}
	return min(x, y), max(x, y), true
}

func (p *pwise) rng() (int64, int64, bool) {
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, pc := range p.ps {
		l, h, ok := pc.image()
		if !ok {
			return 0, 0, false
		}
		lo, hi = min(lo, l), max(hi, h)
	}
	return lo, hi, true
}

// combine merges two functions of one base piece by piece.
// A constant is a function of any base.
func combine(p1, p2 *pwise, f func(a1, b1, a2, b2 int64) (int64, int64, bool)) *pwise {
	if p1 == nil || p2 == nil {
		return nil
	}
	if c := p2.base; c.isConst() && !p1.base.isConst() {
		p2 = &pwise{base: p1.base, ps: []piece{{p1.base.lo, p1.base.hi, 0, c.lo}}}
	}
	if c := p1.base; c.isConst() && !p2.base.isConst() {
		p1 = &pwise{base: p2.base, ps: []piece{{p2.base.lo, p2.base.hi, 0, c.lo}}}
	}
	if p1.base != p2.base {
		return nil
	}
	out := &pwise{base: p1.base}
	i, j := 0, 0
	lo := p1.base.lo
	for i < len(p1.ps) && j < len(p2.ps) {
		x, y := p1.ps[i], p2.ps[j]
		hi := min(x.hi, y.hi)
		a, b, ok := f(x.a, x.b, y.a, y.b)
		if !ok {
			return nil
		}
		out.ps = append(out.ps, piece{lo, hi, a, b})
		lo = hi + 1
		if x.hi == hi {
			i++
		}
		if y.hi == hi {
			j++
		}
	}
	return out.compact()
}

func (p *pwise) compact() *pwise {
	if p == nil {
		return nil
	}
	var ps []piece
	for _, pc := range p.ps {
		if n := len(ps); n > 0 && ps[n-1].a == pc.a && ps[n-1].b == pc.b {
			ps[n-1].hi = pc.hi
			continue
		}
		ps = append(ps, pc)
	}
	if len(ps) > maxPieces {
		return nil
	}
	return &pwise{base: p.base, ps: ps}
}

func (p *pwise) mapPieces(f func(a, b int64) (int64, int64, bool)) *pwise {
	if p == nil {
		return nil
	}
	out := &pwise{base: p.base}
	for _, pc := range p.ps {
		a, b, ok := f(pc.a, pc.b)
		if !ok {
			return nil
		}
		out.ps = append(out.ps, piece{pc.lo, pc.hi, a, b})
	}
	return out.compact()
}

// sar returns ⌊(a·B + b)/2ⁿ⌋ piecewise, for slopes 0 and ±1.
func (p *pwise) sar(n uint) *pwise {
	if p == nil {
		return nil
	}
	out := &pwise{base: p.base}
	for _, pc := range p.ps {
		if uabs(pc.lo) > 1<<61 || uabs(pc.hi) > 1<<61 || uabs(pc.b) > 1<<61 {
			return nil
		}
		switch pc.a {
		case 0:
			out.ps = append(out.ps, piece{pc.lo, pc.hi, 0, floorDiv(pc.b, n)})
		case 1:
			// B + b in [k·2ⁿ, (k+1)·2ⁿ) ⇔ B in [k·2ⁿ − b, (k+1)·2ⁿ − 1 − b].
			lo := pc.lo
			for lo <= pc.hi {
				v, ok := add64(lo, pc.b)
				if !ok {
					return nil
				}
				k := floorDiv(v, n)
				end := (k+1)<<n - 1 - pc.b
				hi := min(pc.hi, end)
				out.ps = append(out.ps, piece{lo, hi, 0, k})
				if len(out.ps) > maxPieces {
					return nil
				}
				lo = hi + 1
			}
		default:
			return nil
		}
	}
	return out.compact()
}

// qOf returns the ℤq form of a piecewise value if every piece agrees mod q.
func (p *pwise) qOf() (qform, bool) {
	if p == nil || len(p.ps) == 0 {
		return nil, false
	}
	a, b := modq(p.ps[0].a), modq(p.ps[0].b)
	for _, pc := range p.ps[1:] {
		if modq(pc.a) != a || modq(pc.b) != b {
			return nil, false
		}
	}
	if a == 0 {
		return qconst(p.ps[0].b), true
	}
	if !p.base.qok {
		return nil, false
	}
	return qlin(qscale(p.base.q, a), qconst(p.ps[0].b), 1), true
}

// finish fills a new integer's missing facts from its piecewise form and
// tightens its interval with it.
func (d *zdom) finish(x *zint) *zint {
	d.ids++
	x.id = d.ids
	if x.pw != nil {
		if lo, hi, ok := x.pw.rng(); ok {
			x.lo, x.hi = max(x.lo, lo), min(x.hi, hi)
		}
		if !x.qok {
			x.q, x.qok = x.pw.qOf()
		}
	}
	if x.lo > x.hi {
		// Cannot happen for a sound rule; fail closed by forgetting.
		return d.atom(math.MinInt64, math.MaxInt64)
	}
	return x
}

// addInt is x + s·y (s = ±1) as integers; ok is false if the interval
// leaves int64.
func (d *zdom) addInt(x, y *zint, s int64) (*zint, bool) {
	ylo, yhi := y.lo, y.hi
	if s < 0 {
		ylo, yhi = -y.hi, -y.lo
	}
	lo, ok1 := add64(x.lo, ylo)
	hi, ok2 := add64(x.hi, yhi)
	if !ok1 || !ok2 || y.lo == math.MinInt64 {
		return nil, false
	}
	r := &zint{lo: lo, hi: hi}
	if x.qok && y.qok {
		r.q, r.qok = qlin(x.q, y.q, modq(s)), true
	}
	r.t, r.tok = tlin(x.tf(), y.tf(), uint32(s))
	r.pw = combine(x.pwOf(), y.pwOf(), func(a1, b1, a2, b2 int64) (int64, int64, bool) {
		a, ok1 := mul64(a2, s)
		b, ok2 := mul64(b2, s)
		a, ok3 := add64(a1, a)
		b, ok4 := add64(b1, b)
		return a, b, ok1 && ok2 && ok3 && ok4
	})
	return d.finish(r), true
}

// mulInt is x·y as integers.
func (d *zdom) mulInt(x, y *zint) (*zint, bool) {
	if x.isConst() && !y.isConst() {
		x, y = y, x
	}
	if y.isConst() {
		c := y.lo
		a, ok1 := mul64(x.lo, c)
		b, ok2 := mul64(x.hi, c)
		if !ok1 || !ok2 {
			return nil, false
		}
		r := &zint{lo: min(a, b), hi: max(a, b)}
		switch {
		case modq(c) == 0:
			r.q, r.qok = qform{}, true // c·X ≡ 0 for any integer X
		case x.qok:
			r.q, r.qok = qscale(x.q, modq(c)), true
		}
		r.t, r.tok = tlin(tform{}, x.tf(), uint32(c))
		r.pw = x.pwOf().mapPieces(func(a, b int64) (int64, int64, bool) {
			a, ok1 := mul64(a, c)
			b, ok2 := mul64(b, c)
			return a, b, ok1 && ok2
		})
		return d.finish(r), true
	}
	var ps [4]int64
	for i, p := range [][2]int64{{x.lo, y.lo}, {x.lo, y.hi}, {x.hi, y.lo}, {x.hi, y.hi}} {
		v, ok := mul64(p[0], p[1])
		if !ok {
			return nil, false
		}
		ps[i] = v
	}
	r := &zint{lo: min(ps[0], ps[1], ps[2], ps[3]), hi: max(ps[0], ps[1], ps[2], ps[3])}
	if x.qok && y.qok {
		r.q, r.qok = qmul(x.q, y.q)
	}
	return d.finish(r), true
}

// hiInt is ⌊x/2³²⌋, remembered so that every reading of it is the same.
func (d *zdom) hiInt(x *zint) *zint {
	if x.hiMemo == nil {
		if x.isConst() {
			x.hiMemo = d.constInt(floorDiv(x.lo, 32))
		} else {
			x.hiMemo = d.finish(&zint{lo: floorDiv(x.lo, 32), hi: floorDiv(x.hi, 32), hiOf: x})
		}
	}
	return x.hiMemo
}

// ---- lanes: the integer X stands for the bits X mod 2³². ----

// laneNorm replaces a lane whose bits are a known constant by that
// constant, and an integer whose interval left int64 by one known mod 2³².
func (d *zdom) laneNorm(x *zint, ok bool, t tform, tok bool) *zint {
	if !ok {
		if !tok {
			return nil
		}
		r := d.atom(math.MinInt32, math.MaxInt32)
		r.t, r.tok = t, true
		return r
	}
	if x.tok && len(x.t.ts) == 0 && !x.isConst() {
		return d.constInt(int64(int32(x.t.k)))
	}
	return x
}

// laneAdd returns the lane x + s·y; exact reports the exact-division rule.
func (d *zdom) laneAdd(x, y *zint, s int64) (r *zint, exact bool) {
	if x == nil || y == nil {
		return nil, false
	}
	if s < 0 && x.hiOf != nil && y.hiOf != nil {
		// Exact division: the low words of hiOf agree mod 2³².
		if w, ok := d.addInt(x.hiOf, y.hiOf, -1); ok && w.tok && len(w.t.ts) == 0 && w.t.k == 0 {
			r := &zint{lo: ceilDiv(w.lo, 32), hi: floorDiv(w.hi, 32)}
			if w.qok {
				r.q, r.qok = qscale(w.q, rInv32), true
			}
			d.exact++
			return d.finish(r), true
		}
	}
	t, tok := tlin(x.tf(), y.tf(), uint32(s))
	r, ok := d.addInt(x, y, s)
	return d.laneNorm(r, ok, t, tok), false
}

func (d *zdom) laneMul(x, y *zint) *zint {
	if x == nil || y == nil {
		return nil
	}
	var t tform
	tok := false
	if y.isConst() {
		t, tok = tlin(tform{}, x.tf(), uint32(y.lo))
	} else if x.isConst() {
		t, tok = tlin(tform{}, y.tf(), uint32(x.lo))
	}
	r, ok := d.mulInt(x, y)
	return d.laneNorm(r, ok, t, tok)
}

// rInv32 is 2⁻³² mod q.
var rInv32 = func() uint64 {
	// 2³²·r ≡ 1 (mod q) by Fermat: r = (2³²)^(q−2).
	b, e, r := (uint64(1)<<32)%qMod, qMod-2, uint64(1)
	for ; e > 0; e >>= 1 {
		if e&1 != 0 {
			r = r * b % qMod
		}
		b = b * b % qMod
	}
	return r
}()

// sx32 is the signed reading of a lane.
func (d *zdom) sx32(x *zint) *zint {
	if x == nil {
		return nil
	}
	if x.lo >= math.MinInt32 && x.hi <= math.MaxInt32 {
		return x
	}
	d.wraps++
	r := d.atom(math.MinInt32, math.MaxInt32)
	r.t, r.tok = x.tf(), true
	return r
}

// laneAnd masks a lane with a constant: exact for constants and for
// piecewise-constant values.
func (d *zdom) laneAnd(x *zint, mask uint32) *zint {
	switch {
	case mask == 0:
		return d.constInt(0)
	case x == nil:
		return nil
	case mask == math.MaxUint32:
		return x
	case x.isConst():
		return d.constInt(int64(uint32(x.lo) & mask))
	}
	if x.pw == nil {
		return nil
	}
	for _, pc := range x.pw.ps {
		if pc.a != 0 {
			return nil
		}
	}
	pw := x.pw.mapPieces(func(_, b int64) (int64, int64, bool) { return 0, int64(uint32(b) & mask), true })
	if pw == nil {
		return nil
	}
	return d.finish(&zint{lo: 0, hi: int64(mask), pw: pw})
}

// ---- words ----

// zw is a 64-bit word.
type zw struct {
	known bool
	c     uint64
	l     [2]*zint // lanes, nil = unknown
	w     *zint    // the signed 64-bit integer, nil = unknown
	src   *zw      // for a byte: the word it was split from
	part  int8     // … and its index there
	// For Ult(a, b) of words not both known: its operands, so that
	// Ite(Ult(a, b), a, b) is recognised as their unsigned minimum.
	ltA, ltB *zw
}

var unknownWord = &zw{}

func (d *zdom) lane(v *zw, i int) *zint {
	switch {
	case v.known:
		return d.constInt(int64(int32(uint32(v.c >> (32 * i)))))
	case v.l[i] != nil:
		return v.l[i]
	case v.w != nil && i == 0:
		return v.w
	case v.w != nil:
		return d.hiInt(v.w)
	}
	return nil
}

func (d *zdom) wordInt(v *zw) *zint {
	switch {
	case v.known:
		return d.constInt(int64(v.c))
	case v.w != nil:
		return v.w
	}
	if h := d.lane(v, 1); h != nil && h.isConst() && h.lo == 0 {
		if x := v.l[0]; x != nil && x.lo >= 0 && x.hi <= math.MaxUint32 {
			return x
		}
	}
	return nil
}

// mulOperand is the integer a factor of a 64-bit product holds: wordInt,
// or, for a word whose high lane is 0 (PMULUDQ's zero-extended operands)
// and whose low lane spans 2³² values or more (so that its interval says
// nothing of its bits), the unsigned reading of that lane. Only products
// read it: elsewhere, and for a narrower lane, the lane's own facts say
// more than [0, 2³²).
func (d *zdom) mulOperand(v *zw) *zint {
	if x := d.wordInt(v); x != nil {
		return x
	}
	if h := d.lane(v, 1); h != nil && h.isConst() && h.lo == 0 && v.l[0] != nil && uint64(v.l[0].hi)-uint64(v.l[0].lo) >= 1<<32 {
		return d.ux32(v.l[0])
	}
	return nil
}

// ux32 is the unsigned reading of a lane whose interval leaves [0, 2³²):
// the integer X mod 2³², a new integer in [0, 2³²) known only mod 2³²
// (the Montgomery quotients of the baseline code).
func (d *zdom) ux32(x *zint) *zint {
	d.wraps++
	r := d.atom(0, math.MaxUint32)
	r.t, r.tok = x.tf(), true
	return r
}

func lanes(a, b *zint) *zw { return &zw{l: [2]*zint{a, b}} }

func (d *zdom) Const(x uint64) *zw { return &zw{known: true, c: x} }

func (d *zdom) And(a, b *zw) *zw {
	if a.known && b.known {
		return d.Const(a.c & b.c)
	}
	if a.known {
		a, b = b, a
	}
	if !b.known {
		return unknownWord
	}
	return lanes(d.laneAnd(d.lane(a, 0), uint32(b.c)), d.laneAnd(d.lane(a, 1), uint32(b.c>>32)))
}

func isZero(x *zint) bool { return x != nil && x.isConst() && x.lo == 0 }

func (d *zdom) Or(a, b *zw) *zw {
	if a.known && b.known {
		return d.Const(a.c | b.c)
	}
	var r [2]*zint
	for i := range r {
		x, y := d.lane(a, i), d.lane(b, i)
		switch {
		case isZero(x):
			r[i] = y
		case isZero(y):
			r[i] = x
		}
	}
	return lanes(r[0], r[1])
}

func (d *zdom) Xor(a, b *zw) *zw {
	if a.known && b.known {
		return d.Const(a.c ^ b.c)
	}
	return unknownWord
}

func (d *zdom) Not(a *zw) *zw {
	if a.known {
		return d.Const(^a.c)
	}
	return unknownWord
}

func (d *zdom) addsub(a, b *zw, s int64) *zw {
	if a.known && b.known {
		return d.Const(a.c + b.c*uint64(s))
	}
	l0, exact := d.laneAdd(d.lane(a, 0), d.lane(b, 0), s)
	var w *zint
	if x, y := d.wordInt(a), d.wordInt(b); x != nil && y != nil {
		w, _ = d.addInt(x, y, s)
	}
	return d.word(l0, exact, w)
}

// word builds the result of a word operation from its low lane and its
// integer: the integer's own low lane is preferred, so that every reading
// of the lane is the same value (same atom), unless the lane is sharper
// (a known constant or an exact division).
func (d *zdom) word(l0 *zint, sharp bool, w *zint) *zw {
	switch {
	case l0 != nil && (sharp || l0.isConst()):
		return &zw{l: [2]*zint{l0, nil}, w: w}
	case w != nil:
		return &zw{w: w}
	}
	return lanes(l0, nil)
}

func (d *zdom) Add(a, b *zw) *zw { return d.addsub(a, b, 1) }
func (d *zdom) Sub(a, b *zw) *zw { return d.addsub(a, b, -1) }

func (d *zdom) Mul(a, b *zw) *zw {
	if a.known && b.known {
		return d.Const(a.c * b.c)
	}
	l0 := d.laneMul(d.lane(a, 0), d.lane(b, 0))
	var w *zint
	if x, y := d.mulOperand(a), d.mulOperand(b); x != nil && y != nil {
		w, _ = d.mulInt(x, y)
	}
	return d.word(l0, false, w)
}

func (d *zdom) MulHi(a, b *zw) *zw {
	if a.known && b.known {
		h, _ := bits.Mul64(a.c, b.c)
		return d.Const(h)
	}
	return unknownWord
}

func (d *zdom) Shl(a *zw, n uint) *zw {
	switch {
	case a.known:
		return d.Const(a.c << n)
	case n == 0:
		return a
	case n == 32:
		return lanes(d.constInt(0), d.lane(a, 0))
	case n < 32:
		return lanes(d.laneMul(d.lane(a, 0), d.constInt(1<<n)), nil)
	case n < 64:
		return lanes(d.constInt(0), d.laneMul(d.lane(a, 0), d.constInt(1<<(n-32))))
	}
	return unknownWord
}

func (d *zdom) Shr(a *zw, n uint) *zw {
	switch {
	case a.known:
		return d.Const(a.c >> n)
	case n == 0:
		return a
	case n == 32:
		return lanes(d.lane(a, 1), d.constInt(0))
	}
	return unknownWord
}

func (d *zdom) Sar(a *zw, n uint) *zw {
	switch {
	case a.known:
		return d.Const(uint64(int64(a.c) >> n))
	case n == 0:
		return a
	case n == 32:
		if x := d.sx32(d.lane(a, 1)); x != nil {
			return &zw{w: x}
		}
		return unknownWord
	case n > 63:
		return unknownWord
	}
	x := d.wordInt(a)
	if x == nil {
		return unknownWord
	}
	r := &zint{lo: floorDiv(x.lo, n), hi: floorDiv(x.hi, n), pw: x.pwOf().sar(n)}
	return &zw{w: d.finish(r)}
}

func (d *zdom) Rol(a *zw, n uint) *zw {
	if a.known {
		return d.Const(bits.RotateLeft64(a.c, int(n)))
	}
	return unknownWord
}

func (d *zdom) cmp(a, b *zw, f func(x, y uint64) bool) *zw {
	if a.known && b.known {
		if f(a.c, b.c) {
			return d.Const(1)
		}
		return d.Const(0)
	}
	return unknownWord
}

func (d *zdom) Eq(a, b *zw) *zw { return d.cmp(a, b, func(x, y uint64) bool { return x == y }) }
func (d *zdom) Ult(a, b *zw) *zw {
	if !a.known || !b.known {
		return &zw{ltA: a, ltB: b}
	}
	return d.cmp(a, b, func(x, y uint64) bool { return x < y })
}
func (d *zdom) Slt(a, b *zw) *zw {
	return d.cmp(a, b, func(x, y uint64) bool { return int64(x) < int64(y) })
}

func (d *zdom) Ite(c, a, b *zw) *zw {
	switch {
	case c.known && c.c != 0:
		return a
	case c.known:
		return b
	case c.ltA == a && c.ltB == b && a != nil:
		return d.uminWord(a, b)
	}
	return unknownWord
}

// uminWord is the unsigned minimum of two words whose high lanes are 0,
// which is the unsigned minimum of their low lanes.
func (d *zdom) uminWord(a, b *zw) *zw {
	if !isZero(d.lane(a, 1)) || !isZero(d.lane(b, 1)) {
		return unknownWord
	}
	x, y := d.lane(a, 0), d.lane(b, 0)
	if x == nil || y == nil {
		return unknownWord
	}
	r := d.umin(x, y)
	if r == nil {
		return unknownWord
	}
	return lanes(r, d.constInt(0))
}

// window returns the k with lo and hi in [k·2³², (k+1)·2³²), if there is
// one.
func window(lo, hi int64) (int64, bool) {
	k := floorDiv(lo, 32)
	return k, floorDiv(hi, 32) == k
}

// umin is the lane whose bits are the unsigned minimum of the bits of the
// lanes x and y: x or y when their intervals decide it, otherwise a
// piecewise choice between them over their common base; nil if neither
// works.
func (d *zdom) umin(x, y *zint) *zint {
	kx, okx := window(x.lo, x.hi)
	ky, oky := window(y.lo, y.hi)
	if okx && oky {
		switch {
		case x.hi-kx<<32 <= y.lo-ky<<32:
			return x
		case y.hi-ky<<32 <= x.lo-kx<<32:
			return y
		}
	}
	pw := uminPieces(x.pwOf(), y.pwOf())
	if pw == nil {
		return nil
	}
	return d.finish(&zint{lo: min(x.lo, y.lo), hi: max(x.hi, y.hi), pw: pw})
}

// uminPieces handles base values up to 2⁴⁰, slopes up to 2¹⁶ and
// constants up to 2⁵⁶ in absolute value, so that no product or sum it
// forms leaves int64 (each stays below 2⁶⁰).
const (
	uminBase  = 1 << 40
	uminSlope = 1 << 16
	uminConst = 1 << 56
)

func within(v, limit int64) bool { return -limit <= v && v <= limit }

// uminPieces is the piecewise unsigned minimum of the bits of two
// functions of one base (a constant is a function of any base): on each
// range, the piece of the function whose bits are smaller.
func uminPieces(p1, p2 *pwise) *pwise {
	if c := p2.base; c.isConst() && !p1.base.isConst() {
		p2 = &pwise{base: p1.base, ps: []piece{{p1.base.lo, p1.base.hi, 0, c.lo}}}
	}
	if c := p1.base; c.isConst() && !p2.base.isConst() {
		p1 = &pwise{base: p2.base, ps: []piece{{p2.base.lo, p2.base.hi, 0, c.lo}}}
	}
	if p1.base != p2.base {
		return nil
	}
	out := &pwise{base: p1.base}
	i, j := 0, 0
	lo := p1.base.lo
	for i < len(p1.ps) && j < len(p2.ps) {
		x, y := p1.ps[i], p2.ps[j]
		hi := min(x.hi, y.hi)
		if !within(lo, uminBase) || !within(hi, uminBase) || !within(x.a, uminSlope) || !within(y.a, uminSlope) ||
			!within(x.b, uminConst) || !within(y.b, uminConst) {
			return nil
		}
		wxs := windows(x, lo, hi)
		if wxs == nil {
			return nil
		}
		for _, wx := range wxs {
			wys := windows(y, wx.lo, wx.hi)
			if wys == nil {
				return nil
			}
			for _, wy := range wys {
				// On [wy.lo, wy.hi] the bits are X − kx·2³² and Y − ky·2³²;
				// δ(B) is their difference, affine in B.
				kx, ky := wx.b, wy.b
				δ := func(B int64) int64 { return (x.a-y.a)*B + x.b - y.b - (kx-ky)<<32 }
				s, e := wy.lo, wy.hi
				for s <= e {
					// The longest run from s on which δ ≤ 0 keeps its truth.
					first := δ(s) <= 0
					end := e
					if (δ(e) <= 0) != first {
						l, h := s, e // δ(l) ≤ 0 is first, δ(h) ≤ 0 is not
						for h-l > 1 {
							m := l + (h-l)/2
							if (δ(m) <= 0) == first {
								l = m
							} else {
								h = m
							}
						}
						end = l
					}
					pc := y
					if first {
						pc = x
					}
					out.ps = append(out.ps, piece{s, end, pc.a, pc.b})
					if len(out.ps) > maxPieces {
						return nil
					}
					s = end + 1
				}
			}
		}
		if len(out.ps) > maxPieces {
			return nil
		}
		lo = hi + 1
		if x.hi == hi {
			i++
		}
		if y.hi == hi {
			j++
		}
	}
	if len(out.ps) == 0 {
		return nil
	}
	return out.compact()
}

// windows splits [lo, hi] into the ranges on which a·B + b (for the piece
// pc) stays in one [k·2³², (k+1)·2³²), each returned as a piece with b = k;
// nil beyond eight ranges. The caller bounds lo, hi, a and b (uminBase,
// uminSlope, uminConst).
func windows(pc piece, lo, hi int64) []piece {
	var out []piece
	for s := lo; s <= hi; {
		k := floorDiv(pc.a*s+pc.b, 32)
		e := hi
		switch {
		case pc.a > 0: // a·B + b ≤ (k+1)·2³² − 1
			e = min(hi, floorQuo((k+1)<<32-1-pc.b, pc.a))
		case pc.a < 0: // a·B + b ≥ k·2³²
			e = min(hi, floorQuo(pc.b-k<<32, -pc.a))
		}
		out = append(out, piece{s, e, 0, k})
		if len(out) > 8 {
			return nil
		}
		s = e + 1
	}
	return out
}

// floorQuo is ⌊n/m⌋ for m > 0.
func floorQuo(n, m int64) int64 {
	q := n / m
	if n%m != 0 && n < 0 {
		q--
	}
	return q
}

func (d *zdom) Popcnt(a *zw) *zw {
	if a.known {
		return d.Const(uint64(bits.OnesCount64(a.c)))
	}
	return unknownWord
}

func (d *zdom) Dep(a, _ *zw) *zw              { return a }
func (d *zdom) Havoc(...*zw) *zw              { return unknownWord }
func (d *zdom) Concrete(a *zw) (uint64, bool) { return a.c, a.known }
func (d *zdom) Range(a *zw) (uint64, uint64) {
	if a.known {
		return a.c, a.c
	}
	return 0, math.MaxUint64
}

func (d *zdom) Bytes(a *zw, out []*zw) {
	for i := range out {
		if a.known {
			out[i] = d.Const((a.c >> (8 * i)) & 0xff)
		} else {
			out[i] = &zw{src: a, part: int8(i)}
		}
	}
}

// group reads four bytes as a lane.
func (d *zdom) group(b []*zw) *zint {
	if b[0].known {
		v := uint32(0)
		for i, x := range b {
			if !x.known {
				return nil
			}
			v |= uint32(x.c) << (8 * i)
		}
		return d.constInt(int64(int32(v)))
	}
	s, p := b[0].src, b[0].part
	if s == nil || p%4 != 0 {
		return nil
	}
	for i, x := range b {
		if x.known || x.src != s || x.part != p+int8(i) {
			return nil
		}
	}
	return d.lane(s, int(p/4))
}

func (d *zdom) FromBytes(b []*zw) *zw {
	known := true
	v := uint64(0)
	for i, x := range b {
		known = known && x.known
		v |= x.c << (8 * i)
	}
	if known {
		return d.Const(v)
	}
	switch len(b) {
	case 8:
		if s := b[0].src; s != nil {
			same := true
			for i, x := range b {
				same = same && x.src == s && int(x.part) == i
			}
			if same {
				return s
			}
		}
		return lanes(d.group(b[:4]), d.group(b[4:]))
	case 4:
		return lanes(d.group(b), d.constInt(0))
	}
	return unknownWord
}

var _ x86.Domain[*zw] = (*zdom)(nil)
