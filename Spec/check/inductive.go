package check

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// Inductive proves memory safety (and, with it, constant time and the
// run-time ABI rules) for every input of a routine whose control flow
// depends on public data, by abstract execution over intervals:
//
//   - the run starts at the routine's entry with every input byte unknown
//     (in [0, 255]) and every register unknown;
//   - at a branch whose condition is unknown it follows both ways, refining
//     the compared value on each side;
//   - when a path reaches the head of a loop named by an invariant, the
//     state must satisfy the invariant (else the check fails); the head is
//     then explored once from the invariant alone, with every location it
//     does not constrain unknown (and secret, unless claimed public);
//   - every access on every path must be inside a region it may use; every
//     RET must restore SP and MXCSR and have written the result.
//
// Since each head is explored from a state that over-approximates every
// state that reaches it, every execution of the routine is covered.
//
// A CALL (of a routine the contract's Calls name; callees holds their
// decoded code) is checked for its discipline and replaced by the callee's
// contract (call.go): the buffers it may write and its result become
// unknown, secret if any byte it was given may be, and the stack moves.
func Inductive(f *x86.File, r *x86.Routine, c *contract.Contract, invs []Invariant, callees map[string]*x86.Routine, maxSteps int) *InductiveResult {
	res := &InductiveResult{NoSecret: true}
	ic := &ind{f: f, r: r, c: c, d: x86.NewInterval(), invs: map[string]Invariant{}, res: res, callees: callees}
	for _, iv := range invs {
		if _, ok := r.Labels[iv.Label]; !ok {
			res.Err = fmt.Errorf("invariant for unknown label %q", iv.Label)
			return res
		}
		ic.invs[iv.Label] = iv
	}
	res.Err = ic.run(maxSteps)
	if res.Err == nil {
		var labels []string
		for _, iv := range invs {
			labels = append(labels, iv.Label)
		}
		res.Detail = fmt.Sprintf("inductive check over intervals: %d paths explored from entry and loop heads {%s}; every access in bounds for every input",
			ic.paths, strings.Join(labels, ","))
	}
	return res
}

type ind struct {
	f     *x86.File
	r     *x86.Routine
	c     *contract.Contract
	d     *x86.Interval
	invs  map[string]Invariant
	res   *InductiveResult
	lay   *layout
	paths int
	entry *x86.Machine[x86.AV]
	bp    x86.AV // BP at entry: a frameless routine must keep it
	// callees are the decoded routines the contract's Calls name.
	callees map[string]*x86.Routine
}

// callHook replaces a callee by its contract on abstract paths.
func (ic *ind) callHook() func(*x86.Machine[x86.AV], *x86.Insn, string) error {
	lay := *ic.lay
	lay.slots = ic.lay.slots.fork(1)
	unknown := func(secret bool) x86.AV { return ic.d.RangeOf(0, 255, 0, 0, secret) }
	env := &callEnv[x86.AV]{caller: ic.c, callees: ic.callees, lay: &lay, rng: rand.New(rand.NewPCG(2, 2)),
		mk: func(v uint64, secret, input bool) x86.AV {
			if input {
				return ic.d.Top(true)
			}
			return x86.AV{Lo: v, Hi: v, S: secret}
		},
		taint: func(v x86.AV) (bool, bool) { return v.S, !v.Exact() },
		effect: func(cc *contract.Contract, in map[string][]x86.AV) (map[string][]x86.AV, x86.AV, error) {
			secret := false
			for _, vs := range in {
				for _, v := range vs {
					secret = secret || v.S
				}
			}
			out := map[string][]x86.AV{}
			for _, a := range cc.Args {
				if !a.Write {
					continue
				}
				for _, bn := range a.BufferNames() {
					vs := make([]x86.AV, a.Bytes)
					for i := range vs {
						vs[i] = unknown(secret)
					}
					out[bn] = vs
				}
			}
			return out, unknown(secret && !revealed(cc)), nil
		}}
	return env.call
}

// obs flags secret use on abstract paths.
type indObs struct{ ic *ind }

