//go:build !purego

package cosim

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	x86 "github.com/vg-crypto/vg/Spec/x86"
	"github.com/vg-crypto/vg/internal/cosim/forms"
)

// This file runs the model in its abstract domains (Taint, Interval) and
// checks what they claim against the CPU: a value an abstract run computes
// must contain the CPU's value, and an output bit the model calls
// independent of some inputs must not change on the CPU when only those
// inputs change.

// fixedInputs are the inputs the model needs concrete and public: address
// registers, the CL count, a vector shift count register, the memory
// LDMXCSR loads.
type fixedInputs struct {
	gpr map[int]bool
	vec int // -1 if none
	mem bool
}

func fixedFor(ins []forms.Insn) fixedInputs {
	f := fixedInputs{gpr: map[int]bool{4: true}, vec: -1}
	for _, in := range ins {
		f.mem = f.mem || in.Mnemonic == "LDMXCSR"
		if m := in.MemOp(); m != nil {
			f.gpr[gprIndex(m.Base)] = true
			if m.Index != "" {
				f.gpr[gprIndex(m.Index)] = true
			}
		}
		for _, o := range in.Ops {
			if o.Kind == "cl" {
				f.gpr[1] = true
			}
		}
		if len(in.Ops) == 3 && in.Ops[0].Kind == "xmm" && strings.HasPrefix(in.Mnemonic, "VPS") {
			fmt.Sscanf(in.Ops[0].Reg, "X%d", &f.vec)
		}
	}
	return f
}

// program is a case as the abstract-domain tests run it.
type program struct {
	routine *x86.Routine
	taken   int          // index of the label "taken"; the instructions end at taken-1
	ins     []forms.Insn // one instruction, or a pair
	memIn   forms.Insn   // the instruction whose memory operand randomState places
}

func newProgram(c Case) (program, error) {
	ins, err := forms.ParseText(c.Text)
	if err != nil {
		return program{}, err
	}
	if needsAVX512(c, ins) && !hasAVX512VL() {
		return program{}, fmt.Errorf("%s needs AVX512F and AVX512VL, which this CPU lacks", c.Text)
	}
	md, err := newModel(c.Text)
	if err != nil {
		return program{}, err
	}
	p := program{routine: md.routine, taken: md.taken, ins: ins, memIn: ins[0]}
	if last := ins[len(ins)-1]; last.MemOp() != nil {
		p.memIn = last
	}
	return p, nil
}

// expectedUndefined reports whether err is the model refusing, rightly, to
// read a flag the first instruction of a pair leaves undefined (SDM).
func (p program) expectedUndefined(s *State, err error) bool {
	return len(p.ins) == 2 && errors.Is(err, x86.ErrUndefined) &&
		readsFlags(p.ins[1])&undefinedFlags(p.ins[0], s) != 0
}

// input describes one input value to a loader: its name (as in TestCosimSym),
// value, width in bits, and whether the model needs it concrete and public.
type input struct {
	name  string
	val   uint64
	width uint
	fixed bool
}

// domOut is one output of an abstract run and the CPU's value of it.
type domOut[V any] struct {
	name string
	v    V
	cpu  func(*State) uint64
}

// condObs records a branch condition.
type condObs[V any] struct {
	cond V
	seen bool
}

func (o *condObs[V]) Branch(_ *x86.Machine[V], _ *x86.Insn, c V) error {
	o.cond, o.seen = c, true
	return nil
}
func (o *condObs[V]) Address(*x86.Machine[V], *x86.Insn, V, int, bool) error { return nil }
func (o *condObs[V]) After(*x86.Machine[V], *x86.Insn, []V) error            { return nil }

