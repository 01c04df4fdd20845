package contract

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/vg-crypto/vg/Spec/fips204"
)

// An attempt of ML-DSA.Sign_internal (FIPS 204, Algorithm 7, lines 11 to
// 30) as three routines, one for each stage of fips204.SignOver, which
// branches between them where Algorithm 7 does (line 23, its ‖z‖∞ check
// then its ‖r0‖∞ check, and line 28):
//
//   - SignZ: from Â, NTT(s1), μ, ρ″ and κ, lines 11 to 18 and 20: c̃,
//     NTT(c), w and z, and whether ‖z‖∞ < γ1 − β;
//   - SignR0: from NTT(s2), NTT(c) and w, lines 19 and 21: w − cs2 in
//     place, and whether ‖r0‖∞ < γ2 − β;
//   - SignHint: from NTT(t0), NTT(c) and w − cs2, lines 25 to 28: h, and
//     whether ‖ct0‖∞ < γ2 and h has at most ω ones.
//
// Each is made of CALLs of the proven routines only, with no branch. Its
// postcondition is the stage of Spec itself (fips204.SignZOver,
// SignR0Over, SignHintOver), the steps fips204.SignInternal runs, run by
// the checker over the routine's symbolic values (Compose). The caller
// makes each result public and branches on it, as SignOver does; sigEncode
// is left to it, after the last one: its hint packing branches on h.
func init() { lazily(signStageContracts) }

func signStageContracts() {
	for _, ps := range paramSets {
		for _, v := range []string{"AMD64", "AVX2", "AVX512"} {
			register(signZContract(ps.name, ps.p, v), signR0Contract(ps.name, ps.p, v), signHintContract(ps.name, ps.p, v))
		}
	}
}

// SignZCallees is the routines SignZ<set><variant> calls, in the order of
// Algorithm 7's lines: ExpandMask (four-way with AVX2), NTT,
// ToMontgomeryPoly, a row of MatrixVectorNTT, NTT⁻¹, HighBits, the w1
// packing, H's permutation, SampleInBall, MultiplyNTT, PolyAdd and the
// norm check (the AVX2 path's: the BMI2 permutation and SampleInBall, and
// in ToMontgomeryPoly's place NTTInverseMontAVX2, the NTT⁻¹ of w, which
// takes the product of plain NTT(y) and Â).
// The AVX-512 path calls the AVX-512 ExpandMask (four-way for ℓ = 4,
// eight-way for ℓ = 5 and 7, as go/mldsa's expandMaskAVX512 groups it),
// NTT, NTT⁻¹ and products, and the AVX2 path's routines for the rest,
// which have no AVX-512 variant.
func SignZCallees(name string, p fips204.Params, variant string) []string {
	mask, div, w1Bits := 19, 32, 4
	if p.Gamma1 == 1<<17 {
		mask, div, w1Bits = 17, 88, 6
	}
	expandMask, perm, ball := fmt.Sprintf("ExpandMask%dAMD64", mask), "KeccakF1600AMD64", "SampleInBall"+name+"AMD64"
	v := variant // the variant of the routines without an AVX-512 one
	switch variant {
	case "AVX2":
		expandMask, perm, ball = fmt.Sprintf("ExpandMask%dx4AVX2", mask), "KeccakF1600BMI2", "SampleInBall"+name+"BMI2"
	case "AVX512":
		expandMask, perm, ball, v = fmt.Sprintf("ExpandMask%dx%dAVX512", mask, SignZWays(p, variant)), "KeccakF1600BMI2", "SampleInBall"+name+"BMI2", "AVX2"
	}
	toMont := "ToMontgomeryPoly" + v
	if variant == "AVX2" {
		// NTT(y) stays plain: w's NTT⁻¹ scales by 2³² instead.
		toMont = "NTTInverseMontAVX2"
	}
	calls := []string{expandMask, "NTT" + variant, toMont,
		fmt.Sprintf("MultiplyAccNTT%d%s", p.L, variant), "NTTInverse" + variant, fmt.Sprintf("HighBits%d%s", div, v),
		fmt.Sprintf("SimpleBitPack%d%s", w1Bits, v), perm, ball,
		"MultiplyNTT" + variant, "PolyAdd" + v, "NormExceeds" + v}
	if SignZSingles(p, variant) > 0 {
		calls = append(calls, fmt.Sprintf("ExpandMask%dAVX2", mask))
	}
	return calls
}