func (o indObs) Branch(m *x86.Machine[x86.AV], in *x86.Insn, c x86.AV) error {
	if c.S {
		o.ic.res.NoSecret = false
	}
	return nil
}
func (o indObs) Address(m *x86.Machine[x86.AV], in *x86.Insn, a x86.AV, size int, write bool) error {
	if a.S {
		o.ic.res.NoSecret = false
	}
	return nil
}
func (o indObs) After(m *x86.Machine[x86.AV], in *x86.Insn, reads []x86.AV) error {
	// The MXCSR bracket is not tracked on abstract paths: a multiplication
	// with a possibly secret operand makes the proof give up.
	if inf := in.Info(); !inf.DOIT || inf.MCDT {
		for _, v := range reads {
			if v.S {
				o.ic.res.NoSecret = false
			}
		}
	}
	return nil
}

func (ic *ind) run(maxSteps int) error {
	mk := func(v uint64, secret, _ bool) x86.AV { return x86.AV{Lo: v, Hi: v, S: secret} }
	m, lay := setup[x86.AV](ic.d, mk, ic.f, ic.r, ic.c, contract.Buffers{}, rand.New(rand.NewPCG(1, 1)))
	ic.lay = lay
	// Everything the caller provides is unknown.
	for i := range m.GPR {
		if i != int(x86.SP) {
			m.GPR[i] = ic.d.Top(true)
		}
	}
	for i := range m.Vec {
		for w := range m.Vec[i] {
			m.Vec[i][w] = ic.d.Top(true)
		}
	}
	secretOf := secretBuffers(ic.c)
	for _, reg := range m.Regions {
		switch reg.Kind {
		case x86.Buffer:
			if s, ok := secretOf[reg.Name]; ok {
				ic.havoc(reg, s)
			}
		case x86.Frame, x86.Results:
			ic.havoc(reg, true)
		}
	}
	m.Obs = indObs{ic}
	if len(ic.c.Calls) > 0 {
		m.Call = ic.callHook()
	}
	ic.entry = m
	ic.bp = m.GPR[x86.BP]
	type item struct {
		m     *x86.Machine[x86.AV]
		start bool // starting at a loop head: do not count it as an arrival
	}
	work := []item{{m, false}}
	explored := map[string]bool{}
	heads := map[int]string{}
	for l := range ic.invs {
		heads[ic.r.Labels[l]] = l
	}
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		m := it.m
		ic.paths++
		if ic.paths > 100000 {
			return fmt.Errorf("more than 100000 paths: missing loop invariant?")
		}
		start := it.start
		steps := 0
		for {
			if l, ok := heads[m.PC]; ok && !start {
				if err := ic.checkInv(m, ic.invs[l]); err != nil {
					return fmt.Errorf("arriving at %s: invariant does not hold: %v", l, err)
				}
				if !explored[l] {
					explored[l] = true
					hm, err := ic.headState(m, ic.invs[l])
					if err != nil {
						return err
					}
					work = append(work, item{hm, true})
				}
				break
			}
			start = false
			if steps++; steps > maxSteps {
				return fmt.Errorf("path longer than %d steps without reaching a loop head (missing invariant?) at %s", maxSteps, ic.r.Insns[min(m.PC, len(ic.r.Insns)-1)])
			}
			err := m.Step()
			var bu *x86.BranchUnknown
			if errors.As(err, &bu) {
				if bu.Insn.Info().Op == "" {
					return err
				}
				taken := m.Clone()
				taken.TakeBranch(bu, true)
				okT := ic.refine(taken, bu.Insn.Op[1:], true)
				okF := ic.refine(m, bu.Insn.Op[1:], false)
				if okT {
					work = append(work, item{taken, false})
				}
				if !okF {
					break
				}
				continue
			}
			if err != nil {
				return err
			}
			if m.Done {
				if err := ic.checkRet(m); err != nil {
					return err
				}
				break
			}
		}
	}
	for l := range ic.invs {
		if !explored[l] {
			return fmt.Errorf("loop head %s never reached: its invariant was not used", l)
		}
	}
	return nil
}

func (ic *ind) havoc(reg *x86.Region[x86.AV], secret bool) {
	for i := range reg.Bytes {
		reg.Bytes[i] = ic.d.RangeOf(0, 255, 0, 0, secret)
		reg.Written[i] = false
	}
}

