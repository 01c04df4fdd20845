package check

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
	"github.com/vg-crypto/vg/Spec/x86"
)

// hintUnpackTestPlan is Proofs' plan of the HintBitUnpack routines
// (Emit/hintbitunpack.go), which Spec/check's tests may not import.
func hintUnpackTestPlan() *HintUnpackPlan {
	return &HintUnpackPlan{Poly: "poly", Coef: "coef", Pad: "pad",
		Keep: map[string][]string{
			"poly": {"DI", "R10", "frame+0"},
			"coef": {"DI", "R10", "frame+0", "frame+8"},
			"pad":  {"DI", "R10"},
		},
		Mask: [4]string{"R8", "R9", "R11", "R14"}, Lo: "R12", Bad: "R13"}
}

// The HintBitUnpack proof holds for the routines as built: ML-DSA-44's,
// and ML-DSA-65's and -87's with VG_LONG_PROOFS set (vg prove proves all
// three, with Proofs' plan, on every CI run).
func TestHintUnpackProof(t *testing.T) {
	names := []string{"HintBitUnpack44AMD64", "HintBitUnpack65AMD64", "HintBitUnpack87AMD64"}
	if testing.Short() || os.Getenv("VG_LONG_PROOFS") == "" {
		t.Logf("%v: skipped (set VG_LONG_PROOFS=1)", names[1:])
		names = names[:1]
	}
	for _, name := range names {
		f, r, _ := builtRoutine(t, name)
		t0 := time.Now()
		fn, err := proveHintUnpack(f, r, contract.Lookup(name), hintUnpackTestPlan(), 20000)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("%s (%v): %s", name, time.Since(t0), fn)
		if !strings.Contains(fn, "proven for every encoding") {
			t.Errorf("%s: %s", name, fn)
		}
	}
}

// hintUnpackModel runs hintUnpackNext from Poly (0, 0) on y with concrete
// values, as the proof's heads follow one another in a run: the result
// and h.
func hintUnpackModel(p fips204.Params, y []byte) (uint64, []fips204.Poly) {
	d := x86.Conc{}
	k, ω := p.K, p.Omega
	h := make([]fips204.Poly, k)
	yv := make([]uint64, len(y))
	for t := range y {
		yv[t] = uint64(y[t])
	}
	key := hintUnpackKey{kind: hkPoly}
	var v uint64
	var mask [4]uint64
	for {
		count := 0
		if key.kind == hkPoly {
			count = int(y[ω+key.i])
		}
		out := hintUnpackNext[uint64](d, k, ω, key, count, yv, v, mask)
		if out.next == nil {
			return out.ret, h
		}
		if out.expand {
			for c := range h[key.i] {
				h[key.i][c] = int32(out.mask[c/64] >> (c % 64) & 1)
			}
		}
		key, v, mask = *out.next, out.v, out.mask
	}
}

// checkHintUnpackModel fails t where hintUnpackModel and Spec's
// HintBitUnpack differ on y.
func checkHintUnpackModel(t *testing.T, p fips204.Params, y []byte) {
	t.Helper()
	ret, h := hintUnpackModel(p, y)
	want, err := fips204.HintBitUnpack(p, y)
	if ret != b2u64(err == nil) {
		t.Fatalf("%s: %x: result %d, Spec %v", p.Name, y, ret, err)
	}
	for i := range want {
		if h[i] != want[i] {
			t.Fatalf("%s: %x: h[%d] differs", p.Name, y, i)
		}
	}
}

