package check

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
	"github.com/vg-crypto/vg/Spec/x86"
)

// The Ops a Sign attempt's composition adds, checked against their
// callees' proven postconditions: accepted as they are, and refused when
// an Op, a parameter or a map is wrong.
func TestComposeCheckSignOps(t *testing.T) {
	p44, p65 := fips204.MLDSA44, fips204.MLDSA65
	for _, tc := range []struct {
		sym  string
		p    fips204.Params
		want string
	}{
		{"ExpandMask17x4AVX2", p44, "[{-131071 131072}]"},
		{"ExpandMask19AMD64", p65, "[{-524287 524288}]"},
		{"HighBits88AVX2", p44, "[{0 43}]"},
		{"HighBits32AMD64", p65, "[{0 15}]"},
	} {
		got, err := checkOp(contract.Lookup(tc.sym), fullDom, tc.p)
		if err != nil {
			t.Fatalf("%s: %v", tc.sym, err)
		}
		if fmt.Sprint(got) != tc.want {
			t.Errorf("%s: output ranges %v, want %s", tc.sym, got, tc.want)
		}
	}
	if err := checkMakeHintOp(contract.Lookup("MakeHint88AVX2"), p44); err != nil {
		t.Fatalf("MakeHint88AVX2: %v", err)
	}
	if err := checkNormOp(contract.Lookup("LowBitsExceed32AVX2"), fullDom, p65); err != nil {
		t.Fatalf("LowBitsExceed32AVX2: %v", err)
	}
	if err := checkHintPackOp(contract.Lookup("HintBitPack65AMD64"), p65); err != nil {
		t.Fatalf("HintBitPack65AMD64: %v", err)
	}
	if err := checkModPM(p44); err != nil {
		t.Fatalf("ModPM: %v", err)
	}
	zDom := dom{-(1 << 19) + 1, 1 << 19}
	if err := checkBitPackOp(contract.Lookup("BitPack20AVX2"), zDom); err != nil {
		t.Fatalf("BitPack20AVX2: %v", err)
	}
	bad := func(sym string, edit func(*contract.Contract)) *contract.Contract {
		c := *contract.Lookup(sym)
		op := *c.Op
		op.In = append([]string(nil), op.In...)
		op.Params = append([]int(nil), op.Params...)
		c.Op = &op
		edit(&c)
		return &c
	}
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"ExpandMask of γ1 = 2^17 for ML-DSA-65", func() error { _, err := checkOp(contract.Lookup("ExpandMask17x4AVX2"), fullDom, p65); return err }()},
		{"ExpandMask claiming γ1 = 2^19", func() error {
			_, err := checkOp(bad("ExpandMask17AMD64", func(c *contract.Contract) { c.Op.Params[0] = 1 << 19 }), fullDom, p65)
			return err
		}()},
		{"HighBits of another γ2", func() error { _, err := checkOp(contract.Lookup("HighBits88AVX2"), fullDom, p65); return err }()},
		{"HighBits with LowBits' map", func() error {
			_, err := checkOp(bad("HighBits32AVX2", func(c *contract.Contract) {
				l := *c.Lanes
				l.Map = func(in []uint32) []uint32 {
					return []uint32{uint32(fips204.LowBits(p65, int32(in[0]))+fips204.Q) % fips204.Q}
				}
				c.Lanes = &l
			}), fullDom, p65)
			return err
		}()},
		{"MakeHint of another γ2", checkMakeHintOp(contract.Lookup("MakeHint32AVX2"), p44)},
		{"MakeHint whose Join is equality", checkMakeHintOp(bad("MakeHint88AMD64", func(c *contract.Contract) {
			l, sp := *c.Lanes, *c.Lanes.Split
			sp.Join = func(a, b uint32) []uint32 { return []uint32{uint32(b2u(a == b))} }
			l.Split = &sp
			c.Lanes = &l
		}), p44)},
		{"MakeHint without its count", checkMakeHintOp(bad("MakeHint88AMD64", func(c *contract.Contract) { c.Op.Out = []string{"h", "z"} }), p44)},
		{"the norm of LowBits for another γ2", checkNormOp(contract.Lookup("LowBitsExceed88AVX2"), fullDom, p65)},
		{"the norm of LowBits claimed as the norm", checkNormOp(bad("LowBitsExceed32AVX2", func(c *contract.Contract) { c.Op.Of = "" }), fullDom, p65)},
		{"HintBitPack of another k and ω", checkHintPackOp(contract.Lookup("HintBitPack44AMD64"), p65)},
		{"HintBitPack claiming another ω", checkHintPackOp(bad("HintBitPack65AMD64", func(c *contract.Contract) { c.Op.Params[0]++ }), p65)},
		{"HintBitPack not proven", checkHintPackOp(bad("HintBitPack65AMD64", func(c *contract.Contract) {
			c.Level = map[string]string{Functional: "tested"}
		}), p65)},
		{"BitPack of z without mod± (any word of [0, q))", checkBitPackOp(contract.Lookup("BitPack20AVX2"), fullDom)},
		{"BitPack of γ1 = 2^17 for z of γ1 = 2^19", checkBitPackOp(contract.Lookup("BitPack18AVX2"), zDom)},
		{"the norm of HighBits claimed for LowBits'", checkNormOp(bad("LowBitsExceed32AVX2", func(c *contract.Contract) { c.Op.Of = "HighBits" }), fullDom, p65)},
	} {
		if tc.err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}

