package check

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
	"github.com/vg-crypto/vg/Spec/x86"
)

// The composition proof holds for the TrHash routines as built and
// refutes each with one instruction changed, inserted or removed (their
// code is straight-line): the steps of fips204.H, not a test that a rare
// bug escapes, decide.
func TestComposeProofTrHash(t *testing.T) {
	b := buildRepoAsm(t)
	routine := func(name string) (*x86.File, *x86.Routine) { return asmRoutine(t, b, name) }
	callees := map[string]*x86.Routine{}
	_, callees["KeccakF1600AMD64"] = routine("KeccakF1600AMD64")
	at := func(r *x86.Routine, text string, k int) int {
		for i, in := range r.Insns {
			if strings.Contains(in.Text, text) {
				if k--; k == 0 {
					return i
				}
			}
		}
		t.Fatalf("%s: no instruction %q", r.Name, text)
		return -1
	}
	changed := func(r *x86.Routine, i int, edit func(*x86.Insn)) *x86.Routine {
		c := *r
		c.Insns = append([]*x86.Insn(nil), r.Insns...)
		if edit == nil {
			c.Insns = append(c.Insns[:i:i], c.Insns[i+1:]...)
			return &c
		}
		in := *r.Insns[i]
		in.Args = append([]x86.Operand(nil), in.Args...)
		edit(&in)
		c.Insns[i] = &in
		return &c
	}
	repeated := func(r *x86.Routine, i, n int) *x86.Routine {
		c := *r
		c.Insns = append(append(append([]*x86.Insn(nil), r.Insns[:i+1]...), r.Insns[i+1-n:i+1]...), r.Insns[i+1:]...)
		return &c
	}
	disp := func(d int64) func(*x86.Insn) {
		return func(in *x86.Insn) {
			for k := range in.Args {
				if in.Args[k].Kind == x86.KMem {
					in.Args[k].Mem.Disp = d
				}
			}
		}
	}
	imm := func(v int64) func(*x86.Insn) {
		return func(in *x86.Insn) {
			for k := range in.Args {
				if in.Args[k].Kind == x86.KImm {
					in.Args[k].Imm = v
				}
			}
		}
	}
	f44, r44 := routine("TrHash44AMD64")
	f87, r87 := routine("TrHash87AMD64")
	f65, r65 := routine("TrHash65AMD64")
	for _, tc := range []struct {
		name string
		f    *x86.File
		r    *x86.Routine
		want string
	}{
		{"as built", f44, r44, ""},
		{"as built", f65, r65, ""},
		{"as built", f87, r87, ""},
		{"pk word misread", f44, changed(r44, at(r44, "XORQ 24(SI), AX", 1), disp(25)), "permutation call 0: lane 3 is not"},
		{"block skipped", f44, changed(r44, at(r44, "CALL", 4), nil), "permutation call 3: lane 0 is not"},
		{"block permuted twice", f87, repeated(r87, at(r87, "CALL", 3), 3), "permutation call 3: lane 0 is not"},
		{"domain byte", f44, changed(r44, at(r44, "MOVL $0x1f, AX", 1), imm(0x1e)), "permutation call 9: lane 11 is not"},
		{"tail lane missed", f65, changed(r65, at(r65, "XORQ 1944(SI), AX", 1), nil), "permutation call 14: lane 5 is not"},
		{"last block not permuted", f87, changed(r87, at(r87, "CALL", 20), nil), "the steps of Spec apply f a 20-th time"},
		{"tr from the wrong lane", f44, changed(r44, at(r44, "MOVQ 16(SP), AX", 11), disp(24)), "byte 8 of tr is not"},
		{"tr word missed", f44, changed(r44, at(r44, "MOVQ AX, 56(DI)", 1), nil), "byte 56 of tr is not"},
	} {
		_, err := proveCompose(tc.f, tc.r, contract.Lookup(tc.r.Name), callees, 1<<20)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %s: %v", tc.r.Name, tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s, %s: %v, want an error with %q", tc.r.Name, tc.name, err, tc.want)
		}
	}
}

