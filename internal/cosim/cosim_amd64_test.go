//go:build !purego

package cosim

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	x86 "github.com/vg-crypto/vg/Spec/x86"
	"github.com/vg-crypto/vg/internal/cosim/forms"
)

var (
	statesFlag = flag.Int("cosim.states", 0, "random states per representative instruction (default $VG_COSIM_STATES, else 10000, 1000 with -short)")
	seedFlag   = flag.Uint64("cosim.seed", 0, "seed of the random states (default: from the clock; the test logs it)")
)

// TestFormsCovered fails when a representative of go/asm or the catalog
// has no harness (the harness is stale: run go run ./internal/cosim/gen),
// or a harness runs one that neither has any more.
func TestFormsCovered(t *testing.T) {
	vs, insns, err := forms.Plan(asmDir(t), catalogPath(t), filepath.Join("catalog", "exact.txt"), filepath.Join("catalog", "pairs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, c := range Cases() {
		have[c.Source+" | "+c.Form+" | "+c.Text] = true
	}
	want := map[string]bool{}
	for _, v := range vs {
		key := v.Source + " | " + v.Form + " | " + v.Text
		want[key] = true
		if NoHarnessReason(v.Form) != "" {
			continue
		}
		if !have[key] {
			t.Errorf("%s uses %s (e.g. %s) and no harness runs it: run go run ./internal/cosim/gen", v.Source, v.Form, v.Text)
		}
	}
	for k := range have {
		if !want[k] {
			t.Errorf("harness %s is in neither go/asm nor the catalog: run go run ./internal/cosim/gen", k)
		}
	}
	for _, f := range forms.Forms(insns) {
		if r := NoHarnessReason(f); r != "" {
			t.Logf("form %s: not cosimulated: %s", f, r)
		}
	}
}

// NoHarnessReason is the documented argument for a form without harness.
func NoHarnessReason(form string) string { return forms.NoHarnessReason(form) }

// diff describes the differences between the CPU's and the model's output
// states, ignoring SP and the flags in undef.
func diff(cpu, model *State, undef uint64, branch bool) string {
	var b strings.Builder
	for i := range cpu.GPR {
		if i != 4 && cpu.GPR[i] != model.GPR[i] {
			fmt.Fprintf(&b, " %s: cpu %#x model %#x;", forms.GPRs[i], cpu.GPR[i], model.GPR[i])
		}
	}
	mask := uint64(StatusMask) &^ undef
	if cf, mf := cpu.Flags&mask, model.Flags&mask; cf != mf {
		fmt.Fprintf(&b, " flags (%s compared): cpu %s model %s;", flagNames(mask), flagNames(cf), flagNames(mf))
	}
	if cpu.MXCSR != model.MXCSR {
		fmt.Fprintf(&b, " MXCSR: cpu %#x model %#x;", cpu.MXCSR, model.MXCSR)
	}
	for i := range cpu.Y {
		if cpu.Y[i] != model.Y[i] {
			fmt.Fprintf(&b, " Y%d: cpu %s model %s;", i, hexY(cpu.Y[i]), hexY(model.Y[i]))
		}
	}
	for i := range cpu.Z {
		if cpu.Z[i] != model.Z[i] {
			fmt.Fprintf(&b, " Z%d: cpu %x model %x;", i, cpu.Z[i], model.Z[i])
		}
	}
	if !bytes.Equal(cpu.Mem[:], model.Mem[:]) {
		for i := range cpu.Mem {
			if cpu.Mem[i] != model.Mem[i] {
				fmt.Fprintf(&b, " Mem[%d]: cpu %#x model %#x;", i, cpu.Mem[i], model.Mem[i])
			}
		}
	}
	if branch && cpu.Taken != model.Taken {
		fmt.Fprintf(&b, " taken: cpu %d model %d;", cpu.Taken, model.Taken)
	}
	return b.String()
}

func flagNames(f uint64) string {
	var n []string
	for _, x := range []struct {
		bit  uint64
		name string
	}{{FlagCF, "CF"}, {FlagPF, "PF"}, {FlagAF, "AF"}, {FlagZF, "ZF"}, {FlagSF, "SF"}, {FlagOF, "OF"}} {
		if f&x.bit != 0 {
			n = append(n, x.name)
		}
	}
	return "{" + strings.Join(n, " ") + "}"
}

// hexY prints a ymm register as four 64-bit lanes, high lane first.
func hexY(y [32]byte) string {
	return fmt.Sprintf("%016x_%016x_%016x_%016x", binary.LittleEndian.Uint64(y[24:]),
		binary.LittleEndian.Uint64(y[16:]), binary.LittleEndian.Uint64(y[8:]), binary.LittleEndian.Uint64(y[:]))
}

// describe prints the input state fields an instruction may read.
func describe(in *State, addr uint64) string {
	var b strings.Builder
	for i, r := range forms.GPRs {
		if i != 4 {
			fmt.Fprintf(&b, "%s=%#x ", r, in.GPR[i])
		}
	}
	fmt.Fprintf(&b, "flags=%s MXCSR=%#x", flagNames(in.Flags), in.MXCSR)
	if in.Wide {
		for i := range in.Z {
			fmt.Fprintf(&b, " Z%d=%x", i, in.Z[i])
		}
	} else {
		for i := range in.Y {
			fmt.Fprintf(&b, " Y%d=%s", i, hexY(in.Y[i]))
		}
	}
	fmt.Fprintf(&b, " Mem@%#x=%x", addr, in.Mem[:])
	return b.String()
}

// TestCosim runs every representative instruction on random states on the
// CPU and in the model and compares the whole output states.
func TestCosim(t *testing.T) {
	requireAVX2(t)
	n := 10000
	if testing.Short() {
		n = 1000
	}
	// CI's setting (.ci/run): fewer states, each run with a new seed.
	if v := os.Getenv("VG_COSIM_STATES"); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil || k < 1 {
			t.Fatalf("VG_COSIM_STATES=%q: want a positive number of states", v)
		}
		n = k
	}
	if *statesFlag > 0 {
		n = *statesFlag
	}
	insns, err := forms.Collect(asmDir(t))
	if err != nil {
		t.Fatal(err)
	}
	inAsm := map[string]bool{} // forms and flag pairs go/asm uses
	for _, f := range forms.Forms(insns) {
		inAsm[f] = true
	}
	pairs, err := forms.FlagPairs(insns)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range pairs {
		inAsm[v.Form] = true
	}
	start := time.Now()
	covered := map[string]int{} // form → states run (all representatives)
	failed := map[string]bool{}
	notInModel := map[string]string{} // catalog form → the model's parse error
	sources := map[string]map[string]bool{}
	r, seed := seeded(0x636f73696d)
	t.Logf("seed %#x (rerun with -cosim.seed=%#x), %d states per representative", seed, seed, n)
	skippedUndef := 0             // pair states where the second instruction reads a flag the first left undefined
	noAVX512 := map[string]bool{} // AVX-512 forms this CPU cannot run
	for _, c := range Cases() {
		ins, err := forms.ParseText(c.Text)
		if err != nil {
			t.Fatal(err)
		}
		if needsAVX512(c, ins) && !hasAVX512VL() {
			noAVX512[c.Form] = true
			continue
		}
		in, last := ins[0], ins[len(ins)-1]
		memIn := in // the instruction whose memory operand randomState places
		if last.MemOp() != nil {
			if in.MemOp() != nil && len(ins) == 2 {
				t.Fatalf("%s: two memory operands in a pair", c.Text)
			}
			memIn = last
		}
		states := n
		if c.Source == "pair" {
			states = n / 10 // catalog pairs go beyond the requirement; fewer states keep the test short
		}
		if sources[c.Form] == nil {
			sources[c.Form] = map[string]bool{}
		}
		sources[c.Form][c.Source] = true
		m, err := newModel(c.Text)
		if err != nil {
			if c.Source != "go/asm" {
				notInModel[c.Form] = err.Error()
				continue
			}
			t.Errorf("form %s (%s): model: %v", c.Form, c.Text, err)
			failed[c.Form] = true
			continue
		}
		ran, mismatches := 0, 0
		cpu := new(State)
		for ; ran < states; ran++ {
			cpu.Wide = c.Wide
			if err := randomState(r, cpu, memIn); err != nil {
				t.Fatal(err)
			}
			input := *cpu
			// The model gets a copy of the input with its memory region
			// placed at the address of cpu.Mem, where the base registers
			// point.
			addr := uint64(uintptr(unsafe.Pointer(&cpu.Mem[0])))
			model, modelUndef, err := m.run(&input, addr)
			var undef, readUndef uint64
			if len(ins) == 2 {
				undef = pairUndefined(in, last, &input)
				readUndef = readsFlags(last) & undefinedFlags(in, &input)
			} else {
				undef = undefinedFlags(in, &input)
			}
			switch {
			case err != nil && readUndef != 0 && errors.Is(err, x86.ErrUndefined):
				skippedUndef++ // right: the SDM leaves a flag it reads undefined
				continue
			case err != nil:
				t.Errorf("form %s (%s): model: %v\ninput: %s", c.Form, c.Text, err, describe(&input, addr))
				failed[c.Form] = true
			case readUndef != 0:
				t.Errorf("form %s (%s): the model reads %s, which the SDM leaves undefined after %s, without an error\ninput: %s",
					c.Form, c.Text, flagNames(readUndef), in.Mnemonic, describe(&input, addr))
				failed[c.Form] = true
			}
			if failed[c.Form] {
				break
			}
			c.Run(cpu)
			d := diff(cpu, model, undef|modelUndef, last.IsBranch())
			// The model must leave undefined exactly the flags the SDM
			// leaves undefined: a flag it defines beyond the SDM could let
			// code depend on a value the CPU does not promise, a flag it
			// leaves undefined that the SDM defines is a wrong semantics.
			if extra := modelUndef &^ undef; extra != 0 {
				d += fmt.Sprintf(" model leaves %s undefined, the SDM defines them (cpu %s);", flagNames(extra), flagNames(cpu.Flags&extra))
			}
			if missing := undef &^ modelUndef; missing != 0 {
				d += fmt.Sprintf(" model defines %s, which the SDM leaves undefined;", flagNames(missing))
			}
			if d != "" {
				mismatches++
				failed[c.Form] = true
				if mismatches <= 3 {
					t.Errorf("MISMATCH form %s, instruction %s (%s):%s\ninput: %s", c.Form, c.Text, c.Source, d, describe(&input, addr))
				}
			}
		}
		if mismatches > 3 {
			t.Errorf("form %s (%s): %d of %d states mismatched", c.Form, c.Text, mismatches, ran)
		}
		covered[c.Form] += ran
	}
	var list []string
	for f := range covered {
		list = append(list, f)
	}
	sort.Strings(list)
	nAsm := 0
	for _, f := range list {
		status := "agree"
		if failed[f] {
			status = "FAIL"
		}
		var src []string
		for k := range sources[f] {
			src = append(src, k)
		}
		sort.Strings(src)
		if inAsm[f] {
			nAsm++
		}
		t.Logf("covered %-40s %7d states  %-5s (%s)", f, covered[f], status, strings.Join(src, ", "))
	}
	for f := range inAsm {
		switch {
		case NoHarnessReason(f) != "":
		case noAVX512[f]:
			t.Logf("form %s appears in go/asm and needs AVX512F and AVX512VL, which this CPU lacks: not cosimulated here", f)
		case covered[f] == 0:
			t.Errorf("form %s appears in go/asm and was not cosimulated", f)
		case covered[f] < n:
			t.Errorf("form %s: only %d states", f, covered[f])
		}
	}
	var missing []string
	for f, e := range notInModel {
		missing = append(missing, fmt.Sprintf("%s (%s)", f, e))
	}
	sort.Strings(missing)
	for _, f := range missing {
		t.Logf("catalog form the model does not parse: %s", f)
	}
	t.Logf("%d forms and pairs cosimulated, %d forms from go/asm (%d representatives) in %v; %d pair states left out where the second instruction reads a flag the first leaves undefined (the model rejects them, as it should)",
		len(list), nAsm, len(Cases()), time.Since(start).Round(time.Millisecond), skippedUndef)
}

// catalogPath is the catalog of further forms.
func catalogPath(t *testing.T) string {
	t.Helper()
	return filepath.Join("catalog", "catalog.txt")
}

// seeded returns a random source for one test (stream) and its seed: the
// -cosim.seed flag, or the clock.
func seeded(stream uint64) (*rand.Rand, uint64) {
	seed := uint64(time.Now().UnixNano())
	if *seedFlag != 0 {
		seed = *seedFlag
	}
	return rand.New(rand.NewPCG(seed, stream)), seed
}
