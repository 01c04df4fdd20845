package check

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// Calls. A routine whose contract lists Calls may CALL those routines
// (CALL ·name(SB), Go ABI0). The model does not run a callee: at the CALL
// the checker checks the call's discipline, then replaces the callee by
// its contract. The callee's own check proves its contract (Package
// lowers a caller's results to its callees'); what the replacement
// assumes of the real call is in Spec/SOUNDNESS.md.
//
// Discipline, at the CALL:
//   - the target is one of the caller contract's Calls, has a contract
//     with an Effect, and was decoded with the linker's stack-bound check
//     (so it grows the goroutine's stack for its own frame, below SP), or
//     else uses no more stack than the caller's own check leaves below
//     the caller's frame (x86.NosplitRoom: a leaf with a small frame,
//     which the assembler marks NOSPLIT);
//   - SP is the caller's frame base: the callee's arguments and result
//     are the first ArgsSize bytes of the caller's frame, which must hold
//     them;
//   - MXCSR holds 0x1F80 and no MCDT bracket is open;
//   - every argument pointer is public and input-independent, points to
//     a region the callee may read or write as its contract says (a
//     caller buffer, or for a direct argument the caller's frame above
//     the argument area), is aligned to its Go type, and the callee's
//     buffers do not overlap one another or the argument area; a pointer
//     read through an Indirect argument must point to a caller buffer
//     (the runtime does not adjust pointers to the stack held in a
//     frame);
//   - the bytes of every buffer the callee's contract calls public are
//     public (a secret reaching a sampler's seed is a constant-time
//     failure).
//
// Effect, after the CALL: the buffers the callee may write and its result
// slot hold its Effect; every register but SP
// and BP is garbage (secret and input-derived, so a later use shows) and
// the flags are undefined; the callee's ABI, proven in its own check,
// restores BP and MXCSR. The stack then moves, as a goroutine's stack may
// when the callee grows it: the frame, the saved BP, the return address
// and the argument area get a new base, SP moves with them, so a stale
// pointer into the old stack reaches no region. A routine declared
// //go:noescape may have its buffers on that stack: they move too, and
// only the pointers the runtime adjusts follow them (moveBuffers).

// CallError is a violation of the call discipline, for the obligation Ob.
type CallError struct {
	Insn *x86.Insn
	Ob   string
	Msg  string
}

func (e *CallError) Error() string { return fmt.Sprintf("%s: %s", e.Insn, e.Msg) }

// callEnv carries out the CALLs of one run of a caller.
type callEnv[V any] struct {
	caller  *contract.Contract
	callees map[string]*x86.Routine
	lay     *layout
	mk      maker[V]
	rng     *rand.Rand
	// taint says whether a value may be secret or depend on the input.
	taint func(V) (secret, input bool)
	// effect applies the callee's contract: given its buffers' bytes it
	// returns the bytes of the buffers it writes and its result byte.
	effect func(cc *contract.Contract, in map[string][]V) (map[string][]V, V, error)
	// mcdtOpen, when set, reports an open MCDT bracket.
	mcdtOpen func() bool
	// Calls records the calls made, in order.
	Calls []callRecord
}

// callRecord is one call: its target and the buffers it got.
type callRecord struct {
	Target  string
	Buffers map[string]span
}

// span is a buffer a callee gets: its region and offset.
type span struct {
	Region string
	Off    int
	N      int
}

func (e *callEnv[V]) fail(in *x86.Insn, ob, format string, a ...any) error {
	return &CallError{Insn: in, Ob: ob, Msg: fmt.Sprintf(format, a...)}
}

// goAlign is the alignment Go gives the elements of a pointer argument
// type (e.g. "*[256]uint32" → 4, "*[4]*[256]uint32" → 8).
func goAlign(t string) int {
	t = strings.TrimPrefix(t, "*")
	for strings.HasPrefix(t, "[") {
		i := strings.IndexByte(t, ']')
		if i < 0 {
			return 8
		}
		t = t[i+1:]
	}
	switch t {
	case "byte", "uint8", "int8", "bool":
		return 1
	case "uint16", "int16":
		return 2
	case "uint32", "int32":
		return 4
	}
	return 8
}

