package cosim

import (
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"
	"unsafe"

	x86 "github.com/vg-crypto/vg/Spec/x86"
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
	flags   *flagFields // see setFlags
}

// newModel parses text with the model's own parser. The instruction sits
// in a routine of its own so that a branch has its target:
//
//	text; RET; taken: RET
func newModel(text string) (*model, error) {
	src := "TEXT ·cosim(SB), NOSPLIT, $0-0\n\t" + text + "\n\tRET\ntaken:\n\tRET\n"
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
// undefined come back in undef.
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
	for i := range in.Y {
		for w := 0; w < 4; w++ {
			m.Vec[i][w] = binary.LittleEndian.Uint64(in.Y[i][8*w:])
		}
	}
	for i, b := range in.Mem {
		reg.Bytes[i] = uint64(b)
		reg.Written[i] = false
	}
	m.Start(md.routine)
	if err := m.Step(); err != nil {
		return nil, 0, err
	}
	out = new(State)
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
	for i := range m.Vec {
		for w := 0; w < 4; w++ {
			binary.LittleEndian.PutUint64(out.Y[i][8*w:], m.Vec[i][w])
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
type flagFields struct {
	state *[6]int    // fstate: fUndef, fLazy, fValue
	val   *[6]uint64 // fval
	src   *[6]bool   // fsrc
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
	m := md.m
	if s, ok := any(m).(interface{ SetFlag(f int, v uint64) }); ok {
		for f, bit := range flagBits {
			s.SetFlag(f, b2u(flags&bit != 0))
		}
		return md.checkFlags(flags)
	}
	if md.flags == nil {
		v := reflect.ValueOf(m).Elem()
		field := func(name string, kind reflect.Kind) (unsafe.Pointer, error) {
			f := v.FieldByName(name)
			if !f.IsValid() || f.Kind() != reflect.Array || f.Len() != 6 || f.Type().Elem().Kind() != kind {
				return nil, fmt.Errorf("Spec/x86: Machine has no SetFlag and no field %s [6]%v: cannot set input flags", name, kind)
			}
			return unsafe.Pointer(f.UnsafeAddr()), nil
		}
		st, err := field("fstate", reflect.Int)
		if err != nil {
			return err
		}
		val, err := field("fval", reflect.Uint64)
		if err != nil {
			return err
		}
		src, err := field("fsrc", reflect.Bool)
		if err != nil {
			return err
		}
		md.flags = &flagFields{(*[6]int)(st), (*[6]uint64)(val), (*[6]bool)(src)}
	}
	for f, bit := range flagBits {
		md.flags.state[f], md.flags.val[f], md.flags.src[f] = fValue, b2u(flags&bit != 0), false
	}
	return md.checkFlags(flags)
}

// checkFlags reads the flags back through the model's exported Flag.
func (md *model) checkFlags(flags uint64) error {
	for f, bit := range flagBits {
		v, err := md.m.Flag(f)
		if err != nil || v != b2u(flags&bit != 0) {
			return fmt.Errorf("Spec/x86: flag %d set to %d reads back %d, %v", f, b2u(flags&bit != 0), v, err)
		}
	}
	return nil
}
