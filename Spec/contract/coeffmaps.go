package contract

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips204"
)

// The coefficient maps of FIPS 204, §7.4 (Algorithms 35 to 40) and the
// infinity-norm checks (§2.3; Algorithm 7, lines 23 and 28, Algorithm 8,
// line 13) on all 256 coefficients of a polynomial. Where the map depends
// on γ2 there is one routine per γ2 of Table 1, named by the divisor of
// q − 1: 88 (ML-DSA-44) or 32 (ML-DSA-65 and -87). Scalars (the bounds)
// come by pointer to a public word. Every routine handles secret
// coefficients (w, r0, z, ct0, t) and may leak nothing.

// specParams returns a parameter set with γ2 = (q−1)/div.
func specParams(div int) fips204.Params {
	if div == 88 {
		return fips204.MLDSA44
	}
	return fips204.MLDSA65
}

// coeffs reads the 256 little-endian words of a polynomial.
func coeffs(b []byte) (w fips204.Poly) {
	for i := range w {
		w[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return w
}

// genCoeffs draws 256 coefficients in [0, q): half uniform, half next to
// the edges of Decompose and Power2Round (multiples of 2γ2 and of 2¹³,
// shifted by up to ±γ2's halves, and q − 1).
func genCoeffs(r *rand.Rand) []byte {
	b := make([]byte, 1024)
	for i := 0; i < 256; i++ {
		var x int64
		switch r.IntN(6) {
		case 0, 1, 2:
			x = int64(r.Uint32N(fips204.Q))
		case 3:
			g := int64(2 * []int{(fips204.Q - 1) / 88, (fips204.Q - 1) / 32}[r.IntN(2)])
			x = g*int64(r.IntN(int(fips204.Q/g)+1)) + int64(r.IntN(5)) - 2 + []int64{0, g / 2, -g / 2}[r.IntN(3)]
		case 4:
			x = int64(r.IntN(1<<10))<<13 + int64(r.IntN(5)) - 2 + []int64{0, 1 << 12, -(1 << 12)}[r.IntN(3)]
		default:
			x = fips204.Q - 1 - int64(r.IntN(3))
		}
		x %= fips204.Q
		if x < 0 {
			x += fips204.Q
		}
		binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
	}
	return b
}

func word(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }

// polyArg is a polynomial argument of a coefficient map.
func polyArg(name string, write bool) Arg {
	return Arg{Name: name, Bytes: 1024, Secret: true, Read: !write, Write: write}
}

// compareCoeffs returns an error naming the first coefficient of out that
// differs from want.
func compareCoeffs(what string, out []byte, want func(i int) uint32) error {
	for i := 0; i < 256; i++ {
		if got := binary.LittleEndian.Uint32(out[4*i:]); got != want(i) {
			return fmt.Errorf("%s[%d] = %d, Spec gives %d", what, i, got, want(i))
		}
	}
	return nil
}

func modQ(x int32) uint32 {
	if x < 0 {
		return uint32(x + fips204.Q)
	}
	return uint32(x)
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

func abs(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

func power2RoundContract(variant string, features []string) *Contract {
	sym := "Power2RoundPoly" + variant
	return &Contract{
		Symbol: sym, Routine: "Power2RoundPoly", Variant: variant,
		GoSig:    "func " + sym + "(t1, t0, t *[256]uint32)",
		Args:     []Arg{polyArg("t1", true), polyArg("t0", true), polyArg("t", false)},
		Pre:      "every coefficient of t in [0, q)",
		Post:     "(t1[i], t0[i]) = fips204.Power2Round(t[i]) (Algorithm 35) for every i, t0[i] taken mod q",
		Leak:     "nothing: t is secret (key generation)",
		Features: features, MaxFrame: 0, NoAlias: true,
		Lanes: &Lanes{In: []string{"t"}, Domain: []uint32{fips204.Q}, Out: []string{"t1", "t0"},
			Map: func(in []uint32) []uint32 {
				r1, r0 := fips204.Power2Round(int32(in[0]))
				return []uint32{uint32(r1), modQ(r0)}
			}},
		Gen: func(r *rand.Rand) Buffers {
			return Buffers{"t1": randBytes(r, 1024), "t0": randBytes(r, 1024), "t": genCoeffs(r)}
		},
		Check: func(in, out Buffers, _ byte) error {
			t := coeffs(in["t"])
			if err := compareCoeffs("t1", out["t1"], func(i int) uint32 { r1, _ := fips204.Power2Round(t[i]); return uint32(r1) }); err != nil {
				return err
			}
			return compareCoeffs("t0", out["t0"], func(i int) uint32 { _, r0 := fips204.Power2Round(t[i]); return modQ(r0) })
		},
	}
}

func highBitsContract(div int, variant string, features []string) *Contract {
	sym := fmt.Sprintf("HighBits%d%s", div, variant)
	p := specParams(div)
	return &Contract{
		Symbol: sym, Routine: fmt.Sprintf("HighBits%d", div), Variant: variant,
		GoSig:    "func " + sym + "(w1, w *[256]uint32)",
		Args:     []Arg{polyArg("w1", true), polyArg("w", false)},
		Pre:      "every coefficient of w in [0, q)",
		Post:     fmt.Sprintf("w1[i] = fips204.HighBits(w[i]) (Algorithm 37) for γ2 = (q−1)/%d, every i", div),
		Leak:     "nothing: w is secret (it depends on y)",
		Features: features, MaxFrame: 0, NoAlias: true,
		Lanes: &Lanes{In: []string{"w"}, Domain: []uint32{fips204.Q}, Out: []string{"w1"},
			Map: func(in []uint32) []uint32 { return []uint32{uint32(fips204.HighBits(p, int32(in[0])))} }},
		Gen: func(r *rand.Rand) Buffers {
			return Buffers{"w1": randBytes(r, 1024), "w": genCoeffs(r)}
		},
		Check: func(in, out Buffers, _ byte) error {
			w := coeffs(in["w"])
			return compareCoeffs("w1", out["w1"], func(i int) uint32 { return uint32(fips204.HighBits(p, w[i])) })
		},
	}
}

func lowBitsExceedContract(div int, variant string, features []string, frame int) *Contract {
	sym := fmt.Sprintf("LowBitsExceed%d%s", div, variant)
	p := specParams(div)
	return &Contract{
		Symbol: sym, Routine: fmt.Sprintf("LowBitsExceed%d", div), Variant: variant,
		GoSig: "func " + sym + "(w *[256]uint32, bound *uint32, exceeds *uint32)",
		Args: []Arg{polyArg("w", false),
			{Name: "bound", Bytes: 4, Read: true},
			{Name: "exceeds", Bytes: 4, Secret: true, Write: true}},
		Pre:      "every coefficient of w in [0, q); bound < 2³¹ (public)",
		Post:     fmt.Sprintf("exceeds = 1 if max_i |fips204.LowBits(w[i])| ≥ bound (Algorithm 38; Algorithm 7, line 23) for γ2 = (q−1)/%d, else 0", div),
		Leak:     "nothing: w is secret; the bound is public and only read",
		Features: features, MaxFrame: frame, NoAlias: true,
		Exceeds: &Exceeds{In: "w", Bound: "bound", Flag: "exceeds",
			Of: func(w uint32) uint32 { return uint32(abs(fips204.LowBits(p, int32(w)))) }},
		Gen: func(r *rand.Rand) Buffers {
			w := genCoeffs(r)
			var m int32
			for _, c := range coeffs(w) {
				m = max(m, abs(fips204.LowBits(p, c)))
			}
			// Bounds at the polynomial's own norm decide the result both ways.
			bound := []uint32{uint32(m), uint32(m) + 1, r.Uint32N(1 << 31), uint32(p.Gamma2 - p.Beta)}[r.IntN(4)]
			return Buffers{"w": w, "bound": word(bound), "exceeds": randBytes(r, 4)}
		},
		Check: func(in, out Buffers, _ byte) error {
			bound := binary.LittleEndian.Uint32(in["bound"])
			want := uint32(0)
			for _, c := range coeffs(in["w"]) {
				if int64(abs(fips204.LowBits(p, c))) >= int64(bound) {
					want = 1
				}
			}
			if got := binary.LittleEndian.Uint32(out["exceeds"]); got != want {
				return fmt.Errorf("exceeds = %d, Spec gives %d (bound %d)", got, want, bound)
			}
			return nil
		},
	}
}

func makeHintContract(div int, variant string, features []string, frame int) *Contract {
	sym := fmt.Sprintf("MakeHint%d%s", div, variant)
	p := specParams(div)
	return &Contract{
		Symbol: sym, Routine: fmt.Sprintf("MakeHint%d", div), Variant: variant,
		GoSig: "func " + sym + "(h, z, r *[256]uint32, count *uint32)",
		Args: []Arg{polyArg("h", true), polyArg("z", false), polyArg("r", false),
			{Name: "count", Bytes: 4, Secret: true, Write: true}},
		Pre: "every coefficient of z and r in [0, q)",
		Post: fmt.Sprintf("h[i] = 1 if fips204.MakeHint(z[i], r[i]) (Algorithm 39) else 0, for γ2 = (q−1)/%d; "+
			"count = the number of ones in h", div),
		Leak:     "nothing: z and r are secret (ct0, w − cs2 + ct0)",
		Features: features, MaxFrame: frame, NoAlias: true,
		Lanes: &Lanes{In: []string{"z", "r"}, Domain: []uint32{fips204.Q, fips204.Q}, Out: []string{"h"},
			Map: func(in []uint32) []uint32 { return []uint32{b2u(fips204.MakeHint(p, int32(in[0]), int32(in[1])))} },
			// Algorithm 39, lines 1 to 3.
			Split: &Split{
				Of:    func(r uint32) uint32 { return uint32(fips204.HighBits(p, int32(r))) },
				OfSum: func(s uint32) uint32 { return uint32(fips204.HighBits(p, int32(s))) },
				Join:  func(r1, v1 uint32) []uint32 { return []uint32{b2u(r1 != v1)} },
			},
			Count: "count"},
		Gen: func(r *rand.Rand) Buffers {
			z := genCoeffs(r)
			if r.IntN(2) == 0 {
				// z small either side of 0, where hints occur (−ct0).
				g := uint32(p.Gamma2)
				for i := 0; i < 256; i++ {
					v := int32(r.Uint32N(2*g+1)) - int32(g)
					binary.LittleEndian.PutUint32(z[4*i:], modQ(v))
				}
			}
			return Buffers{"h": randBytes(r, 1024), "z": z, "r": genCoeffs(r), "count": randBytes(r, 4)}
		},
		Check: func(in, out Buffers, _ byte) error {
			z, rr := coeffs(in["z"]), coeffs(in["r"])
			n := uint32(0)
			err := compareCoeffs("h", out["h"], func(i int) uint32 {
				if fips204.MakeHint(p, z[i], rr[i]) {
					return 1
				}
				return 0
			})
			if err != nil {
				return err
			}
			for i := range z {
				if fips204.MakeHint(p, z[i], rr[i]) {
					n++
				}
			}
			if got := binary.LittleEndian.Uint32(out["count"]); got != n {
				return fmt.Errorf("count = %d, Spec gives %d ones", got, n)
			}
			return nil
		},
	}
}

func useHintContract(div int, variant string, features []string) *Contract {
	sym := fmt.Sprintf("UseHint%d%s", div, variant)
	p := specParams(div)
	return &Contract{
		Symbol: sym, Routine: fmt.Sprintf("UseHint%d", div), Variant: variant,
		GoSig: "func " + sym + "(w1, h, r *[256]uint32)",
		Args:  []Arg{polyArg("w1", true), polyArg("h", false), polyArg("r", false)},
		Pre:   "every coefficient of h in {0, 1} and of r in [0, q)",
		Post:  fmt.Sprintf("w1[i] = fips204.UseHint(h[i], r[i]) (Algorithm 40) for γ2 = (q−1)/%d, every i", div),
		// Verification handles public data only; the contract still asks
		// for constant time, which costs nothing here.
		Leak:     "nothing",
		Features: features, MaxFrame: 0, NoAlias: true,
		Lanes: &Lanes{In: []string{"h", "r"}, Domain: []uint32{2, fips204.Q}, Out: []string{"w1"},
			Map: func(in []uint32) []uint32 { return []uint32{uint32(fips204.UseHint(p, in[0] == 1, int32(in[1])))} }},
		Gen: func(r *rand.Rand) Buffers {
			h := make([]byte, 1024)
			for i := 0; i < 256; i++ {
				h[4*i] = byte(r.IntN(2))
			}
			return Buffers{"w1": randBytes(r, 1024), "h": h, "r": genCoeffs(r)}
		},
		Check: func(in, out Buffers, _ byte) error {
			h, rr := coeffs(in["h"]), coeffs(in["r"])
			return compareCoeffs("w1", out["w1"], func(i int) uint32 { return uint32(fips204.UseHint(p, h[i] == 1, rr[i])) })
		},
	}
}

func normExceedsContract(variant string, features []string, frame int) *Contract {
	sym := "NormExceeds" + variant
	return &Contract{
		Symbol: sym, Routine: "NormExceeds", Variant: variant,
		GoSig: "func " + sym + "(w *[256]uint32, bound *uint32, exceeds *uint32)",
		Args: []Arg{polyArg("w", false),
			{Name: "bound", Bytes: 4, Read: true},
			{Name: "exceeds", Bytes: 4, Secret: true, Write: true}},
		Pre:      "every coefficient of w in [0, q); bound < 2³¹ (public)",
		Post:     "exceeds = 1 if max_i |w[i] mod± q| ≥ bound (‖w‖∞ ≥ bound, §2.3), else 0",
		Leak:     "nothing: w is secret (z, ct0); the bound is public and only read",
		Features: features, MaxFrame: frame, NoAlias: true,
		Exceeds: &Exceeds{In: "w", Bound: "bound", Flag: "exceeds",
			Of: func(w uint32) uint32 { return min(w, fips204.Q-w) }},
		Gen: func(r *rand.Rand) Buffers {
			w := genCoeffs(r)
			var m uint32
			for _, c := range coeffs(w) {
				m = max(m, uint32(min(c, fips204.Q-c)))
			}
			bound := []uint32{m, m + 1, r.Uint32N(1 << 31), r.Uint32N(fips204.Q / 2)}[r.IntN(4)]
			return Buffers{"w": w, "bound": word(bound), "exceeds": randBytes(r, 4)}
		},
		Check: func(in, out Buffers, _ byte) error {
			bound := binary.LittleEndian.Uint32(in["bound"])
			want := uint32(0)
			for _, c := range coeffs(in["w"]) {
				if int64(min(c, fips204.Q-c)) >= int64(bound) {
					want = 1
				}
			}
			if got := binary.LittleEndian.Uint32(out["exceeds"]); got != want {
				return fmt.Errorf("exceeds = %d, Spec gives %d (bound %d)", got, want, bound)
			}
			return nil
		},
	}
}

func init() {
	avx2 := []string{"AVX", "AVX2"}
	register(
		power2RoundContract("AVX2", avx2), power2RoundContract("AMD64", nil),
		normExceedsContract("AVX2", avx2, 32), normExceedsContract("AMD64", nil, 0),
	)
	for _, div := range []int{32, 88} {
		register(
			highBitsContract(div, "AVX2", avx2), highBitsContract(div, "AMD64", nil),
			lowBitsExceedContract(div, "AVX2", avx2, 32), lowBitsExceedContract(div, "AMD64", nil, 0),
			makeHintContract(div, "AVX2", avx2, 32), makeHintContract(div, "AMD64", nil, 0),
			useHintContract(div, "AVX2", avx2), useHintContract(div, "AMD64", nil),
		)
	}
	// Stems, go/mldsa routines and budgets (seconds: about twice the
	// slower of two runs on 2026-12-01 under load average 13-18, the
	// exhaustion of the coefficient-map proofs included; MakeHint's, whose
	// two exhaustions of [0, q) and [0, 2q) took 43-69 s under load
	// average 18-21, at about twice that). The maps are proven for every
	// input (Lanes; MakeHint through Algorithm 39's split, its count as
	// the sum of its words), and so are the norm checks (Exceeds; 19-79 s
	// seen under load average 20-24, budgets at about twice that).
	meta := map[string]struct {
		stem, goName string
		amd64, avx2  float64
	}{
		"Power2RoundPoly": {"power2round", "power2RoundPoly", 35, 40},
		"HighBits32":      {"highbits", "highBitsPoly", 35, 35},
		"HighBits88":      {"highbits", "highBitsPoly", 35, 35},
		"LowBitsExceed32": {"lowbitsexceed", "lowBitsExceed", 160, 160},
		"LowBitsExceed88": {"lowbitsexceed", "lowBitsExceed", 160, 160},
		"MakeHint32":      {"makehint", "makeHintPoly", 110, 140},
		"MakeHint88":      {"makehint", "makeHintPoly", 110, 140},
		"UseHint32":       {"usehint", "useHintPoly", 100, 120},
		"UseHint88":       {"usehint", "useHintPoly", 100, 120},
		"NormExceeds":     {"normexceeds", "normExceeds", 80, 80},
	}
	for _, c := range All {
		m, ok := meta[c.Routine]
		if !ok || c.Stem != "" {
			continue
		}
		c.Stem, c.GoName, c.Level = m.stem, m.goName, provenExcept()
		if c.Lanes == nil && c.Exceeds == nil {
			c.Level = provenExcept(Functional)
		}
		c.Budget = m.amd64
		if c.Variant == "AVX2" {
			c.Budget = m.avx2
		}
	}
}