func (ic *ind) checkRet(m *x86.Machine[x86.AV]) error {
	sp, want := m.GPR[x86.SP], ic.lay.entrySP+stackDelta(m, ic.lay)
	if !sp.Exact() || sp.Lo != want {
		return fmt.Errorf("a path returns with SP in [%#x, %#x], not %#x", sp.Lo, sp.Hi, want)
	}
	if !m.MXCSR.Exact() || m.MXCSR.Lo != 0x1F80 {
		return fmt.Errorf("a path returns with MXCSR not restored")
	}
	if ic.r.Prologue {
		if m.GPR[x86.BP].ID != ic.bp.ID {
			return fmt.Errorf("a path returns with BP not the caller's")
		}
	} else if ic.r.Frame == 0 && m.GPR[x86.BP].ID != ic.bp.ID {
		return fmt.Errorf("a path returns with BP changed in a frameless routine")
	}
	if res := m.Region("results"); res != nil {
		for i, w := range res.Written {
			if !w {
				return fmt.Errorf("a path returns without writing result byte %d", i)
			}
		}
	}
	return nil
}

func (ic *ind) publicByte(iv Invariant, i int) bool {
	if iv.PublicFrame {
		return true
	}
	for _, r := range iv.PublicRanges {
		if i >= r[0] && i < r[0]+r[1] {
			return true
		}
	}
	return false
}

// loc resolves a fact location.
func (ic *ind) loc(l string) (reg x86.Reg, slot int, err error) {
	if s, ok := strings.CutPrefix(l, "frame+"); ok {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n+8 > ic.r.Frame {
			return x86.NoReg, 0, fmt.Errorf("bad frame slot %q", l)
		}
		return x86.NoReg, n, nil
	}
	r, ok := x86.ParseReg(l)
	if !ok || r == x86.SP {
		return x86.NoReg, 0, fmt.Errorf("bad location %q", l)
	}
	return r, 0, nil
}

func (ic *ind) base(m *x86.Machine[x86.AV], f Fact) (uint64, error) {
	if f.Region == "" {
		return 0, nil
	}
	reg := m.Region(f.Region)
	if reg == nil {
		return 0, fmt.Errorf("fact on %s: no region %q", f.Loc, f.Region)
	}
	return reg.Base, nil
}

func (ic *ind) get(m *x86.Machine[x86.AV], f Fact) ([]x86.AV, error) {
	r, slot, err := ic.loc(f.Loc)
	if err != nil {
		return nil, err
	}
	switch {
	case r == x86.NoReg:
		return []x86.AV{ic.d.FromBytes(m.Region("frame").Bytes[slot : slot+8])}, nil
	case r.IsGPR():
		return []x86.AV{m.GPR[r]}, nil
	}
	v := m.Vec[r.Vec()]
	return v[:vecWords(r)], nil
}

