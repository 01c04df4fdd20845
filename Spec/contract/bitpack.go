package contract

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips204"
)

// The bit packings of FIPS 204, §7.2 that encode a polynomial: SimpleBitPack
// (Algorithm 16) and BitPack (Algorithm 17), one routine per width that
// ML-DSA uses (Table 1 and §7.2: t1 10 bits, w1 6 or 4 bits, η 3 or 4 bits,
// t0 13 bits, z 18 or 20 bits). Coefficients come as 256 little-endian
// words in [0, q), the signed ones of BitPack held mod q. The coefficients
// packed are secret (s1, s2, t0, z, w1 depend on the private key or on y).

// packBudget is each packing's proof budget in seconds: about twice the
// slowest of the 28 routines (functional tests of 10000 inputs, 4-12 s) on
// 2026-12-01 under load average 16.
const packBudget = 25

// packing is one encoding of §7.2: BitPack(w, a, b), or SimpleBitPack(w, b)
// when simple (a = 0).
type packing struct {
	width  int
	a, b   int
	simple bool
}

// The packings of ML-DSA: BitPack's a and b by FIPS 204, Algorithm 24,
// lines 3 to 12 (η; t0 in [−2^(d−1) + 1, 2^(d−1)]) and Algorithm 26,
// line 3 (z in [−γ1 + 1, γ1]); SimpleBitPack's b by Algorithm 22, line 3
// (t1: 2^(bitlen(q−1)−d) − 1) and Algorithm 28, line 2 (w1: (q−1)/(2γ2) − 1).
var (
	simplePackings = []packing{
		{width: 4, b: 15, simple: true},    // w1, γ2 = (q−1)/32
		{width: 6, b: 43, simple: true},    // w1, γ2 = (q−1)/88
		{width: 10, b: 1023, simple: true}, // t1
	}
	signedPackings = []packing{
		{width: 3, a: 2, b: 2},                // η = 2
		{width: 4, a: 4, b: 4},                // η = 4
		{width: 13, a: 1<<12 - 1, b: 1 << 12}, // t0
		{width: 18, a: 1<<17 - 1, b: 1 << 17}, // z, γ1 = 2¹⁷
		{width: 20, a: 1<<19 - 1, b: 1 << 19}, // z, γ1 = 2¹⁹
	}
)

// name is the routine's name without its variant.
func (p packing) name(verb string) string {
	if p.simple {
		return fmt.Sprintf("Simple%s%d", verb, p.width)
	}
	return fmt.Sprintf("%s%d", verb, p.width)
}

// gen draws a polynomial meeting BitPack's (SimpleBitPack's) precondition:
// coefficients in [−a, b] mod q, half of them at the ends of the range.
func (p packing) gen(r *rand.Rand) []byte {
	out := make([]byte, 1024)
	for i := 0; i < 256; i++ {
		v := int32(r.IntN(p.a+p.b+1)) - int32(p.a)
		switch r.IntN(4) {
		case 0:
			v = int32(p.b)
		case 1:
			v = -int32(p.a)
		}
		binary.LittleEndian.PutUint32(out[4*i:], modQ(v))
	}
	return out
}

// spec returns the encoding Spec gives for the words of w.
func (p packing) spec(w []byte) []byte {
	c := coeffs(w)
	if p.simple {
		return fips204.SimpleBitPack(c, p.b)
	}
	for i, x := range c {
		if x > fips204.Q/2 {
			c[i] = x - fips204.Q
		}
	}
	return fips204.BitPack(c, p.a, p.b)
}

func (p packing) pre() string {
	if p.simple {
		return fmt.Sprintf("every coefficient of w in [0, %d]", p.b)
	}
	return fmt.Sprintf("every coefficient of w in [−%d, %d] mod q (a word in [0, q))", p.a, p.b)
}

func (p packing) post() string {
	if p.simple {
		return fmt.Sprintf("out = fips204.SimpleBitPack(w, %d) (Algorithm 16)", p.b)
	}
	return fmt.Sprintf("out = fips204.BitPack(w, %d, %d) (Algorithm 17), w's words read in (−q/2, q/2)", p.a, p.b)
}

