package check

import (
	"fmt"
	"math/bits"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
	"github.com/vg-crypto/vg/Spec/x86"
)

// The operations of the composition proof that Verify_internal
// (fips204.VerifyOver, Algorithm 8) adds to KeyGen's: the decoders of σ
// and SampleInBall read bytes (seeded, as the samplers: matched with the
// steps' bytes), UseHint maps two polynomials, the norm check gives a
// truth value, and Equal and And build terms. Each Op is checked against
// the callee's proven postcondition (Packed, HintUnpack, Ball, Lanes,
// Exceeds) before it is used.

// flagCall is a call of the norm check: the polynomial it read, the bound
// it got and its flag, a fresh bit.
type flagCall struct {
	in    string
	bound uint32
	flag  *x86.Term
	used  bool
}

// seededPoly is output j of the routine's call of sampler or decoder name
// on seed, and the call.
func (o *termOps) seededPoly(name string, seed []any, params ...int) (*poly, *seedCall) {
	sc, _ := o.sampled(name, seed, params...)
	if sc == nil || len(sc.outs) == 0 {
		return &poly{name: "none"}, nil
	}
	p := sc.outs[0]
	return &poly{name: p.name, lin: p.lin}, sc
}

func (o *termOps) BitUnpack(v []any, a, b int) any {
	p, _ := o.seededPoly("BitUnpack", v, a, b)
	return p
}

func (o *termOps) SampleInBall(rho []any) any {
	p, _ := o.seededPoly("SampleInBall", rho, o.p.Tau)
	return p
}

// HintBitUnpack is the routine's call on y: its k polynomials, and its
// result bit as the truth value (0 for ⊥).
func (o *termOps) HintBitUnpack(y []any) ([]any, any) {
	sc, _ := o.sampled("HintBitUnpack", y, o.p.Omega)
	h := make([]any, o.p.K)
	for i := range h {
		h[i] = &poly{name: "none"}
		if sc != nil && len(sc.outs) == o.p.K {
			h[i] = &poly{name: sc.outs[i].name}
		}
	}
	if sc == nil {
		return h, o.s.Const(0)
	}
	return h, sc.ok
}

func (o *termOps) SubNTT(a, b any) any {
	if l := o.lins("SubNTT", a, b); l != nil && l[0].ntt {
		return o.linPoly("SubNTT", linAdd(l[0], linScale(qMod-1, l[1])))
	}
	return o.linPoly("SubNTT", nil)
}

func (o *termOps) UseHint(h, r any) any {
	return &poly{name: opName("UseHint", 0, h.(*poly).name+", "+r.(*poly).name)}
}

// NormBelow is the negation of the flag of the routine's norm check of
// the polynomial named w against bound.
func (o *termOps) NormBelow(w any, bound int) any {
	for _, fc := range o.flags {
		if fc.in == w.(*poly).name && int64(fc.bound) == int64(bound) {
			fc.used = true
			return o.s.Xor(fc.flag, o.s.Const(1))
		}
	}
	o.fail("the steps of Spec check ‖%s‖∞ < %d, which the routine does not", w.(*poly).name, bound)
	return o.s.Const(0)
}

// Equal is 1 where every byte of a equals that of b.
func (o *termOps) Equal(a, b []any) any {
	if len(a) != len(b) {
		o.fail("the steps of Spec compare %d bytes with %d", len(a), len(b))
		return o.s.Const(0)
	}
	mask := o.s.Const(0xff)
	eq := o.s.Const(1)
	for i := range a {
		eq = o.s.And(eq, o.s.Eq(o.s.And(a[i].(*x86.Term), mask), o.s.And(b[i].(*x86.Term), mask)))
	}
	return eq
}

func (o *termOps) And(a, b any) any { return o.s.And(a.(*x86.Term), b.(*x86.Term)) }