// runDomain loads s into a machine over d (mk makes each input value),
// runs the instruction(s) of p and returns every output: the
// branch condition ("cond", when the branch could not be decided), GPRs
// but SP, vector words, MXCSR, the defined flags and the memory bytes.
func runDomain[V any](d x86.Domain[V], p program, s *State, addr uint64,
	mk func(input) V) (outs []domOut[V], err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the model panics: %v", p)
		}
	}()
	fx := fixedFor(p.ins)
	m := x86.NewMachine[V](d, d.Const(0))
	obs := &condObs[V]{}
	m.Obs = obs
	for i := range m.GPR {
		m.GPR[i] = mk(input{gName[i], s.GPR[i], 64, fx.gpr[i]})
	}
	regs, words := s.VecShape()
	for i := 0; i < regs; i++ {
		for w := 0; w < words; w++ {
			m.Vec[i][w] = mk(input{vName[i][w], s.Vec(i, w), 64, i == fx.vec})
		}
	}
	// MXCSR stays concrete: LDMXCSR's reserved-bit check and STMXCSR.
	m.MXCSR = mk(input{"mx", uint64(s.MXCSR), 32, true})
	var fl [6]V
	for f, bit := range flagBits {
		fl[f] = mk(input{fName[f], b2u(s.Flags&bit != 0), 1, false})
	}
	ff, err := bindFlags(m)
	if err != nil {
		return nil, err
	}
	if err := setFlagValues(m, ff, fl); err != nil {
		return nil, err
	}
	reg := m.AddRegion("scratch", x86.Buffer, addr, MemSize, true, d.Const(0))
	for i := range reg.Bytes {
		reg.Bytes[i] = mk(input{mName[i], uint64(s.Mem[i]), 8, fx.mem})
	}
	m.Start(p.routine)
	for m.PC < p.taken-1 && err == nil {
		err = m.Step()
	}
	var bu *x86.BranchUnknown
	switch {
	case errors.As(err, &bu) && obs.seen:
		outs = append(outs, domOut[V]{"cond", obs.cond, func(s *State) uint64 { return s.Taken }})
	case err != nil:
		return nil, err
	case obs.seen:
		outs = append(outs, domOut[V]{"cond", obs.cond, func(s *State) uint64 { return s.Taken }})
	}
	for i := range m.GPR {
		if i != 4 {
			i := i
			outs = append(outs, domOut[V]{gName[i], m.GPR[i], func(s *State) uint64 { return s.GPR[i] }})
		}
	}
	for i := 0; i < regs; i++ {
		for w := 0; w < words; w++ {
			i, w := i, w
			outs = append(outs, domOut[V]{vName[i][w], m.Vec[i][w],
				func(s *State) uint64 { return s.Vec(i, w) }})
		}
	}
	outs = append(outs, domOut[V]{"mx", m.MXCSR, func(s *State) uint64 { return uint64(s.MXCSR) }})
	for f, bit := range flagBits {
		v, err := m.Flag(f)
		if err != nil {
			continue // undefined: TestCosim checks which flags are
		}
		bit := bit
		outs = append(outs, domOut[V]{fName[f], v, func(s *State) uint64 { return b2u(s.Flags&bit != 0) }})
	}
	for i := range reg.Bytes {
		i := i
		outs = append(outs, domOut[V]{mName[i], reg.Bytes[i], func(s *State) uint64 { return uint64(s.Mem[i]) }})
	}
	return outs, nil
}

// Input and output names, computed once.
var (
	gName, fName [16]string
	vName        [32][8]string
	mName        [MemSize]string
)

func init() {
	for i := range gName {
		gName[i], fName[i] = fmt.Sprintf("g%d", i), fmt.Sprintf("f%d", i)
	}
	for i := range vName {
		for w := range vName[i] {
			vName[i][w] = fmt.Sprintf("v%d_%d", i, w)
		}
	}
	for i := range mName {
		mName[i] = fmt.Sprintf("m%d", i)
	}
}

// mask is the all-ones value of width w.
func mask(w uint) uint64 {
	if w == 64 {
		return ^uint64(0)
	}
	return 1<<w - 1
}

// perturb returns s with the bits of each input in flip (by input name)
// replaced by random bits; fixed inputs never change.
func perturb(r *rand.Rand, s *State, flip map[string]uint64) *State {
	t := *s
	x := func(name string, v uint64) uint64 { return v ^ (r.Uint64() & flip[name]) }
	for i := range t.GPR {
		t.GPR[i] = x(gName[i], t.GPR[i])
	}
	regs, words := t.VecShape()
	for i := 0; i < regs; i++ {
		for w := 0; w < words; w++ {
			t.SetVec(i, w, x(vName[i][w], t.Vec(i, w)))
		}
	}
	for f, bit := range flagBits {
		if x(fName[f], 0)&1 != 0 {
			t.Flags ^= bit
		}
	}
	for i := range t.Mem {
		t.Mem[i] = byte(x(mName[i], uint64(t.Mem[i])))
	}
	return &t
}