// checkInv checks that the state satisfies the invariant.
func (ic *ind) checkInv(m *x86.Machine[x86.AV], iv Invariant) error {
	if err := ic.keepsBP(m); err != nil {
		return err
	}
	// The head is explored with SP at its entry value and MXCSR at its
	// default; every arrival must agree.
	if sp := m.GPR[x86.SP]; !sp.Exact() || sp.Lo != ic.lay.sp+stackDelta(m, ic.lay) {
		return fmt.Errorf("SP differs from its entry value")
	}
	if !m.MXCSR.Exact() || m.MXCSR.Lo != 0x1F80 {
		return fmt.Errorf("MXCSR is not the default 0x1F80")
	}
	fr := m.Region("frame").Bytes
	for i, b := range fr {
		if b.S && ic.publicByte(iv, i) {
			return fmt.Errorf("frame byte %d may be secret", i)
		}
	}
	for name, rs := range iv.PublicBuffer {
		reg := m.Region(name)
		if reg == nil || reg.Kind != x86.Buffer {
			return fmt.Errorf("no buffer %s", name)
		}
		for _, r := range rs {
			if r[0] < 0 || r[1] < 0 || r[0]+r[1] > reg.Size() {
				return fmt.Errorf("bytes [%d, %d) are not in buffer %s", r[0], r[0]+r[1], name)
			}
			for i := r[0]; i < r[0]+r[1]; i++ {
				if reg.Bytes[i].S {
					return fmt.Errorf("byte %d of %s may be secret", i, name)
				}
			}
		}
	}
	for _, f := range iv.Facts {
		vals, err := ic.get(m, f)
		if err != nil {
			return err
		}
		base, err := ic.base(m, f)
		if err != nil {
			return err
		}
		for _, v := range vals {
			if f.Public && v.S {
				return fmt.Errorf("%s may be secret", f.Loc)
			}
			if f.Any {
				continue // only secrecy claimed
			}
			if v.Lo < base || v.Hi < base || v.Lo-base < f.Lo || v.Hi-base > f.Hi {
				return fmt.Errorf("%s ∈ [%#x, %#x], invariant says %s+[%#x, %#x]", f.Loc, v.Lo, v.Hi, f.Region, f.Lo, f.Hi)
			}
			if f.Mod > 1 {
				vm, vr := v.Mod, v.Rem
				if v.Exact() {
					vm, vr = 0, v.Lo
				}
				okc := (vm == 0 && (vr-base)%f.Mod == f.Rem%f.Mod) ||
					(vm != 0 && vm%f.Mod == 0 && (vr%f.Mod+f.Mod-base%f.Mod)%f.Mod == f.Rem%f.Mod)
				if !okc {
					return fmt.Errorf("%s: congruence mod %d not established", f.Loc, f.Mod)
				}
			}
		}
	}
	return nil
}

// headState builds the state a loop head is explored from: the arriving
// machine with every writable location forgotten, then the facts assumed.
func (ic *ind) headState(arr *x86.Machine[x86.AV], iv Invariant) (*x86.Machine[x86.AV], error) {
	m := arr.Clone()
	for i := range m.GPR {
		if i != int(x86.SP) {
			m.GPR[i] = ic.d.Top(true)
		}
	}
	if err := ic.keepsBP(arr); err != nil {
		return nil, fmt.Errorf("before loop head %s: %v", iv.Label, err)
	}
	if !x86.SavesBP(ic.r) && (ic.r.Prologue || ic.r.Frame == 0) {
		m.GPR[x86.BP] = ic.bp
	}
	// SP is assumed unchanged at the head; a path that moved it fails the
	// check below.
	if sp := arr.GPR[x86.SP]; !sp.Exact() || sp.Lo != ic.lay.sp+stackDelta(arr, ic.lay) {
		return nil, fmt.Errorf("SP changed before loop head %s", iv.Label)
	}
	for i := range m.Vec {
		for w := range m.Vec[i] {
			m.Vec[i][w] = ic.d.Top(true)
		}
	}
	secretOf := secretBuffers(ic.c)
	for _, reg := range m.Regions {
		if !reg.Writable {
			continue
		}
		switch reg.Kind {
		case x86.Frame:
			ic.havoc(reg, true)
			for i := range reg.Bytes {
				if ic.publicByte(iv, i) {
					reg.Bytes[i].S = false
				}
			}
		case x86.Results:
			ic.havoc(reg, true)
		case x86.Buffer:
			ic.havoc(reg, secretOf[reg.Name])
			for _, r := range iv.PublicBuffer[reg.Name] {
				for i := r[0]; i < r[0]+r[1] && i < reg.Size(); i++ {
					reg.Bytes[i].S = false
				}
			}
		}
	}
	// The flags are forgotten too.
	m = resetFlags(m, ic.d)
	m.MXCSR = ic.d.Const(0x1F80) // checked at every arrival (checkInv)
	for _, f := range iv.Facts {
		r, slot, err := ic.loc(f.Loc)
		if err != nil {
			return nil, err
		}
		base, err := ic.base(m, f)
		if err != nil {
			return nil, err
		}
		if f.Any {
			top := ic.d.Top(!f.Public)
			switch {
			case r == x86.NoReg:
				bs := make([]x86.AV, 8)
				ic.d.Bytes(top, bs)
				copy(m.Region("frame").Bytes[slot:], bs)
			case r.IsGPR():
				m.GPR[r] = top
			default:
				for w := 0; w < vecWords(r); w++ {
					m.Vec[r.Vec()][w] = ic.d.Top(!f.Public)
				}
			}
			continue
		}
		if f.Hi < f.Lo {
			return nil, fmt.Errorf("fact on %s: empty range", f.Loc)
		}
		v := ic.d.RangeOf(base+f.Lo, base+f.Hi, f.Mod, (base+f.Rem%max(f.Mod, 1))%max(f.Mod, 1), !f.Public)
		if f.Mod <= 1 {
			v = ic.d.RangeOf(base+f.Lo, base+f.Hi, 0, 0, !f.Public)
		}
		switch {
		case r == x86.NoReg:
			bs := make([]x86.AV, 8)
			ic.d.Bytes(v, bs)
			copy(m.Region("frame").Bytes[slot:], bs)
		case r.IsGPR():
			m.GPR[r] = v
		default:
			for w := 0; w < vecWords(r); w++ {
				m.Vec[r.Vec()][w] = v
			}
		}
	}
	return m, nil
}

