package x86

import (
	"errors"
	"fmt"
)

// RegionKind says what a memory region is, for the checker's rules.
type RegionKind int

// Region kinds.
const (
	Buffer  RegionKind = iota // a contract buffer
	Args                      // the argument slots (read-only)
	Results                   // the result slots (write)
	Frame                     // the routine's own stack frame
	Table                     // a read-only DATA table
	Hidden                    // saved BP and return address: no access
	// Saved is the stack slot where a decoded routine's prologue saves
	// the caller's BP: writable, and the caller's BP must come back.
	Saved
)

// Region is a bounded piece of memory at Base (a model address chosen
// by whoever builds the machine).
type Region[V any] struct {
	Name     string
	Kind     RegionKind
	Base     uint64
	Bytes    []V
	Writable bool
	// WriteOnly forbids reads (a buffer the contract lets the routine
	// write but not read).
	WriteOnly bool
	// Written records which bytes were stored to (results, frame).
	Written []bool
	// cow: Bytes and Written are shared with another machine's region
	// (CloneCOW) and must be copied before the first write; a region
	// without it has them alone.
	cow bool
	// spare, when set (Machine.Spare), gives Own room from machines
	// released before (Machine.Release).
	spare *spare[V]
}

// spare holds released bytes by length, for copies of the same size.
type spare[V any] struct {
	bytes   map[int][][]V
	written map[int][][]bool
}

// Size is the region's length in bytes.
func (r *Region[V]) Size() int { return len(r.Bytes) }

// Own gives r bytes of its own if they are shared (CloneCOW): code that
// writes a region's Bytes or Written directly calls it first; Store does.
func (r *Region[V]) Own() {
	if r.cow {
		var b []V
		var w []bool
		if sp := r.spare; sp != nil {
			b, w = take(sp.bytes, len(r.Bytes)), take(sp.written, len(r.Written))
		}
		r.Bytes = append(b, r.Bytes...)
		r.Written = append(w, r.Written...)
		r.cow = false
	}
}

// take removes a slice of length n from free and returns it emptied, or nil.
func take[T any](free map[int][][]T, n int) []T {
	l := free[n]
	if len(l) == 0 {
		return nil
	}
	free[n] = l[:len(l)-1]
	return l[len(l)-1][:0]
}

// Spare lets m and the machines cloned from it after the call reuse, in
// Own, the bytes of machines released with Release. The machines sharing
// them must run on one goroutine.
func (m *Machine[V]) Spare() {
	sp := &spare[V]{bytes: map[int][][]V{}, written: map[int][][]bool{}}
	for _, r := range m.Regions {
		r.spare = sp
	}
}

// Release gives the bytes m's regions hold alone (copied by Own) to the
// machines that share its spare bytes. m must not be used afterwards.
func (m *Machine[V]) Release() {
	for _, r := range m.Regions {
		if sp := r.spare; sp != nil && !r.cow {
			sp.bytes[len(r.Bytes)] = append(sp.bytes[len(r.Bytes)], r.Bytes)
			sp.written[len(r.Written)] = append(sp.written[len(r.Written)], r.Written)
		}
		r.Bytes, r.Written = nil, nil
	}
}

// MemError is an access outside every region, or a write to a read-only
// region. It is a memory-safety (or, for Hidden/Args, ABI) violation.
type MemError struct {
	Insn   *Insn
	Lo, Hi uint64 // first possible address, last possible address
	Size   int
	Write  bool
	Region string // "" when no region contains the access
	Reason string
}

func (e *MemError) Error() string {
	rw := "read"
	if e.Write {
		rw = "write"
	}
	where := fmt.Sprintf("address %#x", e.Lo)
	if e.Hi != e.Lo {
		where = fmt.Sprintf("addresses %#x..%#x", e.Lo, e.Hi)
	}
	return fmt.Sprintf("%s: %d-byte %s at %s: %s", e.Insn, e.Size, rw, where, e.Reason)
}

// BranchUnknown is returned by Step when a conditional branch's condition
// is not concrete; the caller may fork with TakeBranch.
type BranchUnknown struct {
	Insn   *Insn
	Target int
}

func (e *BranchUnknown) Error() string {
	return fmt.Sprintf("%s: branch condition not concrete", e.Insn)
}

