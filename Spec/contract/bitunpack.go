package contract

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips204"
)

// The bit unpackings of FIPS 204, §7.2 that decode a polynomial:
// SimpleBitUnpack (Algorithm 18) and BitUnpack (Algorithm 19), one routine
// per width ML-DSA decodes (t1 10 bits, η 3 or 4 bits, t0 13 bits, z 18 or
// 20 bits; the packings of bitpack.go). Every input is allowed: the
// coefficients come out as words in [0, q), BitUnpack's held mod q. The η
// decoders also say whether a coefficient fell outside [−η, η], which a
// malformed private key can make happen (Algorithm 25, lines 7 to 14,
// decodes s1 and s2 without a check; the caller rejects such a key). The
// inputs are secret where they are private key material (s1, s2, t0) and
// treated so everywhere. Functional correctness is proven for every
// encoding: SimpleBitUnpack's by its Wiring, BitUnpack's by its Packed,
// whose Flag states the η decoders' flag as an OR over the fields of one
// predicate on a field (Spec/check, packproof.go and packflag.go).

// checked reports whether the decoder of p also flags values above a + b
// (the η packings, whose 2^width − 1 exceeds 2η).
func (p packing) checked() bool { return !p.simple && p.width <= 4 }

// outside reports whether field z decodes to a coefficient outside
// [−a, b]: Algorithm 19, line 4 makes it b − z, which is at most b, and
// below −a exactly when z > a + b.
func (p packing) outside(z uint32) bool { return int64(p.b)-int64(z) < -int64(p.a) }

// unpackSpec returns Spec's coefficients, mod q, for the bytes v.
func (p packing) unpackSpec(v []byte) (w [256]uint32, bad uint32) {
	var c fips204.Poly
	if p.simple {
		c = fips204.SimpleBitUnpack(v, p.b)
	} else {
		c = fips204.BitUnpack(v, p.a, p.b)
	}
	for i, x := range c {
		w[i] = modQ(x)
		if x < -int32(p.a) {
			bad = 1
		}
	}
	return w, bad
}

// unpackMap gives the words BitUnpack (Algorithm 19) gives 256 fields:
// Spec's decoding, mod q, of the encoding Spec's SimpleBitPack makes of
// them. Algorithm 19, line 4 makes coefficient i a function of field i
// alone, the same for every i.
func (p packing) unpackMap(z *[256]uint32) [256]uint32 {
	var f fips204.Poly
	for i, v := range z {
		f[i] = int32(v)
	}
	var out [256]uint32
	for i, w := range fips204.BitUnpack(fips204.SimpleBitPack(f, 1<<p.width-1), p.a, p.b) {
		out[i] = modQ(w)
	}
	return out
}

// genPacked draws an encoding: random bytes, the packing of a random
// polynomial within range, or one whose single value past a + b is just
// past it or at 2^width − 1 (so that the η decoders see both answers at
// the edge).
func (p packing) genPacked(r *rand.Rand) []byte {
	switch r.IntN(3) {
	case 0:
		return randBytes(r, 32*p.width)
	case 1:
		return p.spec(p.gen(r))
	}
	if !p.checked() {
		return p.spec(p.gen(r))
	}
	var w fips204.Poly
	for i := range w {
		w[i] = int32(r.IntN(p.a + p.b + 1))
	}
	w[r.IntN(256)] = []int32{int32(p.a + p.b + 1), 1<<p.width - 1}[r.IntN(2)]
	return fips204.SimpleBitPack(w, 1<<p.width-1)
}