// normEffect is a call of the norm check (Op NormBelow): on a polynomial
// of known name, the bound a constant; its flag a fresh bit, 0 or 1 as
// its Exceeds proof has it.
func normEffect(s *x86.Sym, cc *contract.Contract, bufs map[string][]*x86.Term, polys map[*x86.Term]*poly, flags *[]*flagCall, p fips204.Params) (map[string][]*x86.Term, *x86.Term, error) {
	op := cc.Op
	if len(op.In) != 2 || len(op.Out) != 1 || cc.Exceeds == nil {
		return nil, nil, fmt.Errorf("%s: its Op is not its Exceeds proof's", cc.Symbol)
	}
	x := bufs[op.In[0]]
	if len(x) != 1024 || polys[x[0]] == nil {
		return nil, nil, fmt.Errorf("%s: %s is not a polynomial the routine got or a callee computed", cc.Symbol, op.In[0])
	}
	q := polys[x[0]]
	for i, t := range x {
		if t != q.bytes[i] {
			return nil, nil, fmt.Errorf("%s: byte %d of %s is not byte %d of %s", cc.Symbol, i, op.In[0], i, q.name)
		}
	}
	b := bufs[op.In[1]]
	if len(b) != 4 {
		return nil, nil, fmt.Errorf("%s: the bound is not 4 bytes", cc.Symbol)
	}
	bound := uint32(0)
	for i, t := range b {
		v, ok := s.Concrete(s.And(t, s.Const(0xff)))
		if !ok {
			return nil, nil, fmt.Errorf("%s: byte %d of the bound is not a constant", cc.Symbol, i)
		}
		bound |= uint32(v) << (8 * i)
	}
	if err := checkNormOp(cc, q.dom, p); err != nil {
		return nil, nil, err
	}
	flag := s.And(s.Var(fmt.Sprintf("flag%d", len(*flags))), s.Const(1))
	// With Of, the norm checked is that of Of(w), of that name.
	in := q.name
	if op.Of != "" {
		in = opName(op.Of, 0, q.name)
	}
	*flags = append(*flags, &flagCall{in: in, bound: bound, flag: flag})
	if n := writtenBytes(cc, op.Out[0]); n != 4 {
		return nil, nil, fmt.Errorf("%s: its flag is not 4 bytes", cc.Symbol)
	}
	return map[string][]*x86.Term{op.Out[0]: {flag, s.Const(0), s.Const(0), s.Const(0)}}, s.Const(0), nil
}