// ErrUndefined is wrapped by errors that read an undefined value (e.g. a
// flag the last instruction left undefined).
var ErrUndefined = errors.New("undefined value")

// Observer is told about every branch condition and memory address before
// use and gets to see every instruction after it ran, with the values it
// read. Returning an error stops the machine.
type Observer[V any] interface {
	Branch(m *Machine[V], in *Insn, cond V) error
	Address(m *Machine[V], in *Insn, addr V, size int, write bool) error
	After(m *Machine[V], in *Insn, reads []V) error
}

// Flag numbers.
const (
	CF = iota
	PF
	AF
	ZF
	SF
	OF
)

var flagNames = [6]string{"CF", "PF", "AF", "ZF", "SF", "OF"}

type flagState int

const (
	fUndef flagState = iota
	fLazy            // computed from the thunk
	fValue           // explicit value
)

// thunk records the last flag-setting arithmetic so flags are computed
// only when read.
type thunk[V any] struct {
	kind  int // tkAdd, tkSub, tkLogic
	width uint
	a, b  V
	cin   V
	hasC  bool
	r     V
}

const (
	tkAdd = iota
	tkSub
	tkLogic
)

// Machine is the x86-64 state over the value domain D: 16 GPRs, 32
// 512-bit vector registers (eight 64-bit words each, word 0 lowest;
// xmm/ymm/zmm0–31 of a CPU with AVX-512, MAXVL = 512), the six status
// flags, MXCSR and memory as bounded regions.
type Machine[V any] struct {
	D     Domain[V]
	GPR   [16]V
	Vec   [32][8]V
	MXCSR V

	fstate [6]flagState
	fval   [6]V
	fsrc   [6]bool // flag derives from th
	th     thunk[V]

	Regions []*Region[V]
	Obs     Observer[V]
	// Call, when set, carries out CALL ·target(SB): the checker replaces
	// the callee by its contract. Without it CALL is an error.
	Call func(m *Machine[V], in *Insn, target string) error

	Routine *Routine
	PC      int
	Done    bool
	Steps   int

	reads  []V
	legacy bool // a legacy-SSE instruction runs through its VEX twin (sseTwins)
	tmp    [32]V
	ld     [8]V
}

// NewMachine returns a machine over domain d with all registers set to
// init, flags undefined and no memory.
func NewMachine[V any](d Domain[V], init V) *Machine[V] {
	m := &Machine[V]{D: d}
	for i := range m.GPR {
		m.GPR[i] = init
	}
	for i := range m.Vec {
		for w := range m.Vec[i] {
			m.Vec[i][w] = init
		}
	}
	m.MXCSR = d.Const(0x1F80)
	return m
}

// Clone returns a deep copy (for forking at a branch).
func (m *Machine[V]) Clone() *Machine[V] { return m.clone(false) }

// CloneCOW is Clone with copy on write, for a checker that runs many paths
// from one state: every region's bytes are shared between m and the copy
// until one of them writes the region (Store copies first; code that
// writes a region's Bytes or Written directly must call Own first).
func (m *Machine[V]) CloneCOW() *Machine[V] { return m.clone(true) }

func (m *Machine[V]) clone(cow bool) *Machine[V] {
	c := *m
	c.Regions = make([]*Region[V], len(m.Regions))
	for i, r := range m.Regions {
		nr := *r
		if cow {
			r.cow, nr.cow = true, true
		} else {
			nr.Bytes = append([]V(nil), r.Bytes...)
			if r.Written != nil {
				nr.Written = append([]bool(nil), r.Written...)
			}
			nr.cow = false
		}
		c.Regions[i] = &nr
	}
	c.reads = nil
	return &c
}

// AddRegion adds a region of n bytes at base filled with fill.
func (m *Machine[V]) AddRegion(name string, kind RegionKind, base uint64, n int, writable bool, fill V) *Region[V] {
	r := &Region[V]{Name: name, Kind: kind, Base: base, Bytes: make([]V, n), Writable: writable, Written: make([]bool, n)}
	for i := range r.Bytes {
		r.Bytes[i] = fill
	}
	m.Regions = append(m.Regions, r)
	return r
}

// Region returns the region called name, or nil.
func (m *Machine[V]) Region(name string) *Region[V] {
	for _, r := range m.Regions {
		if r.Name == name {
			return r
		}
	}
	return nil
}