// hintUnpackNext, run over an encoding, is Spec's HintBitUnpack: the
// loops of lines 3, 7 and 16 around Spec's steps, ⊥ deferred to V, and h
// from the mask. Every count at every polynomial and Index it can start
// at (the counts before it putting Index positions into polynomial 0),
// each with its positions in order, one out of order or equal, or a
// padding byte set (the counts 0 to ω + 1 and 255: HintBitUnpackCount,
// tested at every count in Spec/fips204, rejects those above ω alike),
// with -short for ML-DSA-44 only; then the encodings of hints (none, ω
// ones, all in one polynomial, random), and those changed where Algorithm
// 21 checks: a count set to each value from 0 to ω + 1, a position made
// equal to the one before or one below it, a padding byte set, a random
// byte.
func TestHintUnpackNextIsAlgorithm21(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	for _, p := range []fips204.Params{fips204.MLDSA44, fips204.MLDSA65, fips204.MLDSA87} {
		k, ω := p.K, p.Omega
		for i := 0; i < k && (!testing.Short() || p.Name == "ML-DSA-44"); i++ {
			for index := 0; index <= ω; index++ {
				if i == 0 && index > 0 {
					break
				}
				for count := 0; count <= ω+2; count++ {
					if count == ω+2 {
						count = 255
					}
					y := make([]byte, ω+k)
					for t := 0; t < index; t++ {
						y[t] = byte(t)
					}
					for i2 := 0; i2 < i; i2++ {
						y[ω+i2] = byte(index)
					}
					for i2 := i; i2 < k; i2++ {
						y[ω+i2] = byte(count)
					}
					for t := index; t < count && t < ω; t++ {
						y[t] = byte(3 * (t - index))
					}
					checkHintUnpackModel(t, p, y)
					if n := min(count, ω) - index; n >= 2 {
						z := append([]byte(nil), y...)
						at := index + 1 + (count*7+i)%(n-1)
						z[at] = z[at-1] - byte(count%2) // equal, or below
						checkHintUnpackModel(t, p, z)
					}
					if count >= index && count < ω {
						z := append([]byte(nil), y...)
						z[count+(count*5+i)%(ω-count)] = byte(1 + count%255)
						checkHintUnpackModel(t, p, z)
					}
				}
			}
		}
		for it := 0; it < 400; it++ {
			h := make([]fips204.Poly, k)
			ones := []int{0, ω, ω, rng.IntN(ω + 1)}[it%4]
			lo, hi := 0, 256*k
			if it%8 == 2 {
				lo = 256 * rng.IntN(k)
				hi = lo + 256
			}
			for set := 0; set < ones; {
				c := lo + rng.IntN(hi-lo)
				if h[c/256][c%256] == 0 {
					h[c/256][c%256] = 1
					set++
				}
			}
			y := fips204.HintBitPack(p, h)
			checkHintUnpackModel(t, p, y)
			z := append([]byte(nil), y...)
			i := rng.IntN(k)
			for v := 0; v <= ω+1; v++ {
				z[ω+i] = byte(v)
				checkHintUnpackModel(t, p, z)
			}
			last := int(y[ω+k-1])
			for _, d := range []int{0, 1} {
				if last >= 2 {
					z = append(z[:0], y...)
					at := 1 + rng.IntN(last-1)
					z[at] = z[at-1] - byte(d)
					checkHintUnpackModel(t, p, z)
				}
			}
			if last < ω {
				z = append(z[:0], y...)
				z[last+rng.IntN(ω-last)] = byte(1 + rng.IntN(255))
				checkHintUnpackModel(t, p, z)
			}
			z = append(z[:0], y...)
			z[rng.IntN(ω+k)] = byte(rng.Uint32())
			checkHintUnpackModel(t, p, z)
		}
	}
}

// hintUnpackNext's adapters at every state they read: hintGe and
// hintNonzero at every pair of bytes, hintMaskSet at every position b on
// masks empty, full and of one other bit, and First: HintBitUnpackPosition
// at every Index and First below it (as a Coef head after a polynomial's
// first position stands for) does what it does with First = Index − 1, on
// bytes and conditions that name their origin.
func TestHintUnpackAdaptersEveryState(t *testing.T) {
	d := x86.Conc{}
	for a := uint64(0); a < 256; a++ {
		if got := hintNonzero[uint64](d, a); got != b2u64(a != 0) {
			t.Fatalf("hintNonzero(%d) = %d", a, got)
		}
		for b := uint64(0); b < 256; b++ {
			if got := hintGe[uint64](d, a, b); got != b2u64(a >= b) {
				t.Fatalf("hintGe(%d, %d) = %d", a, b, got)
			}
		}
	}
	for b := 0; b < 256; b++ {
		for _, m := range [][4]uint64{{}, {^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}, {1 << 17, 0, 1 << 63, 0}} {
			want := m
			want[b/64] |= 1 << (b % 64)
			if got := hintMaskSet[uint64](d, m, uint64(b)); got != want {
				t.Fatalf("hintMaskSet(%x, %d) = %x, want %x", m, b, got, want)
			}
		}
	}
	y := make([]int, 256)
	for t := range y {
		y[t] = 1000 + t
	}
	run := func(index, first int, r bool) string {
		var log []string
		ret := fips204.HintBitUnpackPosition(y, index, first, func(a, b int) string { return fmt.Sprintf("%d ≥ %d", a, b) },
			func(c string) bool { log = append(log, "bot "+c); return r },
			func(b int) { log = append(log, fmt.Sprintf("set %d", b)) })
		return fmt.Sprint(ret, log)
	}
	for index := 1; index < 255; index++ {
		for first := 0; first < index; first++ {
			for _, r := range []bool{false, true} {
				if got, want := run(index, first, r), run(index, index-1, r); got != want {
					t.Fatalf("Index %d, First %d, bot %v: %s, with First = Index − 1 %s", index, first, r, got, want)
				}
			}
		}
	}
}

