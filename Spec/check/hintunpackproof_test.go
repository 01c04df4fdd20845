package check

import (
	"math/rand/v2"
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

// The HintBitUnpack proof holds for the routines as built (with -short,
// for ML-DSA-44's).
func TestHintUnpackProof(t *testing.T) {
	names := []string{"HintBitUnpack44AMD64", "HintBitUnpack65AMD64", "HintBitUnpack87AMD64"}
	if testing.Short() {
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

// hintUnpackModel runs hintUnpackStep on y with concrete values: the
// result and h.
func hintUnpackModel(p fips204.Params, y []byte) (uint64, []fips204.Poly) {
	d := x86.Conc{}
	k, ω := p.K, p.Omega
	h := make([]fips204.Poly, k)
	st := hintUnpackState[uint64]{end: -1}
	for {
		var b uint64
		switch {
		case st.i < k && st.end < 0:
			b = uint64(y[ω+st.i])
		case st.i < k || st.index < ω:
			b = uint64(y[st.index])
		}
		i := st.i
		out := hintUnpackStep[uint64](d, k, ω, st, b)
		if out.done {
			return out.ret, h
		}
		if out.expand {
			for c := range h[i] {
				h[i][c] = int32(out.st.mask[c/64] >> (c % 64) & 1)
			}
		}
		st = out.st
	}
}

// hintUnpackStep, run over an encoding, is Spec's HintBitUnpack: the
// encodings of hints (none, ω ones, all in one polynomial, random), and
// those changed where Algorithm 21 checks: each count set to each value
// from 0 to ω + 1, a position made equal to the one before or one below
// it (inside a polynomial and at its first), a padding byte set, a random
// byte.
func TestHintUnpackStepIsAlgorithm21(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	for _, p := range []fips204.Params{fips204.MLDSA44, fips204.MLDSA65, fips204.MLDSA87} {
		k, ω := p.K, p.Omega
		check := func(y []byte) {
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
			check(y)
			z := append([]byte(nil), y...)
			i := rng.IntN(k)
			for v := 0; v <= ω+1; v++ {
				z[ω+i] = byte(v)
				check(z)
			}
			last := int(y[ω+k-1])
			for _, d := range []int{0, 1} {
				if last >= 2 {
					z = append(z[:0], y...)
					t := 1 + rng.IntN(last-1)
					z[t] = z[t-1] - byte(d)
					check(z)
				}
			}
			if last < ω {
				z = append(z[:0], y...)
				z[last+rng.IntN(ω-last)] = byte(1 + rng.IntN(255))
				check(z)
			}
			z = append(z[:0], y...)
			z[rng.IntN(ω+k)] = byte(rng.Uint32())
			check(z)
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
