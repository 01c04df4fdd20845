package check

import (
	"fmt"
	"time"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips202"
	"github.com/vg-crypto/vg/Spec/x86"
)

// The proof of a routine that absorbs whole blocks into a SHAKE state
// (contract.Absorb), for every state and every input. The routine has
// fixed control flow and addresses (the caller checks, from its taint
// run), so one symbolic run covers every input: each word of the old
// state and of the input is a variable, every other byte the routine
// starts with and every register a call clobbers a fresh variable, and
// the i-th CALL of the permutation, once call.go has checked its
// discipline, is replaced as follows: word w of its buffer must be
// S_i[w] ⊕ P_i[w] for w < Rate/8 and S_i[w] beyond, with S_0 the old
// state, S_{i+1} what call i returned, and P_i word w of block i of the
// input; each word is matched by term identity, or else by SAT. The call
// returns fresh variables: S_{i+1}. At the end there must have been
// exactly Blocks calls, and each word of State must be S_Blocks.
//
// So, with the permutation's contract (a = Keccak-f[1600](old a), which
// its own check proves), the state after call i is
// f(S_i ⊕ (P_i ‖ 0^c)), fips202.AbsorbBlock of block i: by induction over
// the calls, State ends as AbsorbBlock applied to the blocks in order.
// A call skipped, repeated or made on a word written twice or not at all
// finds its input differ from what the induction asks for.

// absorbProofTime bounds the proof of one routine.
const absorbProofTime = 60 * time.Second

// proveAbsorb proves contract c's postcondition for routine r for every
// state and input, given the permutation's contract.
func proveAbsorb(f *x86.File, r *x86.Routine, c *contract.Contract, callees map[string]*x86.Routine, maxSteps int) (string, error) {
	deadline := time.Now().Add(absorbProofTime)
	ab := c.Absorb
	if ab.Rate != fips202.Rate128 && ab.Rate != fips202.Rate256 {
		return "", fmt.Errorf("rate %d is not SHAKE128's or SHAKE256's", ab.Rate)
	}
	if ab.Blocks < 1 || !contains(c.Calls, ab.Permutation) {
		return "", fmt.Errorf("no block to absorb, or the contract's Calls do not name %s", ab.Permutation)
	}
	pc := contract.Lookup(ab.Permutation)
	if pc == nil || pc.KeccakStates != 1 || len(pc.Args) != 1 || pc.Args[0].Bytes != 200 || !pc.Args[0].Write || pc.Args[0].Indirect != 0 {
		return "", fmt.Errorf("%s's contract is not Keccak-f[1600] on one state of 200 bytes", ab.Permutation)
	}
	if c.Result != "" {
		return "", fmt.Errorf("the routine has a result, which Absorb does not give")
	}
	var state, in bool
	for _, a := range c.Args {
		switch {
		case a.Indirect != 0:
			return "", fmt.Errorf("%s is indirect", a.Name)
		case a.Name == ab.State && a.Bytes == 200 && a.Read && a.Write:
			state = true
		case a.Name == ab.In && a.Bytes == ab.Blocks*ab.Rate && a.Read && !a.Write:
			in = true
		default:
			return "", fmt.Errorf("%s is neither the 200-byte state %q nor the read-only input %q of %d blocks", a.Name, ab.State, ab.In, ab.Blocks)
		}
	}
	if !state || !in {
		return "", fmt.Errorf("no state %q or input %q", ab.State, ab.In)
	}
	s, mk, m, lay, rng := symSetup(f, r, c, 11, func(secret, input bool) bool { return secret || input })
	word := func(b []*x86.Term, w int) *x86.Term { return s.FromBytes(b[8*w : 8*w+8]) }
	// The old state and the input: a variable per word.
	stReg, inReg := m.Region(ab.State), m.Region(ab.In)
	for w := 0; w < 25; w++ {
		s.Bytes(s.Var(fmt.Sprintf("state%d", w)), stReg.Bytes[8*w:8*w+8])
	}
	for w := 0; w < len(inReg.Bytes)/8; w++ {
		s.Bytes(s.Var(fmt.Sprintf("in%d_%d", w/(ab.Rate/8), w%(ab.Rate/8))), inReg.Bytes[8*w:8*w+8])
	}
	inBytes := inReg.Bytes
	sats := 0
	var z3s z3Sample
	same := func(got, want, alt *x86.Term) error {
		if got == want || got == alt {
			return nil
		}
		sats++
		return sameBits(got, want, deadline, &z3s)
	}
	S := append([]*x86.Term(nil), stReg.Bytes...) // S_i, as bytes
	calls := 0
	effect := func(cc *contract.Contract, bufs map[string][]*x86.Term) (map[string][]*x86.Term, *x86.Term, error) {
		if cc.Symbol != ab.Permutation {
			return nil, nil, fmt.Errorf("%s is not the permutation", cc.Symbol)
		}
		i := calls
		if i >= ab.Blocks {
			return nil, nil, fmt.Errorf("permutation call %d: more calls than the %d blocks", i, ab.Blocks)
		}
		a := bufs[cc.Args[0].Name]
		for w := 0; w < 25; w++ {
			want, alt := word(S, w), word(S, w)
			if 8*w < ab.Rate {
				p := s.FromBytes(inBytes[i*ab.Rate+8*w : i*ab.Rate+8*w+8])
				want, alt = s.Xor(want, p), s.Xor(p, want)
			}
			if err := same(word(a, w), want, alt); err != nil {
				return nil, nil, fmt.Errorf("permutation call %d: word %d of the state is not the state before ⊕ block %d: %v", i, w, i, err)
			}
		}
		out := make([]*x86.Term, 200)
		for w := 0; w < 25; w++ {
			s.Bytes(s.Var(fmt.Sprintf("perm%d_%d", i, w)), out[8*w:8*w+8])
		}
		S = out
		calls++
		return map[string][]*x86.Term{cc.Args[0].Name: out}, s.Const(0), nil
	}
	if _, err := runSym(s, m, c, callees, lay, mk, rng, effect, maxSteps); err != nil {
		return "", err
	}
	if calls != ab.Blocks {
		return "", fmt.Errorf("%d permutation calls, want one per block (%d)", calls, ab.Blocks)
	}
	for w := 0; w < 25; w++ {
		if err := same(word(stReg.Bytes, w), word(S, w), nil); err != nil {
			return "", fmt.Errorf("word %d of %s is not what the last permutation call returned: %v", w, ab.State, err)
		}
	}
	return fmt.Sprintf("proven for every state and input: %d CALLs of %s, call i on the state before it ⊕ block i (%d bytes) of %s, and %s is what the last returned (one symbolic run, %d SAT queries; %s); so, given the callee's contract, %s is fips202.AbsorbBlock of the blocks in order",
		calls, ab.Permutation, ab.Rate, ab.In, ab.State, sats, z3s.note(), ab.State), nil
}