// The composition proof holds for the KeyGenPk routines as built and
// refutes each with its calls changed: a polynomial packed into another
// one's place, Power2Round of the wrong t, a call skipped (a loop bound
// one short), two calls swapped, t0 written to the wrong entry.
func TestComposeProofKeyGenPk(t *testing.T) {
	b := buildRepoAsm(t)
	routine := func(name string) (*x86.File, *x86.Routine) { return asmRoutine(t, b, name) }
	callees := map[string]*x86.Routine{}
	for _, sym := range []string{"KeyGenPk44AMD64", "KeyGenPk87AVX2"} {
		for _, name := range contract.Lookup(sym).Calls {
			_, callees[name] = routine(name)
		}
	}
	call := func(r *x86.Routine, n int) int { return nthCall(t, r, n) }
	changed := func(r *x86.Routine, i int, edit func(*x86.Insn)) *x86.Routine {
		c := *r
		c.Insns = append([]*x86.Insn(nil), r.Insns...)
		if edit == nil {
			c.Insns = append(c.Insns[:i:i], c.Insns[i+1:]...)
			return &c
		}
		in := *r.Insns[i]
		in.Args = append([]x86.Operand(nil), in.Args...)
		edit(&in)
		c.Insns[i] = &in
		return &c
	}
	disp := func(d int64) func(*x86.Insn) {
		return func(in *x86.Insn) {
			for k := range in.Args {
				if in.Args[k].Kind == x86.KMem {
					in.Args[k].Mem.Disp = d
				}
			}
		}
	}
	// swapped exchanges the instructions (a, b] and (b, c].
	swapped := func(r *x86.Routine, a, b, c int) *x86.Routine {
		x := *r
		x.Insns = append(append(append(append([]*x86.Insn(nil), r.Insns[:a+1]...), r.Insns[b+1:c+1]...), r.Insns[a+1:b+1]...), r.Insns[c+1:]...)
		return &x
	}
	f44, r44 := routine("KeyGenPk44AMD64")
	f87, r87 := routine("KeyGenPk87AVX2")
	for _, tc := range []struct {
		name string
		f    *x86.File
		r    *x86.Routine
		want string
	}{
		{"as built", f44, r44, ""},
		{"as built", f87, r87, ""},
		// Call 2 is the first packing; 3 instructions before it, its pk pointer.
		{"t1[0] packed into t1[1]'s place", f44, changed(r44, call(r44, 2)-4, disp(352)), "byte 32 of pk is not"},
		// 2 instructions before call 3, the pointer to t[1].
		{"Power2Round of t[0] for t[1]", f44, changed(r44, call(r44, 3)-2, disp(0)), "SimpleBitPack(Power2Round.0(t[1]), 1023), which the routine does not call"},
		{"last Power2Round skipped", f87, changed(r87, call(r87, 15), nil), "SimpleBitPack(Power2Round.0(t[7]), 1023), which the routine does not call"},
		{"packing before Power2Round", f44, swapped(r44, call(r44, 0+1)-9, call(r44, 1), call(r44, 2)), "is not a polynomial the routine got or a callee computed"},
		// 5 instructions before call 3, the pointer to t0[1].
		{"t0[1] written to t0[0]", f87, changed(r87, call(r87, 3)-5, disp(0)), "of polynomial 0 of t0 is not what the call computing Power2Round.1(t[0]) wrote"},
	} {
		_, err := proveCompose(tc.f, tc.r, contract.Lookup(tc.r.Name), callees, 1<<20)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %s: %v", tc.r.Name, tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s, %s: %v, want an error with %q", tc.r.Name, tc.name, err, tc.want)
		}
	}
}

