//go:build !purego

package cosim

import (
	"bufio"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	x86 "github.com/vg-crypto/vg/Spec/x86"
	"github.com/vg-crypto/vg/internal/cosim/forms"
)

var symStatesFlag = flag.Int("cosim.symstates", 0, "random states per representative in the symbolic cosimulation (default 8, 2 with -short)")

// TestCosimSym runs every representative in Spec/x86's symbolic domain
// (Sym): inputs are variables, outputs are terms, and z3 evaluates the
// SMT-LIB text the model prints (x86.SMT) under the input values of a
// random state; the values must equal the CPU's outputs. This checks the
// symbolic domain's constructors and their SMT-LIB translation, which the
// proofs rely on, where TestCosim checks the semantics in the concrete
// domain. Address registers, CL counts, vector shift counts and the
// memory LDMXCSR loads stay concrete (the model needs them so); outputs that depend on a value the
// model could not track (a Havoc variable) are counted and left out.
func TestCosimSym(t *testing.T) {
	requireAVX2(t)
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 is not installed")
	}
	n := 8
	if testing.Short() || reducedRun {
		n = 2
	}
	if *symStatesFlag > 0 {
		n = *symStatesFlag
	}
	z, err := startZ3()
	if err != nil {
		t.Fatal(err)
	}
	defer z.close()
	seed := uint64(time.Now().UnixNano())
	if *seedFlag != 0 {
		seed = *seedFlag
	}
	r := rand.New(rand.NewPCG(seed, 0x73796d))
	t.Logf("seed %#x, %d states per representative", seed, n)
	start := time.Now()
	var checked, havoc, cases int
	for _, c := range Cases() {
		in, _, err := forms.ParseLine(c.Text)
		if err != nil {
			t.Fatal(err)
		}
		routine, taken, err := oneInsnRoutine(c.Text)
		if err != nil {
			continue // TestCosim reports forms the model does not parse
		}
		bad := 0
		for k := 0; k < n && bad < 2; k++ {
			cpu := new(State)
			if err := randomState(r, cpu, in); err != nil {
				t.Fatal(err)
			}
			input := *cpu
			addr := uint64(uintptr(unsafe.Pointer(&cpu.Mem[0])))
			outs, h, err := symRun(routine, taken, in, &input, addr)
			if err != nil {
				t.Errorf("%s: symbolic run: %v", c.Text, err)
				bad++
				continue
			}
			havoc += h
			c.Run(cpu)
			got, err := z.eval(outs, &input)
			if err != nil {
				t.Fatalf("%s: z3: %v", c.Text, err)
			}
			for i, o := range outs {
				checked++
				if want := o.cpu(cpu); got[i] != want {
					bad++
					t.Errorf("MISMATCH (symbolic) %s: %s: z3 evaluates the model's term to %#x, cpu %#x\nterm: %s\ninput: %s",
						c.Text, o.name, got[i], want, o.smt, describe(&input, addr))
					break
				}
			}
		}
		cases++
	}
	t.Logf("%d representatives, %d output values checked through z3, %d outputs left out (Havoc), in %v",
		cases, checked, havoc, time.Since(start).Round(time.Millisecond))
	if checked == 0 {
		t.Error("nothing was checked")
	}
}

// oneInsnRoutine wraps text as newModel does.
func oneInsnRoutine(text string) (*x86.Routine, int, error) {
	md, err := newModel(text)
	if err != nil {
		return nil, 0, err
	}
	return md.routine, md.taken, nil
}

// symOut is one output of a symbolic run.
type symOut struct {
	name string
	term *x86.Term
	smt  string
	cpu  func(*State) uint64
}

// branchObs records the condition of a branch.
type branchObs struct{ cond *x86.Term }

func (o *branchObs) Branch(_ *x86.Machine[*x86.Term], _ *x86.Insn, c *x86.Term) error {
	o.cond = c
	return nil
}
func (o *branchObs) Address(*x86.Machine[*x86.Term], *x86.Insn, *x86.Term, int, bool) error {
	return nil
}
func (o *branchObs) After(*x86.Machine[*x86.Term], *x86.Insn, []*x86.Term) error { return nil }