// argTypes returns the Go types of a signature's parameters, in order.
func argTypes(goSig string) []string {
	p := strings.IndexByte(goSig, '(')
	q := strings.IndexByte(goSig, ')')
	if p < 0 || q < p {
		return nil
	}
	// Go groups names that share a type: "t1, t0, t *[256]uint32".
	var out []string
	pending := 0
	for _, f := range strings.Split(goSig[p+1:q], ",") {
		switch fs := strings.Fields(f); len(fs) {
		case 1:
			pending++
		case 2:
			for ; pending > 0; pending-- {
				out = append(out, fs[1])
			}
			out = append(out, fs[1])
		default:
			return nil
		}
	}
	if pending > 0 {
		return nil
	}
	return out
}

// call is the machine's Call hook.
func (e *callEnv[V]) call(m *x86.Machine[V], in *x86.Insn, target string) error {
	d := m.D
	if !contains(e.caller.Calls, target) {
		return e.fail(in, ABI, "CALL %s: not a routine contract %s may call (Calls: %v)", target, e.caller.Symbol, e.caller.Calls)
	}
	cc := contract.Lookup(target)
	if cc == nil || cc.Effect == nil {
		return e.fail(in, ABI, "CALL %s: no contract with an Effect for it", target)
	}
	cr := e.callees[target]
	if cr == nil {
		return e.fail(in, ABI, "CALL %s: the callee's machine code was not read", target)
	}
	if room := x86.NosplitRoom(m.Routine); !cr.StackCheck && x86.StackUse(cr) > room {
		return e.fail(in, ABI, "CALL %s: the callee has no stack-bound check and uses %d bytes below its return address; the caller's check leaves it %d", target, x86.StackUse(cr), max(room, 0))
	}
	if e.mcdtOpen != nil && e.mcdtOpen() {
		return e.fail(in, MCDT, "CALL %s inside the MXCSR bracket", target)
	}
	if v, ok := d.Concrete(m.MXCSR); !ok || v != 0x1F80 {
		return e.fail(in, ABI, "CALL %s with MXCSR %#x, not 0x1F80", target, v)
	}
	frame := m.Region("frame")
	sp, ok := d.Concrete(m.GPR[x86.SP])
	if sec, inp := e.taint(m.GPR[x86.SP]); !ok || sec || inp {
		return e.fail(in, ABI, "CALL %s: SP is not a fixed value", target)
	}
	if frame == nil || sp != frame.Base {
		base := uint64(0)
		if frame != nil {
			base = frame.Base
		}
		return e.fail(in, ABI, "CALL %s with SP = %#x, not the frame's base %#x (the callee's arguments are at 0(SP); a misaligned stack)", target, sp, base)
	}
	argsN := cc.ArgsSize()
	if argsN > frame.Size() {
		return e.fail(in, ABI, "CALL %s: its %d bytes of arguments overflow the caller's %d-byte frame", target, argsN, frame.Size())
	}
	// read8 reads a fixed 64-bit value from memory at addr.
	read8 := func(addr uint64, what string) (uint64, error) {
		r := e.regionAt(m, addr, 8)
		if r == nil || r.WriteOnly || r.Kind == x86.Hidden {
			return 0, e.fail(in, MemorySafety, "CALL %s: %s at %#x is not readable memory", target, what, addr)
		}
		off := int(addr - r.Base)
		v := d.FromBytes(r.Bytes[off : off+8])
		x, ok := d.Concrete(v)
		if sec, inp := e.taint(v); !ok || sec || inp {
			return 0, e.fail(in, ABI, "CALL %s: %s is not a fixed public value", target, what)
		}
		return x, nil
	}
	types := argTypes(cc.GoSig)
	if len(types) != len(cc.Args) {
		return e.fail(in, ABI, "CALL %s: signature %q does not give %d pointer arguments", target, cc.GoSig, len(cc.Args))
	}
	type buf struct {
		name  string
		r     *x86.Region[V]
		off   int
		n     int
		write bool
	}
	var bufs []buf
	place := func(name string, p uint64, n, align int, a contract.Arg, frameOK bool) (buf, error) {
		r := e.regionAt(m, p, n)
		switch {
		case r == nil:
			return buf{}, e.fail(in, MemorySafety, "CALL %s: %s = %#x: %d bytes there are outside every region", target, name, p, n)
		case r.Kind == x86.Frame && !frameOK:
			return buf{}, e.fail(in, MemorySafety, "CALL %s: %s points into the caller's frame through a pointer array, which the runtime does not adjust when the stack moves", target, name)
		case r.Kind != x86.Buffer && r.Kind != x86.Frame:
			return buf{}, e.fail(in, MemorySafety, "CALL %s: %s points into %s, not a buffer or the frame", target, name, r.Name)
		case a.Write && !r.Writable:
			return buf{}, e.fail(in, MemorySafety, "CALL %s: %s points into read-only %s, and the callee writes it", target, name, r.Name)
		case a.Read && r.WriteOnly:
			return buf{}, e.fail(in, MemorySafety, "CALL %s: %s points into %s, which may not be read", target, name, r.Name)
		case p%uint64(align) != 0:
			return buf{}, e.fail(in, MemorySafety, "CALL %s: %s = %#x is not aligned to %d bytes (its Go type)", target, name, p, align)
		}
		return buf{name: name, r: r, off: int(p - r.Base), n: n, write: a.Write}, nil
	}
	for i, a := range cc.Args {
		p, err := read8(sp+uint64(8*i), "argument "+a.Name)
		if err != nil {
			return err
		}
		if a.Indirect == 0 {
			b, err := place(a.Name, p, a.Bytes, goAlign(types[i]), a, true)
			if err != nil {
				return err
			}
			bufs = append(bufs, b)
			continue
		}
		arr, err := place(a.Name, p, 8*a.Indirect, 8, contract.Arg{Read: true}, true)
		if err != nil {
			return err
		}
		bufs = append(bufs, arr)
		elem := strings.TrimPrefix(strings.TrimPrefix(types[i], "*"), fmt.Sprintf("[%d]", a.Indirect))
		for j, bn := range a.BufferNames() {
			q, err := read8(p+uint64(8*j), bn)
			if err != nil {
				return err
			}
			b, err := place(bn, q, a.Bytes, goAlign(elem), a, false)
			if err != nil {
				return err
			}
			bufs = append(bufs, b)
		}
	}
	if !cc.NoAlias {
		return e.fail(in, ABI, "CALL %s: its contract allows aliasing buffers, which calls do not model", target)
	}
	// The callee's buffers and its argument area are pairwise disjoint.
	all := append([]buf{{name: "its arguments", r: frame, off: 0, n: argsN}}, bufs...)
	for i := range all {
		for j := i + 1; j < len(all); j++ {
			x, y := all[i], all[j]
			if x.r == y.r && x.off < y.off+y.n && y.off < x.off+x.n {
				return e.fail(in, MemorySafety, "CALL %s: %s and %s overlap", target, x.name, y.name)
			}
		}
	}
	// Inputs: public buffers must hold public bytes.
	inB := map[string][]V{}
	secretOf := secretBuffers(cc)
	rec := callRecord{Target: target, Buffers: map[string]span{}}
	for _, b := range bufs {
		vs := append([]V(nil), b.r.Bytes[b.off:b.off+b.n]...)
		inB[b.name] = vs
		rec.Buffers[b.name] = span{b.r.Name, b.off, b.n}
		// A buffer the caller's leak makes public (PublicOut) passes
		// here; the composition proof checks that the callee gets only
		// the bytes the routine outputs there.
		if !secretOf[b.name] && !(b.r.Kind == x86.Buffer && contains(e.caller.PublicOut, b.r.Name)) {
			for k, v := range vs {
				if sec, _ := e.taint(v); sec {
					return e.fail(in, ConstantTime, "CALL %s: byte %d of %s, public in its contract, is secret", target, k, b.name)
				}
			}
		}
	}
	out, ret, err := e.effect(cc, inB)
	if err != nil {
		return e.fail(in, Functional, "CALL %s: %v", target, err)
	}
	for _, b := range bufs {
		if !b.write {
			continue
		}
		vs, ok := out[b.name]
		if !ok || len(vs) != b.n {
			return e.fail(in, Functional, "CALL %s: its Effect gives no %s", target, b.name)
		}
		b.r.Own()
		copy(b.r.Bytes[b.off:], vs)
		for k := 0; k < b.n; k++ {
			b.r.Written[b.off+k] = true
		}
	}
	if cc.Result != "" {
		ro := cc.ResultOffset()
		frame.Own()
		frame.Bytes[ro] = ret
		frame.Written[ro] = true
	}
	e.Calls = append(e.Calls, rec)
	// Everything but SP and BP is the callee's to change.
	for i := range m.GPR {
		if x86.Reg(i) != x86.SP && x86.Reg(i) != x86.BP {
			m.GPR[i] = e.mk(e.rng.Uint64(), true, true)
		}
	}
	for i := range m.Vec {
		for w := range m.Vec[i] {
			m.Vec[i][w] = e.mk(e.rng.Uint64(), true, true)
		}
	}
	m.UndefFlags()
	m.MXCSR = d.Const(0x1F80)
	e.moveStack(m)
	return nil
}

