package check

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// The wiring proof of a packing (contract.Wiring). The routine runs once in
// the symbolic domain with every byte of the input buffer a variable b<i>
// (its precondition's zero bits masked off), and every other starting
// value that is not a constant (registers, the frame, other buffers) a
// variable of its own; control flow and addresses
// are fixed (the caller checks), so that run is every input's run. Each
// output bit's term is then followed bit by bit through AND, OR, XOR, NOT,
// shifts and rotations by constants until it is a constant or one bit of
// one variable; anything else (an addition, a comparison, two variables
// meeting in one bit) is refused. The bit found must be the one the
// contract's Bit names. No solver is needed: a packing's output bits are
// literally its input bits.

// bitSrc is where one bit of a term comes from: a constant (name "") or
// bit bit of variable name.
type bitSrc struct {
	name string
	bit  int // the constant's value when name is ""
}

var zeroBit, oneBit = bitSrc{"", 0}, bitSrc{"", 1}

type bitKey struct {
	t   *x86.Term
	bit int
}

// traceBit returns the source of bit bit (0 to 63) of t, or an error if
// it is not a single bit of a variable or a constant.
func traceBit(t *x86.Term, bit int, memo map[bitKey]bitSrc) (bitSrc, error) {
	k := bitKey{t, bit}
	if r, ok := memo[k]; ok {
		return r, nil
	}
	r, err := traceBit1(t, bit, memo)
	if err != nil {
		return bitSrc{}, err
	}
	memo[k] = r
	return r, nil
}

func traceBit1(t *x86.Term, bit int, memo map[bitKey]bitSrc) (bitSrc, error) {
	two := func() (bitSrc, bitSrc, error) {
		a, err := traceBit(t.Args[0], bit, memo)
		if err != nil {
			return a, a, err
		}
		b, err := traceBit(t.Args[1], bit, memo)
		return a, b, err
	}
	switch t.Op {
	case "const":
		return bitSrc{"", int(t.Val>>bit) & 1}, nil
	case "var":
		return bitSrc{t.Name, bit}, nil
	case "bvand":
		a, b, err := two()
		switch {
		case err != nil:
			return a, err
		case a == zeroBit || b == zeroBit:
			return zeroBit, nil
		case a == oneBit:
			return b, nil
		case b == oneBit:
			return a, nil
		}
		return a, fmt.Errorf("bit %d: AND of %v and %v", bit, a, b)
	case "bvor", "bvxor":
		a, b, err := two()
		switch {
		case err != nil:
			return a, err
		case a == zeroBit:
			return b, nil
		case b == zeroBit:
			return a, nil
		case t.Op == "bvor" && (a == oneBit || b == oneBit):
			return oneBit, nil
		case t.Op == "bvxor" && a.name == "" && b.name == "":
			return bitSrc{"", a.bit ^ b.bit}, nil
		}
		return a, fmt.Errorf("bit %d: %s of %v and %v", bit, t.Op, a, b)
	case "bvnot":
		a, err := traceBit(t.Args[0], bit, memo)
		if err != nil {
			return a, err
		}
		if a.name == "" {
			return bitSrc{"", 1 - a.bit}, nil
		}
		return a, fmt.Errorf("bit %d: NOT of %v", bit, a)
	case "shl":
		if bit < int(t.Val) {
			return zeroBit, nil
		}
		return traceBit(t.Args[0], bit-int(t.Val), memo)
	case "lshr":
		if bit+int(t.Val) > 63 {
			return zeroBit, nil
		}
		return traceBit(t.Args[0], bit+int(t.Val), memo)
	case "rol":
		return traceBit(t.Args[0], (bit-int(t.Val)%64+64)%64, memo)
	}
	return bitSrc{}, fmt.Errorf("bit %d: operator %s is no wiring", bit, t.Op)
}

// proveWiring proves c.Wiring for routine r (control flow and addresses
// fixed, as checked by the caller).
func proveWiring(f *x86.File, r *x86.Routine, c *contract.Contract, maxSteps int) (string, error) {
	w := c.Wiring
	in, out := bufferSize(c, w.In), bufferSize(c, w.Out)
	if in == 0 || out == 0 || w.In == w.Out {
		return "", fmt.Errorf("wiring: buffers %q and %q must be two of the contract's buffers", w.In, w.Out)
	}
	s := x86.NewSym()
	// Garbage and input-derived starting values are variables of their
	// own (g<n>), so that an output bit they reach is refused; constants
	// (pointers, tables) stay concrete.
	n := 0
	mk := func(v uint64, _, input bool) *x86.Term {
		if input {
			n++
			return s.Var("g" + strconv.Itoa(n))
		}
		return s.Const(v)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	m, _ := setup[*x86.Term](s, mk, f, r, c, c.Gen(rng), rng)
	reg := m.Region(w.In)
	for i := 0; i < in; i++ {
		mask := uint64(0)
		for j := 0; j < 8; j++ {
			if !w.InZero(8*i + j) {
				mask |= 1 << j
			}
		}
		reg.Bytes[i] = s.And(s.Var("b"+strconv.Itoa(i)), s.Const(mask))
	}
	if err := m.Run(maxSteps); err != nil {
		return "", fmt.Errorf("wiring: symbolic run: %v", err)
	}
	memo := map[bitKey]bitSrc{}
	outReg := m.Region(w.Out)
	for i := 0; i < out; i++ {
		for j := 0; j < 8; j++ {
			k := 8*i + j
			got, err := traceBit(outReg.Bytes[i], j, memo)
			if err != nil {
				return "", fmt.Errorf("wiring: %s bit %d: %v", w.Out, k, err)
			}
			want := zeroBit
			if b := w.Bit(k); b >= 0 {
				if b >= 8*in || w.InZero(b) {
					return "", fmt.Errorf("wiring: %s bit %d: the contract names input bit %d, outside the input", w.Out, k, b)
				}
				want = bitSrc{"b" + strconv.Itoa(b/8), b % 8}
			}
			if got != want {
				return "", fmt.Errorf("wiring: %s bit %d is %s, the contract says %s", w.Out, k, got, want)
			}
		}
	}
	return fmt.Sprintf("wiring: each of the %d bits of %s is the input bit (or the 0) the contract names, for every input (one symbolic run over %d input variables; fixed control flow and addresses)", 8*out, w.Out, in), nil
}

func (b bitSrc) String() string {
	if b.name == "" {
		return "constant " + strconv.Itoa(b.bit)
	}
	if !strings.HasPrefix(b.name, "b") {
		return fmt.Sprintf("bit %d of %s (not the input)", b.bit, b.name)
	}
	n, _ := strconv.Atoi(b.name[1:])
	return fmt.Sprintf("input bit %d", 8*n+b.bit)
}

// bufferSize is the size of the contract's buffer name, 0 if none.
func bufferSize(c *contract.Contract, name string) int {
	for _, a := range c.Args {
		if a.Name == name && a.Indirect == 0 {
			return a.Bytes
		}
	}
	return 0
}
