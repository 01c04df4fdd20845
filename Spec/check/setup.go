// Package check is **Trusted**: it builds go/asm with the Go command
// (BuildAsm), decodes each routine's machine code with Spec/x86
// (Programs), runs it in the x86 model under its contract (Spec/contract),
// and discharges the obligations: memory safety, constant time, ABI (Go
// ABI0), MCDT, CPU features and functional correctness. It reports each as
// proven, tested or failing; "proven" is only ever said for an argument
// that covers every input, and a proof that does not complete is failing.
package check

import (
	crand "crypto/rand"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// Model addresses. Every region (buffer, table, the stack) gets its own
// 4 GiB slot, far from the others, so that no computed address can stray
// from one into another unnoticed. Which slots is drawn once per process
// from the operating system's randomness (every machine of a process uses
// the same layout, so the segments of a symbolic proof agree): a routine
// that reached one region by arithmetic on another's address (b as a +
// 4 GiB) is right only for a layout it cannot know, about one chance in
// 2¹⁴ per pair of regions. The layout is not an input of the taint
// runs' argument; independence from it is tested this way, not proven.
type slots struct {
	r    *rand.Rand
	used map[uint64]bool
}

var (
	layoutOnce sync.Once
	layoutSeed [32]byte
)

func newSlots() *slots {
	layoutOnce.Do(func() {
		if _, err := crand.Read(layoutSeed[:]); err != nil {
			panic("check: no randomness for the model's layout: " + err.Error())
		}
	})
	return &slots{r: rand.New(rand.NewChaCha8(layoutSeed)), used: map[uint64]bool{}}
}

// next returns the base of an unused slot below 2⁴⁶.
func (s *slots) next() uint64 {
	if len(s.used) >= 1<<14-2 {
		panic("check: every slot of the model's address space is in use")
	}
	for {
		k := 1 + s.r.Uint64N(1<<14-2)
		if !s.used[k] {
			s.used[k] = true
			return k << 32
		}
	}
}

// fork returns slots that avoid the ones in use now and draw the rest
// apart from s, for one of many paths that each move the stack.
func (s *slots) fork(seed uint64) *slots {
	used := make(map[uint64]bool, len(s.used))
	for k := range s.used {
		used[k] = true
	}
	return &slots{r: rand.New(rand.NewPCG(s.r.Uint64(), seed)), used: used}
}

// stackDelta is how far m's stack regions have moved from where setup
// put them (lay): a CALL moves them, as a growing goroutine stack moves.
func stackDelta[V any](m *x86.Machine[V], lay *layout) uint64 {
	if a := m.Region("args"); a != nil {
		return a.Base - lay.args
	}
	return 0
}

// layout records where setup put things.
type layout struct {
	sp      uint64 // SP after the prologue (the frame's base)
	entrySP uint64 // SP at entry and at RET (the return address)
	buffers []string
	ptrArgs map[string]uint64 // arg/buffer name → address
	slots   *slots            // the slots in use (a moved stack takes a new one)
	args    uint64            // the base of the args region
}

// maker builds a domain value from a concrete value and its taint.
type maker[V any] func(v uint64, secret, input bool) V

// setup builds a machine for routine r of file f under contract c with
// input in. Contract buffers, the argument area (pointer slots read-only,
// result slots writable), the frame (garbage), the saved BP and return
// address (no access) and the DATA tables become regions. Registers start
// as garbage: secret and input-derived, so that any use of them shows.
func setup[V any](d x86.Domain[V], mk maker[V], f *x86.File, r *x86.Routine, c *contract.Contract,
	in contract.Buffers, rng *rand.Rand) (*x86.Machine[V], *layout) {
	garbage := func() V { return mk(rng.Uint64(), true, true) }
	m := x86.NewMachine[V](d, mk(0, false, false))
	for i := range m.GPR {
		m.GPR[i] = garbage()
	}
	for i := range m.Vec {
		for w := range m.Vec[i] { // all 512 bits: an unwritten upper half is garbage too
			m.Vec[i][w] = garbage()
		}
	}
	lay := &layout{ptrArgs: map[string]uint64{}}
	sl := newSlots()
	newBuf := func(name string, n int, secret, write, read bool, content []byte) uint64 {
		base := sl.next()
		reg := m.AddRegion(name, x86.Buffer, base, n, write, mk(0, false, false))
		reg.WriteOnly = !read // the contract's Read permission
		for i := 0; i < n; i++ {
			if content != nil {
				reg.Bytes[i] = mk(uint64(content[i]), secret, true)
			} else {
				reg.Bytes[i] = mk(uint64(rng.Uint32()&0xff), true, true)
			}
		}
		lay.buffers = append(lay.buffers, name)
		return base
	}
	var argSlots []uint64
	for _, a := range c.Args {
		if a.Indirect == 0 {
			base := newBuf(a.Name, a.Bytes, a.Secret, a.Write, a.Read, in[a.Name])
			lay.ptrArgs[a.Name] = base
			argSlots = append(argSlots, base)
			continue
		}
		var ptrs []uint64
		for _, bn := range a.BufferNames() {
			ptrs = append(ptrs, newBuf(bn, a.Bytes, a.Secret, a.Write, a.Read, in[bn]))
		}
		arr := make([]byte, 8*len(ptrs))
		for i, p := range ptrs {
			putU64(arr[8*i:], p)
		}
		base := newBuf(a.Name, len(arr), false, false, true, nil)
		reg := m.Region(a.Name)
		for i := range arr {
			reg.Bytes[i] = mk(uint64(arr[i]), false, false)
		}
		lay.ptrArgs[a.Name] = base
		argSlots = append(argSlots, base)
	}
	// The stack, from low to high addresses.
	sp := sl.next()
	frame := m.AddRegion("frame", x86.Frame, sp, r.Frame, true, mk(0, false, false))
	for i := range frame.Bytes {
		frame.Bytes[i] = mk(uint64(rng.Uint32()&0xff), true, true)
	}
	var argBase uint64
	if r.Prologue {
		// Decoded machine code runs the assembler's prologue itself: SP
		// starts at the return address. The stack the model provides is
		// the frame the prologue's SUBQ asks for (at most the contract's)
		// and, when the routine begins by saving BP, that slot.
		top := sp + uint64(r.Frame)
		if x86.SavesBP(r) {
			saved := m.AddRegion("saved BP", x86.Saved, top, 8, true, mk(0, false, false))
			for i := range saved.Bytes {
				saved.Bytes[i] = mk(uint64(rng.Uint32()&0xff), true, true)
			}
			top += 8
		}
		m.AddRegion("return address", x86.Hidden, top, 8, false, mk(0, false, false))
		lay.entrySP = top
		argBase = top + 8
		// BP holds the caller's frame pointer: garbage like every other
		// register (an address derived from it is secret and
		// input-dependent, so it is never trusted), and the same value
		// must be back in BP at RET.
	} else {
		hidden := 8 // return address
		if r.Frame > 0 {
			hidden += 8 // BP saved by the assembler's prologue
		}
		m.AddRegion("saved BP and return address", x86.Hidden, sp+uint64(r.Frame), hidden, false, mk(0, false, false))
		argBase = sp + uint64(r.Frame) + uint64(hidden)
		lay.entrySP = sp
	}
	args := m.AddRegion("args", x86.Args, argBase, 8*len(argSlots), false, mk(0, false, false))
	for i, p := range argSlots {
		for j := 0; j < 8; j++ {
			args.Bytes[8*i+j] = mk((p>>(8*j))&0xff, false, false)
		}
	}
	if n := c.ArgsSize() - 8*len(argSlots); n > 0 {
		res := m.AddRegion("results", x86.Results, argBase+uint64(8*len(argSlots)), n, true, mk(0, false, false))
		for i := range res.Bytes {
			res.Bytes[i] = mk(uint64(rng.Uint32()&0xff), true, true)
		}
	}
	// DATA tables: public constants.
	names := make([]string, 0, len(f.Data))
	for n := range f.Data {
		names = append(names, n)
	}
	sortStrings(names)
	for _, n := range names {
		dt := f.Data[n]
		reg := m.AddRegion(n, x86.Table, sl.next(), dt.Size, false, mk(0, false, false))
		for j, b := range dt.Bytes {
			reg.Bytes[j] = mk(uint64(b), false, false)
		}
	}
	m.GPR[x86.SP] = mk(lay.entrySP, false, false)
	lay.args = argBase
	lay.sp = sp
	lay.slots = sl
	m.Start(r)
	return m, lay
}

func putU64(b []byte, v uint64) {
	for i := 0; i < 8; i++ {
		b[i] = byte(v >> (8 * i))
	}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// outputs reads the buffers back as bytes.
func outputs[V any](m *x86.Machine[V], c *contract.Contract) (contract.Buffers, byte, error) {
	out := contract.Buffers{}
	for _, a := range c.Args {
		for _, bn := range a.BufferNames() {
			reg := m.Region(bn)
			b := make([]byte, reg.Size())
			for i, v := range reg.Bytes {
				x, ok := m.D.Concrete(v)
				if !ok {
					return nil, 0, fmt.Errorf("buffer %s byte %d not concrete", bn, i)
				}
				b[i] = byte(x)
			}
			out[bn] = b
		}
	}
	var ret byte
	if res := m.Region("results"); res != nil {
		x, _ := m.D.Concrete(res.Bytes[0])
		ret = byte(x)
	}
	return out, ret, nil
}

// checkFPNames checks that every name+off(FP) reference uses the name the
// Go signature gives the slot at that offset (as go vet's asmdecl does).
func checkFPNames(r *x86.Routine, c *contract.Contract) error {
	want := map[int64]string{}
	for i, a := range c.Args {
		want[int64(8*i)] = a.Name
	}
	if c.Result != "" {
		want[int64(c.ResultOffset())] = "ret"
	}
	for _, in := range r.Insns {
		for _, a := range in.Args {
			if a.Kind != x86.KMem || a.Mem.Pseudo != "FP" {
				continue
			}
			n, ok := want[a.Mem.Disp]
			if !ok || n != a.Mem.Name {
				return fmt.Errorf("%s: %s+%d(FP) does not name the argument at offset %d (%q)", in, a.Mem.Name, a.Mem.Disp, a.Mem.Disp, n)
			}
		}
	}
	return nil
}

// baseline lists features every x86-64 CPU has; a baseline routine may use
// them, but the file must still say so in its Requires line.
var baseline = map[string]bool{"CMOV": true, "SSE": true, "SSE2": true}

// checkFeatures checks used ⊆ Requires and Requires ⊆ contract features
// (∪ baseline x86-64).
func checkFeatures(r *x86.Routine, c *contract.Contract) (string, error) {
	used := map[string]bool{}
	for _, in := range r.Insns {
		for _, f := range in.Features() { // AVX512VL besides AVX512F, too
			used[f] = true
		}
	}
	req := map[string]bool{}
	for _, f := range r.Requires {
		req[f] = true
	}
	allowed := map[string]bool{}
	for _, f := range c.Features {
		allowed[f] = true
	}
	var usedL []string
	for f := range used {
		usedL = append(usedL, f)
	}
	sortStrings(usedL)
	for _, f := range usedL {
		if !req[f] {
			return "", fmt.Errorf("uses %s but its Requires line is %v", f, r.Requires)
		}
	}
	for _, f := range r.Requires {
		if !allowed[f] && !baseline[f] {
			return "", fmt.Errorf("requires %s, which contract %s does not allow (allowed: %v)", f, c.Symbol, c.Features)
		}
	}
	return fmt.Sprintf("uses {%s} ⊆ Requires {%s} ⊆ contract {%s}", strings.Join(usedL, ","),
		strings.Join(r.Requires, ","), strings.Join(c.Features, ",")), nil
}

// taintValue is a word's initial value on the Taint domain: v, with every
// bit secret or input-derived as the contract says.
func taintValue(v uint64, secret, input bool) x86.TV {
	t := x86.TV{V: v}
	if secret {
		t.S = ^uint64(0)
	}
	if input {
		t.I = ^uint64(0)
	}
	return t
}

// secretBuffers maps each of the contract's buffers to whether it is
// secret.
func secretBuffers(c *contract.Contract) map[string]bool {
	secretOf := map[string]bool{}
	for _, a := range c.Args {
		for _, bn := range a.BufferNames() {
			secretOf[bn] = a.Secret
		}
	}
	return secretOf
}