// checkNormOp checks a NormBelow Op: the callee's Exceeds proof
// establishes its flag is 1 exactly when Of(w) ≥ bound for some word w;
// Of must be Spec's norm of a coefficient on every word of range d: for
// each, Spec's NormBelow of the polynomial holding it (and zeros) is
// below exactly where Of(w) < bound, for bounds Of(w) and Of(w) + 1.
// Spec's ‖·‖∞ is the largest of its coefficients' (§2.3). An Op with Of
// checks the norm of Spec's map of that name (specCoeffMaps, of the
// steps' parameter set) on the polynomial, which maps 0 to 0.
func checkNormOp(cc *contract.Contract, d dom, p fips204.Params) error {
	op, e := cc.Op, cc.Exceeds
	if e == nil || e.Of == nil || len(op.In) != 2 || op.In[0] != e.In || op.In[1] != e.Bound || len(op.Out) != 1 || op.Out[0] != e.Flag || len(op.Params) != 0 {
		return fmt.Errorf("%s: its Op is not its Exceeds proof's", cc.Symbol)
	}
	pre := func(w fips204.Poly) fips204.Poly { return w }
	if op.Of != "" {
		f := specCoeffMaps[op.Of]
		if f == nil {
			return fmt.Errorf("%s: the norm of %s, which Spec has no coefficient map of", cc.Symbol, op.Of)
		}
		if f(fips204.Values{P: p}, fips204.Poly{}) != (fips204.Poly{}) {
			return fmt.Errorf("%s: Spec's %s does not map 0 to 0", cc.Symbol, op.Of)
		}
		pre = func(w fips204.Poly) fips204.Poly { return f(fips204.Values{P: p}, w) }
	}
	if d.lo > d.hi || d.hi-d.lo >= fips204.Q {
		return fmt.Errorf("%s: words of [%d, %d] mod q, not one range below q", cc.Symbol, d.lo, d.hi)
	}
	key := fmt.Sprintf("%s/NormBelow/%p/%d/%d/%s/%d", cc.Symbol, e, d.lo, d.hi, op.Of, p.Gamma2)
	if v, ok := checkedOps.Load(key); ok {
		if v != nil {
			return v.(error)
		}
		return nil
	}
	err := func() error {
		// Spec's map on 256 words at a time, then each coefficient it
		// gives alone: Spec's NormBelow of a polynomial with that one
		// coefficient is CoeffNorm(c) < bound, as its ‖·‖∞ is the
		// largest CoeffNorm of its coefficients and CoeffNorm(0) = 0.
		var words fips204.Poly
		for x0 := d.lo; x0 <= d.hi; x0 += 256 {
			for i := range words {
				x := min(x0+int64(i), d.hi)
				words[i] = int32((x%fips204.Q + fips204.Q) % fips204.Q)
			}
			mapped := pre(words)
			for i := range words {
				word := uint32(words[i])
				norm := fips204.CoeffNorm(mapped[i])
				m := e.Of(word)
				for _, bound := range []uint32{m, m + 1} {
					if bound == 0 || bound >= 1<<31 {
						continue
					}
					if below := norm < int64(bound); (m < bound) != below {
						return fmt.Errorf("%s: Of(%d) = %d, Spec's norm check against %d says %v", cc.Symbol, word, m, bound, below)
					}
				}
			}
		}
		return nil
	}()
	checkedOps.Store(key, err)
	return err
}

// samePacking reports whether the routine's SimpleBitPack call pc serves
// the steps' SimpleBitPack(·, b): its Params[0] of the same bit length
// (Algorithm 16 packs in bitlen(b) bits), the words it got within
// [0, b], and Spec's packings for the two equal on zero and on every
// word 2^j ≤ b at every position.
func (o *termOps) samePacking(pc *packCall, name string, params []int) bool {
	if name != "SimpleBitPack" || len(params) != 1 || len(pc.op.Params) != 1 {
		return false
	}
	b, c := params[0], pc.op.Params[0]
	if b < 1 || bits.Len(uint(b)) != bits.Len(uint(c)) || pc.dom.lo < 0 || pc.dom.hi > int64(b) {
		return false
	}
	key := fmt.Sprintf("SimpleBitPack/%d/%d", b, c)
	if v, ok := checkedOps.Load(key); ok {
		return v.(bool)
	}
	same := func() bool {
		var w fips204.Poly
		if string(fips204.SimpleBitPack(w, b)) != string(fips204.SimpleBitPack(w, c)) {
			return false
		}
		for i := range w {
			for j := 0; 1<<j <= b; j++ {
				w[i] = 1 << j
				if string(fips204.SimpleBitPack(w, b)) != string(fips204.SimpleBitPack(w, c)) {
					return false
				}
			}
			w[i] = 0
		}
		return true
	}()
	checkedOps.Store(key, same)
	return same
}

