package check

import (
	"fmt"
	"slices"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips202"
	"github.com/vg-crypto/vg/Spec/fips204"
	"github.com/vg-crypto/vg/Spec/x86"
)

// The operations of the composition proof that the stages of an attempt
// of Sign_internal (fips204.SignZOver, SignR0Over and SignHintOver,
// Algorithm 7, lines 11 to 28) add to Verify's: ExpandMask reads bytes (seeded, as the samplers), κ + r
// and − in R_q build terms and normal forms, HighBits maps a polynomial,
// the norm check of LowBits gives a truth value, and MakeHint maps two
// polynomials and counts its ones. Each Op is checked against the
// callee's proven postcondition (Squeeze, Lanes, Split, Exceeds) before
// it is used.

// countCall is a call of MakeHint: the name of the hint it wrote and its
// count of ones, a fresh word.
type countCall struct {
	h     string
	count *x86.Term
}

// ExpandMaskPoly is the polynomial of the routine's ExpandMask call that
// got seed.
func (o *termOps) ExpandMaskPoly(seed []any) any {
	sc, j := o.sampled("ExpandMask", seed, o.p.Gamma1)
	if sc == nil {
		return &poly{name: "none"}
	}
	p := sc.outs[j]
	return &poly{name: p.name, lin: p.lin}
}

// Plus is IntegerToBytes(x + r, |x|) of the little-endian bytes x, as
// terms.
func (o *termOps) Plus(x []any, r int) []any {
	mask := o.s.Const(0xff)
	n := o.s.Const(uint64(r))
	for i, b := range x {
		n = o.s.Add(n, o.s.Shl(o.s.And(b.(*x86.Term), mask), uint(8*i)))
	}
	out := make([]any, len(x))
	for i := range out {
		out[i] = o.s.And(o.s.Shr(n, uint(8*i)), mask)
	}
	return out
}

func (o *termOps) Sub(a, b any) any {
	if l := o.lins("Sub", a, b); l != nil && !l[0].ntt {
		return o.linPoly("Sub", linAdd(l[0], linScale(qMod-1, l[1])))
	}
	return o.linPoly("Sub", nil)
}

func (o *termOps) Neg(a any) any {
	if l := o.lins("Neg", a); l != nil && !l[0].ntt {
		return o.linPoly("Neg", linScale(qMod-1, l[0]))
	}
	return o.linPoly("Neg", nil)
}

func (o *termOps) HighBits(r any) any {
	return &poly{name: opName("HighBits", 0, r.(*poly).name)}
}

func (o *termOps) LowBits(r any) any {
	return &poly{name: opName("LowBits", 0, r.(*poly).name)}
}

func (o *termOps) MakeHint(z, r any) any {
	return &poly{name: opName("MakeHint", 0, z.(*poly).name+", "+r.(*poly).name)}
}

// OnesAtMost is 1 where the counts of the routine's MakeHint calls that
// wrote h, one for each polynomial, add up to at most n.
func (o *termOps) OnesAtMost(h []any, n int) any {
	sum := o.s.Const(0)
	for _, w := range h {
		name := w.(*poly).name
		i := slices.IndexFunc(o.counts, func(cc *countCall) bool { return cc.h == name })
		if i < 0 {
			o.fail("the steps of Spec count the ones of %s, which no MakeHint call of the routine wrote", name)
			return o.s.Const(0)
		}
		sum = o.s.Add(sum, o.counts[i].count)
	}
	return o.s.Ult(sum, o.s.Const(uint64(n)+1))
}

// hintCall is a call of HintBitPack: the names of the k polynomials it
// read (the routine's hint input) and the ω + k bytes it wrote.
type hintCall struct {
	in  []string
	out []*x86.Term
}

// ModPM is w mod± q on each coefficient (§2.3), for an input polynomial
// w whose value is its words, in [0, q): the same words, valued each word
// read in (−q/2, q/2] (Spec's ModPM on every word, checkModPM). Only
// BitPack takes it: a BitPack callee's checked Op reads its words so
// (termOps.BitPack).
func (o *termOps) ModPM(w any) any {
	p := w.(*poly)
	if !p.words {
		o.fail("the steps of Spec apply ModPM to %s, whose value the proof does not know to be its words in [0, q)", p.name)
		return &poly{name: "none"}
	}
	if err := checkModPM(o.p); err != nil {
		o.fail("%v", err)
		return &poly{name: "none"}
	}
	return &poly{name: opName("ModPM", 0, p.name), pmOf: p}
}