// Start positions the machine at the first instruction of r.
func (m *Machine[V]) Start(r *Routine) {
	m.Routine, m.PC, m.Done = r, 0, false
}

// Run steps until RET or an error; maxSteps bounds the run.
func (m *Machine[V]) Run(maxSteps int) error {
	for !m.Done {
		if m.Steps >= maxSteps {
			return fmt.Errorf("%s: no RET within %d steps", m.Routine.Name, maxSteps)
		}
		if err := m.Step(); err != nil {
			return err
		}
	}
	return nil
}

// Step executes the instruction at PC.
func (m *Machine[V]) Step() error {
	if m.Done {
		return nil
	}
	if m.PC < 0 || m.PC >= len(m.Routine.Insns) {
		return fmt.Errorf("%s: control runs off the end of the routine", m.Routine.Name)
	}
	in := m.Routine.Insns[m.PC]
	m.PC++
	m.Steps++
	return m.Exec(in)
}

// TakeBranch resolves a BranchUnknown: it moves PC to the target if taken
// (PC is already past the branch otherwise).
func (m *Machine[V]) TakeBranch(e *BranchUnknown, taken bool) {
	if taken {
		m.PC = e.Target
	}
}

// Exec executes one instruction on the machine. Branch targets are
// resolved against m.Routine's labels; RET sets Done.
func (m *Machine[V]) Exec(in *Insn) error {
	if m.Obs != nil {
		m.reads = m.reads[:0]
	}
	if err := m.exec(in); err != nil {
		return err
	}
	if m.Obs != nil {
		return m.Obs.After(m, in, m.reads)
	}
	return nil
}

func (m *Machine[V]) noteRead(v V) {
	if m.Obs != nil {
		m.reads = append(m.reads, v)
	}
}

// ---- memory ----

// EffAddr computes the address of a memory operand.
func (m *Machine[V]) EffAddr(in *Insn, mem Mem) (V, error) {
	d := m.D
	var a V
	switch mem.Pseudo {
	case "FP":
		r := m.Region("args")
		if r == nil {
			return a, fmt.Errorf("%s: FP reference without an args area", in)
		}
		a = d.Const(r.Base + uint64(mem.Disp))
	case "SB":
		r := m.Region(mem.Name)
		if r == nil || r.Kind != Table {
			return a, fmt.Errorf("%s: unknown data symbol %s", in, mem.Name)
		}
		a = d.Const(r.Base + uint64(mem.Disp))
	default:
		a = d.Add(m.GPR[mem.Base], d.Const(uint64(mem.Disp)))
		if mem.Base == SP && mem.Name != "" {
			// name-off(SP) is the pseudo-SP: the top of the local frame.
			f := m.Region("frame")
			if f == nil {
				return a, fmt.Errorf("%s: pseudo-SP without a frame", in)
			}
			a = d.Add(a, d.Const(uint64(f.Size())))
		}
	}
	if mem.Index != NoReg {
		a = d.Add(a, d.Mul(m.GPR[mem.Index], d.Const(uint64(mem.Scale))))
	}
	return a, nil
}

// find returns the region containing [lo, hi+size).
func (m *Machine[V]) find(lo, hi uint64, size int) *Region[V] {
	for _, r := range m.Regions {
		if lo >= r.Base && hi <= r.Base+uint64(len(r.Bytes)) && hi+uint64(size) <= r.Base+uint64(len(r.Bytes)) && hi >= lo {
			return r
		}
	}
	return nil
}

func (m *Machine[V]) access(in *Insn, addr V, size int, write bool) (*Region[V], uint64, uint64, error) {
	if m.Obs != nil {
		if err := m.Obs.Address(m, in, addr, size, write); err != nil {
			return nil, 0, 0, err
		}
	}
	lo, hi := m.D.Range(addr)
	r := m.find(lo, hi, size)
	if r == nil {
		return nil, 0, 0, &MemError{Insn: in, Lo: lo, Hi: hi, Size: size, Write: write, Reason: "outside every region"}
	}
	if r.Kind == Hidden {
		return nil, 0, 0, &MemError{Insn: in, Lo: lo, Hi: hi, Size: size, Write: write, Region: r.Name, Reason: "touches " + r.Name}
	}
	if !write && r.WriteOnly {
		return nil, 0, 0, &MemError{Insn: in, Lo: lo, Hi: hi, Size: size, Write: write, Region: r.Name, Reason: "region " + r.Name + " may be written, not read"}
	}
	if write && !r.Writable {
		return nil, 0, 0, &MemError{Insn: in, Lo: lo, Hi: hi, Size: size, Write: write, Region: r.Name, Reason: "region " + r.Name + " is read-only"}
	}
	return r, lo - r.Base, hi - r.Base, nil
}