// SignZSingles is how many of the last polynomials of y SignZ<set><variant>
// sets one at a time, by the one-way AVX2 ExpandMask (the last callee),
// after its four-way calls: on the AVX2 path, the one left over when ℓ = 5
// (a four-way call for it alone takes longer than a one-way one; go/mldsa's
// expandMaskAVX2 groups them so too).
func SignZSingles(p fips204.Params, variant string) int {
	if variant == "AVX2" && p.L%4 == 1 {
		return 1
	}
	return 0
}

// SignZWays is how many polynomials of y a call of SignZ<set><variant>'s
// ExpandMask sets: 1, 4, or on the AVX-512 path 8 when ℓ > 4 (an
// eight-way squeeze costs less than a four-way one and single ones).
func SignZWays(p fips204.Params, variant string) int {
	switch {
	case variant == "AMD64":
		return 1
	case variant == "AVX512" && p.L > 4:
		return 8
	}
	return 4
}

// SignR0Callees is the routines SignR0<set><variant> calls: MultiplyNTT,
// NTT⁻¹, PolySub and LowBits with its norm check (on the AVX-512 path,
// the AVX-512 product and NTT⁻¹ and the AVX2 path's others).
func SignR0Callees(p fips204.Params, variant string) []string {
	v := avx2Rest(variant)
	return []string{"MultiplyNTT" + variant, "NTTInverse" + variant, "PolySub" + v,
		fmt.Sprintf("LowBitsExceed%d%s", (fips204.Q-1)/p.Gamma2, v)}
}

// SignHintCallees is the routines SignHint<set><variant> calls:
// MultiplyNTT, NTT⁻¹, the norm check and MakeHint (on the AVX-512 path,
// the AVX-512 product and NTT⁻¹ and the AVX2 path's others).
func SignHintCallees(p fips204.Params, variant string) []string {
	v := avx2Rest(variant)
	return []string{"MultiplyNTT" + variant, "NTTInverse" + variant, "NormExceeds" + v,
		fmt.Sprintf("MakeHint%d%s", (fips204.Q-1)/p.Gamma2, v)}
}

// avx2Rest is the variant of the routines without an AVX-512 one that a
// routine of variant calls.
func avx2Rest(variant string) string {
	if variant == "AVX512" {
		return "AVX2"
	}
	return variant
}

// SignZWork is the number of polynomials of a SignZ routine's work space:
// NTT(y), cs1 and w1, and the padding lanes of its last call of the
// four-way ExpandMask (unused by the baseline routine, which calls the
// one-way ExpandMask, and by the AVX2 one of ℓ = 5, SignZSingles; the
// eight-way call for ℓ = 5 and 7 pads as many).
func SignZWork(p fips204.Params) int { return p.L + 2 + (4-p.L%4)%4 }

// signFeatures is the CPU features of a stage routine of variant: the
// AVX2 ones call the BMI2 permutation and SampleInBall; the AVX-512 ones
// the AVX-512 NTT, NTT⁻¹, products and eight-way ExpandMask besides
// (AVX512F), and SignZ44AVX512 the four-way one (AVX512VL too).
func signFeatures(variant string, vl bool) []string {
	switch variant {
	case "AVX2":
		return []string{"AVX", "AVX2", "BMI", "BMI2"}
	case "AVX512":
		if vl {
			return []string{"AVX", "AVX2", "BMI", "BMI2", "AVX512F", "AVX512VL"}
		}
		return []string{"AVX", "AVX2", "BMI", "BMI2", "AVX512F"}
	}
	return nil
}

