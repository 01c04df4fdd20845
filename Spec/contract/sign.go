package contract

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips204"
)

// ML-DSA.Sign_internal (FIPS 204, Algorithm 7) from line 7, from the forms
// of the private key go/mldsa keeps, μ and rnd: one routine per parameter
// set and path, which computes ρ″ (one CALL of the permutation) and runs
// the attempts for κ = 0, ℓ, 2ℓ, … below the bound of Appendix C, each a
// CALL of the SignZ, SignR0 and SignHint stages, branching on each one's
// result (made public, as Algorithm 7 branches), and sigEncode (a CALL of
// SigEncode) for the attempt that ends the loop. Its postcondition is
// fips204.SignLoopOver itself, the loop SignOver and so every signing
// vector runs, over the stages' proven contracts (Attempts).
func init() { lazily(signContracts) }

func signContracts() {
	for _, ps := range paramSets {
		for _, v := range []string{"AMD64", "AVX2", "AVX512"} {
			register(signContract(ps.name, ps.p, v))
		}
	}
}

// SignCallees is the routines Sign<set><variant> calls: its path's three
// stages, SigEncode (the AVX2 one on the AVX-512 path), the permutation
// for ρ″ (the BMI2 one with AVX2) and the valgrind client request, by
// which it declares the stages' results and the accepted c̃, z and h
// defined for the constant-time check's memcheck run.
func SignCallees(name string, variant string) []string {
	perm := "KeccakF1600BMI2"
	if variant == "AMD64" {
		perm = "KeccakF1600AMD64"
	}
	return []string{"SignZ" + name + variant, "SignR0" + name + variant, "SignHint" + name + variant,
		"SigEncode" + name + avx2Rest(variant), perm, "ValgrindClientRequestAMD64"}
}

// The layout of Sign's buffers, the same for every parameter set (its
// largest k and ℓ): acc = c̃ (64 bytes) ‖ z (ℓ ≤ 7) ‖ h (k ≤ 8), seed = K ‖
// rnd ‖ μ, and scratch = μ ‖ ρ″ ‖ IntegerToBytes(κ, 2) (SignZ's in,
// padded to 256 bytes) ‖ NTT(c) ‖ w (k ≤ 8) ‖ SignZ's work (at most 10
// polynomials) ‖ the SHAKE256 state of ρ″. Go's calling convention
// passes at most nine integer arguments in registers, so the routine takes
// eight buffers.
const (
	SignAccZ       = 64
	SignAccH       = SignAccZ + 1024*7
	SignAccBytes   = SignAccH + 1024*8
	SignCHat       = 256
	SignW          = SignCHat + 1024
	SignWork       = SignW + 1024*8
	SignState      = SignWork + 1024*10
	SignScratchLen = SignState + 200
)