// The composition proof holds for the KeyGenT routines as built and
// refutes each with one instruction changed or removed: the normal form
// over T_q sees a Montgomery factor, an NTT, a row or a stride missed.
func TestComposeProofKeyGenT(t *testing.T) {
	b := buildRepoAsm(t)
	routine := func(name string) (*x86.File, *x86.Routine) { return asmRoutine(t, b, name) }
	callees := map[string]*x86.Routine{}
	for _, sym := range []string{"KeyGenT44AMD64", "KeyGenT65AVX2"} {
		for _, name := range contract.Lookup(sym).Calls {
			_, callees[name] = routine(name)
		}
	}
	call := func(r *x86.Routine, n int) int { return nthCall(t, r, n) }
	changed := func(r *x86.Routine, i int, edit func(*x86.Insn)) *x86.Routine {
		c := *r
		c.Insns = append([]*x86.Insn(nil), r.Insns...)
		if edit == nil {
			c.Insns = append(c.Insns[:i:i], c.Insns[i+1:]...)
			return &c
		}
		in := *r.Insns[i]
		in.Args = append([]x86.Operand(nil), in.Args...)
		edit(&in)
		c.Insns[i] = &in
		return &c
	}
	disp := func(d int64) func(*x86.Insn) {
		return func(in *x86.Insn) {
			for k := range in.Args {
				if in.Args[k].Kind == x86.KMem {
					in.Args[k].Mem.Disp = d
				}
			}
		}
	}
	// Calls: NTT and ToMontgomery of s1[j] (2j+1, 2j+2); then for row i,
	// MultiplyAccNTT, NTTInverse and PolyAdd (2ℓ+3i+1 to 2ℓ+3i+3).
	f44, r44 := routine("KeyGenT44AMD64")
	f65, r65 := routine("KeyGenT65AVX2")
	for _, tc := range []struct {
		name string
		f    *x86.File
		r    *x86.Routine
		want string
	}{
		{"as built", f44, r44, ""},
		{"as built", f65, r65, ""},
		{"ToMontgomery of s1[1] missing", f44, changed(r44, call(r44, 4), nil), "polynomial 0 of t: the routine computes no"},
		{"NTT of s1[2] skipped", f44, changed(r44, call(r44, 5), nil), "MultiplyAccNTT on polynomials of a domain"},
		// 2 instructions before PolyAdd of row 1, the pointer to s2[1].
		{"s2[0] added to row 1", f44, changed(r44, call(r44, 8+3+3)-2, disp(0)), "polynomial 1 of t: the routine computes no"},
		{"last PolyAdd skipped", f44, changed(r44, call(r44, 20), nil), "polynomial 3 of t: the routine computes no"},
		// 4 instructions before MultiplyAccNTT of row 1, the pointer to Â's row.
		{"row 1 of Â at a column's stride", f65, changed(r65, call(r65, 10+3+1)-4, disp(6144)), "polynomial 1 of t: the routine computes no"},
		{"NTT⁻¹ of row 2 skipped", f65, changed(r65, call(r65, 10+6+2), nil), "PolyAdd"},
	} {
		_, err := proveCompose(tc.f, tc.r, contract.Lookup(tc.r.Name), callees, 1<<20)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %s: %v", tc.r.Name, tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s, %s: %v, want an error with %q", tc.r.Name, tc.name, err, tc.want)
		}
	}
}

// The composition proof holds for the KeyGenSeed routines as built and
// refutes each with one instruction changed or removed.
func TestComposeProofKeyGenSeed(t *testing.T) {
	b := buildRepoAsm(t)
	routine := func(name string) (*x86.File, *x86.Routine) { return asmRoutine(t, b, name) }
	callees := map[string]*x86.Routine{}
	_, callees["KeccakF1600AMD64"] = routine("KeccakF1600AMD64")
	_, callees["KeccakF1600BMI2"] = routine("KeccakF1600BMI2")
	at := func(r *x86.Routine, text string) int {
		for i, in := range r.Insns {
			if strings.Contains(in.Text, text) {
				return i
			}
		}
		t.Fatalf("%s: no instruction %q", r.Name, text)
		return -1
	}
	changed := func(r *x86.Routine, i int, edit func(*x86.Insn)) *x86.Routine {
		c := *r
		c.Insns = append([]*x86.Insn(nil), r.Insns...)
		if edit == nil {
			c.Insns = append(c.Insns[:i:i], c.Insns[i+1:]...)
			return &c
		}
		in := *r.Insns[i]
		in.Args = append([]x86.Operand(nil), in.Args...)
		edit(&in)
		c.Insns[i] = &in
		return &c
	}
	imm := func(v int64) func(*x86.Insn) {
		return func(in *x86.Insn) {
			for k := range in.Args {
				if in.Args[k].Kind == x86.KImm {
					in.Args[k].Imm = v
				}
			}
		}
	}
	disp := func(d int64) func(*x86.Insn) {
		return func(in *x86.Insn) {
			for k := range in.Args {
				if in.Args[k].Kind == x86.KMem {
					in.Args[k].Mem.Disp = d
				}
			}
		}
	}
	// padAt finds the load of pad10*1's last bit, 0x80 << 56.
	padAt := func(r *x86.Routine) int {
		for i, in := range r.Insns {
			for _, a := range in.Args {
				if a.Kind == x86.KImm && uint64(a.Imm) == 0x80<<56 {
					return i
				}
			}
		}
		t.Fatalf("%s: no load of 0x80 << 56", r.Name)
		return -1
	}
	f65, r65 := routine("KeyGenSeed65AMD64")
	f44, r44 := routine("KeyGenSeed44BMI2")
	for _, tc := range []struct {
		name string
		f    *x86.File
		r    *x86.Routine
		want string
	}{
		{"as built", f65, r65, ""},
		{"as built", f44, r44, ""},
		{"k and ℓ of ML-DSA-44 for ML-DSA-65", f65, changed(r65, at(r65, "$0x1f0506"), imm(0x1f0404)), "permutation call 0: lane 4 is not"},
		{"ξ word misread", f44, changed(r44, at(r44, "MOVQ 16(SI), AX"), disp(17)), "permutation call 0: lane 2 is not"},
		{"pad bit missing", f65, changed(r65, padAt(r65), imm(0)), "permutation call 0: lane 16 is not"},
		{"last lane of the seed not copied", f44, changed(r44, at(r44, "MOVQ AX, 120(DI)"), nil), "byte 120 of seed is not"},
	} {
		_, err := proveCompose(tc.f, tc.r, contract.Lookup(tc.r.Name), callees, 1<<20)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %s: %v", tc.r.Name, tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s, %s: %v, want an error with %q", tc.r.Name, tc.name, err, tc.want)
		}
	}
}

