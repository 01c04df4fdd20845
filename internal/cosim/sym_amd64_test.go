//go:build !purego

package cosim

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	x86 "github.com/vg-crypto/vg/Spec/x86"
)

var symStatesFlag = flag.Int("cosim.symstates", 0, "random states per representative in the symbolic cosimulation (default 6, 2 with -short)")

// TestCosimSym runs every representative in Spec/x86's symbolic domain
// (Sym): inputs are variables, outputs are terms, and z3 evaluates the
// SMT-LIB text the model prints (x86.SMT) under the input values of a
// random state; the values must equal the CPU's outputs. This checks the
// symbolic domain's constructors and their SMT-LIB translation, which the
// proofs rely on, where TestCosim checks the semantics in the concrete
// domain. Address registers, CL counts, vector shift counts, MXCSR and the
// memory LDMXCSR loads stay concrete (the model needs them so); outputs that depend on a value the
// model could not track (a Havoc variable) are counted and left out.
func TestCosimSym(t *testing.T) {
	requireAVX2(t)
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 is not installed")
	}
	n := 6
	if testing.Short() {
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
	r, seed := seeded(0x73796d)
	t.Logf("seed %#x, %d states per representative", seed, n)
	start := time.Now()
	var checked, havoc, cases int
	for _, c := range Cases() {
		p, err := newProgram(c)
		if err != nil {
			continue // TestCosim reports forms the model does not parse
		}
		count := n
		if len(p.ins) == 2 {
			count = max(1, n/4) // pairs: fewer states
		}
		bad := 0
		for k := 0; k < count && bad < 2; k++ {
			cpu := new(State)
			cpu.Wide = c.Wide
			if err := randomState(r, cpu, p.memIn); err != nil {
				t.Fatal(err)
			}
			input := *cpu
			addr := uint64(uintptr(unsafe.Pointer(&cpu.Mem[0])))
			outs, h, err := symRun(p, &input, addr)
			if p.expectedUndefined(&input, err) {
				continue
			}
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

// symOut is one output of a symbolic run.
type symOut struct {
	name string
	term *x86.Term
	smt  string
	cpu  func(*State) uint64
}

// symRun runs the instruction on a symbolic machine whose inputs are
// variables named after the State fields (g3, v1_2, f0, m17), except the
// inputs the model needs concrete (fixedFor). It returns the outputs that
// are not simply their own input, and how many outputs were left out
// because they depend on a Havoc variable.
func symRun(p program, s *State, addr uint64) ([]symOut, int, error) {
	d := x86.NewSym()
	inputs := map[string]*x86.Term{}
	outs, err := runDomain[*x86.Term](d, p, s, addr, func(x input) *x86.Term {
		if x.fixed {
			return d.Const(x.val)
		}
		t := d.Var(x.name)
		inputs[x.name] = t
		return t
	})
	if err != nil {
		return nil, 0, err
	}
	var kept []symOut
	havoc := 0
	for _, o := range outs {
		t := o.v
		if o.name == "cond" { // taken = cond ≠ 0; the CPU's Taken is 0 or 1
			t = d.Ite(t, d.Const(1), d.Const(0))
		} else if inputs[o.name] == t {
			continue // unchanged input: not worth a solver call
		}
		h := false
		for _, name := range x86.Vars(t) {
			h = h || strings.HasPrefix(name, "havoc")
		}
		if h {
			havoc++
			continue
		}
		kept = append(kept, symOut{name: o.name, term: t, cpu: o.cpu})
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
			return s.Vec(i, w), nil
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
