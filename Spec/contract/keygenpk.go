package contract

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips204"
)

// ML-DSA.KeyGen_internal, lines 6 and 8 (FIPS 204, Algorithm 6): from ρ
// and t, the public key pk = pkEncode(ρ, t1) and t0, where (t1, t0) =
// Power2Round(t). One routine per parameter set and path, made of CALLs
// of the proven Power2RoundPoly and SimpleBitPack10 routines; its
// postcondition is fips204.KeyGenPkOver itself, run by the checker over
// the routine's symbolic values (Compose). Line 9, tr = H(pk, 64), is
// TrHash's.
func init() { lazily(keyGenPkContracts) }

func keyGenPkContracts() {
	for _, ps := range paramSets {
		register(keyGenPkContract(ps.name, ps.p, "AMD64"), keyGenPkContract(ps.name, ps.p, "AVX2"))
	}
}

// keyGenPkContract is the contract of KeyGenPk<set><variant>, calling the
// routines of its variant.
func keyGenPkContract(name string, p fips204.Params, variant string) *Contract {
	sym := "KeyGenPk" + name + variant
	n, k := p.PublicKeySize, p.K
	calls := []string{"Power2RoundPoly" + variant, "SimpleBitPack10" + variant}
	var features []string
	if variant == "AVX2" {
		features = []string{"AVX", "AVX2"}
	}
	spec := func(in Buffers) (pk []byte, t0 []fips204.Poly) {
		t := make([]fips204.Poly, k)
		for i := range t {
			t[i] = Poly(in["t"][1024*i : 1024*i+1024])
		}
		return fips204.KeyGenPkOver[byte, fips204.Poly](fips204.Values{P: p}, p, in["rho"], t)
	}
	return &Contract{
		Symbol: sym, Routine: "KeyGenPk" + name, Variant: variant,
		Stem: "keygenpk", GoName: "keyGenPk",
		GoSig: fmt.Sprintf("func %s(pk *[%d]byte, t0 *[%d][256]uint32, rho *[32]byte, t *[%d][256]uint32)", sym, n, k, k),
		Doc: []string{
			fmt.Sprintf("%s is ML-DSA-%s's KeyGen_internal, lines 6 and 8 (FIPS 204,", sym, name),
			"Algorithm 6): (t1, t0) = Power2Round(t) and pk = pkEncode(ρ, t1), by",
			fmt.Sprintf("calls of %s and %s. t0 is r0 mod q.", calls[0], calls[1]),
			"No branch or address depends on t.",
		},
		Level: provenExcept(), Budget: 200,
		Args: []Arg{
			{Name: "pk", Bytes: n, Write: true},
			{Name: "t0", Bytes: 1024 * k, Secret: true, Write: true},
			{Name: "rho", Bytes: 32, Read: true},
			{Name: "t", Bytes: 1024 * k, Secret: true, Read: true},
		},
		Calls: calls,
		Compose: &Compose{P: p, Polys: []string{"t", "t0"},
			Steps: func(o fips204.SignOps[any, any], in map[string][]any) map[string][]any {
				pk, t0 := fips204.KeyGenPkOver(o, p, in["rho"], in["t"]) // lines 6 and 8
				return map[string][]any{"pk": pk, "t0": t0}
			}},
		Pre:  "every coefficient of t in [0, q); rho = ρ (public)",
		Post: "(pk, t0) = fips204.KeyGenPkOver(ρ, t) (Algorithm 6, lines 6 and 8), t0 mod q",
		Leak: "ρ and t1 (pk, public by Algorithm 6); nothing of t0",
		// MaxFrame: the callees' arguments and t1 (24 + 1024 bytes).
		Features: features, MaxFrame: 4096, NoAlias: true,
		Gen: func(r *rand.Rand) Buffers {
			t := make([]byte, 0, 1024*k)
			for i := 0; i < k; i++ {
				t = append(t, genCoeffs(r)...)
			}
			return Buffers{"pk": randBytes(r, n), "t0": randBytes(r, 1024*k), "rho": randBytes(r, 32), "t": t}
		},
		Check: func(in, out Buffers, _ byte) error {
			pk, t0 := spec(in)
			if !bytes.Equal(out["pk"], pk) {
				return fmt.Errorf("pk differs from Spec's pkEncode(ρ, t1)")
			}
			for i := range t0 {
				for j, x := range t0[i] {
					if got := binary.LittleEndian.Uint32(out["t0"][1024*i+4*j:]); got != modQ(x) {
						return fmt.Errorf("t0[%d][%d] = %d, Spec gives %d mod q", i, j, got, x)
					}
				}
			}
			return nil
		},
	}
}
