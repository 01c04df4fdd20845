//go:build !purego

package cosim

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unsafe"

	x86 "github.com/vg-crypto/vg/Spec/x86"
	"github.com/vg-crypto/vg/internal/cosim/forms"
)

// model runs one instruction text in Spec/x86's concrete domain. One
// machine serves all states of a case: run sets every register, flag and
// memory byte before each step.
type model struct {
	routine *x86.Routine
	taken   int // PC after a taken branch
	m       *x86.Machine[uint64]
	reg     *x86.Region[uint64]
	addr    uint64
	flags   *flagFields[uint64] // see setFlags
	out     *State              // run's result, overwritten by the next run
}

// newModel parses text (one instruction, or a pair separated by
// forms.PairSep) with the model's own parser. The instructions sit in a
// routine of their own so that a branch has its target:
//
//	text; RET; taken: RET
func newModel(text string) (*model, error) {
	body := strings.ReplaceAll(text, forms.PairSep, "\n\t")
	src := "TEXT ·cosim(SB), NOSPLIT, $0-0\n\t" + body + "\n\tRET\ntaken:\n\tRET\n"
	f, err := x86.ParseFile("cosim.s", src)
	if err != nil {
		return nil, err
	}
	r := f.Routine("cosim")
	if r == nil {
		return nil, fmt.Errorf("parsed routine missing")
	}
	return &model{routine: r, taken: r.Labels["taken"]}, nil
}

// flagBits maps the model's flag numbers to RFLAGS bits.
var flagBits = [6]uint64{x86.CF: FlagCF, x86.PF: FlagPF, x86.AF: FlagAF, x86.ZF: FlagZF, x86.SF: FlagSF, x86.OF: FlagOF}

// run executes the instruction on a model machine holding in, with the
// scratch memory as one writable region at addr. Flags the model leaves
// undefined come back in undef. out is valid until the next run.
func (md *model) run(in *State, addr uint64) (out *State, undef uint64, err error) {
	if md.m == nil || md.addr != addr {
		md.m = x86.NewMachine[uint64](x86.Conc{}, 0)
		md.reg = md.m.AddRegion("scratch", x86.Buffer, addr, MemSize, true, 0)
		md.addr = addr
		md.flags = nil
	}
	m, reg := md.m, md.reg
	m.GPR = in.GPR
	if err := md.setFlags(in.Flags); err != nil {
		return nil, 0, err
	}
	m.MXCSR = uint64(in.MXCSR)
	// A state holds ymm0–15 or, wide, zmm0–31; the model's other bits
	// start at zero and are not compared.
	for i := range m.Vec {
		for w := range m.Vec[i] {
			m.Vec[i][w] = 0
		}
	}
	regs, words := in.VecShape()
	for i := 0; i < regs; i++ {
		for w := 0; w < words; w++ {
			m.Vec[i][w] = in.Vec(i, w)
		}
	}
	for i, b := range in.Mem {
		reg.Bytes[i] = uint64(b)
		reg.Written[i] = false
	}
	m.Start(md.routine)
	// Run the instructions before the first RET, or until a branch leaves.
	for m.PC < md.taken-1 {
		if err := m.Step(); err != nil {
			return nil, 0, err
		}
	}
	if md.out == nil {
		md.out = new(State)
	}
	out = md.out
	*out = *in
	out.GPR = m.GPR
	out.GPR[4] = in.GPR[4]
	out.Flags = 0
	for f, bit := range flagBits {
		v, err := m.Flag(f)
		switch {
		case errors.Is(err, x86.ErrUndefined):
			undef |= bit
		case err != nil:
			return nil, 0, err
		case v > 1:
			return nil, 0, fmt.Errorf("flag %d holds %d, not 0 or 1", f, v)
		case v == 1:
			out.Flags |= bit
		}
	}
	if m.MXCSR > 0xffffffff {
		return nil, 0, fmt.Errorf("MXCSR holds %#x", m.MXCSR)
	}
	out.MXCSR = uint32(m.MXCSR)
	for i := 0; i < regs; i++ {
		for w := 0; w < words; w++ {
			out.SetVec(i, w, m.Vec[i][w])
		}
	}
	for i, b := range reg.Bytes {
		if b > 0xff {
			return nil, 0, fmt.Errorf("memory byte %d holds %#x", i, b)
		}
		out.Mem[i] = byte(b)
	}
	out.Taken = 0
	if m.PC == md.taken {
		out.Taken = 1
	}
	return out, undef, nil
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// flagFields points into a Machine's unexported flag state.
type flagFields[V any] struct {
	state *[6]int  // fstate: fUndef, fLazy, fValue
	val   *[6]V    // fval
	src   *[6]bool // fsrc
}

// fValue is Spec/x86's flag state "explicit value".
const fValue = 2

// setFlags gives the model the input flags. Spec/x86 exports no flag setter
// (a routine starts with undefined flags, so the checker needs none), and
// this package may not change Spec/x86; so, unless a SetFlag method
// appears, it writes the flags the way the model's own setFlag does, through
// reflection on the fields fstate, fval and fsrc, and then reads every flag
// back through the exported Flag: if the model's internals change, the
// read-back fails and so does the test.
func (md *model) setFlags(flags uint64) error {
	var vals [6]uint64
	for f, bit := range flagBits {
		vals[f] = b2u(flags&bit != 0)
	}
	if md.flags == nil {
		ff, err := bindFlags(md.m)
		if err != nil {
			return err
		}
		md.flags = ff
	}
	return setFlagValues(md.m, md.flags, vals)
}

// bindFlags finds the flag fields of m (nil, nil if m has a SetFlag).
func bindFlags[V any](m *x86.Machine[V]) (*flagFields[V], error) {
	if _, ok := any(m).(interface{ SetFlag(f int, v V) }); ok {
		return nil, nil
	}
	v := reflect.ValueOf(m).Elem()
	var zero V
	field := func(name string, elem reflect.Type) (unsafe.Pointer, error) {
		f := v.FieldByName(name)
		if !f.IsValid() || f.Kind() != reflect.Array || f.Len() != 6 || f.Type().Elem().Kind() != elem.Kind() ||
			f.Type().Elem().Size() != elem.Size() {
			return nil, fmt.Errorf("Spec/x86: Machine has no SetFlag and no field %s [6]%v: cannot set input flags", name, elem)
		}
		return unsafe.Pointer(f.UnsafeAddr()), nil
	}
	st, err := field("fstate", reflect.TypeOf(0))
	if err != nil {
		return nil, err
	}
	val, err := field("fval", reflect.TypeOf(&zero).Elem())
	if err != nil {
		return nil, err
	}
	src, err := field("fsrc", reflect.TypeOf(false))
	if err != nil {
		return nil, err
	}
	return &flagFields[V]{(*[6]int)(st), (*[6]V)(val), (*[6]bool)(src)}, nil
}

// setFlagValues sets the six flags of m and reads them back.
func setFlagValues[V any](m *x86.Machine[V], ff *flagFields[V], vals [6]V) error {
	if s, ok := any(m).(interface{ SetFlag(f int, v V) }); ok {
		for f := range vals {
			s.SetFlag(f, vals[f])
		}
	} else {
		for f := range vals {
			ff.state[f], ff.val[f], ff.src[f] = fValue, vals[f], false
		}
	}
	for f := range vals {
		v, err := m.Flag(f)
		if err != nil || any(v) != any(vals[f]) {
			return fmt.Errorf("Spec/x86: flag %d set to %v reads back %v, %v", f, vals[f], v, err)
		}
	}
	return nil
}