// HintBitPack is the bytes of the routine's HintBitPack call on the
// polynomials of h's names, in order.
func (o *termOps) HintBitPack(h []any) []any {
	if o.err != nil {
		return nil
	}
	var names []string
	for _, w := range h {
		names = append(names, w.(*poly).name)
	}
	for _, hc := range o.hints {
		if slices.Equal(hc.in, names) {
			out := make([]any, len(hc.out))
			for i, t := range hc.out {
				out[i] = t
			}
			return out
		}
	}
	o.fail("the steps of Spec apply HintBitPack to %v, which the routine does not call", names)
	return nil
}

// Reveal belongs to the loop around the attempts, which no routine
// composes yet.
func (o *termOps) Reveal(b any) bool {
	o.none("Reveal")
	return false
}

// checkExpandMaskOp checks an ExpandMask Op: the callee's Squeeze proof
// (squeezeproof.go) establishes that output j is its unpacker's result on
// the first bytes of SHAKE256 of seed j (66 bytes each, back to back in
// the Op's buffer). The unpacker's Op must be BitUnpack(·, γ1 − 1, γ1)
// (checkBitUnpackOp: it reads 32·bitlen(2γ1 − 1) = 32c bytes), γ1 the
// steps', the rate SHAKE256's; and Spec's ExpandMaskPoly must be that
// (Algorithm 34, lines 4 and 5; run on one seed). The words are those of
// BitUnpack, x mod q for x in [−γ1 + 1, γ1].
func checkExpandMaskOp(cc *contract.Contract, p fips204.Params) ([]dom, error) {
	op, sq := cc.Op, cc.Squeeze
	if sq == nil || len(op.In) != 1 || op.In[0] != sq.Seed || sq.Rate != fips202.Rate256 || len(op.Params) != 1 || op.Params[0] != p.Gamma1 {
		return nil, fmt.Errorf("%s: its Op is not its Squeeze proof's for SHAKE256 and the steps' γ1 = %d", cc.Symbol, p.Gamma1)
	}
	var outs []string
	for _, a := range cc.Args {
		if a.Name == sq.Out {
			outs = a.BufferNames()
		}
	}
	if fmt.Sprint(outs) != fmt.Sprint(op.Out) || readBytes(cc, sq.Seed) != 66*len(outs) {
		return nil, fmt.Errorf("%s: its Op writes %v and reads %d bytes, its Squeeze %v and 66 bytes each", cc.Symbol, op.Out, readBytes(cc, sq.Seed), outs)
	}
	for _, name := range outs {
		if writtenBytes(cc, name) != 1024 {
			return nil, fmt.Errorf("%s: %s is not a polynomial", cc.Symbol, name)
		}
	}
	un := contract.Lookup(sq.Unpack)
	if un == nil || un.Op == nil || un.Op.Name != "BitUnpack" || fmt.Sprint(un.Op.Params) != fmt.Sprint([]int{p.Gamma1 - 1, p.Gamma1}) {
		return nil, fmt.Errorf("%s: its unpacker %s is not BitUnpack(·, γ1 − 1, γ1)", cc.Symbol, sq.Unpack)
	}
	doms, err := checkBitUnpackOp(un)
	if err != nil {
		return nil, err
	}
	key := fmt.Sprintf("%s/ExpandMask/%d", cc.Symbol, p.Gamma1)
	if _, ok := checkedOps.Load(key); !ok {
		seed := make([]byte, 66)
		for i := range seed {
			seed[i] = byte(29*i + 3)
		}
		v := make([]byte, readBytes(un, un.Op.In[0]))
		h := fips202.NewSHAKE256()
		h.Write(seed)
		h.Read(v)
		if (fips204.Values{P: p}).ExpandMaskPoly(seed) != fips204.BitUnpack(v, p.Gamma1-1, p.Gamma1) {
			return nil, fmt.Errorf("%s: Spec's ExpandMaskPoly is not BitUnpack of the first %d bytes of SHAKE256 of the seed", cc.Symbol, len(v))
		}
		checkedOps.Store(key, true)
	}
	return doms, nil
}