// checkBitUnpackOp checks a BitUnpack Op (Algorithm 19): the callee's
// Packed proof (packproof.go) establishes that word i is Map of bits W·i
// to W·i + W − 1 of the bytes, for every encoding. W must be
// bitlen(a + b), Map give b − f mod q for every field f of W bits, and
// Spec's BitUnpack read fields there: on zero bytes every coefficient b,
// and with bit W·i + j alone set coefficient i b − 2^j and the others b.
// The words are then x mod q for x in [b − 2^W + 1, b].
func checkBitUnpackOp(cc *contract.Contract) ([]dom, error) {
	op, pk := cc.Op, cc.Packed
	if pk == nil || pk.Pack || pk.Map == nil || pk.Flag != "" || len(op.In) != 1 || len(op.Out) != 1 || pk.Bytes != op.In[0] || pk.Words != op.Out[0] || len(op.Params) != 2 {
		return nil, fmt.Errorf("%s: its Op is not its Packed map's", cc.Symbol)
	}
	a, b := op.Params[0], op.Params[1]
	W := bits.Len(uint(a + b))
	if a < 0 || b < 0 || a+b < 1 || 1<<W >= fips204.Q/2 || pk.Width != W || readBytes(cc, pk.Bytes) != 32*W || writtenBytes(cc, pk.Words) != 1024 {
		return nil, fmt.Errorf("%s: BitUnpack(·, %d, %d) in fields of %d bits, bitlen(a + b) = %d", cc.Symbol, a, b, pk.Width, W)
	}
	out := []dom{{int64(b) - (1<<W - 1), int64(b)}}
	key := fmt.Sprintf("%s/%v/%p", cc.Symbol, *op, pk)
	if v, ok := checkedOps.Load(key); ok {
		if v != nil {
			return nil, v.(error)
		}
		return out, nil
	}
	err := func() error {
		modq := func(x int64) uint32 { return uint32((x%fips204.Q + fips204.Q) % fips204.Q) }
		var x [256]uint32
		for f0 := 0; f0 < 1<<W; f0 += 256 {
			for i := range x {
				x[i] = uint32(min(f0+i, 1<<W-1))
			}
			for i, w := range pk.Map(&x) {
				if w != modq(int64(b)-int64(x[i])) {
					return fmt.Errorf("%s: its Map gives %d for field %d, b − f is %d mod q", cc.Symbol, w, x[i], modq(int64(b)-int64(x[i])))
				}
			}
		}
		v := make([]byte, 32*W)
		check := func(at, j int) error {
			for i, c := range fips204.BitUnpack(v, a, b) {
				want := int32(b)
				if i == at {
					want -= 1 << j
				}
				if c != want {
					return fmt.Errorf("%s: Spec's BitUnpack gives coefficient %d = %d with bit %d of field %d set, not %d", cc.Symbol, i, c, j, at, want)
				}
			}
			return nil
		}
		if err := check(-1, 0); err != nil {
			return err
		}
		for i := 0; i < 256; i++ {
			for j := 0; j < W; j++ {
				k := W*i + j
				v[k/8] = 1 << (k % 8)
				if err := check(i, j); err != nil {
					return err
				}
				v[k/8] = 0
			}
		}
		return nil
	}()
	checkedOps.Store(key, err)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// checkHintUnpackOp checks a HintBitUnpack Op: the callee's HintUnpack
// proof (hintproof.go) establishes that it returns 1 exactly when Spec's
// HintBitUnpack (Algorithm 21) for k and ω does not return ⊥, and its
// output then; the Op must read and write its buffers, for the steps'
// k and ω. Words 0 or 1.
func checkHintUnpackOp(cc *contract.Contract, p fips204.Params) ([]dom, error) {
	op, hu := cc.Op, cc.HintUnpack
	if hu == nil || cc.Result != "bool" || fmt.Sprint(op.In) != fmt.Sprint([]string{hu.In}) || fmt.Sprint(op.Out) != fmt.Sprint([]string{hu.Out}) || len(op.Params) != 1 || op.Params[0] != hu.Omega {
		return nil, fmt.Errorf("%s: its Op is not its HintUnpack proof's", cc.Symbol)
	}
	if hu.K != p.K || hu.Omega != p.Omega || readBytes(cc, hu.In) != p.Omega+p.K || writtenBytes(cc, hu.Out) != 1024*p.K {
		return nil, fmt.Errorf("%s: k = %d and ω = %d, the steps' parameter set has %d and %d", cc.Symbol, hu.K, hu.Omega, p.K, p.Omega)
	}
	return []dom{{0, 1}}, nil
}

// checkBallOp checks a SampleInBall Op: the callee's Ball proof
// (ballproof.go) establishes that, when it returns 1, its output is Spec's
// SampleInBall (Algorithm 29) of the seed for τ, mod q; the Op must read
// and write its buffers, for the steps' τ and λ/4 bytes of seed. Words
// 0, 1 or q − 1.
func checkBallOp(cc *contract.Contract, p fips204.Params) ([]dom, error) {
	op, bl := cc.Op, cc.Ball
	if bl == nil || cc.Result != "bool" || fmt.Sprint(op.In) != fmt.Sprint([]string{bl.Seed}) || fmt.Sprint(op.Out) != fmt.Sprint([]string{bl.Out}) || len(op.Params) != 1 || op.Params[0] != bl.Tau {
		return nil, fmt.Errorf("%s: its Op is not its Ball proof's", cc.Symbol)
	}
	if bl.Tau != p.Tau || readBytes(cc, bl.Seed) != p.Lambda/4 || writtenBytes(cc, bl.Out) != 1024 {
		return nil, fmt.Errorf("%s: τ = %d, the steps' parameter set has τ = %d and c̃ of %d bytes", cc.Symbol, bl.Tau, p.Tau, p.Lambda/4)
	}
	return []dom{{-1, 1}}, nil
}

// checkUseHintOp checks a UseHint Op: its Lanes map (proven for every
// input of its Domain, h in {0, 1} and r in [0, q)) must be Spec's
// UseHint for γ2 = (q−1)/Params[0] on every such pair, γ2 the steps'. It
// gives the range of the output words, for h of range d in {0, 1}.
func checkUseHintOp(cc *contract.Contract, d dom, p fips204.Params) ([]dom, error) {
	op, l := cc.Op, cc.Lanes
	if l == nil || l.Split != nil || l.Count != "" || fmt.Sprint(l.In) != fmt.Sprint(op.In) || fmt.Sprint(l.Out) != fmt.Sprint(op.Out) || len(op.In) != 2 || len(op.Out) != 1 ||
		fmt.Sprint(l.Domain) != fmt.Sprint([]uint32{2, fips204.Q}) || len(op.Params) != 1 || op.Params[0] < 1 || (fips204.Q-1)/op.Params[0] != p.Gamma2 || (fips204.Q-1)%op.Params[0] != 0 {
		return nil, fmt.Errorf("%s: its Op is not its Lanes map's, or not UseHint for the steps' γ2", cc.Symbol)
	}
	if d.lo < 0 || d.hi > 1 {
		return nil, fmt.Errorf("%s: hint words of [%d, %d], its Domain is {0, 1}", cc.Symbol, d.lo, d.hi)
	}
	key := fmt.Sprintf("%s/UseHint/%p/%d", cc.Symbol, l, p.Gamma2)
	if v, ok := checkedOps.Load(key); ok {
		if e, isErr := v.(error); isErr {
			return nil, e
		}
		return []dom{v.(dom)}, nil
	}
	out := dom{fips204.Q, -fips204.Q}
	err := func() error {
		v := fips204.Values{P: p}
		for h := int32(0); h <= 1; h++ {
			var hp fips204.Poly
			for i := range hp {
				hp[i] = h
			}
			for r0 := 0; r0 < fips204.Q; r0 += 256 {
				var r fips204.Poly
				for i := range r {
					r[i] = int32(min(r0+i, fips204.Q-1))
				}
				want := v.UseHint(hp, r)
				for i := range r {
					got := l.Map([]uint32{uint32(h), uint32(r[i])})
					w := uint32((want[i]%fips204.Q + fips204.Q) % fips204.Q)
					if len(got) != 1 || got[0] != w {
						return fmt.Errorf("%s: its Lanes map gives %v for (%d, %d), Spec's UseHint %d mod q", cc.Symbol, got, h, r[i], w)
					}
					c := centered(w)
					out = dom{min(out.lo, c), max(out.hi, c)}
				}
			}
		}
		return nil
	}()
	if err != nil {
		checkedOps.Store(key, err)
		return nil, err
	}
	checkedOps.Store(key, out)
	return []dom{out}, nil
}