// regionAt returns the region holding [addr, addr+n), or nil.
func (e *callEnv[V]) regionAt(m *x86.Machine[V], addr uint64, n int) *x86.Region[V] {
	for _, r := range m.Regions {
		if addr >= r.Base && addr+uint64(n) <= r.Base+uint64(r.Size()) && addr+uint64(n) >= addr {
			return r
		}
	}
	return nil
}

// moveStack gives the stack regions a new base, as a goroutine's stack
// moves when it grows, and moves SP (and BP, when it points into the
// stack) with them.
func (e *callEnv[V]) moveStack(m *x86.Machine[V]) {
	d := m.D
	frame := m.Region("frame")
	old := frame.Base
	lo, hi := old, old
	for _, r := range m.Regions {
		switch r.Kind {
		case x86.Frame, x86.Saved, x86.Hidden, x86.Args, x86.Results:
			hi = max(hi, r.Base+uint64(r.Size()))
		}
	}
	delta := e.lay.slots.next() - old
	for _, r := range m.Regions {
		switch r.Kind {
		case x86.Frame, x86.Saved, x86.Hidden, x86.Args, x86.Results:
			r.Base += delta
		}
	}
	m.GPR[x86.SP] = d.Add(m.GPR[x86.SP], d.Const(delta))
	if bp, ok := d.Concrete(m.GPR[x86.BP]); ok && bp >= lo && bp <= hi {
		m.GPR[x86.BP] = d.Add(m.GPR[x86.BP], d.Const(delta))
	}
	e.lay.sp += delta
	e.lay.entrySP += delta
	if m.Routine.NoEscape {
		e.moveBuffers(m)
	}
}