// specCoeffMaps are the coefficient-wise methods of fips204.Values an
// Op's Lanes map or a norm check's Of may be checked against.
var specCoeffMaps = map[string]func(v fips204.Values, w fips204.Poly) fips204.Poly{
	"HighBits": fips204.Values.HighBits,
	"LowBits":  fips204.Values.LowBits,
}

// checkHighBitsOp checks a HighBits Op: its Lanes map (proven for every
// word of [0, q)) must be Spec's HighBits for the steps' γ2 on every
// word. It gives the range of the output words.
func checkHighBitsOp(cc *contract.Contract, p fips204.Params) ([]dom, error) {
	op, l := cc.Op, cc.Lanes
	if l == nil || l.Split != nil || l.Count != "" || fmt.Sprint(l.In) != fmt.Sprint(op.In) || fmt.Sprint(l.Out) != fmt.Sprint(op.Out) || len(op.In) != 1 || len(op.Out) != 1 ||
		fmt.Sprint(l.Domain) != fmt.Sprint([]uint32{fips204.Q}) || len(op.Params) != 1 || op.Params[0] < 1 || (fips204.Q-1)%op.Params[0] != 0 || (fips204.Q-1)/op.Params[0] != p.Gamma2 {
		return nil, fmt.Errorf("%s: its Op is not its Lanes map's, or not HighBits for the steps' γ2", cc.Symbol)
	}
	key := fmt.Sprintf("%s/HighBits/%p/%d", cc.Symbol, l, p.Gamma2)
	if v, ok := checkedOps.Load(key); ok {
		if e, isErr := v.(error); isErr {
			return nil, e
		}
		return []dom{v.(dom)}, nil
	}
	out := dom{fips204.Q, -fips204.Q}
	err := func() error {
		for x0 := 0; x0 < fips204.Q; x0 += 256 {
			var r fips204.Poly
			for i := range r {
				r[i] = int32(min(x0+i, fips204.Q-1))
			}
			want := specCoeffMaps["HighBits"](fips204.Values{P: p}, r)
			for i := range r {
				got := l.Map([]uint32{uint32(r[i])})
				w := uint32((want[i]%fips204.Q + fips204.Q) % fips204.Q)
				if len(got) != 1 || got[0] != w {
					return fmt.Errorf("%s: its Lanes map gives %v for %d, Spec's HighBits %d mod q", cc.Symbol, got, r[i], w)
				}
				c := centered(w)
				out = dom{min(out.lo, c), max(out.hi, c)}
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

// checkMakeHintOp checks a MakeHint Op. Its Lanes proof, by the Split
// (lanesplit.go), establishes h = Join(Of(r), OfSum((z + r) mod q)) for
// every z and r of [0, q), and its Count the number of ones of h. Of and
// OfSum must be Spec's HighBits for the steps' γ2 on every word of
// [0, q), and Join(a, b) 1 where a ≠ b, else 0, on their values: then
// h = [HighBits(r) ≠ HighBits(z + r)], which is Spec's MakeHint(−z, r + z)
// (Algorithm 39: HighBits(r′) ≠ HighBits(r′ + z′), for z′ = −z and
// r′ = r + z). The steps write line 26 that way, go/mldsa calls it on
// ct0 and w − cs2; makeHintEffect names the result so.
func checkMakeHintOp(cc *contract.Contract, p fips204.Params) error {
	op, l := cc.Op, cc.Lanes
	if l == nil || l.Split == nil || len(op.In) != 2 || len(op.Out) != 2 || fmt.Sprint(l.In) != fmt.Sprint(op.In) || fmt.Sprint(l.Out) != fmt.Sprint(op.Out[:1]) ||
		l.Count != op.Out[1] || fmt.Sprint(l.Domain) != fmt.Sprint([]uint32{fips204.Q, fips204.Q}) ||
		len(op.Params) != 1 || op.Params[0] < 1 || (fips204.Q-1)%op.Params[0] != 0 || (fips204.Q-1)/op.Params[0] != p.Gamma2 {
		return fmt.Errorf("%s: its Op is not its Lanes map's Split and Count, or not MakeHint for the steps' γ2", cc.Symbol)
	}
	if readBytes(cc, op.In[0]) != 1024 || readBytes(cc, op.In[1]) != 1024 || writtenBytes(cc, op.Out[0]) != 1024 || writtenBytes(cc, op.Out[1]) != 4 {
		return fmt.Errorf("%s: z, r and h are not polynomials, or its count not 4 bytes", cc.Symbol)
	}
	key := fmt.Sprintf("%s/MakeHint/%p/%d", cc.Symbol, l, p.Gamma2)
	if v, ok := checkedOps.Load(key); ok {
		if v != nil {
			return v.(error)
		}
		return nil
	}
	err := func() error {
		seen := map[uint32]bool{}
		for x0 := 0; x0 < fips204.Q; x0 += 256 {
			var r fips204.Poly
			for i := range r {
				r[i] = int32(min(x0+i, fips204.Q-1))
			}
			want := specCoeffMaps["HighBits"](fips204.Values{P: p}, r)
			for i := range r {
				w := uint32(want[i])
				if a, b := l.Split.Of(uint32(r[i])), l.Split.OfSum(uint32(r[i])); a != w || b != w {
					return fmt.Errorf("%s: its Split gives Of %d and OfSum %d for %d, Spec's HighBits %d", cc.Symbol, a, b, r[i], w)
				}
				seen[w] = true
			}
		}
		for a := range seen {
			for b := range seen {
				if got := l.Split.Join(a, b); len(got) != 1 || got[0] != uint32(b2u(a != b)) {
					return fmt.Errorf("%s: its Split's Join gives %v for (%d, %d), not %d", cc.Symbol, got, a, b, b2u(a != b))
				}
			}
		}
		return nil
	}()
	checkedOps.Store(key, err)
	return err
}

// makeHintEffect is a call of MakeHint (Op MakeHint, checked): on
// polynomials z and r of known names with normal forms in R_q, it writes
// fresh variables named Spec's MakeHint(−z, r + z) (checkMakeHintOp), words
// 0 or 1, and a count, a fresh word below 2⁹ (it is at most 256).
func makeHintEffect(s *x86.Sym, cc *contract.Contract, bufs map[string][]*x86.Term, polys map[*x86.Term]*poly, counts *[]*countCall, p fips204.Params) (map[string][]*x86.Term, *x86.Term, error) {
	op := cc.Op
	if err := checkMakeHintOp(cc, p); err != nil {
		return nil, nil, err
	}
	var in [2]*poly
	for k, name := range op.In {
		x := bufs[name]
		if len(x) != 1024 || polys[x[0]] == nil {
			return nil, nil, fmt.Errorf("%s: %s is not a polynomial the routine got or a callee computed", cc.Symbol, name)
		}
		q := polys[x[0]]
		for i, t := range x {
			if t != q.bytes[i] {
				return nil, nil, fmt.Errorf("%s: byte %d of %s is not byte %d of %s", cc.Symbol, i, name, i, q.name)
			}
		}
		if q.lin == nil || q.lin.ntt {
			return nil, nil, fmt.Errorf("%s: %s (%s) has no normal form in R_q", cc.Symbol, name, q.name)
		}
		in[k] = q
	}
	z, r := in[0].lin, in[1].lin
	name := opName("MakeHint", 0, linScale(qMod-1, z).String()+", "+linAdd(r, z).String())
	n := len(*counts)
	h := make([]*x86.Term, 1024)
	for w := 0; w < 128; w++ {
		s.Bytes(s.Var(fmt.Sprintf("hint%d_%d", n, w)), h[8*w:8*w+8])
	}
	polys[h[0]] = &poly{name: name, bytes: h, dom: dom{0, 1}}
	count := s.And(s.Var(fmt.Sprintf("count%d", n)), s.Const(0x1ff))
	cb := make([]*x86.Term, 8)
	s.Bytes(count, cb)
	*counts = append(*counts, &countCall{h: name, count: count})
	return map[string][]*x86.Term{op.Out[0]: h, op.Out[1]: cb[:4]}, s.Const(0), nil
}

// checkModPM checks Spec's ModPM (§2.3) on every word of [0, q): the word
// read in (−q/2, q/2], as checkBitPackOp reads a BitPack callee's words.
func checkModPM(p fips204.Params) error {
	key := "ModPM/" + p.Name
	if v, ok := checkedOps.Load(key); ok {
		if v != nil {
			return v.(error)
		}
		return nil
	}
	err := func() error {
		for x0 := 0; x0 < fips204.Q; x0 += 256 {
			var w fips204.Poly
			for i := range w {
				w[i] = int32(min(x0+i, fips204.Q-1))
			}
			got := fips204.Values{P: p}.ModPM(w)
			for i := range w {
				if int64(got[i]) != centered(uint32(w[i])) {
					return fmt.Errorf("spec's ModPM gives %d for %d, not the word read in (−q/2, q/2]", got[i], w[i])
				}
			}
		}
		return nil
	}()
	checkedOps.Store(key, err)
	return err
}

// checkHintPackOp checks a HintBitPack Op: the callee's HintPack proof
// (hintpackproof.go, run where its contract declares functional
// correctness proven) establishes that it writes Algorithm 20's ω + k
// bytes for every hint of k polynomials of words 0 or 1 with at most ω
// ones. The Op must be that proof's buffers for the steps' k and ω, and
// Spec's HintBitPack of the steps (fips204.Values) Algorithm 20's (run on
// one hint of ω ones).
func checkHintPackOp(cc *contract.Contract, p fips204.Params) error {
	op, hp := cc.Op, cc.HintPack
	if hp == nil || cc.Level[Functional] != Proven || fmt.Sprint(op.In) != fmt.Sprint([]string{hp.In}) || fmt.Sprint(op.Out) != fmt.Sprint([]string{hp.Out}) ||
		fmt.Sprint(op.Params) != fmt.Sprint([]int{p.Omega}) || hp.K != p.K || hp.Omega != p.Omega {
		return fmt.Errorf("%s: its Op is not its proven HintPack's for the steps' k = %d and ω = %d", cc.Symbol, p.K, p.Omega)
	}
	if readBytes(cc, hp.In) != 1024*p.K || writtenBytes(cc, hp.Out) != p.Omega+p.K {
		return fmt.Errorf("%s: %s is not k polynomials, or %s not ω + k bytes", cc.Symbol, hp.In, hp.Out)
	}
	h := make([]fips204.Poly, p.K)
	for t := 0; t < p.Omega; t++ {
		h[(7*t)%p.K][(37*t+t/p.K)%256] = 1
	}
	if string(fips204.Values{P: p}.HintBitPack(h)) != string(fips204.HintBitPack(p, h)) {
		return fmt.Errorf("%s: Spec's HintBitPack of the steps is not Algorithm 20's", cc.Symbol)
	}
	return nil
}

// hintPackEffect is a call of HintBitPack (Op HintBitPack, checked): it
// must read exactly the routine's hint input (Compose.Hint, term for
// term), whose precondition is the callee's (words 0 or 1, at most ω
// ones), and it writes fresh variables, Algorithm 20's ω + k bytes.
func hintPackEffect(s *x86.Sym, cc *contract.Contract, bufs map[string][]*x86.Term, hint []*x86.Term, polys map[*x86.Term]*poly, hints *[]*hintCall, p fips204.Params) (map[string][]*x86.Term, *x86.Term, error) {
	if err := checkHintPackOp(cc, p); err != nil {
		return nil, nil, err
	}
	x := bufs[cc.Op.In[0]]
	if len(x) != len(hint) {
		return nil, nil, fmt.Errorf("%s: it reads %d bytes of hint, the routine's hint input (Compose.Hint) holds %d", cc.Symbol, len(x), len(hint))
	}
	for i := range x {
		if x[i] != hint[i] {
			return nil, nil, fmt.Errorf("%s: byte %d of its hint is not byte %d of the routine's hint input", cc.Symbol, i, i)
		}
	}
	hc := &hintCall{}
	for k := 0; k < len(x)/1024; k++ {
		hc.in = append(hc.in, polys[x[1024*k]].name)
	}
	n := writtenBytes(cc, cc.Op.Out[0])
	hc.out = make([]*x86.Term, n)
	for w := 0; 8*w < n; w++ {
		s.Bytes(s.Var(fmt.Sprintf("hintpack%d_%d", len(*hints), w)), hc.out[8*w:min(8*w+8, n)])
	}
	*hints = append(*hints, hc)
	return map[string][]*x86.Term{cc.Op.Out[0]: hc.out}, s.Const(0), nil
}