// signZContract is the contract of SignZ<set><variant>.
func signZContract(name string, p fips204.Params, variant string) *Contract {
	sym := "SignZ" + name + variant
	k, l := p.K, p.L
	// spec is the stage of Spec on in, which Effect and Check give.
	spec := func(in Buffers) ([]byte, fips204.Poly, []fips204.Poly, []fips204.Poly, byte) {
		return fips204.SignZOver[byte, fips204.Poly](fips204.Values{P: p}, p, signAHat(p, in), signPolys(in, "s1Hat", l, true), in["in"][:64], in["in"][64:128], in["in"][128:])
	}
	calls := SignZCallees(name, p, variant)
	cTildeSize := p.Lambda / 4
	rows := func(v []any) [][]any {
		m := make([][]any, k)
		for i := range m {
			m[i] = v[l*i : l*i+l]
		}
		return m
	}
	return &Contract{
		Symbol: sym, Routine: "SignZ" + name, Variant: variant,
		Stem: "signstage", GoName: "signZ",
		GoSig: fmt.Sprintf("func %s(cTilde *[%d]byte, cHat *[256]uint32, w *[%d][256]uint32, z *[%d][256]uint32, in *[130]byte, "+
			"aHat *[%d][256]uint32, s1Hat *[%d][256]uint32, work *[%d][256]uint32) bool",
			sym, cTildeSize, k, l, k*l, l, SignZWork(p)),
		Doc: []string{
			fmt.Sprintf("%s is the first stage of an attempt of ML-DSA-%s's", sym, name),
			"Sign_internal (FIPS 204, Algorithm 7, lines 11 to 18 and 20) from",
			"in = μ ‖ ρ″ ‖ IntegerToBytes(κ, 2), Â (as sampled, row-major) in aHat",
			"and NTT(s1) times 2³² mod q: it sets c̃, NTT(c), w and z (mod q),",
			"and returns whether ‖z‖∞ < γ1 − β (line 23), by calls of the proven",
			"routines of its path, with no branch. It returns false too if",
			"SampleInBall ran out of its bound (Appendix C). work is its space,",
			"left as garbage. The caller makes the result public and goes on to",
			"SignR0 only when it is true.",
		},
		Level: provenExcept(), Budget: 200,
		Args: []Arg{
			{Name: "cTilde", Bytes: cTildeSize, Secret: true, Read: true, Write: true},
			{Name: "cHat", Bytes: 1024, Secret: true, Read: true, Write: true},
			{Name: "w", Bytes: 1024 * k, Secret: true, Read: true, Write: true},
			{Name: "z", Bytes: 1024 * l, Secret: true, Read: true, Write: true},
			// μ, ρ″ and κ in one buffer.
			{Name: "in", Bytes: 130, Secret: true, Read: true},
			{Name: "aHat", Bytes: 1024 * k * l, Read: true},
			{Name: "s1Hat", Bytes: 1024 * l, Secret: true, Read: true},
			{Name: "work", Bytes: 1024 * SignZWork(p), Secret: true, Read: true, Write: true},
		},
		Result: "bool",
		Calls:  calls,
		Stage: &Stage{Method: "Z", In: []string{"aHat", "s1Hat", "in"}, Out: []string{"cTilde", "cHat", "w", "z"},
			OutRange: map[string][2]int{"cHat": wordsQ, "w": wordsQ, "z": wordsQ},
			OkRange:  map[string][2]int{"z": {-(p.Gamma1 - p.Beta - 1), p.Gamma1 - p.Beta - 1}}},
		Effect: func(in Buffers, r *rand.Rand) (Buffers, byte) {
			cTilde, cHat, w, z, ok := spec(in)
			out := Buffers{"cTilde": cTilde, "cHat": polyBytes(cHat, 1), "w": polysBytes(w), "z": polysBytes(z), "work": randBytes(r, 1024*SignZWork(p))}
			return out, b2b(ok == 1 && ballWithin(p, cTilde))
		},
		Compose: &Compose{P: p, Permutation: calls[7],
			Polys: []string{"cHat", "w", "z", "aHat", "s1Hat"}, NTTPolys: []string{"cHat", "aHat", "s1Hat"},
			MontIn: []string{"s1Hat"}, Scratch: []string{"work"},
			Steps: func(o fips204.SignOps[any, any], in map[string][]any) map[string][]any {
				cTilde, cHat, w, z, ok := fips204.SignZOver(o, p, rows(in["aHat"]), in["s1Hat"], in["in"][:64], in["in"][64:128], in["in"][128:]) // Algorithm 7, lines 11 to 18, 20 and 23
				return map[string][]any{"cTilde": cTilde, "cHat": {cHat}, "w": w, "z": z, Result: {ok}}
			}},
		Pre: "every coefficient of aHat (Â, k×ℓ by rows) and of s1Hat (NTT(s1) times 2³²) in [0, q); in any bytes",
		Post: "(c̃, NTT(c), w, z, ok) = fips204.SignZOver(Â, NTT(s1), μ, ρ″, IntegerToBytes(κ, 2)) (Algorithm 7, lines 11 to 18, 20 and " +
			"the ‖z‖∞ check of line 23; NTT(c), w and z as words mod q in [0, q)) and SampleInBall stays within its bound (Appendix C); else ok = 0",
		Leak: "where SampleInBall's rejections fall on c̃ (its declared leak); the routine's own code has no branch",
		// MaxFrame: the seeds of ExpandMask, μ ‖ w1Encode, the SHAKE256
		// state, the callees' arguments, the bound, the flag and the
		// running result.
		Features: signFeatures(variant, SignZWays(p, variant) == 4), MaxFrame: 2048, NoAlias: true,
		Runs: 50,
		Gen: func(r *rand.Rand) Buffers {
			return genSignStage(r, p, 0)
		},
		Check: func(in, out Buffers, ret byte) error {
			cTilde, cHat, w, z, ok := spec(in)
			ball := ballWithin(p, cTilde)
			if ret != b2b(ok == 1 && ball) {
				return fmt.Errorf("returned %d, Spec's first stage gives %d (SampleInBall within its bound: %v)", ret, ok, ball)
			}
			if !ball {
				return nil
			}
			if string(out["cTilde"]) != string(cTilde) {
				return fmt.Errorf("c̃ differs from Spec's")
			}
			return samePolys(out, map[string][]fips204.Poly{"cHat": {cHat}, "w": w, "z": z})
		},
	}
}

