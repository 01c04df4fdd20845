package contract

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips202"
	"github.com/vg-crypto/vg/Spec/fips204"
)

// SHAKE256's end for a 64-byte output (FIPS 202, Algorithm 8, steps 6
// and 8 for the last block): the tail of the message, n bytes, and the
// padding of PadBlock (0x1F after the tail, 0x80 in the last byte of the
// rate) XORed into the rate, Keccak-f[1600] by a CALL of the proven
// permutation, and the first 64 bytes of the rate as the output. It is
// proven for every state, tail and n ≤ 135: its postcondition is
// fips202.FinishOver, run by the checker over the routine's symbolic
// bytes once for each n (Compose with a Count). go/mldsa's SHAKE256
// finishes tr = H(pk, 64), μ = H(tr ‖ M′, 64) and ρ″ through it.
func init() { lazily(finishContracts) }

func finishContracts() {
	register(finishContract("AMD64", "KeccakF1600AMD64", nil),
		finishContract("BMI2", "KeccakF1600BMI2", []string{"BMI", "BMI2"}))
}

// FinishOut is the bytes of output SHAKE256Finish gives.
const FinishOut = 64

// finishContract is the contract of SHAKE256Finish<variant>, which calls
// perm; features are perm's (the routine's own instructions are
// baseline).
func finishContract(variant, perm string, features []string) *Contract {
	sym := "SHAKE256Finish" + variant
	rate := fips202.Rate256
	// finish is the postcondition on bytes: the state after FinishOver
	// and its output, for n ≤ 135; nothing changed beyond.
	finish := func(in Buffers) (a, out []byte, ok bool) {
		n := binary.LittleEndian.Uint64(in["n"])
		if n >= uint64(rate) {
			return in["a"], nil, false
		}
		var s [200]byte
		copy(s[:], in["a"])
		out = fips202.FinishOver[byte](fips202.Bytes{}, &s, rate, in["tail"][:n], FinishOut)
		return s[:], out, true
	}
	return &Contract{
		Symbol: sym, Routine: "SHAKE256Finish", Variant: variant,
		Stem: "finish", GoName: "shake256Finish",
		GoSig: fmt.Sprintf("func %s(a *[25]uint64, tail *[%d]byte, n *uint64, out *[%d]byte)", sym, rate, FinishOut),
		Doc: []string{
			sym + " ends SHAKE256 with a 64-byte output (FIPS 202,",
			"Algorithm 8, steps 6 and 8): for *n < 136, the first *n bytes of tail,",
			"then 0x1F, zeros and 0x80 in byte 135, are XORed into the rate of the",
			"state a, a is permuted by a call of " + perm + ", and out is the first",
			"64 bytes of its rate; for *n > 135 nothing is written. Branches and",
			"addresses depend on *n only.",
		},
		Level: provenExcept(), Budget: 150, // 136 runs, one per public count: ~3 s on a quiet core
		Args: []Arg{
			{Name: "a", Bytes: 200, Secret: true, Read: true, Write: true},
			{Name: "tail", Bytes: rate, Secret: true, Read: true},
			{Name: "n", Bytes: 8, Read: true},
			{Name: "out", Bytes: FinishOut, Secret: true, Write: true},
		},
		Calls: []string{perm},
		Compose: &Compose{Permutation: perm, InPlace: []string{"a"}, Count: "n", Max: rate - 1,
			Steps: func(o fips204.SignOps[any, any], in map[string][]any) map[string][]any {
				var s [200]any
				copy(s[:], in["a"])
				out := fips202.FinishOver[any](o, &s, rate, in["tail"][:in["n"][0].(int)], FinishOut)
				return map[string][]any{"a": s[:], "out": out}
			}},
		Pre:  "a points to 25 lanes, lane A[x,y] at a[x+5y] (little-endian words); tail holds 136 bytes; n points to a count (public), at most 135 for the postcondition",
		Post: "for *n ≤ 135, with s = old a as 200 bytes, out = fips202.FinishOver(s, 136, tail[:*n], 64) and a = s after it (Keccak-f[1600](old a ⊕ PadBlock(tail[:*n]))); for *n > 135, a unchanged and out not written",
		// The tail mixes the message with tr, and ρ″'s input holds K; how
		// many bytes the tail has is public (message lengths are).
		Leak:     "n; the state and the tail are secret",
		Features: features, MaxFrame: 4096, NoAlias: true, PublicControl: true,
		Gen: func(r *rand.Rand) Buffers {
			n := make([]byte, 8)
			switch x := r.IntN(16); {
			case x < 14:
				n[0] = byte(r.IntN(rate))
			case x < 15:
				n[0] = byte(rate + r.IntN(120))
			default:
				binary.LittleEndian.PutUint64(n, r.Uint64())
			}
			return Buffers{"a": randBytes(r, 200), "tail": randBytes(r, rate), "n": n, "out": randBytes(r, FinishOut)}
		},
		Check: func(in, out Buffers, _ byte) error {
			a, o, ok := finish(in)
			if !bytes.Equal(out["a"], a) {
				return fmt.Errorf("a = %x, Spec FinishOver gives %x", out["a"], a)
			}
			if ok && !bytes.Equal(out["out"], o) {
				return fmt.Errorf("out = %x, Spec FinishOver gives %x", out["out"], o)
			}
			if !ok && !bytes.Equal(out["out"], in["out"]) {
				return fmt.Errorf("out written for n > %d", rate-1)
			}
			if !bytes.Equal(in["tail"], out["tail"]) || !bytes.Equal(in["n"], out["n"]) {
				return fmt.Errorf("tail or n modified")
			}
			return nil
		},
	}
}