// packWiring is SimpleBitPack's wiring (Algorithm 16, line 3: bit j of
// coefficient i is bit i·w + j of the encoding): nil for BitPack, whose
// b − w is arithmetic. The bits of a word from w upward are zero by the
// precondition.
func (p packing) packWiring() *Wiring {
	if !p.simple {
		return nil
	}
	return &Wiring{In: "w", Out: "out",
		InZero: func(bit int) bool { return bit%32 >= p.width },
		Bit:    func(k int) int { return 32*(k/p.width) + k%p.width }}
}

// domain lists the words BitPack's precondition allows: [−a, b] mod q.
func (p packing) domain() []uint32 {
	var out []uint32
	for v := -p.a; v <= p.b; v++ {
		out = append(out, modQ(int32(v)))
	}
	return out
}

// packMap gives the fields BitPack (Algorithm 17) gives 256 coefficients
// held as words (read in (−q/2, q/2]): Spec's encoding, read back field by
// field with Spec's SimpleBitUnpack. Algorithm 17, line 3 makes field i a
// function of coefficient i alone, the same for every i.
func (p packing) packMap(x *[256]uint32) [256]uint32 {
	var w fips204.Poly
	for i, v := range x {
		w[i] = int32(v)
		if v > fips204.Q/2 {
			w[i] = int32(v) - fips204.Q
		}
	}
	var out [256]uint32
	for i, f := range fips204.SimpleBitUnpack(fips204.BitPack(w, p.a, p.b), 1<<p.width-1) {
		out[i] = uint32(f)
	}
	return out
}

// packed is BitPack's Packed: nil for SimpleBitPack, whose wiring is
// proven instead.
func (p packing) packed() *Packed {
	if p.simple {
		return nil
	}
	return &Packed{Words: "w", Bytes: "out", Width: p.width, Pack: true, Domain: p.domain(), Map: p.packMap}
}

func bitPackContract(p packing, variant string, features []string) *Contract {
	sym := p.name("BitPack") + variant
	goName := "bitPackSigned"
	if p.simple {
		goName = "simpleBitPack"
	}
	n := 32 * p.width
	var op *Op
	switch {
	case p.simple:
		// A KeyGen routine CALLs it for pkEncode (Algorithm 22, line 3),
		// a Verify routine for w1Encode (Algorithm 28, line 3).
		op = &Op{Name: "SimpleBitPack", In: []string{"w"}, Out: []string{"out"}, Params: []int{1<<p.width - 1}}
	default:
		// A KeyGen routine CALLs it for skEncode (Algorithm 24, lines 3,
		// 6 and 9: s1 and s2 with η, t0), a SigEncode routine for z
		// (Algorithm 26, line 3).
		op = &Op{Name: "BitPack", In: []string{"w"}, Out: []string{"out"}, Params: []int{p.a, p.b}}
	}
	effect := func(in Buffers, _ *rand.Rand) (Buffers, byte) { return Buffers{"out": p.spec(in["w"])}, 0 }
	return &Contract{
		Op: op, Effect: effect,
		Symbol: sym, Routine: p.name("BitPack"), Variant: variant, Stem: "bitpack", GoName: goName,
		GoSig: fmt.Sprintf("func %s(out *[%d]byte, w *[256]uint32)", sym, n),
		Args: []Arg{{Name: "out", Bytes: n, Secret: true, Write: true},
			polyArg("w", false)},
		Pre:      p.pre(),
		Post:     p.post(),
		Leak:     "nothing: w is secret (s1, s2, t0, z, w1)",
		Features: features, MaxFrame: 0, NoAlias: true,
		Level: provenExcept(), Budget: packBudget,
		Wiring: p.packWiring(), Packed: p.packed(),
		Gen: func(r *rand.Rand) Buffers {
			return Buffers{"out": randBytes(r, n), "w": p.gen(r)}
		},
		Check: func(in, out Buffers, _ byte) error {
			want := p.spec(in["w"])
			if got := out["out"]; !bytes.Equal(got, want) {
				for i := range want {
					if got[i] != want[i] {
						return fmt.Errorf("out[%d] = %#02x, Spec gives %#02x", i, got[i], want[i])
					}
				}
			}
			return nil
		},
	}
}

func init() { lazily(bitpackContracts) }

func bitpackContracts() {
	for _, p := range append(append([]packing{}, simplePackings...), signedPackings...) {
		register(bitPackContract(p, "AVX2", []string{"AVX", "AVX2"}), bitPackContract(p, "AMD64", nil))
	}
}