// signR0Contract is the contract of SignR0<set><variant>.
func signR0Contract(name string, p fips204.Params, variant string) *Contract {
	sym := "SignR0" + name + variant
	k := p.K
	spec := func(in Buffers) ([]fips204.Poly, byte) {
		return fips204.SignR0Over[byte, fips204.Poly](fips204.Values{P: p}, p, signPolys(in, "s2Hat", k, true), signPolys(in, "cHat", 1, false)[0], signPolys(in, "w", k, false))
	}
	return &Contract{
		Symbol: sym, Routine: "SignR0" + name, Variant: variant,
		Stem: "signstage", GoName: "signR0",
		GoSig: fmt.Sprintf("func %s(w *[%d][256]uint32, cHat *[256]uint32, s2Hat *[%d][256]uint32, work *[256]uint32) bool", sym, k, k),
		Doc: []string{
			fmt.Sprintf("%s is the second stage of an attempt of ML-DSA-%s's", sym, name),
			"Sign_internal (FIPS 204, Algorithm 7, lines 19 and 21), after SignZ",
			"accepted z: from w, NTT(c) and NTT(s2) times 2³² mod q, it sets w to",
			"w − cs2 (mod q) and returns whether ‖LowBits(w − cs2)‖∞ < γ2 − β",
			"(line 23), by calls of the proven routines of its path, with no",
			"branch. work is its space, left as garbage. The caller makes the",
			"result public and goes on to SignHint only when it is true.",
		},
		Level: provenExcept(), Budget: 60,
		Args: []Arg{
			{Name: "w", Bytes: 1024 * k, Secret: true, Read: true, Write: true},
			{Name: "cHat", Bytes: 1024, Secret: true, Read: true},
			{Name: "s2Hat", Bytes: 1024 * k, Secret: true, Read: true},
			{Name: "work", Bytes: 1024, Secret: true, Read: true, Write: true},
		},
		Result: "bool",
		Calls:  SignR0Callees(p, variant),
		Stage:  &Stage{Method: "R0", In: []string{"s2Hat", "cHat", "w"}, Out: []string{"w"}, OutRange: map[string][2]int{"w": wordsQ}},
		Effect: func(in Buffers, r *rand.Rand) (Buffers, byte) {
			wcs2, ok := spec(in)
			return Buffers{"w": polysBytes(wcs2), "work": randBytes(r, 1024)}, ok
		},
		Compose: &Compose{P: p, Polys: []string{"w", "cHat", "s2Hat"}, NTTPolys: []string{"cHat", "s2Hat"},
			MontIn: []string{"s2Hat"}, InPlace: []string{"w"}, Scratch: []string{"work"},
			Steps: func(o fips204.SignOps[any, any], in map[string][]any) map[string][]any {
				wcs2, ok := fips204.SignR0Over(o, p, in["s2Hat"], in["cHat"][0], in["w"]) // Algorithm 7, lines 19, 21 and 23
				return map[string][]any{"w": wcs2, Result: {ok}}
			}},
		Pre:  "every coefficient of w, cHat (NTT(c)) and s2Hat (NTT(s2) times 2³²) in [0, q)",
		Post: "(w, ok) = fips204.SignR0Over(NTT(s2), NTT(c), old w) (Algorithm 7, lines 19 and 21 and the ‖r0‖∞ check of line 23; w as words mod q in [0, q))",
		Leak: "nothing: the routine has no branch",
		// MaxFrame: the callees' arguments, the bound, the flag and the
		// running result.
		Features: signFeatures(variant, false), MaxFrame: 256, NoAlias: true,
		Runs: 50,
		Gen: func(r *rand.Rand) Buffers {
			return genSignStage(r, p, 1)
		},
		Check: func(in, out Buffers, ret byte) error {
			wcs2, ok := spec(in)
			if ret != ok {
				return fmt.Errorf("returned %d, Spec's second stage gives %d", ret, ok)
			}
			return samePolys(out, map[string][]fips204.Poly{"w": wcs2})
		},
	}
}