// resetFlags makes every flag undefined by running a fresh machine's
// state into m: flags are unexported, so clone a machine that never set
// them and copy the rest of m over.
func resetFlags(m *x86.Machine[x86.AV], d *x86.Interval) *x86.Machine[x86.AV] {
	n := x86.NewMachine[x86.AV](d, x86.AV{})
	n.GPR, n.Vec, n.MXCSR = m.GPR, m.Vec, m.MXCSR
	n.Regions, n.Obs, n.Routine, n.PC, n.Done, n.Steps = m.Regions, m.Obs, m.Routine, m.PC, m.Done, 0
	n.Call = m.Call
	return n
}

// refine narrows the compared value on one side of a branch; it returns
// false if that side is infeasible.
func (ic *ind) refine(m *x86.Machine[x86.AV], cc string, taken bool) bool {
	fs := m.Flags()
	if fs.Logic || fs.Carry {
		return true
	}
	// Normalise the condition on the taken side.
	neg := map[string]string{"EQ": "NE", "NE": "EQ", "CS": "CC", "CC": "CS", "LT": "GE", "GE": "LT",
		"LE": "GT", "GT": "LE", "LS": "HI", "HI": "LS", "MI": "PL", "PL": "MI"}
	if !taken {
		cc = neg[cc]
	}
	need := map[string][]int{"EQ": {x86.ZF}, "NE": {x86.ZF}, "CS": {x86.CF}, "CC": {x86.CF},
		"LS": {x86.CF, x86.ZF}, "HI": {x86.CF, x86.ZF}, "LT": {x86.SF, x86.OF}, "GE": {x86.SF, x86.OF},
		"LE": {x86.SF, x86.OF, x86.ZF}, "GT": {x86.SF, x86.OF, x86.ZF}}
	fl, ok := need[cc]
	if !ok {
		return true
	}
	for _, f := range fl {
		if !fs.From[f] {
			return true
		}
	}
	a, b := fs.A, fs.B
	if !fs.Sub {
		// ADD/INC: only ZF of the result is usable.
		if cc != "EQ" && cc != "NE" {
			return true
		}
		a, b = fs.R, x86.AV{}
	}
	lim := uint64(1)<<(fs.Width-1) - 1
	signedOK := a.Hi <= lim && b.Hi <= lim
	// Bounds on a (when b is exact) and on b (when a is exact).
	var aLo, aHi, bLo, bHi uint64 = 0, ^uint64(0), 0, ^uint64(0)
	exclA, exclB := false, false
	var exA, exB uint64
	switch cc {
	case "EQ":
		if b.Exact() {
			aLo, aHi = b.Lo, b.Lo
		}
		if a.Exact() {
			bLo, bHi = a.Lo, a.Lo
		}
	case "NE":
		if b.Exact() {
			exclA, exA = true, b.Lo
		}
		if a.Exact() {
			exclB, exB = true, a.Lo
		}
	case "CS", "LT": // a < b
		if cc == "LT" && !signedOK {
			return true
		}
		if b.Exact() {
			if b.Lo == 0 {
				return false
			}
			aHi = b.Lo - 1
		}
		if a.Exact() {
			bLo = a.Lo + 1
		}
	case "CC", "GE": // a ≥ b
		if cc == "GE" && !signedOK {
			return true
		}
		if b.Exact() {
			aLo = b.Lo
		}
		if a.Exact() {
			bHi = a.Lo
		}
	case "LS", "LE": // a ≤ b
		if cc == "LE" && !signedOK {
			return true
		}
		if b.Exact() {
			aHi = b.Lo
		}
		if a.Exact() {
			bLo = a.Lo
		}
	case "HI", "GT": // a > b
		if cc == "GT" && !signedOK {
			return true
		}
		if b.Exact() {
			aLo = b.Lo + 1
		}
		if a.Exact() {
			if a.Lo == 0 {
				return false
			}
			bHi = a.Lo - 1
		}
	}
	okA := ic.narrow(m, a, aLo, aHi, exclA, exA)
	okB := ic.narrow(m, b, bLo, bHi, exclB, exB)
	okR := true
	if fs.Sub && (cc == "EQ" || cc == "NE") {
		// ZF ⇔ the result is zero: refine the result's copies too.
		if cc == "EQ" {
			okR = ic.narrow(m, fs.R, 0, 0, false, 0)
		} else {
			okR = ic.narrow(m, fs.R, 0, ^uint64(0), true, 0)
		}
	}
	return okA && okB && okR
}