// randomMask picks which bits of an input of width w to mark: none, all,
// or random ones.
func randomMask(r *rand.Rand, w uint) uint64 {
	switch r.IntN(4) {
	case 0:
		return 0
	case 1:
		return mask(w)
	}
	return r.Uint64() & mask(w)
}

// runCPU runs c on a copy of s in buf (so that memory addresses are those
// of buf) and returns the output state.
func runCPU(c Case, buf *State, s *State) State {
	*buf = *s
	c.Run(buf)
	return *buf
}

// domainStates is the number of states per representative for the
// abstract-domain tests.
func domainStates() int {
	if testing.Short() {
		return 20
	}
	return 30
}

// TestCosimTaint checks the Taint domain: its values equal the CPU's, and
// an output bit it marks independent of secret (S) or of input (I) data
// keeps its value on the CPU when every secret (input) bit changes.
func TestCosimTaint(t *testing.T) {
	requireAVX2(t)
	r, seed := seeded(0x74)
	n := domainStates()
	t.Logf("seed %#x, %d states per representative", seed, n)
	checked, reps := 0, 0
	for _, c := range Cases() {
		p, err := newProgram(c)
		if err != nil {
			continue // TestCosim reports it
		}
		reps++
		buf := new(State)
		buf.Wide = c.Wide
		addr := uint64(uintptr(unsafe.Pointer(&buf.Mem[0])))
		count := n
		if len(p.ins) == 2 {
			count = n / 4 // pairs: fewer states
		}
	states:
		for k := 0; k < count; k++ {
			if err := randomState(r, buf, p.memIn); err != nil {
				t.Fatal(err)
			}
			a := *buf
			sec, inp := map[string]uint64{}, map[string]uint64{}
			outs, err := runDomain[x86.TV](x86.Taint{}, p, &a, addr, func(x input) x86.TV {
				if x.fixed {
					return x86.TV{V: x.val}
				}
				s := randomMask(r, x.width)
				i := s | randomMask(r, x.width)
				sec[x.name], inp[x.name] = s, i
				return x86.TV{V: x.val, S: s, I: i}
			})
			if p.expectedUndefined(&a, err) {
				continue
			}
			if err != nil {
				t.Errorf("%s: taint run: %v", c.Text, err)
				break
			}
			cpuA := runCPU(c, buf, &a)
			cpuS := runCPU(c, buf, perturb(r, &a, sec))
			cpuI := runCPU(c, buf, perturb(r, &a, inp))
			for _, o := range outs {
				va, vs, vi := o.cpu(&cpuA), o.cpu(&cpuS), o.cpu(&cpuI)
				v := o.v.V
				if o.name == "cond" {
					v = b2u(v != 0)
				}
				switch {
				case v != va:
					t.Errorf("MISMATCH (taint) %s: %s: model %#x, cpu %#x\ninput: %s", c.Text, o.name, v, va, describe(&a, addr))
				case (va^vs)&^o.v.S != 0 && !(o.name == "cond" && o.v.S != 0):
					t.Errorf("MISMATCH (taint) %s: %s: the model marks secret bits %#x, the CPU's output changes in bits %#x when only secret inputs change\ninput: %s",
						c.Text, o.name, o.v.S, va^vs, describe(&a, addr))
				case (va^vi)&^o.v.I != 0 && !(o.name == "cond" && o.v.I != 0):
					t.Errorf("MISMATCH (taint) %s: %s: the model marks input bits %#x, the CPU's output changes in bits %#x when only input bits change\ninput: %s",
						c.Text, o.name, o.v.I, va^vi, describe(&a, addr))
				default:
					checked++
					continue
				}
				break states
			}
		}
	}
	t.Logf("%d output values checked (value, S and I) over %d representatives", checked, reps)
}

