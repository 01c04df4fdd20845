package check

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
	"github.com/vg-crypto/vg/Spec/x86"
)

// The composition proof (contract.Compose): a routine made of CALLs of
// proven routines is proven equal to Spec's own steps for every input,
// with nothing restated here. The routine has fixed control flow and
// addresses (the caller checks, from its taint run), so one symbolic run
// covers every input (a loop of constant count, its count in a register
// or in the frame, is followed pass by pass: a branch is taken only on a
// constant, and a count a CALL may clobber is a fresh variable):
//
//   - every byte of a read-only buffer is a variable (eight bytes a
//     word), every other value the routine starts with (frame, registers,
//     the outputs' old bytes) and every register a call clobbers a fresh
//     variable of its own, so nothing left unwritten can match by chance;
//   - each CALL, once call.go has checked its discipline, is replaced by
//     its contract: the permutation's i-th call records the 200 bytes it
//     got and returns fresh variables, its output f_i.
//
//   - a polynomial (1024 bytes, 256 words) has a name: an input one
//     "t[i]", one a callee computes "Name.m(x)", output m of the callee's
//     Op on the polynomial named x. A call of a routine with an Op must
//     get, in each buffer its Op reads, exactly (term identity, all 1024
//     bytes) a polynomial of known name whose words lie in the callee's
//     precondition (input ones: [0, q), the composite's precondition;
//     computed ones: the range the checker computed for them); it writes
//     fresh variables, which take the name of what they are. A sampler's
//     Op (ExpandA, RejBoundedPoly) reads bytes instead: it writes fresh
//     polynomials, each named after its call, which the steps get when
//     they apply the operation to the same seed bytes (term identity,
//     else SAT), and whose words lie in the range its checked Op gives;
//   - a callee that returns a bool (a sampler, which may run out of its
//     bound) returns a fresh bit; its outputs are its Op's only where the
//     bit is 1, so the routine's result must be the AND of all such bits
//     (SAT), and a routine without a result may call none.
//
// Then the contract's Steps, a function of Spec/fips204 over any values,
// runs on those same variables: ⊕ and constants build terms, its k-th
// application of f must be the routine's k-th call of the permutation, on
// the same bytes (term identity, else SAT on each 64-bit lane), giving
// that call's variables; an operation on polynomials gives the name of
// its result; one that gives bytes (a packing) gives the variables of a
// call of the routine whose Op it is on the polynomial of the same name.
// An operation no callee's Op implements fails the proof. At the end
// Steps must have applied f exactly as often as the routine called, every
// byte buffer Steps returns must hold, byte for byte, the term Steps
// computed (identity, else SAT), and every polynomial buffer exactly the
// variables of the polynomial of the name Steps computed; the routine may
// write no other buffer.
//
// Each Op is checked against the callee's proven postcondition before it
// is used (checkOp): Power2Round's Lanes map is Spec's Power2Round on
// every word of [0, q) (r0 mod q), SimpleBitPack's Wiring moves each bit
// where Spec's SimpleBitPack puts it, a ZqMap is Spec's linear map, and
// ExpandA's, RejBoundedPoly's and BitPack's proofs are Spec's operations
// (composeops.go), and so are Verify's decoders, SampleInBall, UseHint
// and the norm check, whose flag gives a truth value of the steps
// (composeverify.go), and a Sign attempt's ExpandMask, HighBits, norm
// check of LowBits and MakeHint, whose counts give the truth value of
// "at most ω ones" (composesign.go); a routine whose steps give a truth
// value (Result) returns it ANDed with its callees' results. So, with
// the callees' contracts, which their own checks prove, a polynomial's
// words are its name evaluated by Spec (mod q), and the routine's
// outputs are what Steps computes on bytes and Poly, for every value of
// every variable: what Spec's functions compute, since they run the same
// Steps.

// composeProofTime bounds the proof of one routine.
const composeProofTime = 120 * time.Second

// permCall is one call of the permutation: the bytes it got and the
// variables it returned.
type permCall struct{ in, out []*x86.Term }

// poly is a polynomial of the proof: its name, and for one the routine
// holds, its bytes and the range of its words.
type poly struct {
	name  string
	bytes []*x86.Term
	dom   dom   // every word is some x in [dom.lo, dom.hi] mod q, in [0, q)
	lin   *lin  // its normal form (composelin.go), nil for another operation's output
	words bool  // an input one (not MontIn) of the steps: its value is its words, in [0, q)
	pmOf  *poly // for ModPM(x), x: the words of x, each valued read in (−q/2, q/2]
}

// dom is a range of coefficients held mod q: the words x mod q, in
// [0, q), for x in [lo, hi], hi − lo < q.
type dom struct{ lo, hi int64 }

// fullDom is every word of [0, q).
var fullDom = dom{0, fips204.Q - 1}

// hull is the smallest range holding a and b (hi − lo may reach q or more,
// which no Op but a ℤq map takes).
func hull(a, b dom) dom { return dom{min(a.lo, b.lo), max(a.hi, b.hi)} }

// linPoly is the polynomial of normal form l (none if nil).
func (o *termOps) linPoly(what string, l *lin) *poly {
	if l == nil {
		return o.none(what + " across the domains R_q and T_q")
	}
	return &poly{name: l.String(), lin: l}
}

