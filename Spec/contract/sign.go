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
		GoSig: fmt.Sprintf("func %s(sigma *[%d]byte, cTilde *[%d]byte, z *[%d][256]uint32, h *[%d][256]uint32, "+
			"key *[32]byte, rnd *[32]byte, mu *[64]byte, aHat *[%d][256]uint32, s1Hat *[%d][256]uint32, s2Hat *[%d][256]uint32, t0Hat *[%d][256]uint32, "+
			"in *[130]byte, cHat *[256]uint32, w *[%d][256]uint32, work *[%d][256]uint32, state *[200]byte) bool",
			sym, p.SignatureSize, cTildeSize, l, k, k*l, l, k, k, k, SignZWork(p)),
		Doc: []string{
			fmt.Sprintf("%s is ML-DSA-%s's Sign_internal (FIPS 204, Algorithm 7)", sym, name),
			"from line 7, from K, rnd, μ, Â (as sampled, row-major) and NTT(s1),",
			"NTT(s2) and NTT(t0) times 2³² mod q: ρ″ (line 7), then the attempts",
			"for κ = 0, ℓ, 2ℓ, … below ℓ times the bound of Appendix C, each by",
			"calls of the proven stage routines, branching on each one's result",
			"as Algorithm 7 does. It returns true with σ in sigma, and the",
			"accepted attempt's c̃, z and h in cTilde, z and h, or false when",
			"no attempt ends the loop. in, cHat, w, work and state are its",
			"space, left as garbage.",
		},
		Level: provenExcept(), Budget: 60,
		Args: []Arg{
			{Name: "sigma", Bytes: p.SignatureSize, Write: true},
			{Name: "cTilde", Bytes: cTildeSize, Secret: true, Read: true, Write: true},
			{Name: "z", Bytes: 1024 * l, Secret: true, Read: true, Write: true},
			{Name: "h", Bytes: 1024 * k, Secret: true, Read: true, Write: true},
			{Name: "key", Bytes: 32, Secret: true, Read: true},
			{Name: "rnd", Bytes: 32, Secret: true, Read: true},
			{Name: "mu", Bytes: 64, Secret: true, Read: true},
			{Name: "aHat", Bytes: 1024 * k * l, Read: true},
			{Name: "s1Hat", Bytes: 1024 * l, Secret: true, Read: true},
			{Name: "s2Hat", Bytes: 1024 * k, Secret: true, Read: true},
			{Name: "t0Hat", Bytes: 1024 * k, Secret: true, Read: true},
			{Name: "in", Bytes: 130, Secret: true, Read: true, Write: true},
			{Name: "cHat", Bytes: 1024, Secret: true, Read: true, Write: true},
			{Name: "w", Bytes: 1024 * k, Secret: true, Read: true, Write: true},
			{Name: "work", Bytes: 1024 * SignZWork(p), Secret: true, Read: true, Write: true},
			{Name: "state", Bytes: 200, Secret: true, Read: true, Write: true},
		},
		Result:    "bool",
		Calls:     calls,
		PublicOut: []string{"cTilde", "z", "h"}, PublicControl: true,
		Attempts: &Attempts{P: p, Permutation: calls[4], Counter: "in", At: 128,
			Bound: fips204.SignIterations * l, Step: l, Sigma: "sigma",
			Polys: []string{"aHat", "s1Hat", "s2Hat", "t0Hat"}, MontIn: []string{"s1Hat", "s2Hat", "t0Hat"},
			Scratch: []string{"cTilde", "z", "h", "in", "cHat", "w", "work", "state"},
			Before: func(o fips204.SignOps[any, any], in map[string][]any) []any {
				return fips204.SignRhoOver(o, in["key"], in["rnd"], in["mu"]) // Algorithm 7, line 7
			},
			Attempt: func(o fips204.SignOps[any, any], st fips204.SignStages[any, any], in map[string][]any, rhoPP, kappa []any) ([]any, bool) {
				return fips204.SignAttemptOver(o, st, rows(in["aHat"]), in["s1Hat"], in["s2Hat"], in["t0Hat"], in["mu"], rhoPP, kappa) // lines 11 to 34
			}},
		Pre: "every coefficient of aHat (Â, k×ℓ by rows) and of s1Hat, s2Hat and t0Hat (NTT(s1), NTT(s2), NTT(t0) times 2³²) in [0, q); " +
			"key, rnd and mu any bytes",
		Post: "(σ, ok) = fips204.SignLoopOver(Â, NTT(s1), NTT(s2), NTT(t0), K, μ, rnd) over the stages' contracts (Algorithm 7 from line 7, " +
			"SampleInBall within its bound in each attempt, Appendix C): where ok, sigma = σ and cTilde, z and h the accepted attempt's",
		Leak: "the number of attempts and, for each rejected one, which stage's check rejected it (each stage's result, made public), " +
			"the accepted attempt's c̃, z and h (σ holds them; SigEncode branches on h), and where SampleInBall's rejections fall on each c̃ " +
			"(the stages' declared leak)",
		// MaxFrame: the callees' arguments and result, and the client
		// request's block.
		Features: signFeatures(variant, SignZWays(p, variant) == 4), MaxFrame: 256, NoAlias: true,
		Runs: 4,
		Gen: func(r *rand.Rand) Buffers {
			b := genSignStage(r, p, 0)
			b["sigma"] = randBytes(r, p.SignatureSize)
			b["h"] = randBytes(r, 1024*k)
			signKeysMu.Lock()
			b["s2Hat"], b["t0Hat"] = signKeys[p.Name]["s2Hat"], signKeys[p.Name]["t0Hat"]
			signKeysMu.Unlock()
			b["key"], b["rnd"], b["mu"] = randBytes(r, 32), randBytes(r, 32), randBytes(r, 64)
			b["state"] = randBytes(r, 200)
			return b
		},
		Check: func(in, out Buffers, ret byte) error {
			v := fips204.Values{P: p}
			st := &encodeSeen{SpecStages: fips204.SpecStages[byte, fips204.Poly]{O: v, P: p}}
			sigma, ok := fips204.SignLoopOver[byte, fips204.Poly](v, st, p, signAHat(p, in), signPolys(in, "s1Hat", l, true),
				signPolys(in, "s2Hat", k, true), signPolys(in, "t0Hat", k, true), in["key"], in["mu"], in["rnd"])
			if ret != b2b(ok) {
				return fmt.Errorf("returned %d, Spec's Sign_internal gives %v", ret, ok)
			}
			if !ok {
				return nil
			}
			if !bytes.Equal(out["sigma"], sigma) {
				return fmt.Errorf("σ differs from Spec's")
			}
			if !bytes.Equal(out["cTilde"], st.cTilde) {
				return fmt.Errorf("c̃ differs from the accepted attempt's")
			}
			return samePolys(out, map[string][]fips204.Poly{"z": st.z, "h": st.h})
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
