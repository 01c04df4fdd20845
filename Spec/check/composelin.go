package check

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
)

// The normal form of the composition proof's polynomials of line 5 of
// Algorithm 6 (t = NTT⁻¹(Â ∘ NTT(s1)) + s2): a value is an element of
// T_q written as a polynomial over ℤq, of atoms multiplied pointwise,
// where an atom is an input polynomial of T_q (Â[i]) or the NTT of an
// input polynomial of R_q (NTT(s1[j])); a value of R_q is NTT⁻¹ of such
// an element. T_q with pointwise + and · is a commutative ring, and NTT
// and NTT⁻¹ are ℤq-linear and inverse to each other (linear as the ZqMap
// proofs take Spec's transforms to be; inverse checked by nttInverseOK),
// so two values of equal normal form are equal for every input: NTT and
// NTT⁻¹ only change the domain (an NTT⁻¹ with a parameter scales too), Add and AddNTT add, MultiplyNTT
// multiplies, ToMontgomery scales, MultiplyAccNTT multiplies and adds,
// and Zero is empty. An operation on the wrong domain has no normal form
// and fails the proof.
type lin struct {
	ntt   bool              // an element of T_q (else NTT⁻¹ of one)
	terms map[string]uint64 // monomial (atoms joined by "·", sorted) → coefficient in [1, q)
}

