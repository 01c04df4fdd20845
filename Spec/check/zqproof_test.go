package check

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
	"github.com/vg-crypto/vg/Spec/x86"
)

// zqRoutines are the routines whose contract is a map over ℤq.
var zqRoutines = [][2]string{
	{"ntt_amd64.s", "NTTAVX2"},
	{"nttinverse_amd64.s", "NTTInverseAVX2"},
	{"nttmul_amd64.s", "MultiplyNTTAVX2"},
	{"nttmulacc_amd64.s", "MultiplyAccNTT4AVX2"},
	{"nttmulacc_amd64.s", "MultiplyAccNTT5AVX2"},
	{"nttmulacc_amd64.s", "MultiplyAccNTT7AVX2"},
	{"ntt_amd64.s", "NTTAMD64"},
	{"nttinverse_amd64.s", "NTTInverseAMD64"},
	{"nttmul_amd64.s", "MultiplyNTTAMD64"},
	{"nttmulacc_amd64.s", "MultiplyAccNTT4AMD64"},
	{"nttmulacc_amd64.s", "MultiplyAccNTT5AMD64"},
	{"nttmulacc_amd64.s", "MultiplyAccNTT7AMD64"},
	{"polyadd_amd64.s", "PolyAddAVX2"},
	{"polyadd_amd64.s", "PolyAddAMD64"},
	{"polysub_amd64.s", "PolySubAVX2"},
	{"polysub_amd64.s", "PolySubAMD64"},
	{"tomontgomery_amd64.s", "ToMontgomeryPolyAVX2"},
	{"tomontgomery_amd64.s", "ToMontgomeryPolyAMD64"},
	{"tomontgomery_amd64.s", "ToMontgomeryT1PolyAVX2"},
	{"tomontgomery_amd64.s", "ToMontgomeryT1PolyAMD64"},
}

