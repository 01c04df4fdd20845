package contract

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips202"
	"github.com/vg-crypto/vg/Spec/fips204"
)

// SHAKE256's absorbing of a run of whole blocks (FIPS 202, Algorithm 8,
// step 6, once per block): a loop over up to AbsorbMaxBlocks blocks, each
// XORed into the rate and permuted by a CALL of the proven permutation
// (Loop), proven for every n ≤ AbsorbMaxBlocks, every state and every
// block. go/mldsa's SHAKE256 (tr, μ, the command line's streaming hash)
// absorbs its runs of whole blocks through it.
func init() { lazily(absorbBlocksContracts) }

// AbsorbMaxBlocks bounds the blocks one call absorbs: the checker's
// memory model holds buffers of a fixed size, so the input is a buffer of
// this many blocks, of which the routine reads the first n.
const AbsorbMaxBlocks = 8

func absorbBlocksContracts() {
	register(absorbBlocksContract("AMD64", "KeccakF1600AMD64", nil),
		absorbBlocksContract("BMI2", "KeccakF1600BMI2", []string{"BMI", "BMI2"}))
}

// absorbBlocksContract is the contract of SHAKE256Absorb<variant>, which
// calls perm; features are perm's.
func absorbBlocksContract(variant, perm string, features []string) *Contract {
	sym := "SHAKE256Absorb" + variant
	size := AbsorbMaxBlocks * fips202.Rate256
	return &Contract{
		Symbol: sym, Routine: "SHAKE256Absorb", Variant: variant,
		Stem: "absorbblocks", GoName: "shake256Absorb",
		GoSig: fmt.Sprintf("func %s(a *[25]uint64, in *[%d]byte, n *uint64)", sym, size),
		Doc: []string{
			fmt.Sprintf("%s absorbs the first *n 136-byte blocks of in into the", sym),
			"SHAKE256 state a (FIPS 202, Algorithm 8, step 6, once per block, in",
			fmt.Sprintf("order), each permuted by a call of %s; for *n > %d it", perm, AbsorbMaxBlocks),
			"leaves a as it is. Branches and addresses depend on *n only.",
		},
		Level: provenExcept(), Budget: 60,
		Args: []Arg{
			{Name: "a", Bytes: 200, Secret: true, Read: true, Write: true},
			{Name: "in", Bytes: size, Secret: true, Read: true},
			{Name: "n", Bytes: 8, Read: true},
		},
		Calls: []string{perm},
		Loop: &Loop{Carry: "a", Over: "in", Count: "n", Unit: fips202.Rate256, Max: AbsorbMaxBlocks, Permutation: perm,
			Step: func(o fips204.KeyGenOps[any, any], carry, unit []any) []any {
				var s [200]any
				copy(s[:], carry)
				fips202.AbsorbOver[any](o, &s, unit)
				return s[:]
			}},
		Pre:  fmt.Sprintf("a points to 25 lanes, lane A[x,y] at a[x+5y] (little-endian words); in holds %d blocks of 136 bytes; n points to a count (public)", AbsorbMaxBlocks),
		Post: fmt.Sprintf("for *n ≤ %d, a = fips202.AbsorbBlocksOver(old a, in[:136·n]), AbsorbBlock of each block in order; for *n > %d, a unchanged", AbsorbMaxBlocks, AbsorbMaxBlocks),
		// The message is public in ML-DSA, but tr ‖ M′ mixes it with tr,
		// and the command line hashes files a caller may keep secret; how
		// many blocks there are is public.
		Leak:     "n; the state and the blocks are secret",
		Features: features, MaxFrame: 4096, NoAlias: true, PublicControl: true,
		Gen: func(r *rand.Rand) Buffers {
			n := make([]byte, 8)
			switch x := r.IntN(16); {
			case x < AbsorbMaxBlocks+2:
				n[0] = byte(x)
			case x < 12:
				binary.LittleEndian.PutUint64(n, r.Uint64())
			default:
				binary.LittleEndian.PutUint64(n, 1<<63|uint64(x))
			}
			return Buffers{"a": randBytes(r, 200), "in": randBytes(r, size), "n": n}
		},
		Check: func(in, out Buffers, _ byte) error {
			want := lanes(in["a"])
			if n := binary.LittleEndian.Uint64(in["n"]); n <= AbsorbMaxBlocks {
				for k := 0; k < int(n); k++ {
					fips202.AbsorbBlock(want, in["in"][fips202.Rate256*k:fips202.Rate256*(k+1)])
				}
			}
			got := lanes(out["a"])
			for i := range want {
				if got[i] != want[i] {
					return fmt.Errorf("lane %d = %#x, Spec AbsorbBlock of the first n blocks gives %#x", i, got[i], want[i])
				}
			}
			if !bytes.Equal(in["in"], out["in"]) || !bytes.Equal(in["n"], out["n"]) {
				return fmt.Errorf("in or n modified")
			}
			return nil
		},
	}
}