// symRun runs the instruction on a symbolic machine whose inputs are
// variables named after the State fields (g3, v1_2, f0, mx, m17), except
// the registers the model needs concrete. It returns the outputs that
// changed, as terms, and how many outputs were left out for Havoc.
func symRun(routine *x86.Routine, taken int, in forms.Insn, s *State, addr uint64) (outs []symOut, havoc int, err error) {
	defer func() {
		// A panic in the model is a model bug like any other mismatch.
		if p := recover(); p != nil {
			err = fmt.Errorf("the model panics: %v", p)
		}
	}()
	d := x86.NewSym()
	m := x86.NewMachine[*x86.Term](d, d.Const(0))
	obs := &branchObs{}
	m.Obs = obs
	concrete := map[int]bool{}
	if mem := in.MemOp(); mem != nil {
		concrete[gprIndex(mem.Base)] = true
		if mem.Index != "" {
			concrete[gprIndex(mem.Index)] = true
		}
	}
	concreteVec := -1
	for _, o := range in.Ops {
		if o.Kind == "cl" {
			concrete[1] = true
		}
	}
	if len(in.Ops) == 3 && in.Ops[0].Kind == "xmm" && strings.HasPrefix(in.Mnemonic, "VPS") {
		fmt.Sscanf(in.Ops[0].Reg, "X%d", &concreteVec) // vector shift count
	}
	inputs := map[*x86.Term]bool{}
	v := func(name string, val uint64, conc bool) *x86.Term {
		if conc {
			return d.Const(val)
		}
		t := d.Var(name)
		inputs[t] = true
		return t
	}
	for i := range m.GPR {
		m.GPR[i] = v(fmt.Sprintf("g%d", i), s.GPR[i], concrete[i] || i == 4)
	}
	for i := range m.Vec {
		for w := 0; w < 4; w++ {
			m.Vec[i][w] = v(fmt.Sprintf("v%d_%d", i, w), binary.LittleEndian.Uint64(s.Y[i][8*w:]), i == concreteVec)
		}
	}
	m.MXCSR = v("mx", uint64(s.MXCSR), false)
	var fl [6]*x86.Term
	for f, bit := range flagBits {
		fl[f] = v(fmt.Sprintf("f%d", f), b2u(s.Flags&bit != 0), false)
	}
	ff, err := bindFlags(m)
	if err != nil {
		return nil, 0, err
	}
	if err := setFlagValues(m, ff, fl); err != nil {
		return nil, 0, err
	}
	reg := m.AddRegion("scratch", x86.Buffer, addr, MemSize, true, d.Const(0))
	for i := range reg.Bytes {
		// LDMXCSR must see a concrete value to check its reserved bits.
		reg.Bytes[i] = v(fmt.Sprintf("m%d", i), uint64(s.Mem[i]), in.Mnemonic == "LDMXCSR")
	}
	m.Start(routine)
	err = m.Step()
	var bu *x86.BranchUnknown
	switch {
	case errors.As(err, &bu):
		// taken = cond ≠ 0; the CPU's Taken is 0 or 1.
		c := d.Ite(obs.cond, d.Const(1), d.Const(0))
		outs = append(outs, symOut{name: "taken", term: c, cpu: func(s *State) uint64 { return s.Taken }})
	case err != nil:
		return nil, 0, err
	case m.PC == taken:
		outs = append(outs, symOut{name: "taken", term: d.Const(1), cpu: func(s *State) uint64 { return s.Taken }})
	}
	add := func(name string, t *x86.Term, cpu func(*State) uint64) {
		if !inputs[t] || t.Name != name { // unchanged inputs are not worth a solver call
			outs = append(outs, symOut{name: name, term: t, cpu: cpu})
		}
	}
	for i := range m.GPR {
		if i != 4 {
			i := i
			add(fmt.Sprintf("g%d", i), m.GPR[i], func(s *State) uint64 { return s.GPR[i] })
		}
	}
	for i := range m.Vec {
		for w := 0; w < 4; w++ {
			i, w := i, w
			add(fmt.Sprintf("v%d_%d", i, w), m.Vec[i][w], func(s *State) uint64 { return binary.LittleEndian.Uint64(s.Y[i][8*w:]) })
		}
	}
	add("mx", m.MXCSR, func(s *State) uint64 { return uint64(s.MXCSR) })
	for f, bit := range flagBits {
		t, err := m.Flag(f)
		if err != nil {
			continue // undefined: TestCosim checks which flags are
		}
		bit := bit
		add(fmt.Sprintf("f%d", f), t, func(s *State) uint64 { return b2u(s.Flags&bit != 0) })
	}
	for i := range reg.Bytes {
		i := i
		add(fmt.Sprintf("m%d", i), reg.Bytes[i], func(s *State) uint64 { return uint64(s.Mem[i]) })
	}
	// Leave out outputs that depend on a Havoc variable.
	kept := outs[:0]
	for _, o := range outs {
		h := false
		for _, name := range x86.Vars(o.term) {
			if strings.HasPrefix(name, "havoc") {
				h = true
			}
		}
		if h {
			havoc++
		} else {
			kept = append(kept, o)
		}
	}
	return kept, havoc, nil
}