// narrow replaces every copy of v (same ID) by v ∩ [lo, hi] (minus ex).
func (ic *ind) narrow(m *x86.Machine[x86.AV], v x86.AV, lo, hi uint64, excl bool, ex uint64) bool {
	n := v
	n.Lo, n.Hi = max(v.Lo, lo), min(v.Hi, hi)
	if excl {
		if n.Lo == ex && n.Lo < n.Hi {
			n.Lo++
		} else if n.Hi == ex && n.Lo < n.Hi {
			n.Hi--
		} else if n.Lo == ex && n.Hi == ex {
			return false
		}
	}
	n = ic.d.RangeOf(n.Lo, n.Hi, n.Mod, n.Rem, n.S)
	if x86.Empty(n) {
		return false
	}
	if v.ID == 0 || (n.Lo == v.Lo && n.Hi == v.Hi) {
		return true
	}
	n.ID = v.ID
	if n.Exact() {
		n.ID = 0
	}
	for i := range m.GPR {
		if m.GPR[i].ID == v.ID {
			m.GPR[i] = n
		}
	}
	fr := m.Region("frame")
	for s := 0; s+8 <= len(fr.Bytes); s++ {
		if w := ic.d.FromBytes(fr.Bytes[s : s+8]); w.ID == v.ID {
			bs := make([]x86.AV, 8)
			ic.d.Bytes(n, bs)
			copy(fr.Bytes[s:], bs)
		}
	}
	return true
}

// keepsBP checks, at an arrival at a loop head, that the caller's BP is
// kept: in BP itself when the routine does not save it, else in the
// saved slot (which heads keep rather than forget, so every arrival must
// agree on it).
func (ic *ind) keepsBP(m *x86.Machine[x86.AV]) error {
	switch {
	case !ic.r.Prologue:
		if ic.r.Frame == 0 && m.GPR[x86.BP].ID != ic.bp.ID {
			return fmt.Errorf("BP changed in a frameless routine")
		}
	case x86.SavesBP(ic.r):
		// The caller's BP is an unknown value with an identity; its eight
		// bytes, as the prologue's PUSHQ stored them, give it back.
		if v := ic.d.FromBytes(m.Region("saved BP").Bytes); v.ID != ic.bp.ID {
			return fmt.Errorf("the saved BP slot does not hold the caller's BP")
		}
	default:
		if m.GPR[x86.BP].ID != ic.bp.ID {
			return fmt.Errorf("BP changed in a routine that does not save it")
		}
	}
	return nil
}

// vecWords is the number of 64-bit words a fact on vector register r
// describes: eight for a Z register, four for X and Y (the rest stay
// unknown).
func vecWords(r x86.Reg) int {
	if r.IsZ() {
		return 8
	}
	return 4
}
