package contract

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips204"
)

// ML-DSA.KeyGen_internal (FIPS 204, Algorithm 6) as one routine per
// parameter set and path: from ξ, the encodings pk and sk, and the forms
// go/mldsa keeps (Â as sampled, NTT(s1) in Montgomery form) and the
// values of lines 4 to 6 (s2, t, t0). It is made of CALLs of the proven
// routines only; its postcondition is fips204.KeyGenFormsOver itself, the
// steps fips204.KeyGenOver runs, run by the checker over the routine's
// symbolic values (Compose).
func init() { lazily(keyGenContracts) }

func keyGenContracts() {
	for _, ps := range paramSets {
		register(keyGenContract(ps.name, ps.p, "AMD64"), keyGenContract(ps.name, ps.p, "AVX2"), keyGenContract(ps.name, ps.p, "AVX512"))
	}
}

// keyGenBounded reports whether every sampler of Algorithm 6 on ξ stays
// within its bound (Appendix C): the kℓ of ExpandA and the k + ℓ of
// ExpandS.
func keyGenBounded(p fips204.Params, xi []byte) bool {
	seed := fips204.KeyGenSeedOver[byte, fips204.Poly](fips204.Values{P: p}, p, xi)
	r := rand.New(rand.NewPCG(0, 0))
	for e := 0; e < p.K*p.L; e++ {
		if _, ok := rejEffect(ExpandASeed(seed[:32], e, p.L), r); !ok {
			return false
		}
	}
	for n := 0; n < p.K+p.L; n++ {
		if _, ok := boundedEffect(p.Eta, boundedSeed(seed[32:96], []byte{byte(n), byte(n >> 8)}), r); !ok {
			return false
		}
	}
	return true
}

