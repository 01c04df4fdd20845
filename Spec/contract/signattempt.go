package contract

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/vg-crypto/vg/Spec/fips204"
)

// One attempt of ML-DSA.Sign_internal (FIPS 204, Algorithm 7, lines 11
// to 30) as one routine: from the forms of the private key go/mldsa keeps
// (Â as sampled, NTT(s1), NTT(s2) and NTT(t0) in Montgomery form), μ,
// ρ″ and κ, the attempt's c̃, z and h, and whether (z, h) ≠ ⊥. It is made
// of CALLs of the proven routines only, with no branch: every check is
// computed and the results ANDed at the end. Its postcondition is
// fips204.SignAttemptOver itself, the steps fips204.SignInternal runs,
// run by the checker over the routine's symbolic values (Compose).
// sigEncode is left to the caller, after the result is made public: its
// hint packing branches on h.
func init() { lazily(signAttemptContracts) }

func signAttemptContracts() {
	for _, ps := range paramSets {
		register(signAttemptContract(ps.name, ps.p, "AMD64"), signAttemptContract(ps.name, ps.p, "AVX2"))
	}
}

// SignAttemptCallees is the routines SignAttempt<set><variant> calls, in
// the order of Algorithm 7's lines: ExpandMask (four-way with AVX2), NTT,
// ToMontgomeryPoly, a row of MatrixVectorNTT, NTT⁻¹, HighBits, the w1
// packing, H's permutation, SampleInBall, MultiplyNTT, PolyAdd, the norm
// check, PolySub, LowBits with its norm check, and MakeHint (the AVX2
// path's: the BMI2 permutation and SampleInBall).
func SignAttemptCallees(name string, p fips204.Params, variant string) []string {
	mask, div, w1Bits := 19, 32, 4
	if p.Gamma1 == 1<<17 {
		mask, div, w1Bits = 17, 88, 6
	}
	expandMask, perm, ball := fmt.Sprintf("ExpandMask%dAMD64", mask), "KeccakF1600AMD64", "SampleInBall"+name+"AMD64"
	if variant == "AVX2" {
		expandMask, perm, ball = fmt.Sprintf("ExpandMask%dx4AVX2", mask), "KeccakF1600BMI2", "SampleInBall"+name+"BMI2"
	}
	return []string{expandMask, "NTT" + variant, "ToMontgomeryPoly" + variant,
		fmt.Sprintf("MultiplyAccNTT%d%s", p.L, variant), "NTTInverse" + variant, fmt.Sprintf("HighBits%d%s", div, variant),
		fmt.Sprintf("SimpleBitPack%d%s", w1Bits, variant), perm, ball,
		"MultiplyNTT" + variant, "PolyAdd" + variant, "NormExceeds" + variant, "PolySub" + variant,
		fmt.Sprintf("LowBitsExceed%d%s", div, variant), fmt.Sprintf("MakeHint%d%s", div, variant)}
}

// SignAttemptWork is the number of polynomials of a SignAttempt routine's
// work space: NTT(y), w, c, cs1 or cs2, ct0 and w1, and the padding lanes
// of its last call of the four-way ExpandMask (unused by the baseline
// routine, which calls the one-way ExpandMask).
func SignAttemptWork(p fips204.Params) int { return p.L + p.K + 4 + (4-p.L%4)%4 }