// lins is the normal forms of polynomials (nil where one has none).
func (o *termOps) lins(what string, ps ...any) []*lin {
	var ls []*lin
	for _, p := range ps {
		l := p.(*poly).lin
		if l == nil {
			o.fail("the steps of Spec apply %s to %s, which has no normal form", what, p.(*poly).name)
			return nil
		}
		ls = append(ls, l)
	}
	return ls
}

// packCall is a call whose Op gives bytes: its Op, the name of the
// polynomial it read and the variables it wrote.
type packCall struct {
	op   *contract.Op
	in   string
	dom  dom
	out  []*x86.Term
	used bool
}

// termOps is fips204.KeyGenOps over terms and names, f matched with the
// routine's permutation calls in order, packings and samplers with its
// calls.
type termOps struct {
	s      *x86.Sym
	p      fips204.Params
	calls  []permCall
	packs  []*packCall
	seeded []*seedCall
	flags  []*flagCall
	counts []*countCall
	hints  []*hintCall
	next   int
	err    error
	same   func(a, b *x86.Term) error
}

func (o *termOps) fail(format string, a ...any) {
	if o.err == nil {
		o.err = fmt.Errorf(format, a...)
	}
}

func (o *termOps) Byte(b byte) any  { return o.s.Const(uint64(b)) }
func (o *termOps) Xor(a, b any) any { return o.s.Xor(a.(*x86.Term), b.(*x86.Term)) }

func (o *termOps) Permute(st *[200]any) {
	if o.err != nil {
		return
	}
	k := o.next
	o.next++
	if k >= len(o.calls) {
		o.fail("the steps of Spec apply f a %d-th time; the routine calls the permutation %d times", k+1, len(o.calls))
		return
	}
	c := o.calls[k]
	for w := 0; w < 25; w++ {
		want := make([]*x86.Term, 8)
		for i := range want {
			want[i] = st[8*w+i].(*x86.Term)
		}
		if err := o.same(o.s.FromBytes(c.in[8*w:8*w+8]), o.s.FromBytes(want)); err != nil {
			o.fail("permutation call %d: lane %d is not the state the steps of Spec give f there: %v", k, w, err)
			return
		}
	}
	for i := range st {
		st[i] = c.out[i]
	}
}

// none is an operation no callee implements here: the proof fails.
func (o *termOps) none(name string) *poly {
	o.fail("the steps of Spec apply %s, which no callee's Op gives in this composition", name)
	return &poly{name: "none"}
}

// NTT, NTTInverse, Zero, AddNTT, MultiplyNTT and Add give the normal form
// of their result (composelin.go); the routine's polynomials get theirs
// from its calls' checked Ops.
func (o *termOps) NTT(w any) any {
	if l := o.lins("NTT", w); l != nil && !l[0].ntt {
		return o.linPoly("NTT", l[0].with(true))
	}
	return o.linPoly("NTT", nil)
}

func (o *termOps) NTTInverse(w any) any {
	if l := o.lins("NTTInverse", w); l != nil && l[0].ntt {
		return o.linPoly("NTTInverse", l[0].with(false))
	}
	return o.linPoly("NTTInverse", nil)
}

func (o *termOps) Zero() any { return o.linPoly("Zero", &lin{ntt: true, terms: map[string]uint64{}}) }

func (o *termOps) AddNTT(a, b any) any {
	if l := o.lins("AddNTT", a, b); l != nil && l[0].ntt {
		return o.linPoly("AddNTT", linAdd(l[0], l[1]))
	}
	return o.linPoly("AddNTT", nil)
}

func (o *termOps) MultiplyNTT(a, b any) any {
	if l := o.lins("MultiplyNTT", a, b); l != nil {
		return o.linPoly("MultiplyNTT", linMul(l[0], l[1]))
	}
	return o.linPoly("MultiplyNTT", nil)
}

func (o *termOps) Add(a, b any) any {
	if l := o.lins("Add", a, b); l != nil && !l[0].ntt {
		return o.linPoly("Add", linAdd(l[0], l[1]))
	}
	return o.linPoly("Add", nil)
}

// BitPack of ModPM(x) is the routine's call on x: its checked Op reads
// x's words in (−q/2, q/2] (checkBitPackOp), Spec's ModPM values them so
// (checkModPM). An input polynomial's value is its words in [0, q), which
// BitPack would not read as the callee does.
func (o *termOps) BitPack(w any, a, b int) []any {
	p := w.(*poly)
	if p.pmOf != nil {
		return o.packed("BitPack", p.pmOf.name, a, b)
	}
	if p.words {
		o.fail("the steps of Spec apply BitPack to %s, whose value is its words in [0, q), not mod± q", p.name)
		return nil
	}
	return o.packed("BitPack", p.name, a, b)
}

func (o *termOps) Power2Round(r any) (any, any) {
	x := r.(*poly).name
	return &poly{name: opName("Power2Round", 0, x)}, &poly{name: opName("Power2Round", 1, x)}
}

func (o *termOps) SimpleBitPack(w any, b int) []any {
	return o.packed("SimpleBitPack", w.(*poly).name, b)
}

