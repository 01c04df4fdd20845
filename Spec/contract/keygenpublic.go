package contract

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips204"
)

// ML-DSA.KeyGen_internal, lines 6 to 9 (FIPS 204, Algorithm 6): from ρ and
// t, the public key pk = pkEncode(ρ, t1), tr = H(pk, 64) and t0, where
// (t1, t0) = Power2Round(t). One routine per parameter set and path, made
// of CALLs of the proven Power2RoundPoly, SimpleBitPack10 and
// Keccak-f[1600] routines; its postcondition is fips204.KeyGenPublicOver
// itself, run by the checker over the routine's symbolic values (Compose).
func init() { lazily(keyGenPublicContracts) }

func keyGenPublicContracts() {
	for _, ps := range paramSets {
		register(keyGenPublicContract(ps.name, ps.p, "AMD64"), keyGenPublicContract(ps.name, ps.p, "AVX2"))
	}
}

// keyGenPublicContract is the contract of KeyGenPublic<set><variant>: the
// baseline one calls the AMD64 routines, the AVX2 one the AVX2 routines
// and KeccakF1600BMI2.
func keyGenPublicContract(name string, p fips204.Params, variant string) *Contract {
	sym := "KeyGenPublic" + name + variant
	n, k := p.PublicKeySize, p.K
	perm, calls := "KeccakF1600AMD64", []string{"Power2RoundPolyAMD64", "SimpleBitPack10AMD64"}
	var features []string
	if variant == "AVX2" {
		perm, calls = "KeccakF1600BMI2", []string{"Power2RoundPolyAVX2", "SimpleBitPack10AVX2"}
		features = []string{"AVX", "AVX2", "BMI", "BMI2"}
	}
	spec := func(in Buffers) (pk, tr []byte, t0 []fips204.Poly) {
		t := make([]fips204.Poly, k)
		for i := range t {
			t[i] = Poly(in["t"][1024*i : 1024*i+1024])
		}
		return fips204.KeyGenPublicOver[byte, fips204.Poly](fips204.Values{P: p}, p, in["rho"], t)
	}
	return &Contract{
		Symbol: sym, Routine: "KeyGenPublic" + name, Variant: variant,
		Stem: "keygenpublic", GoName: "keyGenPublic",
		GoSig: fmt.Sprintf("func %s(pk *[%d]byte, tr *[64]byte, t0 *[%d][256]uint32, rho *[32]byte, t *[%d][256]uint32)", sym, n, k, k),
		Doc: []string{
			fmt.Sprintf("%s is ML-DSA-%s's KeyGen_internal, lines 6 to 9 (FIPS 204,", sym, name),
			"Algorithm 6): (t1, t0) = Power2Round(t), pk = pkEncode(ρ, t1) and",
			fmt.Sprintf("tr = H(pk, 64), by calls of %s, %s", calls[0], calls[1]),
			fmt.Sprintf("and %s. t0 is r0 mod q. No branch or address depends on t.", perm),
		},
		Level: provenExcept(), Budget: 200,
		Args: []Arg{
			{Name: "pk", Bytes: n, Read: true, Write: true}, // read back for tr
			{Name: "tr", Bytes: 64, Write: true},
			{Name: "t0", Bytes: 1024 * k, Secret: true, Write: true},
			{Name: "rho", Bytes: 32, Read: true},
			{Name: "t", Bytes: 1024 * k, Secret: true, Read: true},
		},
		Calls: append(calls, perm),
		Compose: &Compose{P: p, Permutation: perm, Polys: []string{"t", "t0"},
			Steps: func(o fips204.KeyGenOps[any, any], in map[string][]any) map[string][]any {
				pk, tr, t0 := fips204.KeyGenPublicOver(o, p, in["rho"], in["t"]) // lines 6 to 9
				return map[string][]any{"pk": pk, "tr": tr, "t0": t0}
			}},
		Pre:  "every coefficient of t in [0, q); rho = ρ (public)",
		Post: "(pk, tr, t0) = fips204.KeyGenPublicOver(ρ, t) (Algorithm 6, lines 6 to 9), t0 mod q",
		Leak: "ρ and t1 (pk and tr, public by Algorithm 6); nothing of t0",
		// MaxFrame: the callees' arguments, the state and t1 (24 + 200 +
		// 1024 bytes).
		Features: features, MaxFrame: 4096, NoAlias: true,
		Gen: func(r *rand.Rand) Buffers {
			t := make([]byte, 0, 1024*k)
			for i := 0; i < k; i++ {
				t = append(t, genCoeffs(r)...)
			}
			return Buffers{"pk": randBytes(r, n), "tr": randBytes(r, 64), "t0": randBytes(r, 1024*k), "rho": randBytes(r, 32), "t": t}
		},
		Check: func(in, out Buffers, _ byte) error {
			pk, tr, t0 := spec(in)
			if !bytes.Equal(out["pk"], pk) {
				return fmt.Errorf("pk differs from Spec's pkEncode(ρ, t1)")
			}
			if !bytes.Equal(out["tr"], tr) {
				return fmt.Errorf("tr = %x, Spec gives %x", out["tr"], tr)
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