// A callee's Op that is not its proven postcondition is refused.
func TestComposeCheckOp(t *testing.T) {
	p65 := fips204.MLDSA65
	p2r := *contract.Lookup("Power2RoundPolyAMD64")
	outs, err := checkOp(&p2r, fullDom, p65)
	if err != nil {
		t.Fatalf("Power2RoundPolyAMD64: %v", err)
	}
	if fmt.Sprint(outs) != "[{0 1023} {-4095 4096}]" {
		t.Errorf("Power2RoundPolyAMD64: output ranges %v, want t1 in [0, 1023] and t0 in [−4095, 4096]", outs)
	}
	narrow := p2r
	l := *p2r.Lanes
	l.Domain = []uint32{1000}
	narrow.Lanes = &l
	for _, d := range []dom{{0, 1000}, {-1, 5}} {
		if _, err := checkOp(&narrow, d, p65); err == nil {
			t.Errorf("Power2Round on words %v beyond its precondition accepted", d)
		}
	}
	pack := *contract.Lookup("SimpleBitPack10AMD64")
	if _, err := checkOp(&pack, dom{0, 1023}, p65); err != nil {
		t.Fatalf("SimpleBitPack10AMD64: %v", err)
	}
	if _, err := checkOp(&pack, dom{0, 1024}, p65); err == nil {
		t.Errorf("SimpleBitPack(·, 1023) on a word of 1024 accepted")
	}
	// The Ops that read seeds or pack signed coefficients, with the
	// ranges their outputs have.
	for _, tc := range []struct {
		sym  string
		p    fips204.Params
		d    dom
		want string
	}{
		{"ExpandA65AVX2", p65, dom{}, "[{0 8380416}]"},
		{"ExpandA87AMD64", fips204.MLDSA87, dom{}, "[{0 8380416}]"},
		{"RejBoundedPolyEta4AMD64", p65, dom{}, "[{-4 4}]"},
		{"RejBoundedPolyx4Eta2AVX2", fips204.MLDSA44, dom{}, "[{-2 2}]"},
		{"BitPack4AVX2", p65, dom{-4, 4}, "[]"},
		{"BitPack3AMD64", fips204.MLDSA87, dom{-2, 2}, "[]"},
		{"BitPack13AVX2", p65, dom{-4095, 4096}, "[]"},
	} {
		c := *contract.Lookup(tc.sym)
		got, err := checkOp(&c, tc.d, tc.p)
		if err != nil {
			t.Fatalf("%s: %v", tc.sym, err)
		}
		if fmt.Sprint(got) != tc.want {
			t.Errorf("%s: output ranges %v, want %s", tc.sym, got, tc.want)
		}
	}
	bad := func(sym string, edit func(*contract.Contract)) contract.Contract {
		c := *contract.Lookup(sym)
		var op contract.Op
		if c.Op != nil {
			op = *c.Op
		}
		op.In = append([]string(nil), op.In...)
		op.Params = append([]int(nil), op.Params...)
		c.Op = &op
		if c.Streams != nil {
			st := *c.Streams
			c.Streams = &st
		}
		edit(&c)
		return c
	}
	for _, tc := range []struct {
		name string
		c    contract.Contract
		p    fips204.Params
		d    dom
	}{
		{"Power2Round as another map", func() contract.Contract {
			c := *contract.Lookup("HighBits32AMD64")
			c.Op = p2r.Op
			return c
		}(), p65, dom{0, 15}},
		{"SimpleBitPack of another width", func() contract.Contract {
			c := *contract.Lookup("SimpleBitPack4AMD64")
			c.Op = pack.Op
			return c
		}(), p65, dom{0, 15}},
		{"an unknown operation", func() contract.Contract {
			c := pack
			c.Op = &contract.Op{Name: "NTT", In: []string{"w"}, Out: []string{"out"}}
			return c
		}(), p65, dom{0, 15}},
		{"ExpandA of another parameter set", *contract.Lookup("ExpandA44AVX2"), p65, dom{}},
		{"ExpandA of another shape", bad("ExpandA65AVX2", func(c *contract.Contract) { c.Op.Params[1] = 6 }), p65, dom{}},
		{"ExpandA Op on a sampler", bad("RejNTTPolyAMD64", func(c *contract.Contract) {
			c.Op = &contract.Op{Name: "ExpandA", In: []string{"rho"}, Out: []string{"a"}, Params: []int{6, 5}}
		}), p65, dom{}},
		{"RejBoundedPoly of another η", *contract.Lookup("RejBoundedPolyEta2AMD64"), p65, dom{}},
		{"RejBoundedPoly claiming another η", bad("RejBoundedPolyEta2AMD64", func(c *contract.Contract) { c.Op.Params[0] = 4 }), p65, dom{}},
		{"RejBoundedPoly seeds in another order", bad("RejBoundedPolyEta4AMD64", func(c *contract.Contract) { c.Op.In[0], c.Op.In[1] = c.Op.In[1], c.Op.In[0] }), p65, dom{}},
		{"RejBoundedPoly on unproven streams", bad("RejBoundedPolyEta4AMD64", func(c *contract.Contract) { c.Streams.Proven = false }), p65, dom{}},
		{"RejBoundedPoly of another Check", bad("RejBoundedPolyx4Eta4AVX2", func(c *contract.Contract) {
			c.Streams.Check = contract.Lookup("RejBoundedPolyx4Eta2AVX2").Streams.Check
		}), p65, dom{}},
		{"RejBoundedPoly of swapped outputs", bad("RejBoundedPolyx4Eta4AVX2", func(c *contract.Contract) {
			c.Op.Out = []string{"a[1]", "a[0]", "a[2]", "a[3]"}
		}), p65, dom{}},
		{"BitPack beyond its range", *contract.Lookup("BitPack4AVX2"), p65, dom{-5, 4}},
		{"BitPack of η for t0", *contract.Lookup("BitPack4AVX2"), p65, dom{-4095, 4096}},
		{"BitPack of other a, b", bad("BitPack13AMD64", func(c *contract.Contract) { c.Op.Params = []int{4096, 4095} }), p65, dom{-10, 10}},
		{"BitPack as SimpleBitPack", bad("BitPack3AMD64", func(c *contract.Contract) { c.Op.Name = "SimpleBitPack" }), p65, dom{0, 2}},
	} {
		if _, err := checkOp(&tc.c, tc.d, tc.p); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}

// The proof refuses a contract whose Compose does not fit its callees.
func TestComposeShape(t *testing.T) {
	f := &x86.File{}
	r := &x86.Routine{}
	for _, tc := range []struct {
		name string
		edit func(*contract.Contract)
		want string
	}{
		{"not a callee", func(c *contract.Contract) { c.Calls = nil }, "not a callee"},
		{"not a permutation", func(c *contract.Contract) {
			c.Compose.Permutation = "NTTAVX2"
			c.Calls = append(c.Calls, "NTTAVX2")
		}, "not a callee of the contract permuting one 200-byte state"},
		{"four states", func(c *contract.Contract) {
			c.Compose.Permutation = "KeccakF1600x4AVX2"
			c.Calls = append(c.Calls, "KeccakF1600x4AVX2")
		}, "permuting one 200-byte state"},
		{"result", func(c *contract.Contract) { c.Result = "uint32" }, "result"},
	} {
		c := *contract.Lookup("TrHash44AMD64")
		cp := *c.Compose
		c.Compose = &cp
		c.Calls = append([]string(nil), c.Calls...)
		tc.edit(&c)
		if _, err := proveCompose(f, r, &c, nil, 1); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}

// argTypes reads grouped parameters as Go writes them.
func TestArgTypesGrouped(t *testing.T) {
	if got := argTypes("func F(t1, t0, t *[256]uint32)"); strings.Join(got, " ") != "*[256]uint32 *[256]uint32 *[256]uint32" {
		t.Errorf("grouped: %v", got)
	}
	if got := argTypes("func F(out *[320]byte, w *[256]uint32)"); strings.Join(got, " ") != "*[320]byte *[256]uint32" {
		t.Errorf("plain: %v", got)
	}
	if got := argTypes("func F(a, b)"); got != nil {
		t.Errorf("names without a type: %v", got)
	}
}

// The Ops of the linear routines restate their proven ZqMaps; an Op of
// another map, constant, length or routine is refused.
func TestComposeCheckZqOp(t *testing.T) {
	for _, sym := range []string{"NTTAMD64", "NTTAVX2", "NTTInverseAMD64", "NTTInverseAVX2", "NTTInverseMontAVX2", "ToMontgomeryPolyAMD64", "ToMontgomeryPolyAVX2", "PolyAddAMD64", "PolyAddAVX2", "MultiplyAccNTT4AMD64", "MultiplyAccNTT5AVX2", "MultiplyAccNTT7AVX2"} {
		c := contract.Lookup(sym)
		if c == nil || c.Op == nil {
			t.Fatalf("%s: no contract with an Op", sym)
		}
		if _, err := checkOp(c, fullDom, fips204.MLDSA65); err != nil {
			t.Errorf("%s: %v", sym, err)
		}
		if _, err := checkOp(c, dom{1, 0}, fips204.MLDSA65); err == nil {
			t.Errorf("%s: an empty range of words accepted", sym)
		}
	}
	with := func(sym string, op contract.Op) contract.Contract {
		c := *contract.Lookup(sym)
		c.Op = &op
		return c
	}
	for _, tc := range []struct {
		name string
		c    contract.Contract
	}{
		{"NTT as NTT⁻¹", with("NTTInverseAMD64", contract.Op{Name: "NTT", In: []string{"w"}, Out: []string{"w"}})},
		{"NTT⁻¹ as NTT", with("NTTAVX2", contract.Op{Name: "NTTInverse", In: []string{"w"}, Out: []string{"w"}})},
		{"NTT⁻¹ as NTT⁻¹ times 2³²", with("NTTInverseAVX2", contract.Op{Name: "NTTInverse", In: []string{"w"}, Out: []string{"w"}, Params: []int{1 << 32 % 8380417}})},
		{"NTT⁻¹ times 2³² as NTT⁻¹", with("NTTInverseMontAVX2", contract.Op{Name: "NTTInverse", In: []string{"w"}, Out: []string{"w"}})},
		{"NTT⁻¹ times 2³² as times another constant", with("NTTInverseMontAVX2", contract.Op{Name: "NTTInverse", In: []string{"w"}, Out: []string{"w"}, Params: []int{1<<32%8380417 + 1}})},
		{"NTT⁻¹ times q", with("NTTInverseAVX2", contract.Op{Name: "NTTInverse", In: []string{"w"}, Out: []string{"w"}, Params: []int{8380417}})},
		{"ToMontgomery of another constant", with("ToMontgomeryPolyAMD64", contract.Op{Name: "ToMontgomery", In: []string{"w"}, Out: []string{"w"}, Params: []int{1<<32%8380417 + 1}})},
		{"ToMontgomery as the t1 map", with("ToMontgomeryT1PolyAVX2", contract.Op{Name: "ToMontgomery", In: []string{"w"}, Out: []string{"w"}, Params: []int{1 << 32 % 8380417}})},
		{"Add as PolySub", with("PolySubAVX2", contract.Op{Name: "Add", In: []string{"w", "b"}, Out: []string{"w"}})},
		{"Add with its inputs swapped", with("PolyAddAVX2", contract.Op{Name: "Add", In: []string{"b", "w"}, Out: []string{"w"}})},
		{"MultiplyAccNTT of another ℓ", with("MultiplyAccNTT5AMD64", contract.Op{Name: "MultiplyAccNTT", In: []string{"a", "b"}, Out: []string{"out"}, Params: []int{4}})},
		{"MultiplyAccNTT of ℓ = 2 as MultiplyNTT", with("MultiplyNTTAVX2", contract.Op{Name: "MultiplyAccNTT", In: []string{"a", "b"}, Out: []string{"out"}, Params: []int{2}})},
		{"MultiplyAccNTT as ToMontgomery", with("ToMontgomeryPolyAVX2", contract.Op{Name: "MultiplyAccNTT", In: []string{"w"}, Out: []string{"w"}, Params: []int{1}})},
	} {
		if _, err := checkOp(&tc.c, fullDom, fips204.MLDSA65); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}

// The composition proof holds for KeyGen routines as built (Algorithm 6
// as one routine: ExpandA, RejBoundedPoly and BitPack calls with checked
// Ops, the result the AND of the samplers') and refutes one whose ExpandA
// gets pk's bytes before ρ is copied there: a public buffer of a callee
// must hold, at the call, what the routine outputs there (PublicOut).
func TestComposeProofKeyGen(t *testing.T) {
	b := buildRepoAsm(t)
	routine := func(name string) (*x86.File, *x86.Routine) { return asmRoutine(t, b, name) }
	callees := map[string]*x86.Routine{}
	for _, sym := range []string{"KeyGen44AMD64", "KeyGen65AVX2"} {
		for _, name := range contract.Lookup(sym).Calls {
			_, callees[name] = routine(name)
		}
	}
	call := func(r *x86.Routine, n int) int { return nthCall(t, r, n) }
	// moved moves the instructions (a, b] after (b, c].
	moved := func(r *x86.Routine, a, b, c int) *x86.Routine {
		x := *r
		x.Insns = append(append(append(append([]*x86.Insn(nil), r.Insns[:a+1]...), r.Insns[b+1:c+1]...), r.Insns[a+1:b+1]...), r.Insns[c+1:]...)
		return &x
	}
	f44, r44 := routine("KeyGen44AMD64")
	f65, r65 := routine("KeyGen65AVX2")
	// After the first permutation: pk and sk loaded, then four lanes each
	// of ρ (to pk and sk) and K (to sk), 22 instructions; then ok = 1,
	// ExpandA's arguments and its call (the second), its result ANDed in.
	late := moved(r44, call(r44, 1), call(r44, 1)+22, call(r44, 2)+2)
	for _, tc := range []struct {
		name string
		f    *x86.File
		r    *x86.Routine
		want string
	}{
		{"as built", f44, r44, ""},
		{"as built", f65, r65, ""},
		{"ρ copied to pk after ExpandA", f44, late, "is not what the routine leaves there"},
	} {
		_, err := proveCompose(tc.f, tc.r, contract.Lookup(tc.r.Name), callees, 1<<20)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %s: %v", tc.r.Name, tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s, %s: %v, want an error with %q", tc.r.Name, tc.name, err, tc.want)
		}
	}
}

// asmRoutine is the routine name of the built go/asm, with its file.
func asmRoutine(t *testing.T, b *Built, name string) (*x86.File, *x86.Routine) {
	t.Helper()
	f, err := b.Bin.Routine(AsmPackage, name)
	if err != nil {
		t.Fatal(err)
	}
	return f, f.Routines[0]
}

// nthCall is the index of r's n-th CALL (from 1).
func nthCall(t *testing.T, r *x86.Routine, n int) int {
	t.Helper()
	for i, in := range r.Insns {
		if in.Op == "CALL" {
			if n--; n == 0 {
				return i
			}
		}
	}
	t.Fatalf("%s: no CALL %d", r.Name, n)
	return -1
}
