package contract

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips204"
)

// ML-DSA.KeyGen_internal, line 5 (FIPS 204, Algorithm 6): from Â (as
// ExpandA writes it), s1 and s2, t = NTT⁻¹(Â ∘ NTT(s1)) + s2, and ŝ1 =
// NTT(s1) in Montgomery form (times 2³² mod q), the form go/mldsa keeps
// for signing. One routine per parameter set and path, made of CALLs of
// the proven NTT, ToMontgomeryPoly, MultiplyAccNTT, NTTInverse and
// PolyAdd routines; its postcondition is fips204.KeyGenTOver itself, run
// by the checker over the routine's symbolic values (Compose).
func init() { lazily(keyGenTContracts) }

func keyGenTContracts() {
	for _, ps := range paramSets {
		register(keyGenTContract(ps.name, ps.p, "AMD64"), keyGenTContract(ps.name, ps.p, "AVX2"))
	}
}

// keyGenTContract is the contract of KeyGenT<set><variant>, calling the
// routines of its variant.
func keyGenTContract(name string, p fips204.Params, variant string) *Contract {
	sym := "KeyGenT" + name + variant
	k, l := p.K, p.L
	calls := []string{"NTT" + variant, "ToMontgomeryPoly" + variant, fmt.Sprintf("MultiplyAccNTT%d%s", l, variant), "NTTInverse" + variant, "PolyAdd" + variant}
	var features []string
	if variant == "AVX2" {
		features = []string{"AVX", "AVX2"}
	}
	polys := func(b []byte) []fips204.Poly {
		v := make([]fips204.Poly, len(b)/1024)
		for i := range v {
			v[i] = Poly(b[1024*i:])
		}
		return v
	}
	rows := func(v []any) [][]any {
		m := make([][]any, k)
		for i := range m {
			m[i] = v[l*i : l*i+l]
		}
		return m
	}
	return &Contract{
		Symbol: sym, Routine: "KeyGenT" + name, Variant: variant,
		Stem: "keygent", GoName: "keyGenT",
		GoSig: fmt.Sprintf("func %s(t *[%d][256]uint32, s1Hat *[%d][256]uint32, s2 *[%d][256]uint32, aHat *[%d][256]uint32)", sym, k, l, k, k*l),
		Doc: []string{
			fmt.Sprintf("%s is ML-DSA-%s's KeyGen_internal, line 5 (FIPS 204,", sym, name),
			"Algorithm 6): t = NTT⁻¹(Â ∘ NTT(s1)) + s2, with s1 in s1Hat, which it",
			"turns into NTT(s1) times 2³² mod q (the Montgomery form), by calls of",
			fmt.Sprintf("%s, %s, %s, %s and %s.", calls[0], calls[1], calls[2], calls[3], calls[4]),
			"No branch or address depends on s1, s2 or Â.",
		},
		Level: provenExcept(), Budget: 300,
		Args: []Arg{
			// t is read after the routine writes it (NTT⁻¹ and the sum in place).
			{Name: "t", Bytes: 1024 * k, Secret: true, Read: true, Write: true},
			{Name: "s1Hat", Bytes: 1024 * l, Secret: true, Read: true, Write: true},
			{Name: "s2", Bytes: 1024 * k, Secret: true, Read: true},
			{Name: "aHat", Bytes: 1024 * k * l, Read: true},
		},
		Calls: calls,
		Compose: &Compose{P: p, Polys: []string{"t", "s1Hat", "s2", "aHat"}, NTTPolys: []string{"aHat"}, Mont: []string{"s1Hat"}, InPlace: []string{"s1Hat"},
			Steps: func(o fips204.SignOps[any, any], in map[string][]any) map[string][]any {
				t := fips204.KeyGenTOver(o, p, rows(in["aHat"]), in["s1Hat"], in["s2"]) // line 5
				s1Hat := make([]any, l)
				for j := range s1Hat {
					s1Hat[j] = o.NTT(in["s1Hat"][j])
				}
				return map[string][]any{"t": t, "s1Hat": s1Hat}
			}},
		Pre:  "every coefficient of s1Hat (s1), s2 and aHat (Â, k×ℓ by rows) in [0, q); t any bytes",
		Post: "t = fips204.KeyGenTOver(Â, s1, s2) (Algorithm 6, line 5); s1Hat = NTT(s1) · 2³² mod q; coefficients in [0, q)",
		Leak: "nothing of s1, s2 or t (Â is public)",
		// MaxFrame: the callees' arguments (24 bytes).
		Features: features, MaxFrame: 4096, NoAlias: true,
		Gen: func(r *rand.Rand) Buffers {
			b := Buffers{"t": randBytes(r, 1024*k)}
			for _, a := range []struct {
				name string
				n    int
			}{{"s1Hat", l}, {"s2", k}, {"aHat", k * l}} {
				for i := 0; i < a.n; i++ {
					b[a.name] = append(b[a.name], genCoeffs(r)...)
				}
			}
			return b
		},
		Check: func(in, out Buffers, _ byte) error {
			a, s1, s2 := polys(in["aHat"]), polys(in["s1Hat"]), polys(in["s2"])
			m := make([][]fips204.Poly, k)
			for i := range m {
				m[i] = a[l*i : l*i+l]
			}
			t := fips204.KeyGenTOver[byte, fips204.Poly](fips204.Values{P: p}, p, m, s1, s2)
			for i := range t {
				for j, x := range t[i] {
					if got := binary.LittleEndian.Uint32(out["t"][1024*i+4*j:]); got != modQ(x) {
						return fmt.Errorf("t[%d][%d] = %d, Spec gives %d", i, j, got, x)
					}
				}
			}
			for i := range s1 {
				w := fips204.NTT(s1[i])
				for j, x := range w {
					want := uint32(int64(modQ(x)) << 32 % fips204.Q)
					if got := binary.LittleEndian.Uint32(out["s1Hat"][1024*i+4*j:]); got != want {
						return fmt.Errorf("s1Hat[%d][%d] = %d, Spec's NTT(s1) · 2³² mod q is %d", i, j, got, want)
					}
				}
			}
			return nil
		},
	}
}