// packed is the bytes of the routine's call of packing name with params
// on the polynomial named x.
func (o *termOps) packed(name, x string, params ...int) []any {
	for _, pc := range o.packs {
		if pc.op.Name == name && pc.in == x && (fmt.Sprint(pc.op.Params) == fmt.Sprint(params) || o.samePacking(pc, name, params)) {
			pc.used = true
			out := make([]any, len(pc.out))
			for i, t := range pc.out {
				out[i] = t
			}
			return out
		}
	}
	args := []string{x}
	for _, v := range params {
		args = append(args, fmt.Sprint(v))
	}
	o.fail("the steps of Spec apply %s(%s), which the routine does not call", name, strings.Join(args, ", "))
	return nil
}

// opName names output m of operation name on the polynomial named x.
func opName(name string, m int, x string) string { return fmt.Sprintf("%s.%d(%s)", name, m, x) }

// checkedOps caches checkOp's verdicts by callee symbol.
var checkedOps sync.Map

// checkOp checks a callee's Op against its proven postcondition: its
// Lanes map (Power2Round), its Wiring (SimpleBitPack), its ZqMap, its
// Packed map (BitPack), its Streams (RejBoundedPoly) or its ExpandA proof
// must be Spec's operation (of parameter set p), and it gives the range
// of each output polynomial's words for inputs of range d (nil for bytes).
func checkOp(cc *contract.Contract, d dom, p fips204.Params) ([]dom, error) {
	op := cc.Op
	switch op.Name {
	case "NTT", "NTTInverse", "ToMontgomery", "Add", "Sub", "MultiplyAccNTT":
		return checkZqOp(cc, d)
	case "BitUnpack":
		return checkBitUnpackOp(cc)
	case "HintBitUnpack":
		return checkHintUnpackOp(cc, p)
	case "SampleInBall":
		return checkBallOp(cc, p)
	case "UseHint":
		return checkUseHintOp(cc, d, p)
	case "NormBelow":
		return nil, checkNormOp(cc, d, p)
	case "HighBits":
		return checkHighBitsOp(cc, p)
	case "ExpandMask":
		return checkExpandMaskOp(cc, p)
	case "ExpandA":
		return checkExpandAOp(cc, p)
	case "RejBoundedPoly":
		return checkBoundedOp(cc, p)
	case "BitPack":
		return nil, checkBitPackOp(cc, d)
	case "Power2Round":
		l := cc.Lanes
		if l == nil || len(op.In) != 1 || len(op.Out) != 2 || fmt.Sprint(l.In) != fmt.Sprint(op.In) || fmt.Sprint(l.Out) != fmt.Sprint(op.Out) || len(l.Domain) != 1 {
			return nil, fmt.Errorf("%s: its Op is not its Lanes map's", cc.Symbol)
		}
		if (d.lo < 0 || d.hi >= int64(l.Domain[0])) && l.Domain[0] < fips204.Q {
			return nil, fmt.Errorf("%s: words of [%d, %d] mod q, its precondition allows below %d", cc.Symbol, d.lo, d.hi, l.Domain[0])
		}
		// The range of each output, its words read in (−q/2, q/2].
		outDom := [2]dom{{fips204.Q, -fips204.Q}, {fips204.Q, -fips204.Q}}
		key := cc.Symbol + "/Power2Round"
		if v, ok := checkedOps.Load(key); ok {
			outDom = v.([2]dom)
		} else {
			// Every word of [0, q), 256 at a time through Spec's own step.
			for x0 := 0; x0 < fips204.Q; x0 += 256 {
				var r fips204.Poly
				for i := range r {
					r[i] = int32(min(x0+i, fips204.Q-1))
				}
				r1, r0 := fips204.Values{}.Power2Round(r)
				for i := range r {
					got := l.Map([]uint32{uint32(r[i])})
					want := []uint32{uint32((r1[i]%fips204.Q + fips204.Q) % fips204.Q), uint32((r0[i]%fips204.Q + fips204.Q) % fips204.Q)}
					if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
						return nil, fmt.Errorf("%s: its Lanes map gives %v for %d, Spec's Power2Round %v (mod q)", cc.Symbol, got, r[i], want)
					}
					for m, g := range got {
						c := centered(g)
						outDom[m] = dom{min(outDom[m].lo, c), max(outDom[m].hi, c)}
					}
				}
			}
			checkedOps.Store(key, outDom)
		}
		return outDom[:], nil
	case "SimpleBitPack":
		w := cc.Wiring
		if w == nil || len(op.In) != 1 || len(op.Out) != 1 || len(op.Params) != 1 || w.In != op.In[0] || w.Out != op.Out[0] {
			return nil, fmt.Errorf("%s: its Op is not its Wiring's", cc.Symbol)
		}
		// Algorithm 16 packs words in [0, max] in bitlen(max) bits: b
		// bits for max = 2^b − 1.
		b := bits.Len(uint(op.Params[0]))
		if op.Params[0] != 1<<b-1 || b > 31 || d.lo < 0 || d.hi >= 1<<b {
			return nil, fmt.Errorf("%s: words of [%d, %d] mod q, SimpleBitPack(·, %d) takes them in [0, 2^%d)", cc.Symbol, d.lo, d.hi, op.Params[0], b)
		}
		// The precondition: exactly the bits at or above b of each word zero.
		for bit := 0; bit < 256*32; bit++ {
			if w.InZero(bit) != (bit%32 >= b) {
				return nil, fmt.Errorf("%s: its Wiring's precondition is not words below 2^%d (bit %d)", cc.Symbol, b, bit)
			}
		}
		// Spec's SimpleBitPack (Algorithm 16) places bits: on zero it
		// gives zeros, and on each word with one bit set one bit; the
		// Wiring must move that bit there, and no other bit.
		var zero fips204.Poly
		if z := fips204.SimpleBitPack(zero, 1<<b-1); len(z) != 32*b || !allZero(z) {
			return nil, fmt.Errorf("%s: Spec's SimpleBitPack of 0 is not %d zero bytes", cc.Symbol, 32*b)
		}
		src := make([]int, 256*b)
		for k := range src {
			src[k] = -1
		}
		for i := 0; i < 256; i++ {
			for j := 0; j < b; j++ {
				var e fips204.Poly
				e[i] = 1 << j
				out := fips204.SimpleBitPack(e, 1<<b-1)
				k := -1
				for x := range out {
					for y := 0; y < 8; y++ {
						if out[x]>>y&1 == 1 {
							if k >= 0 {
								return nil, fmt.Errorf("%s: Spec's SimpleBitPack sets two bits for word %d bit %d", cc.Symbol, i, j)
							}
							k = 8*x + y
						}
					}
				}
				if k < 0 {
					return nil, fmt.Errorf("%s: Spec's SimpleBitPack drops word %d bit %d", cc.Symbol, i, j)
				}
				src[k] = 32*i + j
			}
		}
		for k, want := range src {
			if got := w.Bit(k); got != want {
				return nil, fmt.Errorf("%s: its Wiring takes output bit %d from input bit %d, Spec's SimpleBitPack from %d", cc.Symbol, k, got, want)
			}
		}
		return nil, nil
	}
	return nil, fmt.Errorf("%s: no composition proof knows operation %q", cc.Symbol, op.Name)
}

func allZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}

// proveCompose proves contract c's postcondition for routine r for every
// input, given its callees' contracts.
func proveCompose(f *x86.File, r *x86.Routine, c *contract.Contract, callees map[string]*x86.Routine, maxSteps int) (string, error) {
	cp := c.Compose
	if cp.Count == "" {
		return proveComposeN(f, r, c, callees, maxSteps, -1, &z3Sample{})
	}
	// A public count: one proof for each n ≤ Max, the precondition.
	ok := cp.Max >= 0
	for _, a := range c.Args {
		if a.Name == cp.Count {
			ok = ok && a.Read && !a.Write && !a.Secret && a.Bytes == 8 && a.Indirect == 0 && !slices.Contains(cp.Polys, a.Name) && !slices.Contains(cp.InPlace, a.Name)
		}
	}
	if !ok || !slices.ContainsFunc(c.Args, func(a contract.Arg) bool { return a.Name == cp.Count }) {
		return "", fmt.Errorf("the count %q is not a public read-only 8-byte input, or Max %d < 0", cp.Count, cp.Max)
	}
	// One z3 sample for all the runs, as for a proof of one run: its
	// first queries, one in z3Every after them and its time budget are
	// the proof's (one sample a run re-asked z3 the first queries of each
	// n, thousands of z3 processes, most of the proof's time).
	var last string
	z3s := &z3Sample{}
	for n := 0; n <= cp.Max; n++ {
		res, err := proveComposeN(f, r, c, callees, maxSteps, n, z3s)
		if err != nil {
			return "", fmt.Errorf("%s = %d: %v", cp.Count, n, err)
		}
		last = res
	}
	return fmt.Sprintf("for every %s ≤ %d (the precondition), one run each, z3's sample over all of them; the last run: %s", cp.Count, cp.Max, last), nil
}