// signAttemptContract is the contract of SignAttempt<set><variant>.
func signAttemptContract(name string, p fips204.Params, variant string) *Contract {
	sym := "SignAttempt" + name + variant
	k, l := p.K, p.L
	calls := SignAttemptCallees(name, p, variant)
	var features []string
	if variant == "AVX2" {
		features = []string{"AVX", "AVX2", "BMI", "BMI2"}
	}
	cTildeSize := p.Lambda / 4
	rows := func(v []any) [][]any {
		m := make([][]any, k)
		for i := range m {
			m[i] = v[l*i : l*i+l]
		}
		return m
	}
	return &Contract{
		Symbol: sym, Routine: "SignAttempt" + name, Variant: variant,
		Stem: "signattempt", GoName: "signAttempt",
		GoSig: fmt.Sprintf("func %s(cTilde *[%d]byte, z *[%d][256]uint32, h *[%d][256]uint32, in *[130]byte, "+
			"aHat *[%d][256]uint32, s1Hat *[%d][256]uint32, s2Hat *[%d][256]uint32, t0Hat *[%d][256]uint32, work *[%d][256]uint32) bool",
			sym, cTildeSize, l, k, k*l, l, k, k, SignAttemptWork(p)),
		Doc: []string{
			fmt.Sprintf("%s is one attempt of ML-DSA-%s's Sign_internal (FIPS 204,", sym, name),
			"Algorithm 7, lines 11 to 30) from in = μ ‖ ρ″ ‖ IntegerToBytes(κ, 2)",
			"and the forms of the private key go/mldsa keeps: Â (as sampled,",
			"row-major) in aHat and NTT(s1), NTT(s2) and NTT(t0) times 2³² mod q.",
			"It sets c̃, z (mod q) and",
			"h, and returns whether (z, h) ≠ ⊥ after line 28, by calls of the",
			"proven routines of its path, every check computed and ANDed at the",
			"end: no branch. It returns false too if SampleInBall ran out of its",
			"bound (Appendix C). work is its space, left as garbage. The caller",
			"makes the result public, and encodes σ only when it is true.",
		},
		Level: provenExcept(), Budget: 200,
		Args: []Arg{
			{Name: "cTilde", Bytes: cTildeSize, Secret: true, Read: true, Write: true},
			{Name: "z", Bytes: 1024 * l, Secret: true, Read: true, Write: true},
			{Name: "h", Bytes: 1024 * k, Secret: true, Write: true},
			// μ, ρ″ and κ in one buffer (nine arguments fit Go's registers).
			{Name: "in", Bytes: 130, Secret: true, Read: true},
			{Name: "aHat", Bytes: 1024 * k * l, Read: true},
			{Name: "s1Hat", Bytes: 1024 * l, Secret: true, Read: true},
			{Name: "s2Hat", Bytes: 1024 * k, Secret: true, Read: true},
			{Name: "t0Hat", Bytes: 1024 * k, Secret: true, Read: true},
			{Name: "work", Bytes: 1024 * SignAttemptWork(p), Secret: true, Read: true, Write: true},
		},
		Result: "bool",
		Calls:  calls,
		Compose: &Compose{P: p, Permutation: calls[7],
			Polys: []string{"z", "h", "aHat", "s1Hat", "s2Hat", "t0Hat"}, NTTPolys: []string{"aHat", "s1Hat", "s2Hat", "t0Hat"},
			MontIn: []string{"s1Hat", "s2Hat", "t0Hat"}, Scratch: []string{"work"},
			Steps: func(o fips204.SignOps[any, any], in map[string][]any) map[string][]any {
				cTilde, z, h, ok := fips204.SignAttemptOver(o, p, rows(in["aHat"]), in["s1Hat"], in["s2Hat"], in["t0Hat"], in["in"][:64], in["in"][64:128], in["in"][128:]) // Algorithm 7, lines 11 to 30
				return map[string][]any{"cTilde": cTilde, "z": z, "h": h, Result: {ok}}
			}},
		Pre: "every coefficient of aHat (Â, k×ℓ by rows) and of s1Hat, s2Hat and t0Hat (NTT(s1), NTT(s2), NTT(t0), times 2³²) in [0, q); " +
			"in any bytes",
		Post: "(c̃, z, h, ok) = fips204.SignAttemptOver(Â, NTT(s1), NTT(s2), NTT(t0), μ, ρ″, IntegerToBytes(κ, 2)) (Algorithm 7, lines 11 to 30; " +
			"z and h as words mod q) and SampleInBall stays within its bound (Appendix C); else ok = 0",
		Leak: "where SampleInBall's rejections fall on c̃ (its declared leak); the routine's own code has no branch",
		// MaxFrame: the seeds of ExpandMask, μ ‖ w1Encode, the SHAKE256
		// state, the callees' arguments, the bound, the flag, the count
		// and the running result and count.
		Features: features, MaxFrame: 2048, NoAlias: true,
		Runs: 50,
		Gen: func(r *rand.Rand) Buffers {
			return genSignAttempt(r, p)
		},
		Check: func(in, out Buffers, ret byte) error {
			cTilde, z, h, ok, ball := signAttemptSpec(p, in)
			if ret != b2b(ok && ball) {
				return fmt.Errorf("returned %d, Spec's attempt gives %v (SampleInBall within its bound: %v)", ret, ok, ball)
			}
			if !ball {
				return nil
			}
			if string(out["cTilde"]) != string(cTilde) {
				return fmt.Errorf("c̃ differs from Spec's")
			}
			for name, want := range map[string][]fips204.Poly{"z": z, "h": h} {
				for j, w := range want {
					got := Poly(out[name][1024*j:])
					for i := range w {
						if uint32(got[i]) != modQ(w[i]) {
							return fmt.Errorf("%s[%d], coefficient %d = %d, Spec gives %d mod q", name, j, i, got[i], w[i])
						}
					}
				}
			}
			return nil
		},
	}
}

// signAttemptKeys is one key's forms per parameter set, for
// genSignAttempt.
var (
	signAttemptKeys   = map[string]Buffers{}
	signAttemptKeysMu sync.Mutex
)

// genSignAttempt draws an input: a key's forms, μ, ρ″ and κ = ℓ·n for n
// below the bound of attempts.
func genSignAttempt(r *rand.Rand, p fips204.Params) Buffers {
	signAttemptKeysMu.Lock()
	defer signAttemptKeysMu.Unlock()
	keys, ok := signAttemptKeys[p.Name]
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
		signAttemptKeys[p.Name] = keys
	}
	b := Buffers{"in": randBytes(r, 130),
		"cTilde": randBytes(r, p.Lambda/4), "z": randBytes(r, 1024*p.L), "h": randBytes(r, 1024*p.K),
		"work": randBytes(r, 1024*SignAttemptWork(p))}
	binary.LittleEndian.PutUint16(b["in"][128:], uint16(p.L*r.IntN(fips204.SignIterations)))
	for name, v := range keys {
		b[name] = v
	}
	return b
}

// signAttemptSpec is Spec's attempt on the input: SignAttemptOver on the
// forms the buffers hold, and whether SampleInBall stays within its bound.
func signAttemptSpec(p fips204.Params, in Buffers) (cTilde []byte, z, h []fips204.Poly, ok, ball bool) {
	polys := func(name string, n int, mont bool) []fips204.Poly {
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
	flat := polys("aHat", p.K*p.L, false)
	var aHat [][]fips204.Poly
	for i := 0; i < p.K; i++ {
		aHat = append(aHat, flat[p.L*i:p.L*i+p.L])
	}
	cTilde, z, h, okb := fips204.SignAttemptOver[byte, fips204.Poly](fips204.Values{P: p}, p, aHat,
		polys("s1Hat", p.L, true), polys("s2Hat", p.K, true), polys("t0Hat", p.K, true), in["in"][:64], in["in"][64:128], in["in"][128:])
	n := 0
	read := shake256(cTilde)
	fips204.SampleInBallFrom(p, func(s []byte) { n += len(s); read(s) })
	return cTilde, z, h, okb == 1, n <= maxBallBytes
}