// signHintContract is the contract of SignHint<set><variant>.
func signHintContract(name string, p fips204.Params, variant string) *Contract {
	sym := "SignHint" + name + variant
	k := p.K
	spec := func(in Buffers) ([]fips204.Poly, byte) {
		return fips204.SignHintOver[byte, fips204.Poly](fips204.Values{P: p}, p, signPolys(in, "t0Hat", k, true), signPolys(in, "cHat", 1, false)[0], signPolys(in, "wcs2", k, false))
	}
	return &Contract{
		Symbol: sym, Routine: "SignHint" + name, Variant: variant,
		Stem: "signstage", GoName: "signHint",
		GoSig: fmt.Sprintf("func %s(h *[%d][256]uint32, wcs2 *[%d][256]uint32, cHat *[256]uint32, t0Hat *[%d][256]uint32, work *[256]uint32) bool", sym, k, k, k),
		Doc: []string{
			fmt.Sprintf("%s is the third stage of an attempt of ML-DSA-%s's", sym, name),
			"Sign_internal (FIPS 204, Algorithm 7, lines 25 to 28), after SignR0",
			"accepted r0: from w − cs2, NTT(c) and NTT(t0) times 2³² mod q, it sets",
			"h and returns whether ‖ct0‖∞ < γ2 and h has at most ω ones (line",
			"28), by calls of the proven routines of its path, with no branch.",
			"work is its space, left as garbage. The caller makes the result",
			"public, and encodes σ only when it is true.",
		},
		Level: provenExcept(), Budget: 60,
		Args: []Arg{
			{Name: "h", Bytes: 1024 * k, Secret: true, Write: true},
			{Name: "wcs2", Bytes: 1024 * k, Secret: true, Read: true},
			{Name: "cHat", Bytes: 1024, Secret: true, Read: true},
			{Name: "t0Hat", Bytes: 1024 * k, Secret: true, Read: true},
			{Name: "work", Bytes: 1024, Secret: true, Read: true, Write: true},
		},
		Result: "bool",
		Calls:  SignHintCallees(p, variant),
		Stage:  &Stage{Method: "Hint", In: []string{"t0Hat", "cHat", "wcs2"}, Out: []string{"h"}, OutRange: map[string][2]int{"h": {0, 1}}},
		Effect: func(in Buffers, r *rand.Rand) (Buffers, byte) {
			h, ok := spec(in)
			return Buffers{"h": polysBytes(h), "work": randBytes(r, 1024)}, ok
		},
		Compose: &Compose{P: p, Polys: []string{"h", "wcs2", "cHat", "t0Hat"}, NTTPolys: []string{"cHat", "t0Hat"},
			MontIn: []string{"t0Hat"}, Scratch: []string{"work"},
			Steps: func(o fips204.SignOps[any, any], in map[string][]any) map[string][]any {
				h, ok := fips204.SignHintOver(o, p, in["t0Hat"], in["cHat"][0], in["wcs2"]) // Algorithm 7, lines 25 to 28
				return map[string][]any{"h": h, Result: {ok}}
			}},
		Pre:  "every coefficient of wcs2 (w − cs2), cHat (NTT(c)) and t0Hat (NTT(t0) times 2³²) in [0, q)",
		Post: "(h, ok) = fips204.SignHintOver(NTT(t0), NTT(c), w − cs2) (Algorithm 7, lines 25 to 28; h as words 0 and 1)",
		Leak: "nothing: the routine has no branch",
		// MaxFrame: the callees' arguments, the bound, the flag, the
		// count, the running count and result.
		Features: signFeatures(variant, false), MaxFrame: 256, NoAlias: true,
		Runs: 50,
		Gen: func(r *rand.Rand) Buffers {
			return genSignStage(r, p, 2)
		},
		Check: func(in, out Buffers, ret byte) error {
			h, ok := spec(in)
			if ret != ok {
				return fmt.Errorf("returned %d, Spec's third stage gives %d", ret, ok)
			}
			return samePolys(out, map[string][]fips204.Poly{"h": h})
		},
	}
}