// The HintBitUnpack proof refutes bugs planted in HintBitUnpack44AMD64 (k
// = 4, ω = 80), most of which random encodings do not reach, and wrong
// plans.
func TestHintUnpackProofRefutes(t *testing.T) {
	const sym = "HintBitUnpack44AMD64"
	order := "\tSBBQ    SI, SI\n"
	zeroLo := "\tXORL    R12, R12\n"
	for _, tc := range []struct {
		name  string
		pairs []string
		plan  func(*HintUnpackPlan)
		want  string
	}{
		{"a position out of order accepted at Index 40", []string{order,
			order + "\tCMPQ R10, $0x28\n\tJNE ok\n\tXORL SI, SI\nok:\n"}, nil, "flag"},
		{"L not reset at polynomial 2", []string{zeroLo,
			"\tCMPQ AX, $0x02\n\tJEQ ok\n\tXORL R12, R12\nok:\n"}, nil, "least next position"},
		{"a count of ω rejected", []string{"CMPQ    DX, $0x00000050\n\tJHI     fail", "CMPQ    DX, $0x0000004f\n\tJHI     fail"}, nil, "RET where"},
		{"a count above ω accepted", []string{"CMPQ    DX, $0x00000050\n\tJHI     fail", "CMPQ    DX, $0x00000051\n\tJHI     fail"}, nil, "Algorithm 21"},
		{"a count below Index accepted where it is one below", []string{"\tCMPQ    DX, R10\n\tJCS     fail\n",
			"\tLEAQ 1(DX), SI\n\tCMPQ SI, R10\n\tJCS fail\n"}, nil, "Algorithm 21"},
		{"the last padding byte not checked", []string{"\tORQ     BX, R13\n",
			"\tCMPQ R10, $0x4f\n\tJEQ ok\n\tORQ BX, R13\nok:\n"}, nil, "flag"},
		{"the position at Index 30 read as 0", []string{"\tLEAQ    1(BX), R12\n",
			"\tLEAQ    1(BX), R12\n\tCMPQ R10, $0x1e\n\tJNE ok\n\tMOVL $0x00000000, SI\n\tCMOVQEQ SI, BX\nok:\n"}, nil, "mask"},
		{"a branch on a position", []string{"\tLEAQ    1(BX), R12\n",
			"\tLEAQ    1(BX), R12\n\tTESTQ BX, BX\n\tJEQ ok\nok:\n"}, nil, "branch on data"},
		{"ok where the flag is set", []string{"\tCMOVQNE AX, DX\n", "\tCMOVQEQ AX, DX\n"}, nil, "result"},
		{"word 3 of the mask never set", []string{"\tCMPQ    BX, $0x00000003\n", "\tCMPQ    BX, $0x00000004\n"}, nil, "mask"},
		{"polynomial 1's mask not cleared", []string{"\tXORL    R8, R8\n",
			"\tCMPQ AX, $0x01\n\tJEQ ok\n\tXORL R8, R8\nok:\n"}, nil, "mask"},
		{"a word of h[i + 1] written", []string{"\tMOVQ       (SP), AX\n\tINCQ       AX\n",
			"\tMOVL $0x00000000, 1024(SI)\n\tMOVQ (SP), AX\n\tINCQ AX\n"}, nil, "written"},
		{"Lo not in the plan", nil, func(p *HintUnpackPlan) { p.Lo = "R15" }, "least next position"},
		{"the end not kept", nil, func(p *HintUnpackPlan) { p.Keep["coef"] = p.Keep["coef"][:3] }, "branch on data"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, r := routineText(t, "hintbitunpack_amd64.s", sym, tc.pairs...)
			plan := hintUnpackTestPlan()
			if tc.plan != nil {
				tc.plan(plan)
			}
			_, err := proveHintUnpack(f, r, contract.Lookup(sym), plan, 20000)
			if err == nil {
				t.Fatal("proven")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("refuted for another reason: %v", err)
			}
			t.Log(err)
		})
	}
}