// z3 is a z3 process reading SMT-LIB from its standard input.
type z3 struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startZ3() (*z3, error) {
	cmd := exec.Command("z3", "-in")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &z3{cmd: cmd, in: in, out: bufio.NewReader(out)}, nil
}

func (z *z3) close() {
	z.in.Close()
	z.cmd.Wait()
}

// eval asks z3 for the value of every output under the input values of s.
func (z *z3) eval(outs []symOut, s *State) ([]uint64, error) {
	var defs []string
	seenIDs := map[int]bool{}
	vars := map[string]bool{}
	for i := range outs {
		outs[i].smt = x86.SMT(outs[i].term, &defs, seenIDs)
		for _, name := range x86.Vars(outs[i].term) {
			vars[name] = true
		}
	}
	var b strings.Builder
	b.WriteString("(push 1)\n")
	for name := range vars {
		val, err := inputValue(name, s)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "(declare-const %s (_ BitVec 64))\n(assert (= %s #x%016x))\n", name, name, val)
	}
	for _, d := range defs {
		b.WriteString(d + "\n")
	}
	b.WriteString("(check-sat)\n")
	if len(outs) > 0 {
		b.WriteString("(get-value (")
		for _, o := range outs {
			b.WriteString(" " + o.smt)
		}
		b.WriteString("))\n")
	}
	b.WriteString("(pop 1)\n(echo \"end\")\n")
	if _, err := io.WriteString(z.in, b.String()); err != nil {
		return nil, err
	}
	var reply strings.Builder
	for {
		line, err := z.out.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("%v after %q", err, reply.String())
		}
		if strings.TrimSpace(line) == "end" {
			break
		}
		reply.WriteString(line)
	}
	text := reply.String()
	if !strings.HasPrefix(text, "sat") {
		return nil, fmt.Errorf("z3 answered %q", text)
	}
	// Each value is the last #x token of its (expr value) pair.
	var vals []uint64
	for _, pair := range strings.Split(strings.TrimPrefix(text, "sat"), "(")[1:] {
		pair = strings.TrimSpace(strings.Trim(strings.TrimSpace(pair), ")"))
		if pair == "" {
			continue
		}
		i := strings.LastIndex(pair, "#x")
		if i < 0 {
			return nil, fmt.Errorf("z3 value %q", pair)
		}
		u, err := strconv.ParseUint(strings.TrimRight(pair[i+2:], ") \n"), 16, 64)
		if err != nil {
			return nil, fmt.Errorf("z3 value %q: %v", pair, err)
		}
		vals = append(vals, u)
	}
	if len(vals) != len(outs) {
		return nil, fmt.Errorf("z3 gave %d values for %d outputs: %q", len(vals), len(outs), text)
	}
	return vals, nil
}

// inputValue is the value of the input variable name in s.
func inputValue(name string, s *State) (uint64, error) {
	var i, w int
	switch {
	case name == "mx":
		return uint64(s.MXCSR), nil
	case strings.HasPrefix(name, "havoc"):
		return 0, fmt.Errorf("havoc variable %s reached the solver", name)
	}
	switch name[0] {
	case 'g':
		if _, err := fmt.Sscanf(name, "g%d", &i); err == nil {
			return s.GPR[i], nil
		}
	case 'v':
		if _, err := fmt.Sscanf(name, "v%d_%d", &i, &w); err == nil {
			return binary.LittleEndian.Uint64(s.Y[i][8*w:]), nil
		}
	case 'f':
		if _, err := fmt.Sscanf(name, "f%d", &i); err == nil {
			return b2u(s.Flags&flagBits[i] != 0), nil
		}
	case 'm':
		if _, err := fmt.Sscanf(name, "m%d", &i); err == nil {
			return uint64(s.Mem[i]), nil
		}
	}
	return 0, fmt.Errorf("unknown input variable %s", name)
}