// wordsQ is the range of words w in [0, q) as a Stage states it.
var wordsQ = [2]int{0, fips204.Q - 1}

// ballWithin says SampleInBall of c̃ stays within its bound of blocks
// (Appendix C).
func ballWithin(p fips204.Params, cTilde []byte) bool {
	n := 0
	read := shake256(cTilde)
	fips204.SampleInBallFrom(p, func(s []byte) { n += len(s); read(s) })
	return n <= maxBallBytes
}

// samePolys checks that each buffer of out holds want's polynomials,
// words mod q.
func samePolys(out Buffers, want map[string][]fips204.Poly) error {
	for name, ws := range want {
		for j, w := range ws {
			got := Poly(out[name][1024*j:])
			for i := range w {
				if uint32(got[i]) != modQ(w[i]) {
					return fmt.Errorf("%s[%d], coefficient %d = %d, Spec gives %d mod q", name, j, i, got[i], w[i])
				}
			}
		}
	}
	return nil
}

// signKeys is one key's forms per parameter set, for genSignStage.
var (
	signKeys   = map[string]Buffers{}
	signKeysMu sync.Mutex
)

// genSignStage draws an input of stage 0 (SignZ), 1 (SignR0) or 2
// (SignHint): a key's forms, μ, ρ″ and κ = ℓ·n for n below the bound of
// attempts; for the later stages, NTT(c) and w or w − cs2 as Spec's
// earlier stages give them for these, so that their checks pass at
// their usual rates.
func genSignStage(r *rand.Rand, p fips204.Params, stage int) Buffers {
	signKeysMu.Lock()
	keys, ok := signKeys[p.Name]
	if !ok {
		xi := make([]byte, 32)
		for i := range xi {
			xi[i] = byte(3 * i)
		}
		_, sk := fips204.KeyGenInternal(p, xi)
		rho, _, _, s1, s2, t0, err := fips204.SkDecode(p, sk)
		if err != nil {
			panic(err)
		}
		keys = Buffers{}
		for _, row := range fips204.ExpandA(p, rho) {
			for _, w := range row {
				keys["aHat"] = append(keys["aHat"], polyBytes(w, 1)...)
			}
		}
		for name, v := range map[string][]fips204.Poly{"s1Hat": s1, "s2Hat": s2, "t0Hat": t0} {
			for _, w := range v {
				keys[name] = append(keys[name], polyBytes(fips204.NTT(w), 1<<32%fips204.Q)...)
			}
		}
		signKeys[p.Name] = keys
	}
	signKeysMu.Unlock()
	in := randBytes(r, 130)
	binary.LittleEndian.PutUint16(in[128:], uint16(p.L*r.IntN(fips204.SignIterations)))
	if stage == 0 {
		return Buffers{"in": in, "aHat": keys["aHat"], "s1Hat": keys["s1Hat"],
			"cTilde": randBytes(r, p.Lambda/4), "cHat": randBytes(r, 1024), "w": randBytes(r, 1024*p.K), "z": randBytes(r, 1024*p.L),
			"work": randBytes(r, 1024*SignZWork(p))}
	}
	v := fips204.Values{P: p}
	b := Buffers{"in": in, "aHat": keys["aHat"], "s1Hat": keys["s1Hat"]}
	_, cHat, w, _, _ := fips204.SignZOver[byte, fips204.Poly](v, p, signAHat(p, b), signPolys(keys, "s1Hat", p.L, true), in[:64], in[64:128], in[128:])
	if stage == 1 {
		return Buffers{"w": polysBytes(w), "cHat": polyBytes(cHat, 1), "s2Hat": keys["s2Hat"], "work": randBytes(r, 1024)}
	}
	wcs2, _ := fips204.SignR0Over[byte, fips204.Poly](v, p, signPolys(keys, "s2Hat", p.K, true), cHat, w)
	return Buffers{"h": randBytes(r, 1024*p.K), "wcs2": polysBytes(wcs2), "cHat": polyBytes(cHat, 1), "t0Hat": keys["t0Hat"], "work": randBytes(r, 1024)}
}

// polysBytes is the words of polynomials, each coefficient mod q.
func polysBytes(v []fips204.Poly) []byte {
	var b []byte
	for _, w := range v {
		b = append(b, polyBytes(w, 1)...)
	}
	return b
}

// signPolys is the n polynomials of buffer name, divided by 2³² mod q
// where mont is set (a Montgomery form).
func signPolys(in Buffers, name string, n int, mont bool) []fips204.Poly {
	var v []fips204.Poly
	for i := 0; i < n; i++ {
		w := Poly(in[name][1024*i:])
		if mont {
			for j, x := range w {
				w[j] = int32(int64(x) * rInv % fips204.Q)
			}
		}
		v = append(v, w)
	}
	return v
}

// signAHat is Â of buffer aHat, k×ℓ by rows.
func signAHat(p fips204.Params, in Buffers) [][]fips204.Poly {
	flat := signPolys(in, "aHat", p.K*p.L, false)
	var aHat [][]fips204.Poly
	for i := 0; i < p.K; i++ {
		aHat = append(aHat, flat[p.L*i:p.L*i+p.L])
	}
	return aHat
}