// Load reads size bytes (1..32) at addr into words (little-endian).
func (m *Machine[V]) Load(in *Insn, addr V, size int) ([]V, error) {
	r, lo, hi, err := m.access(in, addr, size, false)
	if err != nil {
		return nil, err
	}
	out := m.ld[:(size+7)/8]
	if lo == hi {
		for w := range out {
			n := min(8, size-8*w)
			out[w] = m.D.FromBytes(r.Bytes[int(lo)+8*w : int(lo)+8*w+n])
		}
	} else {
		j, ok := any(m.D).(Joiner[V])
		if !ok {
			return nil, fmt.Errorf("%s: address not concrete", in)
		}
		for w := range out {
			n := min(8, size-8*w)
			var acc V
			for o := lo; o <= hi; o++ {
				v := m.D.FromBytes(r.Bytes[int(o)+8*w : int(o)+8*w+n])
				if o == lo {
					acc = v
				} else {
					acc = j.Join(acc, v)
				}
			}
			out[w] = acc
		}
	}
	for _, v := range out {
		m.noteRead(v)
	}
	return out, nil
}

// Store writes size bytes of words at addr.
func (m *Machine[V]) Store(in *Insn, addr V, size int, words []V) error {
	r, lo, hi, err := m.access(in, addr, size, true)
	if err != nil {
		return err
	}
	r.Own()
	bs := m.tmp[:8]
	if lo == hi {
		for w := 0; 8*w < size; w++ {
			n := min(8, size-8*w)
			m.D.Bytes(words[w], bs[:n])
			copy(r.Bytes[int(lo)+8*w:], bs[:n])
			for i := 0; i < n; i++ {
				r.Written[int(lo)+8*w+i] = true
			}
		}
		return nil
	}
	j, ok := any(m.D).(Joiner[V])
	if !ok {
		return fmt.Errorf("%s: address not concrete", in)
	}
	// Weak update: every byte that may be written joins old and new.
	for o := lo; o <= hi; o++ {
		for w := 0; 8*w < size; w++ {
			n := min(8, size-8*w)
			m.D.Bytes(words[w], bs[:n])
			for i := 0; i < n; i++ {
				p := int(o) + 8*w + i
				r.Bytes[p] = j.Join(r.Bytes[p], bs[i])
			}
		}
	}
	return nil
}

// ---- flags ----

func (m *Machine[V]) setThunk(t thunk[V]) {
	m.th = t
	for i := range m.fstate {
		m.fstate[i] = fLazy
		m.fsrc[i] = true
	}
}

func (m *Machine[V]) setFlag(f int, v V) { m.fstate[f], m.fval[f], m.fsrc[f] = fValue, v, false }
func (m *Machine[V]) undefFlag(f int)    { m.fstate[f], m.fsrc[f] = fUndef, false }

// UndefFlags leaves every status flag undefined (a callee may change
// them all).
func (m *Machine[V]) UndefFlags() {
	for f := range m.fstate {
		m.undefFlag(f)
	}
}

// FlagSource describes the last flag-setting arithmetic: Sub is true for
// SUB/CMP/DEC/NEG (flags of A − B), false for ADD/INC; Logic for results
// only (R). From[f] says whether flag f still derives from it. Checkers
// use it to refine values at a branch.
type FlagSource[V any] struct {
	Sub, Logic, Carry bool
	A, B, R           V
	Width             uint
	From              [6]bool
}

// Flags returns the source of the current flags.
func (m *Machine[V]) Flags() FlagSource[V] {
	t := &m.th
	return FlagSource[V]{Sub: t.kind == tkSub, Logic: t.kind == tkLogic, Carry: t.hasC,
		A: t.a, B: t.b, R: t.r, Width: t.width, From: m.fsrc}
}