// moveBuffers gives every buffer of a routine declared //go:noescape a
// new base too: a Go caller may have put it on the goroutine stack, which
// the call may have moved. The runtime adjusts the pointers to it that
// the frames' pointer maps name: the routine's pointer arguments (its
// declaration's) and the elements of a pointer array, a stack object of
// the caller's or on the heap (where no stack pointer may be); so does
// the model, and no other pointer (one kept in the frame, which is
// NO_LOCAL_POINTERS, reaches no region any more).
func (e *callEnv[V]) moveBuffers(m *x86.Machine[V]) {
	d := m.D
	type move struct{ from, to, n uint64 }
	var moves []move
	var arrays []*x86.Region[V]
	for _, r := range m.Regions {
		if r.Kind != x86.Buffer {
			continue
		}
		to := e.lay.slots.next()
		moves = append(moves, move{r.Base, to, uint64(r.Size())})
		r.Base = to
		for _, a := range e.caller.Args {
			if a.Indirect > 0 && a.Name == r.Name {
				arrays = append(arrays, r)
			}
		}
	}
	// adjust rewrites the pointer at r.Bytes[off:] if it points into a
	// moved buffer.
	adjust := func(r *x86.Region[V], off int) {
		p, ok := d.Concrete(d.FromBytes(r.Bytes[off : off+8]))
		if !ok {
			return
		}
		for _, mv := range moves {
			if p >= mv.from && p < mv.from+mv.n {
				bs := make([]V, 8)
				d.Bytes(d.Const(p-mv.from+mv.to), bs)
				r.Own()
				copy(r.Bytes[off:], bs)
			}
		}
	}
	if args := m.Region("args"); args != nil {
		for off := 0; off+8 <= args.Size(); off += 8 {
			adjust(args, off)
		}
	}
	for _, r := range arrays {
		for off := 0; off+8 <= r.Size(); off += 8 {
			adjust(r, off)
		}
	}
}