func bitUnpackContract(p packing, variant string, features []string) *Contract {
	sym := p.name("BitUnpack") + variant
	n := 32 * p.width
	c := &Contract{
		Symbol: sym, Routine: p.name("BitUnpack"), Variant: variant, Stem: "bitunpack",
		GoSig: fmt.Sprintf("func %s(w *[256]uint32, v *[%d]byte)", sym, n),
		Args: []Arg{polyArg("w", true),
			{Name: "v", Bytes: n, Secret: true, Read: true}},
		Pre:      "none: every encoding of 32·width bytes",
		Leak:     "nothing: v is secret (s1, s2, t0; z and t1 are public, treated alike)",
		Features: features, MaxFrame: 0, NoAlias: true,
		Level: provenExcept(), Budget: packBudget,
	}
	switch {
	case p.simple:
		// Algorithm 18, line 4: bit j of coefficient i is bit i·w + j of
		// v; the bits of a word from w upward are 0.
		c.Wiring = &Wiring{In: "v", Out: "w", InZero: func(int) bool { return false },
			Bit: func(k int) int {
				if k%32 >= p.width {
					return -1
				}
				return p.width*(k/32) + k%32
			}}
		c.GoName = "simpleBitUnpack"
		c.Post = fmt.Sprintf("w = fips204.SimpleBitUnpack(v, %d) (Algorithm 18)", p.b)
	case p.checked():
		c.GoName = "bitUnpackSignedChecked"
		c.GoSig = fmt.Sprintf("func %s(w *[256]uint32, v *[%d]byte, bad *uint32)", sym, n)
		c.Args = append(c.Args, Arg{Name: "bad", Bytes: 4, Secret: true, Write: true})
		if variant == "AVX2" {
			c.MaxFrame = 32 // the lanes' flags, folded into one word
		}
		// The flag is an OR over the fields of one predicate on a
		// field (TestPackedMaps checks it against Check's Spec).
		c.Packed = &Packed{Words: "w", Bytes: "v", Width: p.width, Map: p.unpackMap, Flag: "bad", Bad: p.outside}
		c.Post = fmt.Sprintf("w[i] = fips204.BitUnpack(v, %d, %d)[i] mod q (Algorithm 19) for every i; "+
			"bad = 1 if some coefficient is below −%d (outside [−η, η]), else 0", p.a, p.b, p.a)
	default:
		c.Packed = &Packed{Words: "w", Bytes: "v", Width: p.width, Map: p.unpackMap}
		c.Op = &Op{Name: "BitUnpack", In: []string{"v"}, Out: []string{"w"}, Params: []int{p.a, p.b}}
		c.GoName = "bitUnpackSigned"
		// A caller may CALL it: ExpandMask unpacks its squeezed bytes
		// with the z decoders (Algorithm 34, line 5).
		c.Effect = func(in Buffers, _ *rand.Rand) (Buffers, byte) {
			want, _ := p.unpackSpec(in["v"])
			w := make([]byte, 1024)
			for i, x := range want {
				binary.LittleEndian.PutUint32(w[4*i:], x)
			}
			return Buffers{"w": w}, 0
		}
		c.Post = fmt.Sprintf("w[i] = fips204.BitUnpack(v, %d, %d)[i] mod q (Algorithm 19) for every i", p.a, p.b)
	}
	c.Gen = func(r *rand.Rand) Buffers {
		b := Buffers{"w": randBytes(r, 1024), "v": p.genPacked(r)}
		if p.checked() {
			b["bad"] = randBytes(r, 4)
		}
		return b
	}
	c.Check = func(in, out Buffers, _ byte) error {
		want, bad := p.unpackSpec(in["v"])
		if err := compareCoeffs("w", out["w"], func(i int) uint32 { return want[i] }); err != nil {
			return err
		}
		if p.checked() {
			if got := binary.LittleEndian.Uint32(out["bad"]); got != bad {
				return fmt.Errorf("bad = %d, Spec's coefficients give %d", got, bad)
			}
		}
		return nil
	}
	return c
}

func init() { lazily(bitunpackContracts) }

func bitunpackContracts() {
	packings := append([]packing{simplePackings[2]}, signedPackings...) // t1, η, t0, z
	for _, p := range packings {
		register(bitUnpackContract(p, "AVX2", []string{"AVX", "AVX2"}), bitUnpackContract(p, "AMD64", nil))
	}
}