// String is the normal form's canonical text, the polynomial's name.
func (l *lin) String() string {
	keys := make([]string, 0, len(l.terms))
	for k := range l.terms {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	// An input itself goes by its own name (an atom never starts "NTT(").
	if len(keys) == 1 && l.terms[keys[0]] == 1 {
		if x, ok := strings.CutPrefix(keys[0], "NTT("); ok && !l.ntt && strings.HasSuffix(x, ")") && !strings.Contains(x, "·") {
			return strings.TrimSuffix(x, ")")
		}
		if l.ntt && !strings.HasPrefix(keys[0], "NTT(") && !strings.Contains(keys[0], "·") {
			return keys[0]
		}
	}
	var b strings.Builder
	if l.ntt {
		b.WriteString("T_q[")
	} else {
		b.WriteString("R_q[")
	}
	for i, k := range keys {
		if i > 0 {
			b.WriteString(" + ")
		}
		fmt.Fprintf(&b, "%d·%s", l.terms[k], k)
	}
	b.WriteString("]")
	return b.String()
}

// atomLin is one atom's normal form: x itself in T_q, or NTT⁻¹(NTT(x))
// for x in R_q.
func atomLin(x string, ntt bool) *lin {
	if ntt {
		return &lin{ntt: true, terms: map[string]uint64{x: 1}}
	}
	return &lin{terms: map[string]uint64{"NTT(" + x + ")": 1}}
}

func (l *lin) with(ntt bool) *lin { return &lin{ntt: ntt, terms: l.terms} }

// linAdd is a + b of one domain (nil if the domains differ or either is
// nil; so are linScale and linMul nil for nil).
func linAdd(a, b *lin) *lin {
	if a == nil || b == nil || a.ntt != b.ntt {
		return nil
	}
	r := &lin{ntt: a.ntt, terms: map[string]uint64{}}
	for _, t := range []*lin{a, b} {
		for k, c := range t.terms {
			if v := (r.terms[k] + c) % qMod; v != 0 {
				r.terms[k] = v
			} else {
				delete(r.terms, k)
			}
		}
	}
	return r
}

// linScale is c · a.
func linScale(c uint64, a *lin) *lin {
	if a == nil {
		return nil
	}
	r := &lin{ntt: a.ntt, terms: map[string]uint64{}}
	for k, v := range a.terms {
		if w := v * (c % qMod) % qMod; w != 0 {
			r.terms[k] = w
		}
	}
	return r
}

// linMul is a ∘ b in T_q (nil unless both are in T_q).
func linMul(a, b *lin) *lin {
	if a == nil || b == nil || !a.ntt || !b.ntt {
		return nil
	}
	r := &lin{ntt: true, terms: map[string]uint64{}}
	for ka, ca := range a.terms {
		for kb, cb := range b.terms {
			atoms := append(strings.Split(ka, "·"), strings.Split(kb, "·")...)
			sort.Strings(atoms)
			k := strings.Join(atoms, "·")
			if v := (r.terms[k] + ca*cb%qMod) % qMod; v != 0 {
				r.terms[k] = v
			} else {
				delete(r.terms, k)
			}
		}
	}
	return r
}

var nttInverseOnce = sync.OnceValue(func() error {
	var zero fips204.Poly
	if fips204.NTT(zero) != zero || fips204.NTTInverse(zero) != zero {
		return fmt.Errorf("the NTT or NTT⁻¹ of Spec of 0 is not 0")
	}
	for k := 0; k < 256; k++ {
		var e fips204.Poly
		e[k] = 1
		if fips204.NTTInverse(fips204.NTT(e)) != e || fips204.NTT(fips204.NTTInverse(e)) != e {
			return fmt.Errorf("the NTT and NTT⁻¹ of Spec are not inverse on basis vector %d", k)
		}
	}
	return nil
})

// nttInverseOK checks that Spec's NTT and NTT⁻¹, ℤq-linear, are inverse
// to each other: on zero and on every basis vector, both ways.
func nttInverseOK() error { return nttInverseOnce() }

// zqOpWant is the map an Op of a ZqMap routine states, written with
// Spec's functions over the buffers of the callee's ZqMap; nil for an
// operation of no such meaning.
func zqOpWant(op *contract.Op, zm *contract.ZqMap) func(in contract.Buffers) []uint32 {
	out := func(w fips204.Poly) []uint32 {
		r := make([]uint32, 256)
		for i, x := range w {
			r[i] = uint32(x)
		}
		return r
	}
	one := func(in contract.Buffers) fips204.Poly { return contract.Poly(in[op.In[0]]) }
	switch {
	case op.Name == "NTT" && len(op.In) == 1 && len(op.Params) == 0:
		return func(in contract.Buffers) []uint32 { return out(fips204.NTT(one(in))) }
	case op.Name == "NTTInverse" && len(op.In) == 1 && len(op.Params) == 0:
		return func(in contract.Buffers) []uint32 { return out(fips204.NTTInverse(one(in))) }
	case op.Name == "NTTInverse" && len(op.In) == 1 && len(op.Params) == 1 && op.Params[0] >= 0 && op.Params[0] < fips204.Q:
		// NTT⁻¹ with its result times the parameter (the Montgomery
		// factor of a product's operand folded into its scaling).
		c := constPoly(op.Params[0])
		return func(in contract.Buffers) []uint32 { return out(fips204.MultiplyNTT(fips204.NTTInverse(one(in)), c)) }
	case op.Name == "ToMontgomery" && len(op.In) == 1 && len(op.Params) == 1 && op.Params[0] >= 0 && op.Params[0] < fips204.Q:
		c := constPoly(op.Params[0])
		return func(in contract.Buffers) []uint32 { return out(fips204.MultiplyNTT(one(in), c)) }
	case op.Name == "Sub" && len(op.In) == 2 && len(op.Params) == 0:
		return func(in contract.Buffers) []uint32 {
			return out(fips204.Values{}.SubNTT(contract.Poly(in[op.In[0]]), contract.Poly(in[op.In[1]])))
		}
	case op.Name == "Add" && len(op.In) == 2 && len(op.Params) == 0:
		return func(in contract.Buffers) []uint32 {
			return out(fips204.AddNTT(contract.Poly(in[op.In[0]]), contract.Poly(in[op.In[1]])))
		}
	case op.Name == "MultiplyAccNTT" && len(op.In) == 2 && len(op.Params) == 1 && op.Params[0] > 0:
		rInv := constPoly(rInvMod)
		return func(in contract.Buffers) []uint32 {
			var w fips204.Poly
			for j := 0; j < op.Params[0]; j++ {
				w = fips204.AddNTT(w, fips204.MultiplyNTT(contract.Poly(in[op.In[0]][1024*j:]), contract.Poly(in[op.In[1]][1024*j:])))
			}
			return out(fips204.MultiplyNTT(w, rInv))
		}
	}
	return nil
}

// constPoly is the polynomial with every coefficient c: MultiplyNTT by
// it scales by c.
func constPoly(c int) fips204.Poly {
	var p fips204.Poly
	for i := range p {
		p[i] = int32(c)
	}
	return p
}

// rInvMod is 2⁻³² mod q.
const rInvMod = 8265825

// checkZqOp checks the Op of a routine whose proven postcondition is a
// ZqMap: the map its Want gives on basis vectors (what proveZq proved the
// routine computes) must equal, form for form, the one the Op states
// with Spec's functions, recovered the same way. Inputs and outputs are
// then words in [0, q) (proveZq's precondition and interval), as every
// polynomial of the composition proof holds.
func checkZqOp(cc *contract.Contract, d dom) ([]dom, error) {
	op, zm := cc.Op, cc.Zq
	if zm == nil || fmt.Sprint(zm.In) != fmt.Sprint(op.In) || len(op.Out) != 1 || zm.Out != op.Out[0] {
		return nil, fmt.Errorf("%s: its Op is not its ZqMap's", cc.Symbol)
	}
	// Every polynomial of the proof holds words in [0, q) (dom); the
	// range only says which.
	if d.lo > d.hi {
		return nil, fmt.Errorf("%s: an empty range of words", cc.Symbol)
	}
	want := zqOpWant(op, zm)
	if want == nil {
		return nil, fmt.Errorf("%s: no composition proof knows operation %q with %d inputs and parameters %v", cc.Symbol, op.Name, len(op.In), op.Params)
	}
	if err := nttInverseOK(); err != nil {
		return nil, err
	}
	key := cc.Symbol + "/" + fmt.Sprint(*op)
	if v, ok := checkedOps.Load(key); ok {
		if v != nil {
			return nil, v.(error)
		}
		return []dom{fullDom}, nil
	}
	err := func() error {
		mk := func() (contract.Buffers, map[string]int, error) {
			in, base, n := contract.Buffers{}, map[string]int{}, 0
			for _, name := range zm.In {
				size := 0
				for _, a := range cc.Args {
					if a.Name == name && a.Read && a.Indirect == 0 {
						size = a.Bytes
					}
				}
				if size == 0 || size%1024 != 0 {
					return nil, nil, fmt.Errorf("%s: %s is not a buffer of polynomials it reads", cc.Symbol, name)
				}
				in[name], base[name] = make([]byte, size), n
				n += size / 4
			}
			return in, base, nil
		}
		if op.Name == "MultiplyAccNTT" && len(cc.Zq.In) == 2 {
			for _, name := range zm.In {
				for _, a := range cc.Args {
					if a.Name == name && a.Bytes != 1024*op.Params[0] {
						return fmt.Errorf("%s: %s holds %d bytes, not ℓ = %d polynomials", cc.Symbol, name, a.Bytes, op.Params[0])
					}
				}
			}
		}
		in, base, err := mk()
		if err != nil {
			return err
		}
		got, _, err := zqSpec(zm, in, base)
		if err != nil {
			return err
		}
		spec := *zm
		spec.Want = want
		exp, _, err := zqSpec(&spec, in, base)
		if err != nil {
			return err
		}
		if len(got) != 256 || len(exp) != 256 {
			return fmt.Errorf("%s: its map gives %d words, the Op's %d, not one polynomial", cc.Symbol, len(got), len(exp))
		}
		for i := range got {
			if !qequal(got[i], exp[i]) {
				return fmt.Errorf("%s: output word %d: its proven map is %s, its Op %s(%v) %s", cc.Symbol, i, showForm(got[i]), op.Name, op.Params, showForm(exp[i]))
			}
		}
		return nil
	}()
	if err != nil {
		checkedOps.Store(key, err)
		return nil, err
	}
	checkedOps.Store(key, nil)
	return []dom{fullDom}, nil
}
