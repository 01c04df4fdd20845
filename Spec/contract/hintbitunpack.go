package contract

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips204"
)

// HintBitUnpack (FIPS 204, Algorithm 21), one routine per parameter set
// (k and ω of Table 1). The encoding is part of the signature Verify
// checks, so it is public: control flow and addresses may depend on it.
func init() { lazily(hintbitunpackContracts) }

func hintbitunpackContracts() {
	for _, ps := range paramSets {
		register(hintUnpackContract(ps.name, ps.p))
	}
}

// HintUnpack says a routine is HintBitUnpack (Algorithm 21) for k and ω:
// it reads the ω + k bytes of buffer In and returns 1 exactly when
// Algorithm 21 does not return ⊥, and then buffer Out holds its output,
// k polynomials of 256 little-endian words 0 or 1 (garbage when it
// returns 0). The contract's Post and Check say the same.
type HintUnpack struct {
	Out, In  string
	K, Omega int
}

// hintUnpackBudget is each routine's proof budget in seconds: about two
// and a half times the slowest of the three (vg prove -routine,
// obligations summed: 6 to 16 s, the functional proof 2.8 to 6.5 s of it)
// on 2026-12-02.
const hintUnpackBudget = 40

func hintUnpackContract(name string, p fips204.Params) *Contract {
	sym := "HintBitUnpack" + name + "AMD64"
	n := p.Omega + p.K
	return &Contract{
		Symbol: sym, Routine: "HintBitUnpack" + name, Variant: "AMD64",
		Stem: "hintbitunpack", GoName: "hintBitUnpack",
		GoSig: fmt.Sprintf("func %s(h *[%d]uint32, y *[%d]byte) bool", sym, 256*p.K, n),
		Doc: []string{
			fmt.Sprintf("%s is HintBitUnpack (FIPS 204, Algorithm 21) for k = %d and ω = %d:", sym, p.K, p.Omega),
			fmt.Sprintf("it decodes the %d bytes of y into the hint h (k polynomials of 256", n),
			"coefficients 0 or 1) and returns true, or returns false (⊥) if y is",
			"malformed, h then holding garbage. The encoding is public: control flow",
			"and addresses depend on it. Baseline x86-64.",
		},
		Level: provenExcept(), Budget: hintUnpackBudget,
		Args: []Arg{
			{Name: "h", Bytes: 1024 * p.K, Write: true},
			{Name: "y", Bytes: n, Read: true},
		},
		Result: "bool",
		Pre:    fmt.Sprintf("y: %d bytes", n),
		Post:   "ok ⇔ fips204.HintBitUnpack(y) ≠ ⊥ (Algorithm 21); ok ⇒ h = fips204.HintBitUnpack(y)",
		Leak: "the encoding y, which the signature Verify checks holds (FIPS 204, Algorithm 27): " +
			"control flow and addresses may depend on it",
		PublicControl: true,
		HintUnpack:    &HintUnpack{Out: "h", In: "y", K: p.K, Omega: p.Omega},
		Op:            &Op{Name: "HintBitUnpack", In: []string{"y"}, Out: []string{"h"}, Params: []int{p.Omega}},
		// A Verify routine CALLs it for sigDecode (Algorithm 27, line 5).
		Effect: func(in Buffers, r *rand.Rand) (Buffers, byte) {
			h, err := fips204.HintBitUnpack(p, in["y"])
			if err != nil {
				return Buffers{"h": randBytes(r, 1024*p.K)}, 0
			}
			out := make([]byte, 1024*p.K)
			for i := range h {
				for j, v := range h[i] {
					binary.LittleEndian.PutUint32(out[1024*i+4*j:], uint32(v))
				}
			}
			return Buffers{"h": out}, 1
		},
		Features: []string{"CMOV", "SSE2"}, MaxFrame: 64, NoAlias: true,
		Gen: func(r *rand.Rand) Buffers {
			return Buffers{"h": randBytes(r, 1024*p.K), "y": genHintEncoding(r, p)}
		},
		Check: func(in, out Buffers, ret byte) error {
			want, err := fips204.HintBitUnpack(p, in["y"])
			if ret != b2b(err == nil) {
				return fmt.Errorf("returned %d, Spec: %v", ret, err)
			}
			if err == nil {
				for i := range want {
					for j, v := range want[i] {
						if got := binary.LittleEndian.Uint32(out["h"][1024*i+4*j:]); got != uint32(v) {
							return fmt.Errorf("h[%d][%d] = %d, want %d", i, j, got, v)
						}
					}
				}
			}
			if !bytes.Equal(in["y"], out["y"]) {
				return fmt.Errorf("y modified")
			}
			return nil
		},
	}
}

// genHintEncoding draws an encoding: Algorithm 20's of a hint meeting its
// precondition, then a quarter of the time left so, else changed where
// Algorithm 21 checks (line 4: a count below the last or above ω; line 9:
// a position equal to or below the one before; line 17: a padding byte)
// or at a random byte.
func genHintEncoding(r *rand.Rand, p fips204.Params) []byte {
	y := fips204.HintBitPack(p, hintPolys(genHint(r, p), p.K))
	ω, k := p.Omega, p.K
	last := int(y[ω+k-1])
	switch r.IntN(8) {
	case 0, 1:
	case 2:
		y[ω+r.IntN(k)] = byte(r.IntN(256))
	case 3:
		if i := r.IntN(k); i > 0 && y[ω+i-1] > 0 {
			y[ω+i] = y[ω+i-1] - 1
		} else {
			y[ω+i] = byte(ω + 1)
		}
	case 4:
		if last >= 2 {
			t := 1 + r.IntN(last-1)
			y[t] = y[t-1] - byte(r.IntN(2))
		}
	case 5:
		if last < ω {
			y[last+r.IntN(ω-last)] = byte(1 + r.IntN(255))
		}
	default:
		y[r.IntN(ω+k)] = byte(r.IntN(256))
	}
	return y
}