func parseAsm(t *testing.T, file string) *x86.File {
	t.Helper()
	src, err := os.ReadFile("../../go/asm/" + file)
	if err != nil {
		t.Fatal(err)
	}
	f, err := x86.ParseFile(file, string(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestProveZqRoutines(t *testing.T) {
	for _, tc := range zqRoutines {
		f := parseAsm(t, tc[0])
		d, err := proveZq(f, f.Routine(tc[1]), contract.Lookup(tc[1]), 1<<22)
		if err != nil {
			t.Errorf("%s: %v", tc[1], err)
			continue
		}
		t.Logf("%s: %s", tc[1], d)
	}
}

// mutate returns the routine of file with old replaced by new (n times, or
// every time for n < 0), which must occur.
func mutate(t *testing.T, file string, n int, pairs ...string) *x86.File {
	t.Helper()
	src, err := os.ReadFile("../../go/asm/" + file)
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			t.Fatalf("%s: %q not found", file, pairs[i])
		}
		s = strings.Replace(s, pairs[i], pairs[i+1], n)
	}
	f, err := x86.ParseFile(file, s)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// roundingEntry is the table entry of NTTAVX2's final reduction that holds
// 2²² in every lane: x − q·⌊(x + 2²²)/2²³⌋.
func roundingEntry(v string) []string {
	var p []string
	for l := 0; l < 8; l++ {
		p = append(p, fmt.Sprintf("DATA nttTwiddles<>+%d(SB)/4, $0x00400000", 480+4*l),
			fmt.Sprintf("DATA nttTwiddles<>+%d(SB)/4, $%s", 480+4*l, v))
	}
	return p
}

// bump returns the replacement that adds 1 to the 32-bit DATA word at
// table+off.
func bump(t *testing.T, file, table string, off int) []string {
	src, err := os.ReadFile("../../go/asm/" + file)
	if err != nil {
		t.Fatal(err)
	}
	prefix := fmt.Sprintf("DATA %s<>+%d(SB)/4, $", table, off)
	for _, line := range strings.Split(string(src), "\n") {
		if v, ok := strings.CutPrefix(line, prefix); ok {
			x, err := strconv.ParseUint(v, 0, 32)
			if err != nil {
				t.Fatal(err)
			}
			return []string{line, fmt.Sprintf("%s%#x", prefix, x+1)}
		}
	}
	t.Fatalf("%s: no %s", file, prefix)
	return nil
}

// backdoor makes MultiplyNTTAVX2 add q to out[i] (i < 8) when it equals
// a[i]: wrong only for about one input in q/8, so the random test
// almost never sees it. With a[0] = 1 and b[0] = 2³² mod q, out[0] should be
// 1·2³²·2⁻³² = 1 = a[0].
var backdoor = []string{"VPMINUD  Y2, Y0, Y0\n\tVMOVDQU  Y0, (DI)",
	"VPMINUD  Y2, Y0, Y0\n\tVMOVDQU  (SI), Y4\n\tVPCMPGTD Y4, Y0, Y3\n\tVPCMPGTD Y0, Y4, Y5\n\tVPOR     Y3, Y5, Y3\n\tVPANDN   Y15, Y3, Y3\n\tVPADDD   Y3, Y0, Y0\n\tVMOVDQU  Y0, (DI)"}

func TestBackdoorIsABug(t *testing.T) {
	f := mutate(t, "nttmul_amd64.s", 1, backdoor...)
	c := contract.Lookup("MultiplyNTTAVX2")
	in := c.Gen(rand.New(rand.NewPCG(1, 2)))
	binary.LittleEndian.PutUint32(in["a"], 1)
	binary.LittleEndian.PutUint32(in["b"], uint32((uint64(1)<<32)%qMod))
	out, ret, err := concRun(f, f.Routine(c.Symbol), c, copyBuffers(in), rand.New(rand.NewPCG(1, 3)), 1<<20, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Check(in, out, ret); err == nil {
		t.Fatal("the backdoor does not change the output on its trigger")
	}
	if err := functional(f, f.Routine(c.Symbol), c, Options{Runs: 2000, MaxSteps: 1 << 20}, nil); err != nil {
		t.Logf("random test found it: %v", err)
	}
}

// Each planted bug must make the proof fail; each rewriting that keeps
// the function must still be proven (the proof is not merely strict).
func TestProveZqMutants(t *testing.T) {
	for _, tc := range []struct {
		name, file, sym string
		n               int
		pairs           []string
		ok              bool
	}{
		{"rounding constant 2²³−1", "ntt_amd64.s", "NTTAVX2", 1, roundingEntry("0x007fffff"), false},
		{"rounding constant 2²²+1 (same function)", "ntt_amd64.s", "NTTAVX2", 1, roundingEntry("0x00400001"), true},
		{"one twiddle off by one", "ntt_amd64.s", "NTTAVX2", 1,
			bump(t, "ntt_amd64.s", "nttTwiddles", 32), false},
		{"odd lanes use the even twiddles", "ntt_amd64.s", "NTTAVX2", 1,
			[]string{"VPMULDQ     960(R8), Y5, Y5", "VPMULDQ     896(R8), Y5, Y5"}, false},
		{"conditional add of q subtracts q", "ntt_amd64.s", "NTTAVX2", 1,
			[]string{"VPADDD      Y15, Y9, Y8", "VPSUBD      Y15, Y9, Y8"}, false},
		{"conditional add of a wrong constant (the rounding term)", "ntt_amd64.s", "NTTAVX2", 1,
			[]string{"VPADDD      Y15, Y9, Y8", "VPADDD      nttTwiddles<>+480(SB), Y9, Y8"}, false},
		{"unsigned maximum for the minimum", "ntt_amd64.s", "NTTAVX2", 1,
			[]string{"VPMINUD     Y8, Y9, Y9", "VPMAXUD     Y8, Y9, Y9"}, false},
		{"minimum written to the temporary", "ntt_amd64.s", "NTTAVX2", 1,
			[]string{"VPMINUD     Y8, Y9, Y9", "VPMINUD     Y8, Y9, Y8"}, false},
		{"the minimum's operands swapped (same function)", "ntt_amd64.s", "NTTAVX2", -1,
			[]string{"VPMINUD     Y8, Y9, Y9", "VPMINUD     Y9, Y8, Y9"}, true},
		{"a last-layer twiddle off by one", "nttinverse_amd64.s", "NTTInverseAVX2", 1,
			bump(t, "nttinverse_amd64.s", "nttInverseTwiddles", 32), false},
		{"q⁻¹ wrong in one lane", "nttmul_amd64.s", "MultiplyNTTAVX2", 1,
			[]string{"DATA mulConsts<>+40(SB)/4, $0x03802001", "DATA mulConsts<>+40(SB)/4, $0x03802003"}, false},
		{"q⁻¹ changed in an odd lane, which VPMULDQ never reads", "nttmul_amd64.s", "MultiplyNTTAVX2", 1,
			[]string{"DATA mulConsts<>+44(SB)/4, $0x03802001", "DATA mulConsts<>+44(SB)/4, $0x03802003"}, true},
		{"no final conditional add of q", "nttmul_amd64.s", "MultiplyNTTAVX2", 1,
			[]string{"VPMINUD  Y2, Y0, Y0\n\tVMOVDQU  Y0, (DI)", "VMOVDQU  Y0, (DI)"}, false},
		{"conditional add of q⁻¹ for q", "nttmul_amd64.s", "MultiplyNTTAVX2", 1,
			[]string{"VPADDD   Y15, Y0, Y2", "VPADDD   Y14, Y0, Y2"}, false},
		{"a backdoor on a rare input", "nttmul_amd64.s", "MultiplyNTTAVX2", 1, backdoor, false},
		{"q + x for x + q (same function)", "nttmul_amd64.s", "MultiplyNTTAVX2", -1,
			[]string{"VPADDD   Y15, Y0, Y2", "VPADDD   Y0, Y15, Y2"}, true},
		{"a term of the row dropped", "nttmulacc_amd64.s", "MultiplyAccNTT4AVX2", 1,
			[]string{"VPADDQ", "VPSUBQ"}, false},
		{"sum not reduced by q", "polyadd_amd64.s", "PolyAddAVX2", 1,
			[]string{"VPMINUD Y1, Y0, Y0\n", ""}, false},
		{"conditional subtraction of q adds q", "polyadd_amd64.s", "PolyAddAVX2", 1,
			[]string{"VPSUBD  Y15, Y0, Y1", "VPADDD  Y15, Y0, Y1"}, false},
		{"conditional subtraction computes q − x", "polyadd_amd64.s", "PolyAddAVX2", 1,
			[]string{"VPSUBD  Y15, Y0, Y1", "VPSUBD  Y0, Y15, Y1"}, false},
		{"sign mask by PSRAL 30 (same function: |w − b| < q < 2³⁰)", "polysub_amd64.s", "PolySubAMD64", -1,
			[]string{"PSRAL $0x1f,", "PSRAL $0x1e,"}, true},
		{"difference reversed in one group", "polysub_amd64.s", "PolySubAMD64", 1,
			[]string{"\tPSUBL X1, X0\n", "\tPSUBL X0, X1\n\tMOVO  X1, X0\n"}, false},
		{"the factor 2³² instead of 2ᵈ·2³² (a consistent Montgomery product)", "tomontgomery_amd64.s", "ToMontgomeryT1PolyAVX2", -1,
			[]string{"toMontgomeryT1Consts<>+32(SB), Y", "toMontgomeryConsts<>+32(SB), Y",
				"toMontgomeryT1Consts<>+64(SB), Y", "toMontgomeryConsts<>+64(SB), Y"}, false},
		{"q⁻¹ one off in an even lane", "tomontgomery_amd64.s", "ToMontgomeryPolyAMD64", 1,
			bump(t, "tomontgomery_amd64.s", "toMontgomeryConstsSSE2", 32), false},
	} {
		f := mutate(t, tc.file, tc.n, tc.pairs...)
		_, err := proveZq(f, f.Routine(tc.sym), contract.Lookup(tc.sym), 1<<22)
		switch {
		case tc.ok && err != nil:
			t.Errorf("%s: %s: not proven: %v", tc.sym, tc.name, err)
		case !tc.ok && err == nil:
			t.Errorf("%s: %s: proven", tc.sym, tc.name)
		default:
			t.Logf("%s: %s: %v", tc.sym, tc.name, err)
		}
	}
}

// evalQ evaluates a ℤq form at the inputs x.
func evalQ(f qform, x []uint64) uint64 {
	s := uint64(0)
	for _, t := range f {
		v := uint64(t.c)
		switch degree(t.k) {
		case 1:
			v = v * x[t.k-1] % qMod
		case 2:
			v = v * x[t.k>>32-1] % qMod * x[t.k&0xffffffff-1] % qMod
		}
		s = (s + v) % qMod
	}
	return s
}

// The domain is sound where it matters: run in lockstep with the concrete
// model on random inputs, every lane and word it describes after every
// instruction has a value in its interval, congruent to its ℤq form at
// the inputs, whose bits are the concrete ones.
func TestZqDomainSound(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, tc := range zqRoutines {
		f := parseAsm(t, tc[0])
		r, c := f.Routine(tc[1]), contract.Lookup(tc[1])
		// Random inputs, then the corners of the precondition: all 0, all
		// q − 1, and each coefficient 0 or q − 1 at random.
		for run := 0; run < 6; run++ {
			d, zm, _, _, err := zqMachine(f, r, c)
			if err != nil {
				t.Fatal(err)
			}
			in := c.Gen(rng)
			for _, name := range c.Zq.In {
				for k := 0; run >= 3 && k < len(in[name])/4; k++ {
					v := [3]uint32{0, fips204.Q - 1, fips204.Q - 1 - uint32(rng.IntN(2))*(fips204.Q-1)}[run-3]
					binary.LittleEndian.PutUint32(in[name][4*k:], v)
				}
			}
			cm, _ := setup[uint64](x86.Conc{}, func(v uint64, _, _ bool) uint64 { return v }, f, r, c, copyBuffers(in), rng)
			var x []uint64
			for _, name := range c.Zq.In {
				for k := 0; k < len(in[name])/4; k++ {
					x = append(x, uint64(binary.LittleEndian.Uint32(in[name][4*k:])))
				}
			}
			member := func(z *zint, bitsMod uint64, v uint64) bool {
				// The X in [lo, hi] with X ≡ v (mod bitsMod), if the interval
				// holds at most one; then X mod q must match the form.
				if uint64(z.hi-z.lo) >= bitsMod {
					return true // several candidates: nothing to compare
				}
				X := z.lo + int64((v-uint64(z.lo))%bitsMod)
				if bitsMod == 0 {
					X = int64(v)
				}
				if X > z.hi {
					return false
				}
				return !z.qok || evalQ(z.q, x) == modq(X)
			}
			checked := 0
			for !zm.Done {
				in := zm.Routine.Insns[zm.PC]
				if err := zm.Step(); err != nil {
					t.Fatal(err)
				}
				if err := cm.Step(); err != nil {
					t.Fatal(err)
				}
				for i := range zm.Vec {
					for w := 0; w < 4; w++ {
						a, v := zm.Vec[i][w], cm.Vec[i][w]
						for j := 0; j < 2; j++ {
							if l := d.lane(a, j); l != nil {
								checked++
								if !member(l, 1<<32, uint64(uint32(v>>(32*j)))) {
									t.Fatalf("%s run %d: after %s, Y%d word %d lane %d = %#x outside [%d, %d] or off its form", tc[1], run, in, i, w, j, uint32(v>>(32*j)), l.lo, l.hi)
								}
							}
						}
						if z := d.wordInt(a); z != nil {
							checked++
							if int64(v) < z.lo || int64(v) > z.hi || z.qok && evalQ(z.q, x) != modq(int64(v)) {
								t.Fatalf("%s run %d: after %s, Y%d word %d = %d outside [%d, %d] or off its form", tc[1], run, in, i, w, int64(v), z.lo, z.hi)
							}
						}
					}
				}
			}
			if run == 0 {
				t.Logf("%s: %d lane and word facts checked", tc[1], checked)
			}
		}
	}
}

// A factor whose high lane is 0 reads its low lane unsigned: the lane
// itself when it lies in [0, 2³²), otherwise a new integer in [0, 2³²)
// with the lane's bits (PMULUDQ of a 64-bit product's low half); other
// operations keep the lane's own interval.
func TestUnsignedReading(t *testing.T) {
	d := &zdom{}
	x := d.atom(0, int64(qMod)-1)
	if got := d.mulOperand(lanes(x, d.constInt(0))); got != x {
		t.Errorf("lane in [0, q): read as %v, want the lane itself", got)
	}
	p, _ := d.mulInt(x, d.constInt(58728449)) // x·q⁻¹, up to 2⁴⁹
	if d.wordInt(lanes(p, d.constInt(0))) != nil {
		t.Error("a wide lane read as an integer outside a product")
	}
	u := d.mulOperand(lanes(p, d.constInt(0)))
	switch {
	case u == nil || u == p:
		t.Fatalf("wide lane: read as %v, want a new integer", u)
	case u.lo != 0 || u.hi != 1<<32-1:
		t.Errorf("wide lane: read in [%d, %d], want [0, 2³²)", u.lo, u.hi)
	case !u.tok || !qequalT(u.t, p.tf()):
		t.Errorf("wide lane: its bits are not the lane's")
	case u.qok:
		t.Errorf("wide lane: a value mod q claimed for X mod 2³²")
	}
	if d.mulOperand(lanes(p, nil)) != nil {
		t.Error("a word with an unknown high lane read as an integer")
	}
}

func qequalT(a, b tform) bool {
	if a.k != b.k || len(a.ts) != len(b.ts) {
		return false
	}
	for i := range a.ts {
		if a.ts[i] != b.ts[i] {
			return false
		}
	}
	return true
}

// The unsigned minimum (VPMINUD, as Ite(Ult(x, y), x, y)): x + q against
// x for x in (−q, q) is the conditional add of q, proven to give [0, q)
// and x mod q; a wrong constant or the maximum is not.
func TestUnsignedMinimum(t *testing.T) {
	d := &zdom{}
	x := d.atom(-int64(qMod)+1, int64(qMod)-1)
	x.q, x.qok = qform{{1, 1}}, true // the input variable 0
	word := func(l *zint) *zw { return lanes(l, d.constInt(0)) }
	plus := func(c int64) *zw {
		l, _ := d.laneAdd(x, d.constInt(c), 1)
		return word(l)
	}
	a, b := word(x), plus(int64(qMod))
	for _, tc := range []struct {
		name string
		r    *zw
	}{
		{"min(x, x + q)", d.Ite(d.Ult(a, b), a, b)},
		{"min(x + q, x)", d.Ite(d.Ult(b, a), b, a)},
	} {
		l := d.lane(tc.r, 0)
		switch {
		case l == nil:
			t.Errorf("%s: unknown", tc.name)
		case l.lo != 0 || l.hi != int64(qMod)-1:
			t.Errorf("%s: in [%d, %d], want [0, q)", tc.name, l.lo, l.hi)
		case !l.qok || !qequal(l.q, x.q):
			t.Errorf("%s: not x mod q", tc.name)
		case !isZero(d.lane(tc.r, 1)):
			t.Errorf("%s: high lane not 0", tc.name)
		}
	}
	for _, c := range []int64{int64(qMod) - 1, int64(qMod) + 1, 1 << 23} {
		b := plus(c)
		l := d.lane(d.Ite(d.Ult(a, b), a, b), 0)
		if l != nil && l.qok && qequal(l.q, x.q) && l.lo >= 0 && l.hi < int64(qMod) {
			t.Errorf("min(x, x + %d) proven to be x mod q in [0, q)", c)
		}
	}
	if l := d.lane(d.Ite(d.Ult(a, b), b, a), 0); l != nil {
		t.Errorf("the maximum read as a minimum: %v", l)
	}
	negx, _ := d.laneAdd(d.constInt(int64(qMod)), x, -1) // q − x: operands of the subtraction swapped
	if l := d.lane(d.Ite(d.Ult(a, word(negx)), a, word(negx)), 0); l != nil && l.qok && qequal(l.q, x.q) {
		t.Error("min(x, q − x) proven to be x mod q")
	}
	// Decided by the intervals only when one lies below the other, bits
	// compared: not when they overlap by one value.
	u, v, w := d.atom(1<<32, 1<<32+10), d.atom(10, 20), d.atom(-(1<<32)+10, -(1<<32)+20)
	if d.umin(u, v) != u || d.umin(v, u) != u || d.umin(w, u) != u {
		t.Error("min of [2³², 2³² + 10] and [10, 20] (or [−2³² + 10, −2³² + 20]) not the first")
	}
	if r := d.umin(d.atom(0, 11), v); r != nil {
		t.Errorf("min of [0, 11] and [10, 20], two unrelated integers, decided: [%d, %d]", r.lo, r.hi)
	}
	if d.lane(d.Ite(d.Ult(lanes(x, nil), b), lanes(x, nil), b), 0) != nil {
		t.Error("a word with an unknown high lane compared by its low lane")
	}
}

// umin is sound: on random affine functions of one base, around the
// multiples of 2³², the chosen integer's bits are the minimum of the
// bits, inside the result's interval.
func TestUnsignedMinimumSound(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	d := &zdom{}
	decided := 0
	for run := 0; run < 3000; run++ {
		span := int64(1 + rng.IntN(1<<uint(1+rng.IntN(26))))
		lo := int64(rng.IntN(5)-2)<<32 + int64(rng.IntN(1<<20)) - 1<<19 - span/2
		base := d.atom(lo, lo+span)
		slopes := []int64{0, 1, -1, 2, -3}
		fn := func() *zint {
			a := slopes[rng.IntN(len(slopes))]
			b := int64(rng.IntN(5)-2)<<32 + int64(rng.IntN(1<<24)) - 1<<23
			return d.finish(&zint{lo: math.MinInt64 / 4, hi: math.MaxInt64 / 4,
				pw: &pwise{base: base, ps: []piece{{base.lo, base.hi, a, b}}}})
		}
		x, y := fn(), fn()
		r := d.umin(x, y)
		if r == nil {
			continue
		}
		decided++
		for k := 0; k < 64; k++ {
			B := base.lo + int64(rng.Int64N(span+1))
			if k < 2 {
				B = []int64{base.lo, base.hi}[k]
			}
			val := func(z *zint) (int64, bool) {
				if z.pw == nil {
					return 0, false
				}
				for _, pc := range z.pw.ps {
					if pc.lo <= B && B <= pc.hi {
						return pc.a*B + pc.b, true
					}
				}
				return 0, false
			}
			X, _ := val(x)
			Y, _ := val(y)
			want := min(uint32(X), uint32(Y))
			got, ok := val(r)
			switch {
			case !ok:
				t.Fatalf("run %d: B = %d not covered by the result's pieces", run, B)
			case uint32(got) != want:
				t.Fatalf("run %d: B = %d: bits %#x, want min(%#x, %#x)", run, B, uint32(got), uint32(X), uint32(Y))
			case got < r.lo || got > r.hi:
				t.Fatalf("run %d: B = %d: %d outside [%d, %d]", run, B, got, r.lo, r.hi)
			}
		}
	}
	if decided < 1000 {
		t.Errorf("only %d of 3000 minima decided", decided)
	}
}
