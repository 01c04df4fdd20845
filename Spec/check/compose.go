package check

import (
	"fmt"
	"time"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// The composition proof (contract.Compose): a routine made of CALLs of
// proven routines is proven equal to Spec's own steps for every input,
// with nothing restated here. The routine has fixed control flow and
// addresses (the caller checks, from its taint run), so one symbolic run
// covers every input:
//
//   - every byte of a read-only buffer is a variable (eight bytes a
//     word), every other value the routine starts with (frame, registers,
//     the outputs' old bytes) and every register a call clobbers a fresh
//     variable of its own, so nothing left unwritten can match by chance;
//   - each CALL, once call.go has checked its discipline, is replaced by
//     its contract: the permutation's i-th call records the 200 bytes it
//     got and returns fresh variables, its output f_i.
//
// Then the contract's Steps, a function of Spec/fips204 over any bytes,
// runs on those same variables: ⊕ and constants build terms, and its k-th
// application of f must be the routine's k-th call, on the same bytes
// (term identity, else SAT on each 64-bit lane), giving that call's
// variables. At the end Steps must have applied f exactly as often as the
// routine called, and every buffer Steps returns must hold, byte for byte,
// the term Steps computed (identity, else SAT); the routine may write no
// other buffer.
//
// So, with the callee's contract (its output is Keccak-f[1600] of its
// input, which its own check proves), the routine's outputs are Steps'
// outputs with f = Keccak-f[1600], for every value of every variable:
// what Spec's functions compute on bytes, since they run the same Steps.

// composeProofTime bounds the proof of one routine.
const composeProofTime = 120 * time.Second

// permCall is one call of the permutation: the bytes it got and the
// variables it returned.
type permCall struct{ in, out []*x86.Term }

// termSponge is fips202.Sponge over terms, f matched with the routine's
// permutation calls in order.
type termSponge struct {
	s     *x86.Sym
	calls []permCall
	next  int
	err   error
	same  func(a, b *x86.Term) error
}

func (o *termSponge) Byte(b byte) any  { return o.s.Const(uint64(b)) }
func (o *termSponge) Xor(a, b any) any { return o.s.Xor(a.(*x86.Term), b.(*x86.Term)) }

func (o *termSponge) Permute(st *[200]any) {
	if o.err != nil {
		return
	}
	k := o.next
	o.next++
	if k >= len(o.calls) {
		o.err = fmt.Errorf("the steps of Spec apply f a %d-th time; the routine calls the permutation %d times", k+1, len(o.calls))
		return
	}
	c := o.calls[k]
	for w := 0; w < 25; w++ {
		want := make([]*x86.Term, 8)
		for i := range want {
			want[i] = st[8*w+i].(*x86.Term)
		}
		if err := o.same(o.s.FromBytes(c.in[8*w:8*w+8]), o.s.FromBytes(want)); err != nil {
			o.err = fmt.Errorf("permutation call %d: lane %d is not the state Spec's steps give f there: %v", k, w, err)
			return
		}
	}
	for i := range st {
		st[i] = c.out[i]
	}
}

// proveCompose proves contract c's postcondition for routine r for every
// input, given its callees' contracts.
func proveCompose(f *x86.File, r *x86.Routine, c *contract.Contract, callees map[string]*x86.Routine, maxSteps int) (string, error) {
	deadline := time.Now().Add(composeProofTime)
	cp := c.Compose
	pc := contract.Lookup(cp.Permutation)
	if !contains(c.Calls, cp.Permutation) || pc == nil || pc.KeccakStates != 1 || len(pc.Args) != 1 || pc.Args[0].Bytes != 200 || pc.Args[0].Indirect != 0 || !pc.Args[0].Write {
		return "", fmt.Errorf("%s is not a callee of the contract permuting one 200-byte state", cp.Permutation)
	}
	if c.Result != "" {
		return "", fmt.Errorf("the routine has a result, which Compose does not give")
	}
	s, mk, m, lay, rng := symSetup(f, r, c, 11, func(secret, input bool) bool { return secret || input })
	in := map[string][]any{}
	for _, a := range c.Args {
		if !a.Read || a.Write {
			continue
		}
		if a.Indirect != 0 || a.Bytes%8 != 0 {
			return "", fmt.Errorf("input %s is not one buffer of whole words", a.Name)
		}
		reg := m.Region(a.Name)
		for w := 0; w < a.Bytes/8; w++ {
			s.Bytes(s.Var(fmt.Sprintf("%s_%d", a.Name, w)), reg.Bytes[8*w:8*w+8])
		}
		for _, b := range reg.Bytes {
			in[a.Name] = append(in[a.Name], b)
		}
	}
	var calls []permCall
	effect := func(cc *contract.Contract, bufs map[string][]*x86.Term) (map[string][]*x86.Term, *x86.Term, error) {
		if cc.Symbol != cp.Permutation {
			return nil, nil, fmt.Errorf("%s is not the composition's permutation", cc.Symbol)
		}
		i := len(calls)
		a := bufs[cc.Args[0].Name]
		out := make([]*x86.Term, 200)
		for w := 0; w < 25; w++ {
			s.Bytes(s.Var(fmt.Sprintf("f%d_%d", i, w)), out[8*w:8*w+8])
		}
		calls = append(calls, permCall{in: append([]*x86.Term(nil), a...), out: out})
		return map[string][]*x86.Term{cc.Args[0].Name: out}, s.Const(0), nil
	}
	taint := func(t *x86.Term) (bool, bool) {
		_, konst := s.Concrete(t)
		return !konst, !konst
	}
	env := &callEnv[*x86.Term]{caller: c, callees: callees, lay: lay, mk: mk, rng: rng, taint: taint, effect: effect}
	m.Call = env.call
	if err := m.Run(maxSteps); err != nil {
		return "", fmt.Errorf("symbolic run: %v", err)
	}
	sats := 0
	var z3s z3Sample
	same := func(got, want *x86.Term) error {
		if got == want {
			return nil
		}
		sats++
		return sameBits(got, want, deadline, &z3s)
	}
	o := &termSponge{s: s, calls: calls, same: same}
	outs := cp.Steps(o, in)
	if o.err != nil {
		return "", o.err
	}
	if o.next != len(calls) {
		return "", fmt.Errorf("the routine calls the permutation %d times, Spec's steps apply f %d times", len(calls), o.next)
	}
	for _, a := range c.Args {
		if a.Write && outs[a.Name] == nil {
			return "", fmt.Errorf("the routine may write %s, of which Spec's steps say nothing", a.Name)
		}
	}
	for name, vs := range outs {
		reg := m.Region(name)
		if reg == nil || reg.Size() != len(vs) {
			return "", fmt.Errorf("the steps of Spec give %d bytes of %s, which is no buffer of that size", len(vs), name)
		}
		for i, v := range vs {
			mask := s.Const(0xff)
			if err := same(s.And(reg.Bytes[i], mask), s.And(v.(*x86.Term), mask)); err != nil {
				return "", fmt.Errorf("byte %d of %s is not what Spec's steps give: %v", i, name, err)
			}
		}
	}
	return fmt.Sprintf("proven for every input: Spec's steps (Compose) run over the routine's symbolic bytes, each of their %d applications of f the routine's CALL of %s in order, on the same state (one symbolic run, %d SAT queries; %s); so, given the callee's contract, the outputs are what Spec computes",
		len(calls), cp.Permutation, sats, z3s.note()), nil
}