// TestCosimInterval checks the Interval domain: inputs are intervals (and
// congruences) around a random state's values, secret inputs are unknown
// (Top, S); every output interval must contain the CPU's value, and an
// output the model calls public (S false) must keep its value on the CPU
// when the secret inputs change.
func TestCosimInterval(t *testing.T) {
	requireAVX2(t)
	r, seed := seeded(0x69)
	n := domainStates()
	t.Logf("seed %#x, %d states per representative", seed, n)
	checked, exact, reps := 0, 0, 0
	for _, c := range Cases() {
		p, err := newProgram(c)
		if err != nil {
			continue // TestCosim reports it
		}
		reps++
		buf := new(State)
		buf.Wide = c.Wide
		addr := uint64(uintptr(unsafe.Pointer(&buf.Mem[0])))
		count := n
		if len(p.ins) == 2 {
			count = n / 4 // pairs: fewer states
		}
	states:
		for k := 0; k < count; k++ {
			if err := randomState(r, buf, p.memIn); err != nil {
				t.Fatal(err)
			}
			a := *buf
			d := x86.NewInterval()
			sec := map[string]uint64{}
			outs, err := runDomain[x86.AV](d, p, &a, addr, func(x input) x86.AV {
				return intervalAround(r, d, x, sec)
			})
			if p.expectedUndefined(&a, err) {
				continue
			}
			if err != nil {
				t.Errorf("%s: interval run: %v", c.Text, err)
				break
			}
			cpuA := runCPU(c, buf, &a)
			cpuS := runCPU(c, buf, perturb(r, &a, sec))
			for _, o := range outs {
				va, vs := o.cpu(&cpuA), o.cpu(&cpuS)
				av := o.v
				if o.name == "cond" { // a branch is taken when the condition is not 0
					if av.Lo == 0 && av.Hi == 0 && va == 1 || av.Lo > 0 && va == 0 {
						t.Errorf("MISMATCH (interval) %s: condition %+v, cpu taken=%d\ninput: %s", c.Text, av, va, describe(&a, addr))
						break states
					}
					if !av.S && va != vs {
						t.Errorf("MISMATCH (interval) %s: the model calls the branch public, the CPU's choice changes with secret inputs\ninput: %s", c.Text, describe(&a, addr))
						break states
					}
					checked++
					continue
				}
				switch {
				case x86.Empty(av) || va < av.Lo || va > av.Hi || av.Mod > 1 && va%av.Mod != av.Rem:
					t.Errorf("MISMATCH (interval) %s: %s: model [%#x, %#x] mod %d = %d, cpu %#x\ninput: %s",
						c.Text, o.name, av.Lo, av.Hi, av.Mod, av.Rem, va, describe(&a, addr))
				case !av.S && va != vs:
					t.Errorf("MISMATCH (interval) %s: %s: the model calls it public, the CPU's value changes with secret inputs (%#x, %#x)\ninput: %s",
						c.Text, o.name, va, vs, describe(&a, addr))
				default:
					checked++
					if av.Exact() {
						exact++
					}
					continue
				}
				break states
			}
		}
	}
	t.Logf("%d output values checked (%d of them exact) over %d representatives", checked, exact, reps)
}

// intervalAround makes an abstract input around x.val: exact, a range, a
// range with a congruence, or (secret) unknown; sec records the bits a
// secret input may take.
func intervalAround(r *rand.Rand, d *x86.Interval, x input, sec map[string]uint64) x86.AV {
	v, m := x.val, mask(x.width)
	if x.fixed {
		return d.Const(v)
	}
	switch r.IntN(5) {
	case 0:
		return d.Const(v)
	case 1: // secret: any value of the width
		sec[x.name] = m
		return d.RangeOf(0, m, 0, 0, true)
	case 2: // a range around v
		lo := v - min(v, r.Uint64N(1<<r.IntN(int(x.width))+1))
		hi := v + min(m-v, r.Uint64N(1<<r.IntN(int(x.width))+1))
		return d.RangeOf(lo, hi, 0, 0, false)
	case 3: // a range with a congruence mod 2^k
		k := 1 + r.IntN(min(int(x.width), 16))
		mod := uint64(1) << k
		lo, hi := v-min(v, v%mod), v+min(m-v, r.Uint64N(1<<16))
		return d.RangeOf(lo, hi, mod, v%mod, false)
	}
	return d.RangeOf(0, m, 0, 0, false) // public but unknown
}