// Flag returns flag f as 0/1.
func (m *Machine[V]) Flag(f int) (V, error) {
	switch m.fstate[f] {
	case fValue:
		return m.fval[f], nil
	case fLazy:
		v := m.lazyFlag(f)
		m.fstate[f], m.fval[f] = fValue, v
		return v, nil
	}
	var z V
	return z, fmt.Errorf("flag %s: %w", flagNames[f], ErrUndefined)
}

func (m *Machine[V]) mask(v V, w uint) V {
	if w == 64 {
		return v
	}
	return m.D.And(v, m.D.Const(1<<w-1))
}

func (m *Machine[V]) bit(v V, i uint) V {
	return m.D.And(m.D.Shr(v, i), m.D.Const(1))
}

func (m *Machine[V]) lazyFlag(f int) V {
	d, t := m.D, &m.th
	r := m.mask(t.r, t.width)
	switch f {
	case ZF:
		return d.Eq(r, d.Const(0))
	case SF:
		return m.bit(r, t.width-1)
	case PF:
		// PF is set when the low byte has an even number of ones.
		p := d.And(r, d.Const(0xff))
		p = d.Xor(p, d.Shr(p, 4))
		p = d.Xor(p, d.Shr(p, 2))
		p = d.Xor(p, d.Shr(p, 1))
		return d.Xor(d.And(p, d.Const(1)), d.Const(1))
	}
	if t.kind == tkLogic {
		// CF = OF = 0; AF is marked undefined by the caller.
		return d.Const(0)
	}
	a, b := m.mask(t.a, t.width), m.mask(t.b, t.width)
	switch t.kind {
	case tkAdd:
		switch f {
		case CF:
			c := d.Ult(r, a)
			if t.hasC {
				c = d.Or(c, d.And(t.cin, d.Eq(r, a)))
			}
			return c
		case OF:
			return m.bit(d.And(d.Xor(a, r), d.Xor(b, r)), t.width-1)
		case AF:
			return m.bit(d.Xor(d.Xor(a, b), r), 4)
		}
	case tkSub:
		switch f {
		case CF:
			c := d.Ult(a, b)
			if t.hasC {
				c = d.Or(c, d.And(t.cin, d.Eq(a, b)))
			}
			return c
		case OF:
			return m.bit(d.And(d.Xor(a, b), d.Xor(a, r)), t.width-1)
		case AF:
			return m.bit(d.Xor(d.Xor(a, b), r), 4)
		}
	}
	// Logic ops leave AF undefined; setThunk callers mark it.
	return d.Const(0)
}

// cond evaluates a condition code (Go suffix) to 0/1.
func (m *Machine[V]) cond(cc string) (V, error) {
	d := m.D
	get := func(f int) (V, error) { return m.Flag(f) }
	var z V
	switch cc {
	case "EQ", "NE":
		f, err := get(ZF)
		if err != nil {
			return z, err
		}
		if cc == "NE" {
			f = d.Xor(f, d.Const(1))
		}
		return f, nil
	case "CS", "CC":
		f, err := get(CF)
		if err != nil {
			return z, err
		}
		if cc == "CC" {
			f = d.Xor(f, d.Const(1))
		}
		return f, nil
	case "MI", "PL":
		f, err := get(SF)
		if err != nil {
			return z, err
		}
		if cc == "PL" {
			f = d.Xor(f, d.Const(1))
		}
		return f, nil
	case "LS", "HI":
		c, err := get(CF)
		if err != nil {
			return z, err
		}
		zf, err := get(ZF)
		if err != nil {
			return z, err
		}
		f := d.Or(c, zf)
		if cc == "HI" {
			f = d.Xor(f, d.Const(1))
		}
		return f, nil
	case "LT", "GE", "LE", "GT":
		s, err := get(SF)
		if err != nil {
			return z, err
		}
		o, err := get(OF)
		if err != nil {
			return z, err
		}
		lt := d.Xor(s, o)
		switch cc {
		case "LT":
			return lt, nil
		case "GE":
			return d.Xor(lt, d.Const(1)), nil
		}
		zf, err := get(ZF)
		if err != nil {
			return z, err
		}
		le := d.Or(lt, zf)
		if cc == "LE" {
			return le, nil
		}
		return d.Xor(le, d.Const(1)), nil
	}
	return z, fmt.Errorf("condition %s not modelled", cc)
}