// proveComposeN is proveCompose; for n ≥ 0 the count's bytes are n. z3s
// is the proof's sample of SAT queries re-asked to z3.
func proveComposeN(f *x86.File, r *x86.Routine, c *contract.Contract, callees map[string]*x86.Routine, maxSteps int, count int, z3s *z3Sample) (string, error) {
	deadline := time.Now().Add(composeProofTime)
	cp := c.Compose
	// No Permutation: the steps may not apply f.
	if cp.Permutation != "" {
		if err := permutesOne(c, cp.Permutation); err != nil {
			return "", err
		}
	}
	if c.Result != "" && c.Result != "bool" {
		return "", fmt.Errorf("the routine has a result %q, which Compose does not give", c.Result)
	}
	isPoly, isNTT, isMont, inPlace := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, name := range cp.InPlace {
		inPlace[name] = true
	}
	for _, name := range cp.Polys {
		isPoly[name] = true
	}
	for _, name := range cp.NTTPolys {
		isNTT[name] = true
	}
	for _, name := range cp.Mont {
		isMont[name] = true
	}
	// The input polynomials' words by the precondition: InRange's, the
	// hint's 0 or 1, else every word of [0, q).
	inDom := map[string]dom{}
	for name, rg := range cp.InRange {
		if !isPoly[name] || rg[0] > rg[1] || rg[1]-rg[0] >= fips204.Q || rg[0] <= -fips204.Q || rg[1] >= fips204.Q {
			return "", fmt.Errorf("InRange %s: [%d, %d] is not a range of words of a polynomial buffer", name, rg[0], rg[1])
		}
		inDom[name] = dom{int64(rg[0]), int64(rg[1])}
	}
	if cp.Hint != "" {
		if !isPoly[cp.Hint] || cp.InRange[cp.Hint] != [2]int{} || slices.Contains(cp.MontIn, cp.Hint) || slices.Contains(cp.NTTPolys, cp.Hint) {
			return "", fmt.Errorf("the hint %s is not a plain polynomial buffer", cp.Hint)
		}
		inDom[cp.Hint] = dom{0, 1}
	}
	for _, a := range c.Args {
		if _, ok := inDom[a.Name]; ok && (!a.Read || a.Write || a.Bytes != 1024*cp.P.K && a.Name == cp.Hint) {
			return "", fmt.Errorf("%s, of a precondition on its words, is not a read-only input (the hint: k polynomials)", a.Name)
		}
	}
	s, mk, m, lay, rng := symSetup(f, r, c, 11, func(secret, input bool) bool { return secret || input })
	in := map[string][]any{}
	// polys finds a polynomial by its first byte term.
	polys := map[*x86.Term]*poly{}
	for _, a := range c.Args {
		if a.Indirect != 0 || (isPoly[a.Name] && a.Bytes%1024 != 0) {
			return "", fmt.Errorf("%s is not one buffer (of whole polynomials)", a.Name)
		}
		// An output buffer may be an input too, in place.
		if !a.Read || (a.Write && !inPlace[a.Name]) {
			continue
		}
		reg := m.Region(a.Name)
		if count >= 0 && a.Name == cp.Count {
			s.Bytes(s.Const(uint64(count)), reg.Bytes)
			in[a.Name] = []any{count}
			continue
		}
		// Eight bytes a variable, the last one's fewer (σ).
		for w := 0; 8*w < a.Bytes; w++ {
			s.Bytes(s.Var(fmt.Sprintf("%s_%d", a.Name, w)), reg.Bytes[8*w:min(8*w+8, a.Bytes)])
		}
		if !isPoly[a.Name] {
			for _, b := range reg.Bytes {
				in[a.Name] = append(in[a.Name], b)
			}
			continue
		}
		d, ok := inDom[a.Name]
		if !ok {
			d = fullDom
		}
		for k := 0; k < a.Bytes/1024; k++ {
			l := atomLin(fmt.Sprintf("%s[%d]", a.Name, k), isNTT[a.Name])
			p := &poly{name: l.String(), bytes: reg.Bytes[1024*k : 1024*k+1024], dom: d, lin: l}
			polys[p.bytes[0]] = p
			// A Montgomery form holds 2³² times what the steps get.
			mont := slices.Contains(cp.MontIn, a.Name)
			if mont {
				l = linScale(rInvMod, l)
			}
			in[a.Name] = append(in[a.Name], &poly{name: l.String(), lin: l, words: !mont})
		}
	}
	var calls []permCall
	var packs []*packCall
	var seeded []*seedCall
	var flags []*flagCall
	var counts []*countCall
	var hints []*hintCall
	var hint []*x86.Term // the hint input's bytes, as the routine starts
	if cp.Hint != "" {
		hint = slices.Clone(m.Region(cp.Hint).Bytes)
	}
	var oks []*x86.Term              // the results of the callees that may fail
	var got []map[string][]*x86.Term // the bytes each call got
	effect := func(cc *contract.Contract, bufs map[string][]*x86.Term) (map[string][]*x86.Term, *x86.Term, error) {
		got = append(got, bufs)
		if cp.Permutation != "" && cc.Symbol == cp.Permutation {
			return permEffect(s, &calls, cc, bufs)
		}
		if cc.Op == nil || (cc.Result != "" && cc.Result != "bool") {
			return nil, nil, fmt.Errorf("%s is neither the composition's permutation nor a routine with an Op", cc.Symbol)
		}
		op := cc.Op
		if len(op.In) == 0 {
			return nil, nil, fmt.Errorf("%s: an Op of no inputs", cc.Symbol)
		}
		// A callee that may fail returns a fresh bit; its outputs are its
		// Op's only if the bit is 1, and the routine's result must be
		// the AND of every such bit (checked at the end).
		ret := s.Const(0)
		if cc.Result == "bool" {
			ret = s.And(s.Var(fmt.Sprintf("ok%d", len(oks))), s.Const(1))
			oks = append(oks, ret)
		}
		// A sampler reads bytes: its seeds, matched with the steps' by
		// the operation's arguments (termOps.sampled).
		if seededOps[op.Name] {
			doms, err := checkOp(cc, dom{}, cp.P)
			if err != nil {
				return nil, nil, err
			}
			sc := &seedCall{op: op, ok: ret}
			for _, name := range op.In {
				sc.seed = append(sc.seed, bufs[name]...)
			}
			out := map[string][]*x86.Term{}
			for _, name := range op.Out {
				n := writtenBytes(cc, name)
				if n == 0 || n%1024 != 0 {
					return nil, nil, fmt.Errorf("%s: %s is not a buffer of polynomials it writes", cc.Symbol, name)
				}
				vs := make([]*x86.Term, n)
				for w := 0; w < n/8; w++ {
					s.Bytes(s.Var(fmt.Sprintf("seeded%d_%s_%d", len(seeded), name, w)), vs[8*w:8*w+8])
				}
				out[name] = vs
				for k := 0; k < n/1024; k++ {
					l := atomLin(fmt.Sprintf("%s#%d[%d]", op.Name, len(seeded), len(sc.outs)), op.Name == "ExpandA")
					q := &poly{name: l.String(), bytes: vs[1024*k : 1024*k+1024], dom: doms[0], lin: l}
					polys[q.bytes[0]] = q
					sc.outs = append(sc.outs, q)
				}
			}
			seeded = append(seeded, sc)
			return out, ret, nil
		}
		// The norm check reads a polynomial and a bound; its flag is 0
		// or 1 (its Exceeds proof), a fresh bit here.
		if op.Name == "NormBelow" {
			return normEffect(s, cc, bufs, polys, &flags, cp.P)
		}
		// MakeHint reads two polynomials and writes a hint and its count.
		if op.Name == "MakeHint" {
			return makeHintEffect(s, cc, bufs, polys, &counts, cp.P)
		}
		// HintBitPack reads the routine's hint input and writes bytes.
		if op.Name == "HintBitPack" {
			return hintPackEffect(s, cc, bufs, hint, polys, &hints, cp.P)
		}
		// Each buffer the Op reads holds whole polynomials of known names.
		var args [][]*poly
		var d *dom
		for _, name := range op.In {
			x := bufs[name]
			if len(x) == 0 || len(x)%1024 != 0 {
				return nil, nil, fmt.Errorf("%s: %s is not a buffer of polynomials", cc.Symbol, name)
			}
			var ps []*poly
			for k := 0; k < len(x)/1024; k++ {
				p := polys[x[1024*k]]
				if p == nil {
					return nil, nil, fmt.Errorf("%s: polynomial %d of %s is not a polynomial the routine got or a callee computed", cc.Symbol, k, name)
				}
				for i, t := range x[1024*k : 1024*k+1024] {
					if t != p.bytes[i] {
						return nil, nil, fmt.Errorf("%s: byte %d of polynomial %d of %s is not byte %d of %s", cc.Symbol, i, k, name, i, p.name)
					}
				}
				if d == nil {
					d = &p.dom
				}
				h := hull(*d, p.dom)
				d = &h
				ps = append(ps, p)
			}
			args = append(args, ps)
		}
		p := args[0][0]
		if len(op.In) != 1 || len(args[0]) != 1 {
			if _, ok := map[string]bool{"Add": true, "Sub": true, "MultiplyAccNTT": true, "UseHint": true}[op.Name]; !ok {
				return nil, nil, fmt.Errorf("%s: an Op %s of %d inputs", cc.Symbol, op.Name, len(op.In))
			}
		}
		// UseHint's range is its hint's (r may be any word).
		if op.Name == "UseHint" {
			d = &args[0][0].dom
		}
		bounds, err := checkOp(cc, *d, cp.P)
		if err != nil {
			return nil, nil, err
		}
		// The normal form of a checked linear Op's result.
		var res *lin
		if _, ok := map[string]bool{"NTT": true, "NTTInverse": true, "ToMontgomery": true, "Add": true, "Sub": true, "MultiplyAccNTT": true}[op.Name]; ok {
			for _, ps := range args {
				for _, q := range ps {
					if q.lin == nil {
						return nil, nil, fmt.Errorf("%s: %s has no normal form", cc.Symbol, q.name)
					}
				}
			}
			x := p.lin
			switch op.Name {
			case "NTT":
				if !x.ntt {
					res = x.with(true)
				}
			case "NTTInverse":
				// NTT⁻¹, then times its parameter when it has one
				// (zqOpWant's form: a scaling commutes with the linear
				// NTT⁻¹).
				if x.ntt {
					res = x.with(false)
					if len(op.Params) == 1 {
						res = linScale(uint64(op.Params[0]), res)
					}
				}
			case "ToMontgomery":
				res = linScale(uint64(op.Params[0]), x)
			case "Add":
				if len(args[0]) == 1 && len(args[1]) == 1 {
					res = linAdd(x, args[1][0].lin)
				}
			case "Sub":
				if len(args[0]) == 1 && len(args[1]) == 1 {
					res = linAdd(x, linScale(qMod-1, args[1][0].lin))
				}
			case "MultiplyAccNTT":
				if len(args[0]) == op.Params[0] && len(args[1]) == op.Params[0] {
					res = &lin{ntt: true, terms: map[string]uint64{}}
					for j := range args[0] {
						res = linAdd(res, linMul(args[0][j].lin, args[1][j].lin))
						if res == nil {
							break
						}
					}
					if res != nil {
						res = linScale(rInvMod, res)
					}
				}
			}
			if res == nil {
				return nil, nil, fmt.Errorf("%s: %s on polynomials of a domain (R_q, T_q) or number it does not take", cc.Symbol, op.Name)
			}
		}
		i := len(calls) + len(packs) + len(polys)
		out := map[string][]*x86.Term{}
		for k, name := range op.Out {
			n := writtenBytes(cc, name)
			if n == 0 || n%8 != 0 {
				return nil, nil, fmt.Errorf("%s: %s is not a buffer it writes", cc.Symbol, name)
			}
			vs := make([]*x86.Term, n)
			for w := 0; w < n/8; w++ {
				s.Bytes(s.Var(fmt.Sprintf("op%d_%s_%d", i, name, w)), vs[8*w:8*w+8])
			}
			out[name] = vs
			if bounds == nil {
				packs = append(packs, &packCall{op: op, in: p.name, dom: *d, out: vs})
				continue
			}
			if n != 1024 {
				return nil, nil, fmt.Errorf("%s: %s is not a polynomial", cc.Symbol, name)
			}
			// An output is named after all the Op's inputs.
			var ins []string
			for _, ps := range args {
				ins = append(ins, ps[0].name)
			}
			q := &poly{name: opName(op.Name, k, strings.Join(ins, ", ")), bytes: vs, dom: bounds[k]}
			if res != nil {
				q.name, q.lin = res.String(), res
			}
			polys[vs[0]] = q
		}
		return out, ret, nil
	}
	made, err := runSym(s, m, c, callees, lay, mk, rng, effect, maxSteps, true)
	if err != nil {
		return "", err
	}
	sats := 0
	same := func(got, want *x86.Term) error {
		if got == want {
			return nil
		}
		sats++
		return sameBits(got, want, deadline, z3s)
	}
	// A callee got bytes of a PublicOut buffer in a buffer its contract
	// calls public (which the taint run let pass) only where they are, at
	// the call, what the routine leaves there at the end: output the
	// leak makes public, and nothing else.
	if err := publicOut(s, c, made, got, m, true, same); err != nil {
		return "", err
	}
	o := &termOps{s: s, p: cp.P, calls: calls, packs: packs, seeded: seeded, flags: flags, counts: counts, hints: hints, same: same}
	outs := cp.Steps(o, in)
	if o.err != nil {
		return "", o.err
	}
	if o.next != len(calls) {
		return "", fmt.Errorf("the routine calls the permutation %d times, the steps of Spec apply f %d times", len(calls), o.next)
	}
	// The result: the AND of the results of the callees that may fail,
	// so that it is 1 only where every Op holds.
	if c.Result == "bool" {
		res := m.Region("results")
		if res == nil || res.Size() != 1 {
			return "", fmt.Errorf("no result byte")
		}
		want, what := andAll(s, oks), ""
		// The steps' own truth value (Verify's), ANDed in.
		if r, ok := outs[contract.Result]; ok {
			if len(r) != 1 {
				return "", fmt.Errorf("the steps of Spec give %d truth values as the result", len(r))
			}
			want, what = s.And(want, r[0].(*x86.Term)), " and the steps' truth value"
		}
		if err := same(s.And(s.FromBytes(res.Bytes[:1]), s.Const(0xff)), want); err != nil {
			return "", fmt.Errorf("the result is not the AND of the %d results of the callees that may fail%s: %v", len(oks), what, err)
		}
	} else if len(oks) > 0 || outs[contract.Result] != nil {
		return "", fmt.Errorf("the routine calls %d routines that may fail, or the steps give a result, and it returns none", len(oks))
	}
	for _, fc := range flags {
		if !fc.used {
			return "", fmt.Errorf("the routine checks the norm of %s, which the steps of Spec do not", fc.in)
		}
	}
	for _, a := range c.Args {
		if a.Write && outs[a.Name] == nil && !slices.Contains(cp.Scratch, a.Name) {
			return "", fmt.Errorf("the routine may write %s, of which the steps of Spec say nothing", a.Name)
		}
	}
	matched := map[string][]*poly{} // the polynomial each output one is
	byName := map[string][]*poly{}
	for _, p := range polys {
		byName[p.name] = append(byName[p.name], p)
	}
	for name := range outs {
		if name == contract.Result {
			continue
		}
		written := false
		for _, a := range c.Args {
			written = written || (a.Name == name && a.Write)
		}
		if !written {
			return "", fmt.Errorf("the steps of Spec give %s, which is no buffer the routine writes", name)
		}
	}
	// In the order of the arguments: the first wrong buffer is reported.
	for _, a := range c.Args {
		name, vs := a.Name, outs[a.Name]
		if vs == nil {
			continue
		}
		reg := m.Region(name)
		if isPoly[name] {
			if reg == nil || reg.Size() != 1024*len(vs) {
				return "", fmt.Errorf("the steps of Spec give %d polynomials of %s, which is no buffer of that size", len(vs), name)
			}
			for k, v := range vs {
				wname := v.(*poly).name
				if isMont[name] {
					l := v.(*poly).lin
					if l == nil {
						return "", fmt.Errorf("polynomial %d of %s: %s has no normal form to take times 2³²", k, name, wname)
					}
					wname = linScale(1<<32%qMod, l).String()
				}
				wants := byName[wname]
				if len(wants) == 0 {
					return "", fmt.Errorf("polynomial %d of %s: the routine computes no %s", k, name, wname)
				}
				differs := -1
				for _, want := range wants {
					differs = -1
					for i, t := range reg.Bytes[1024*k : 1024*k+1024] {
						if t != want.bytes[i] {
							differs = i
							break
						}
					}
					if differs < 0 {
						matched[name] = append(matched[name], want)
						break
					}
				}
				if differs >= 0 {
					return "", fmt.Errorf("byte %d of polynomial %d of %s is not what the call computing %s wrote", differs, k, name, wname)
				}
			}
			continue
		}
		if reg == nil || reg.Size() != len(vs) {
			return "", fmt.Errorf("the steps of Spec give %d bytes of %s, which is no buffer of that size", len(vs), name)
		}
		for i, v := range vs {
			mask := s.Const(0xff)
			if err := same(s.And(reg.Bytes[i], mask), s.And(v.(*x86.Term), mask)); err != nil {
				return "", fmt.Errorf("byte %d of %s is not what the steps of Spec give: %v", i, name, err)
			}
		}
	}
	if c.Stage != nil {
		if err := stageRanges(s, c, m, matched, flags, deadline, z3s); err != nil {
			return "", err
		}
	}
	var what []string
	if len(calls) > 0 {
		what = append(what, fmt.Sprintf("each of their %d applications of f the routine's CALL of %s in order, on the same state", len(calls), cp.Permutation))
	}
	if c.Stage != nil {
		what = append(what, "its output polynomials' words in its Stage's ranges")
	}
	if n := len(made) - len(calls); n > 0 {
		what = append(what, fmt.Sprintf("%d CALLs of routines whose Op (checked against their proven postconditions) the steps apply, on the polynomials of the same names or the same seed bytes", n))
	}
	if c.Result == "bool" {
		what = append(what, fmt.Sprintf("the result the AND of the %d callees' results", len(oks)))
		if outs[contract.Result] != nil {
			what[len(what)-1] += " and the steps' truth value"
		}
	}
	return fmt.Sprintf("proven for every input: the steps of Spec (Compose) run over the routine's symbolic values, %s (one symbolic run, %d SAT queries; %s); so, given the callees' contracts, the outputs are what Spec computes",
		strings.Join(what, "; "), sats, z3s.note()), nil
}