// concreteEffect is the effect on the concrete and taint domains: the
// callee's Effect on the bytes' values; the
// bytes it writes carry the taint of everything it read.
func concreteEffect[V any](d x86.Domain[V], mk maker[V], taint func(V) (bool, bool), rng *rand.Rand) func(*contract.Contract, map[string][]V) (map[string][]V, V, error) {
	return func(cc *contract.Contract, in map[string][]V) (map[string][]V, V, error) {
		var zero V
		bufIn := contract.Buffers{}
		sec, inp := false, false
		for name, vs := range in {
			b := make([]byte, len(vs))
			for i, v := range vs {
				x, ok := d.Concrete(v)
				if !ok {
					return nil, zero, fmt.Errorf("%s byte %d is not concrete", name, i)
				}
				b[i] = byte(x)
				s, n := taint(v)
				sec, inp = sec || s, inp || n
			}
			bufIn[name] = b
		}
		// Effect meets Check (Spec/contract's tests; the two are
		// trusted alike).
		out, ret := cc.Effect(copyBuffers(bufIn), rng)
		res := map[string][]V{}
		for name, b := range out {
			vs := make([]V, len(b))
			for i, x := range b {
				vs[i] = mk(uint64(x), sec, inp)
			}
			res[name] = vs
		}
		return res, mk(uint64(ret), sec && !revealed(cc), inp), nil
	}
}

// revealed says a callee's result is public: a sign stage's (contract
// Stage), whose check's outcome its contract's leak declares and its
// caller branches on, as Algorithm 7 does (fips204.SignAttemptOver's
// Reveal).
func revealed(cc *contract.Contract) bool { return cc.Stage != nil && cc.Result == "bool" }

// checkCallSites is the static part of the call discipline: every CALL
// names a routine of the contract's Calls whose CPU features the
// contract allows (a caller dispatched without a callee's features would
// run it anyway), and a routine that calls has a frame declared
// NO_LOCAL_POINTERS (the runtime scans the frames of a stack it copies;
// one without a pointer map stops the program).
func checkCallSites(r *x86.Routine, c *contract.Contract) error {
	calls := 0
	for _, in := range r.Insns {
		if in.Op != "CALL" {
			continue
		}
		calls++
		t := in.Args[0].Mem.Name
		if !contains(c.Calls, t) {
			return fmt.Errorf("%s: %s is not among the routines contract %s may call (%v)", in, t, c.Symbol, c.Calls)
		}
		cc := contract.Lookup(t)
		if cc == nil {
			return fmt.Errorf("%s: %s has no contract", in, t)
		}
		for _, f := range cc.Features {
			if !contains(c.Features, f) && !baseline[f] {
				return fmt.Errorf("%s: the callee needs %s, which contract %s does not require (%v)", in, f, c.Symbol, c.Features)
			}
		}
	}
	if calls > 0 && r.Frame > 0 && !r.NoLocalPointers {
		return fmt.Errorf("%s calls and has a %d-byte frame, but does not declare NO_LOCAL_POINTERS", r.Name, r.Frame)
	}
	return nil
}