// The composition proof holds for the sign stages of ML-DSA-44 as built
// and refutes them with one instruction changed, removed or moved: a
// check skipped, two arguments swapped, a stale polynomial, a count
// dropped, κ advanced wrongly, ω off by one.
func TestComposeProofSignStages(t *testing.T) {
	b := buildRepoAsm(t)
	routine := func(name string) (*x86.File, *x86.Routine) { return asmRoutine(t, b, name) }
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
	// moved puts instruction j's operation at i, keeping i's address.
	moved := func(r *x86.Routine, i, j int) *x86.Routine {
		return changed(r, i, func(in *x86.Insn) { in.Args = append([]x86.Operand(nil), r.Insns[j].Args...) })
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
	// at is the index of the first instruction op with immediate v.
	at := func(r *x86.Routine, op string, v int64) int {
		for i, in := range r.Insns {
			if in.Op == op && len(in.Args) > 0 && in.Args[0].Kind == x86.KImm && in.Args[0].Imm == v {
				return i
			}
		}
		t.Fatalf("no %s $%d", op, v)
		return -1
	}
	z, r0, hint := "SignZ44AVX2", "SignR044AVX2", "SignHint44AVX2"
	rs := map[string]*x86.Routine{}
	fs := map[string]*x86.File{}
	callees := map[string]*x86.Routine{}
	for _, name := range []string{z, r0, hint} {
		fs[name], rs[name] = routine(name)
		for _, c := range contract.Lookup(name).Calls {
			_, callees[c] = routine(c)
		}
	}
	call := func(name string, n int) int { return nthCall(t, rs[name], n) }
	// SignZ's CALL instructions (from 1): ExpandMask 1, NTT 2 to 5, the
	// loop over the rows of w 6 to 9 (the row's product 6, its NTT⁻¹ times
	// 2³² 7), the permutation 10 to 16, SampleInBall 17, NTT(c) 18, then
	// the loop over z's polynomials: MultiplyNTT 19, NTT⁻¹ 20, PolyAdd 21
	// and norm 22.
	// SignR0's loop over the rows: MultiplyNTT 1, NTT⁻¹ 2, PolySub of w[i]
	// 3, LowBitsExceed of it 4. SignHint's: MultiplyNTT 1, NTT⁻¹ 2, the
	// norm of ct0[i] 3, MakeHint of ct0[i] (8 instructions before: the
	// load of its z's base, work; 6: of its r's, wcs2) and w[i] − cs2[i] 4.
	// An edit in a loop changes every pass; the names say row 0's.
	zLoad, rLoad := call(hint, 4)-8, call(hint, 4)-6
	swapped := changed(moved(rs[hint], zLoad, rLoad), rLoad, func(in *x86.Insn) { in.Args = append([]x86.Operand(nil), rs[hint].Insns[zLoad].Args...) })
	for _, tc := range []struct {
		name, routine string
		r             *x86.Routine
		want          string
	}{
		{"as built", z, rs[z], ""},
		{"as built", r0, rs[r0], ""},
		{"as built", hint, rs[hint], ""},
		{"κ + 2 for y[1]", z, changed(rs[z], at(rs[z], "ADDL", 1), imm(2)), "no call of the routine got"},
		{"the check of ‖z[0]‖∞ not ANDed in", z, changed(rs[z], call(z, 22)+3, nil), "the result is not the AND"},
		{"w[0] by the NTT⁻¹ without 2³²", z, moved(rs[z], call(z, 7), call(z, 20)), "which the routine does not"},
		{"cs1[0] by the NTT⁻¹ times 2³²", z, moved(rs[z], call(z, 20), call(z, 7)), "which the routine does not"},
		{"the check of ‖LowBits(w[0] − cs2[0])‖∞ not ANDed in", r0, changed(rs[r0], call(r0, 4)+3, nil), "the result is not the AND"},
		{"w[0] − cs2[0] not computed, w[0] used stale", r0, changed(rs[r0], call(r0, 3), nil), "which the routine does not"},
		{"the check of ‖ct0[0]‖∞ not ANDed in", hint, changed(rs[hint], call(hint, 4)+3, nil), "the result is not the AND"},
		{"MakeHint(w[0] − cs2[0], w[0] − cs2[0])", hint, moved(rs[hint], zLoad, rLoad), "z and r overlap"},
		{"MakeHint(ct0[0], ct0[0])", hint, moved(rs[hint], rLoad, zLoad), "z and r overlap"},
		// The loads swapped, not the offsets: r is work + i·1024, past work from row 1.
		{"MakeHint's arguments swapped", hint, swapped, "outside every region"},
		{"the count of h[0] dropped", hint, changed(rs[hint], call(hint, 4)+3, nil), "the result is not the AND"},
		{"at most ω + 1 ones", hint, changed(rs[hint], at(rs[hint], "MOVL", int64(fips204.MLDSA44.Omega)), imm(int64(fips204.MLDSA44.Omega)+1)), "the result is not the AND"},
	} {
		_, err := proveCompose(fs[tc.routine], tc.r, contract.Lookup(tc.routine), callees, 1<<20)
		t.Logf("%s, %s: %v", tc.routine, tc.name, err)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s, %s: %v", tc.routine, tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s, %s: %v, want an error with %q", tc.routine, tc.name, err, tc.want)
		}
	}
}