// stageRanges checks a stage's ranges (contract.Stage): each polynomial
// of an Out buffer lies in OutRange's range for it (the range its
// computing call's checked Op gives), and in OkRange's where the result
// is 1: the routine checked its norm, ‖w‖∞ < b with [−(b − 1), b − 1] in
// that range (the norm check's proof gives the flag's meaning), and the
// result is 1 only where that flag is 0 (SAT).
func stageRanges(s *x86.Sym, c *contract.Contract, m *x86.Machine[*x86.Term], matched map[string][]*poly, flags []*flagCall, deadline time.Time, z3s *z3Sample) error {
	st := c.Stage
	for name := range st.OkRange {
		if _, ok := st.OutRange[name]; !ok || c.Result != "bool" {
			return fmt.Errorf("stage: OkRange %s without its OutRange, or the routine gives no truth value", name)
		}
	}
	for _, name := range st.Out {
		if !slices.Contains(c.Compose.Polys, name) {
			continue
		}
		rg, ok := st.OutRange[name]
		ps := matched[name]
		if !ok || len(ps) == 0 || len(ps) != writtenBytes(c, name)/1024 {
			return fmt.Errorf("stage: %s has no OutRange, or not every polynomial of it is one the routine computed", name)
		}
		for k, p := range ps {
			if p.dom.lo < int64(rg[0]) || p.dom.hi > int64(rg[1]) {
				return fmt.Errorf("stage: polynomial %d of %s (%s) has words in [%d, %d], not in its OutRange [%d, %d]", k, name, p.name, p.dom.lo, p.dom.hi, rg[0], rg[1])
			}
			okRg, ok := st.OkRange[name]
			if !ok {
				continue
			}
			var fc *flagCall
			for _, f := range flags {
				if f.in == p.name && f.bound >= 1 && -int64(f.bound-1) >= int64(okRg[0]) && int64(f.bound-1) <= int64(okRg[1]) {
					fc = f
				}
			}
			if fc == nil {
				return fmt.Errorf("stage: polynomial %d of %s (%s): no norm check whose bound puts it in its OkRange [%d, %d]", k, name, p.name, okRg[0], okRg[1])
			}
			res := s.And(s.FromBytes(m.Region("results").Bytes[:1]), s.Const(0xff))
			r, err := satHolds([]*x86.Term{s.Eq(res, s.Const(1))}, s.Eq(fc.flag, s.Const(0)), deadline)
			if err == nil && r == satUnsat {
				err = z3s.holds([]*x86.Term{s.Eq(res, s.Const(1))}, s.Eq(fc.flag, s.Const(0)), deadline)
			} else if err == nil {
				err = fmt.Errorf("the result may be 1 where ‖%s‖∞ ≥ %d", p.name, fc.bound)
			}
			if err != nil {
				return fmt.Errorf("stage: polynomial %d of %s: %v", k, name, err)
			}
		}
	}
	return nil
}