// signContract is the contract of Sign<set><variant>.
func signContract(name string, p fips204.Params, variant string) *Contract {
	sym := "Sign" + name + variant
	k, l, cTildeSize := p.K, p.L, p.Lambda/4
	calls := SignCallees(name, variant)
	rows := func(v []any) [][]any {
		m := make([][]any, k)
		for i := range m {
			m[i] = v[l*i : l*i+l]
		}
		return m
	}
	return &Contract{
		Symbol: sym, Routine: "Sign" + name, Variant: variant,
		Stem: "sign", GoName: "sign",
		GoSig: fmt.Sprintf("func %s(sigma *[%d]byte, acc *[%d]byte, seed *[128]byte, aHat *[%d][256]uint32, s1Hat *[%d][256]uint32, "+
			"s2Hat *[%d][256]uint32, t0Hat *[%d][256]uint32, scratch *[%d]byte) bool",
			sym, p.SignatureSize, SignAccBytes, k*l, l, k, k, SignScratchLen),
		Doc: []string{
			fmt.Sprintf("%s is ML-DSA-%s's Sign_internal (FIPS 204, Algorithm 7)", sym, name),
			"from line 7, from seed = K ‖ rnd ‖ μ, Â (as sampled, row-major) and",
			"NTT(s1), NTT(s2) and NTT(t0) times 2³² mod q: ρ″ (line 7), then the",
			"attempts for κ = 0, ℓ, 2ℓ, … below ℓ times the bound of Appendix C,",
			"each by calls of the proven stage routines, branching on each one's",
			"result as Algorithm 7 does. It returns true with σ in sigma and the",
			"accepted attempt's c̃, z and h in acc (contract.SignAccZ, SignAccH),",
			"or false when no attempt ends the loop. scratch is its space, left",
			"as garbage (layout: contract.SignCHat, SignW, SignWork, SignState).",
		},
		Level: provenExcept(), Budget: 60,
		Args: []Arg{
			{Name: "sigma", Bytes: p.SignatureSize, Write: true},
			{Name: "acc", Bytes: SignAccBytes, Secret: true, Read: true, Write: true},
			{Name: "seed", Bytes: 128, Secret: true, Read: true},
			{Name: "aHat", Bytes: 1024 * k * l, Read: true},
			{Name: "s1Hat", Bytes: 1024 * l, Secret: true, Read: true},
			{Name: "s2Hat", Bytes: 1024 * k, Secret: true, Read: true},
			{Name: "t0Hat", Bytes: 1024 * k, Secret: true, Read: true},
			{Name: "scratch", Bytes: SignScratchLen, Secret: true, Read: true, Write: true},
		},
		Result:    "bool",
		Calls:     calls,
		PublicOut: []string{"acc"}, PublicControl: true,
		Attempts: &Attempts{P: p, Permutation: calls[4], Counter: "scratch", At: 128,
			Bound: fips204.SignIterations * l, Step: l, Sigma: "sigma",
			Polys: []string{"aHat", "s1Hat", "s2Hat", "t0Hat"}, MontIn: []string{"s1Hat", "s2Hat", "t0Hat"},
			Scratch: []string{"acc", "scratch"},
			Before: func(o fips204.SignOps[any, any], in map[string][]any) []any {
				seed := in["seed"]
				return fips204.SignRhoOver(o, seed[:32], seed[32:64], seed[64:]) // Algorithm 7, line 7
			},
			Attempt: func(o fips204.SignOps[any, any], st fips204.SignStages[any, any], in map[string][]any, rhoPP, kappa []any) ([]any, bool) {
				return fips204.SignAttemptOver(o, st, rows(in["aHat"]), in["s1Hat"], in["s2Hat"], in["t0Hat"], in["seed"][64:], rhoPP, kappa) // lines 11 to 34
			}},
		Pre: "every coefficient of aHat (Â, k×ℓ by rows) and of s1Hat, s2Hat and t0Hat (NTT(s1), NTT(s2), NTT(t0) times 2³²) in [0, q); " +
			"seed, acc and scratch any bytes",
		Post: "(σ, ok) = fips204.SignLoopOver(Â, NTT(s1), NTT(s2), NTT(t0), K, μ, rnd) over the stages' contracts (Algorithm 7 from line 7, " +
			"SampleInBall within its bound in each attempt, Appendix C): where ok, sigma = σ and acc's c̃, z and h the accepted attempt's",
		Leak: "the number of attempts and, for each rejected one, which stage's check rejected it (each stage's result, made public), " +
			"the accepted attempt's c̃, z and h (σ holds them; SigEncode branches on h), and where SampleInBall's rejections fall on each c̃ " +
			"(the stages' declared leak)",
		// MaxFrame: the callees' arguments and result, and the client
		// request's block.
		Features: signFeatures(variant, SignZWays(p, variant) == 4), MaxFrame: 256, NoAlias: true,
		Runs: 4,
		Gen: func(r *rand.Rand) Buffers {
			b := genSignStage(r, p, 0)
			signKeysMu.Lock()
			s2Hat, t0Hat := signKeys[p.Name]["s2Hat"], signKeys[p.Name]["t0Hat"]
			signKeysMu.Unlock()
			return Buffers{"sigma": randBytes(r, p.SignatureSize), "acc": randBytes(r, SignAccBytes), "seed": randBytes(r, 128),
				"aHat": b["aHat"], "s1Hat": b["s1Hat"], "s2Hat": s2Hat, "t0Hat": t0Hat, "scratch": randBytes(r, SignScratchLen)}
		},
		Check: func(in, out Buffers, ret byte) error {
			v := fips204.Values{P: p}
			st := &encodeSeen{SpecStages: fips204.SpecStages[byte, fips204.Poly]{O: v, P: p}}
			seed := in["seed"]
			sigma, ok := fips204.SignLoopOver[byte, fips204.Poly](v, st, p, signAHat(p, in), signPolys(in, "s1Hat", l, true),
				signPolys(in, "s2Hat", k, true), signPolys(in, "t0Hat", k, true), seed[:32], seed[64:], seed[32:64])
			if ret != b2b(ok) {
				return fmt.Errorf("returned %d, Spec's Sign_internal gives %v", ret, ok)
			}
			if !ok {
				return nil
			}
			if !bytes.Equal(out["sigma"], sigma) {
				return fmt.Errorf("σ differs from Spec's")
			}
			acc := out["acc"]
			if !bytes.Equal(acc[:cTildeSize], st.cTilde) {
				return fmt.Errorf("c̃ differs from the accepted attempt's")
			}
			return samePolys(Buffers{"z": acc[SignAccZ:], "h": acc[SignAccH:]}, map[string][]fips204.Poly{"z": st.z, "h": st.h})
		},
	}
}

// encodeSeen is Spec's stages, keeping what Encode got: the accepted
// attempt's c̃, z and h.
type encodeSeen struct {
	fips204.SpecStages[byte, fips204.Poly]
	cTilde []byte
	z, h   []fips204.Poly
}

func (e *encodeSeen) Encode(cTilde []byte, z, h []fips204.Poly) []byte {
	e.cTilde, e.z, e.h = cTilde, z, h
	return e.SpecStages.Encode(cTilde, z, h)
}