// The composition proof holds for SigEncode65AVX2 as built and refutes it
// with an instruction changed or removed (a byte of c̃ not copied, the
// BitPacks of z[0] and z[1] swapped), and refutes steps or a contract
// that get mod± or the hint wrong: BitPack of z without its mod±, z of
// any word (not the precondition's range), the hint in another order, no
// hint precondition.
func TestComposeProofSigEncode(t *testing.T) {
	b := buildRepoAsm(t)
	f, r := asmRoutine(t, b, "SigEncode65AVX2")
	c := contract.Lookup(r.Name)
	callees := map[string]*x86.Routine{}
	for _, name := range c.Calls {
		_, callees[name] = asmRoutine(t, b, name)
	}
	p := c.Compose.P
	changed := func(edits map[int]func(*x86.Insn)) *x86.Routine {
		x := *r
		x.Insns = nil
		for i, in := range r.Insns {
			e, ok := edits[i]
			switch {
			case !ok:
				x.Insns = append(x.Insns, in)
			case e != nil:
				y := *in
				y.Args = append([]x86.Operand(nil), in.Args...)
				e(&y)
				x.Insns = append(x.Insns, &y)
			}
		}
		return &x
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
	withCompose := func(edit func(*contract.Compose)) *contract.Contract {
		x := *c
		cp := *c.Compose
		edit(&cp)
		x.Compose = &cp
		return &x
	}
	// The copy of c̃'s second quadword: a load of 8(SI) and its store.
	copy8 := -1
	for i, in := range r.Insns {
		if in.Op == "MOVQ" && len(in.Args) == 2 && in.Args[0].Kind == x86.KMem && in.Args[0].Mem.Disp == 8 && copy8 < 0 {
			copy8 = i
		}
	}
	// The LEAQs of σ + 48 and σ + 688, where z[0] and z[1] are packed: the
	// first LEAQ before each of the first two BitPack calls (after the
	// call before it), the output's address.
	sAt := map[int64]int{}
	from, packs := 0, 0
	for i, in := range r.Insns {
		if in.Op != "CALL" || packs == 2 {
			continue
		}
		if strings.HasPrefix(in.Args[0].Mem.Name, "BitPack") {
			want := int64(48 + 640*packs) // after c̃ (λ/4 = 48 bytes), z[i] packs to 640
			at := -1
			for j := from; j < i && at < 0; j++ {
				if x := r.Insns[j]; x.Op == "LEAQ" && len(x.Args) == 2 && x.Args[0].Kind == x86.KMem {
					at = j
				}
			}
			if at < 0 || r.Insns[at].Args[0].Mem.Disp != want {
				t.Fatalf("BitPack call %d: no LEAQ of σ + %d before it", packs, want)
			}
			sAt[want] = at
			packs++
		}
		from = i + 1
	}
	if packs != 2 {
		t.Fatalf("%d BitPack calls found, want two at least", packs)
	}
	for _, tc := range []struct {
		name string
		r    *x86.Routine
		c    *contract.Contract
		want string
	}{
		{"as built", r, c, ""},
		{"bytes 8 to 15 of c̃ not copied", changed(map[int]func(*x86.Insn){copy8: nil, copy8 + 1: nil}), c, "byte 8 of sigma"},
		{"the BitPacks of z[0] and z[1] swapped", changed(map[int]func(*x86.Insn){sAt[48]: disp(688), sAt[688]: disp(48)}), c, "byte 48 of sigma"},
		{"BitPack of z without mod±", r, withCompose(func(cp *contract.Compose) {
			cp.Steps = func(o fips204.SignOps[any, any], in map[string][]any) map[string][]any {
				sigma := append([]any(nil), in["cTilde"]...)
				for _, z := range in["z"] {
					sigma = append(sigma, o.BitPack(z, p.Gamma1-1, p.Gamma1)...)
				}
				return map[string][]any{"sigma": append(sigma, o.HintBitPack(in["h"])...)}
			}
		}), "not mod± q"},
		{"z of any word", r, withCompose(func(cp *contract.Compose) { cp.InRange = nil }), "takes them in"},
		{"the hint in another order", r, withCompose(func(cp *contract.Compose) {
			cp.Steps = func(o fips204.SignOps[any, any], in map[string][]any) map[string][]any {
				h := append([]any{in["h"][1], in["h"][0]}, in["h"][2:]...)
				return map[string][]any{"sigma": fips204.SignEncodeOver(o, p, in["cTilde"], in["z"], h)}
			}
		}), "which the routine does not call"},
		{"no hint precondition", r, withCompose(func(cp *contract.Compose) { cp.Hint = "" }), "the routine's hint input"},
	} {
		_, err := proveCompose(f, tc.r, tc.c, callees, 1<<20)
		t.Logf("%s: %v", tc.name, err)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}
