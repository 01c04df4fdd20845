package contract

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips204"
)

// HintBitPack (FIPS 204, Algorithm 20), one routine per parameter set
// (k and ω of Table 1). The hint is packed only for the signature Sign
// returns, so it is public: control flow and addresses may depend on it.
func init() { lazily(hintbitpackContracts) }

func hintbitpackContracts() {
	for _, ps := range paramSets {
		register(hintPackContract(ps.name, ps.p))
	}
}

// HintPack says a routine is HintBitPack (Algorithm 20) for k and ω:
// buffer In holds k polynomials of 256 little-endian words, each 0 or 1,
// with at most ω ones in all (the precondition); the routine writes the ω
// + k bytes of Algorithm 20's output to Out. The contract's Post and
// Check say the same.
type HintPack struct {
	Out, In  string
	K, Omega int
}

// hintPackBudget is each routine's proof budget in seconds: about three
// times the slowest of the three (vg prove -routine, 1.8-5.8 s, the
// functional proof almost all of it) on 2026-12-02.
const hintPackBudget = 20

func hintPackContract(name string, p fips204.Params) *Contract {
	sym := "HintBitPack" + name + "AMD64"
	n := p.Omega + p.K
	return &Contract{
		Symbol: sym, Routine: "HintBitPack" + name, Variant: "AMD64",
		Stem: "hintbitpack", GoName: "hintBitPack",
		GoSig: fmt.Sprintf("func %s(y *[%d]byte, h *[%d]uint32)", sym, n, 256*p.K),
		Doc: []string{
			fmt.Sprintf("%s is HintBitPack (FIPS 204, Algorithm 20) for k = %d and ω = %d:", sym, p.K, p.Omega),
			fmt.Sprintf("it writes to y the %d bytes that encode the hint h (k polynomials", n),
			"of 256 coefficients, each 0 or 1, with at most ω ones in all). The hint",
			"is public: control flow and addresses depend on it. Baseline x86-64.",
		},
		Level: provenExcept(), Budget: hintPackBudget,
		Args: []Arg{
			{Name: "y", Bytes: n, Write: true},
			{Name: "h", Bytes: 1024 * p.K, Read: true},
		},
		Pre:  fmt.Sprintf("h: %d polynomials of 256 words, each 0 or 1, at most ω = %d of them 1", p.K, p.Omega),
		Post: "y = fips204.HintBitPack(h) (Algorithm 20)",
		Leak: "the hint h, which the signature Sign returns holds (FIPS 204, Algorithm 26): " +
			"control flow and addresses may depend on it",
		PublicControl: true,
		HintPack:      &HintPack{Out: "y", In: "h", K: p.K, Omega: p.Omega},
		// A SigEncode routine CALLs it (Algorithm 26, line 5).
		Op: &Op{Name: "HintBitPack", In: []string{"h"}, Out: []string{"y"}, Params: []int{p.Omega}},
		Effect: func(in Buffers, r *rand.Rand) (Buffers, byte) {
			h := hintPolys(in["h"], p.K)
			if !hintMeetsPre(h, p.Omega) {
				// Outside the precondition the postcondition says nothing.
				return Buffers{"y": randBytes(r, n)}, 0
			}
			return Buffers{"y": fips204.HintBitPack(p, h)}, 0
		},
		MaxFrame: 0, NoAlias: true,
		Gen: func(r *rand.Rand) Buffers {
			return Buffers{"y": randBytes(r, n), "h": genHint(r, p)}
		},
		Check: func(in, out Buffers, _ byte) error {
			h := hintPolys(in["h"], p.K)
			if want := fips204.HintBitPack(p, h); !bytes.Equal(out["y"], want) {
				return fmt.Errorf("y = %x, want %x", out["y"], want)
			}
			if !bytes.Equal(in["h"], out["h"]) {
				return fmt.Errorf("h modified")
			}
			return nil
		},
	}
}

// hintMeetsPre reports whether h meets HintBitPack's precondition: each
// coefficient 0 or 1, at most ω of them 1.
func hintMeetsPre(h []fips204.Poly, omega int) bool {
	ones := 0
	for _, w := range h {
		for _, c := range w {
			if c != 0 && c != 1 {
				return false
			}
			ones += int(c)
		}
	}
	return ones <= omega
}

// hintPolys reads k polynomials of 256 little-endian words.
func hintPolys(b []byte, k int) []fips204.Poly {
	h := make([]fips204.Poly, k)
	for i := range h {
		h[i] = coeffs(b[1024*i : 1024*(i+1)])
	}
	return h
}

// genHint draws a hint meeting HintBitPack's precondition: half of the
// time exactly ω ones, else any number up to ω; the ones spread over
// the polynomials, or all in one of them (so that counts repeat).
func genHint(r *rand.Rand, p fips204.Params) []byte {
	out := make([]byte, 1024*p.K)
	ones := p.Omega
	if r.IntN(2) == 0 {
		ones = r.IntN(p.Omega + 1)
	}
	lo, hi := 0, 256*p.K
	if r.IntN(4) == 0 {
		lo = 256 * r.IntN(p.K)
		hi = lo + 256
	}
	for set := 0; set < ones; {
		k := lo + r.IntN(hi-lo)
		if out[4*k] == 0 {
			binary.LittleEndian.PutUint32(out[4*k:], 1)
			set++
		}
	}
	return out
}