// keyGenContract is the contract of KeyGen<set><variant>, calling the
// routines of its variant (AVX2: the four-way samplers, and for H the BMI2
// permutation, as go/mldsa's AVX2 path did: every CPU with AVX2 has BMI2,
// and go/mldsa checks both; AVX512: the AVX-512 ExpandA, four-way
// sampler, NTT, NTT⁻¹ and product, and the AVX2 routines for the rest,
// which have no AVX-512 variant).
func keyGenContract(name string, p fips204.Params, variant string) *Contract {
	sym := "KeyGen" + name + variant
	k, l := p.K, p.L
	ηBits := 3
	if p.Eta == 4 {
		ηBits = 4
	}
	perm, sampler := "KeccakF1600AMD64", fmt.Sprintf("RejBoundedPolyEta%dAMD64", p.Eta)
	var features []string
	v := variant // the variant of the routines without an AVX-512 one
	switch variant {
	case "AVX2":
		perm, sampler = "KeccakF1600BMI2", fmt.Sprintf("RejBoundedPolyx4Eta%dAVX2", p.Eta)
		features = []string{"AVX", "AVX2", "BMI", "BMI2"}
	case "AVX512":
		perm, sampler, v = "KeccakF1600BMI2", fmt.Sprintf("RejBoundedPolyx4Eta%dAVX512", p.Eta), "AVX2"
		features = []string{"AVX", "AVX2", "BMI", "BMI2", "AVX512F", "AVX512VL"}
	}
	calls := []string{perm, "ExpandA" + name + variant, sampler, fmt.Sprintf("BitPack%d%s", ηBits, v),
		"NTT" + variant, "ToMontgomeryPoly" + v, fmt.Sprintf("MultiplyAccNTT%d%s", l, variant), "NTTInverse" + variant, "PolyAdd" + v,
		"Power2RoundPoly" + v, "SimpleBitPack10" + v, "BitPack13" + v}
	// The samplers' output buffers (s1Hat, s2, and t0 for a padding
	// lane) start with public bytes: the samplers' contracts take their
	// old words as public. What the routine writes there is secret by
	// the taint of what it came from.
	polys := func(name string, n int, secret bool) Arg {
		return Arg{Name: name, Bytes: 1024 * n, Secret: secret, Read: true, Write: true}
	}
	return &Contract{
		Symbol: sym, Routine: "KeyGen" + name, Variant: variant,
		Stem: "keygen", GoName: "keyGen",
		GoSig: fmt.Sprintf("func %s(pk *[%d]byte, sk *[%d]byte, aHat *[%d][256]uint32, s1Hat *[%d][256]uint32, s2 *[%d][256]uint32, t *[%d][256]uint32, t0 *[%d][256]uint32, xi *[32]byte) bool",
			sym, p.PublicKeySize, p.PrivateKeySize, k*l, l, k, k, k),
		Doc: []string{
			fmt.Sprintf("%s is ML-DSA-%s's KeyGen_internal (FIPS 204, Algorithm 6)", sym, name),
			"from ξ: pk and sk, Â (as sampled, row-major) in aHat, NTT(s1) times",
			"2³² mod q in s1Hat, and s2, t and t0 (r0 mod q), by calls of the proven",
			fmt.Sprintf("routines of its path (%s for H). It returns false if a", perm),
			"sampler ran out of its bound (Appendix C), every output then garbage.",
			"Its own code has no branch; a sampler's control flow depends on ρ",
			"(public) or on where RejBoundedPoly's rejections fall.",
		},
		Level: provenExcept(), Budget: 240,
		Args: []Arg{
			// pk is read: ExpandA samples from its first 32 bytes, ρ.
			{Name: "pk", Bytes: p.PublicKeySize, Read: true, Write: true},
			{Name: "sk", Bytes: p.PrivateKeySize, Secret: true, Write: true},
			{Name: "aHat", Bytes: 1024 * k * l, Read: true, Write: true},
			polys("s1Hat", l, false), polys("s2", k, false), polys("t", k, true), polys("t0", k, false),
			{Name: "xi", Bytes: 32, Secret: true, Read: true},
		},
		Result: "bool",
		Calls:  calls,
		Compose: &Compose{P: p, Permutation: perm, Polys: []string{"aHat", "s1Hat", "s2", "t", "t0"}, Mont: []string{"s1Hat"},
			Steps: func(o fips204.SignOps[any, any], in map[string][]any) map[string][]any {
				f := fips204.KeyGenFormsOver(o, p, in["xi"]) // Algorithm 6
				var aHat []any
				for _, row := range f.AHat {
					aHat = append(aHat, row...)
				}
				s1Hat := make([]any, l)
				for j := range s1Hat {
					s1Hat[j] = o.NTT(f.S1[j])
				}
				return map[string][]any{"pk": f.PK, "sk": f.SK, "aHat": aHat, "s1Hat": s1Hat, "s2": f.S2, "t": f.T, "t0": f.T0}
			}},
		Pre: "xi = ξ (32 bytes, secret); the other buffers any bytes, public but for t's",
		Post: "ok ⇔ every sampler of Algorithm 6 stays within its bound (Appendix C); ok ⇒ (pk, sk) = fips204.KeyGenOver(ξ) (Algorithm 6), " +
			"aHat = Â, s1Hat = NTT(s1) · 2³², s2, t, t0 of fips204.KeyGenFormsOver(ξ), mod q",
		Leak: "ρ and t1 (pk, public by Algorithm 6: ExpandA's samplers' control flow depends on ρ); where RejBoundedPoly's rejections fall " +
			"(its declared leak) and whether a sampler ran out; nothing else of ξ, ρ′, K, s1, s2, t or t0",
		PublicOut: []string{"pk"},
		// MaxFrame: the callees' arguments (32 bytes), the SHAKE256 state
		// (200), t1 (1024), four seeds of 66 bytes, four pointers, a nonce
		// and the running result.
		Features: features, MaxFrame: 4096, NoAlias: true,
		// Each input runs Spec's samplers for the callees' Effects and
		// again for Check; the steps are proven for every ξ (Compose).
		Runs: 50,
		Gen: func(r *rand.Rand) Buffers {
			b := Buffers{"pk": randBytes(r, p.PublicKeySize), "sk": randBytes(r, p.PrivateKeySize), "aHat": randBytes(r, 1024*k*l), "xi": randBytes(r, 32)}
			for _, a := range []struct {
				name string
				n    int
			}{{"s1Hat", l}, {"s2", k}, {"t", k}, {"t0", k}} {
				b[a.name] = randBytes(r, 1024*a.n)
			}
			return b
		},
		Check: func(in, out Buffers, ret byte) error {
			ok := keyGenBounded(p, in["xi"])
			if ret != b2b(ok) {
				return fmt.Errorf("returned %d, want %d", ret, b2b(ok))
			}
			if !ok {
				return nil
			}
			f := fips204.KeyGenFormsOver[byte, fips204.Poly](fips204.Values{P: p}, p, in["xi"])
			if !bytes.Equal(out["pk"], f.PK) {
				return fmt.Errorf("pk differs from Spec's")
			}
			if !bytes.Equal(out["sk"], f.SK) {
				return fmt.Errorf("sk differs from Spec's")
			}
			var aHat, s1Hat []fips204.Poly
			for _, row := range f.AHat {
				aHat = append(aHat, row...)
			}
			for _, s := range f.S1 {
				w := fips204.NTT(s)
				for i, x := range w {
					w[i] = int32(int64(modQ(x)) << 32 % fips204.Q)
				}
				s1Hat = append(s1Hat, w)
			}
			for _, c := range []struct {
				name string
				want []fips204.Poly
			}{{"aHat", aHat}, {"s1Hat", s1Hat}, {"s2", f.S2}, {"t", f.T}, {"t0", f.T0}} {
				for i := range c.want {
					for j, x := range c.want[i] {
						if got := binary.LittleEndian.Uint32(out[c.name][1024*i+4*j:]); got != modQ(x) {
							return fmt.Errorf("%s[%d][%d] = %d, Spec gives %d mod q", c.name, i, j, got, x)
						}
					}
				}
			}
			return nil
		},
	}
}
